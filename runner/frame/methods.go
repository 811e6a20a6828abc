package frame

import (
	"fmt"
	"strings"
)

// method implements a DataFrame method: it binds its arguments and
// returns the relation it computes.
type method func(m *mcall) (*relation, error)

// mcall is one call of a DataFrame method.
type mcall struct {
	c    *compiler
	ev   *evaluator
	api  API
	name string // the func_name
	key  string // the implementation's key
	in   *relation
	call *call
	// argNames name each positional argument and keyword for errors.
	argNames []string
	kwArg    map[string]string
}

// methods are the DataFrame methods by key: "nw.LazyFrame.with_columns",
// "nw.LazyFrame.laktory.union", "pl.LazyFrame.unique",
// "spark.DataFrame.withColumn".
var methods = map[string]method{}

func regMethod(fn method, keys ...string) {
	for _, k := range keys {
		if strings.HasPrefix(k, "*.") {
			methods["nw.LazyFrame."+k[2:]] = fn
			methods["pl.LazyFrame."+k[2:]] = fn
			continue
		}
		methods[k] = fn
	}
}

// owner is the library owner of the DataFrame's methods.
func (c *compiler) owner(api API) string {
	switch {
	case api == Narwhals:
		return "nw.LazyFrame"
	case c.env.Backend == Polars:
		return "pl.LazyFrame"
	}
	return "spark.DataFrame"
}

// step translates one func_name step over the flowing DataFrame.
func (c *compiler) step(st Step) (*relation, error) {
	api := st.API
	if api == 0 {
		api = c.env.API
	}
	owner := c.owner(api)
	key, err := c.resolveMethod(st.Func, api, owner)
	if err != nil {
		return nil, err
	}
	fn, ok := methods[key]
	if c.env.Backend == PySpark && strings.HasPrefix(key, "nw.") {
		// narwhals on PYSPARK: its own methods, or the shared ones.
		if f, has := spNwMethods[key]; has {
			fn, ok = f, true
		} else if !sparkShared[key] {
			ok = false
		}
	}
	if !ok {
		return nil, &Error{Pos: -1, Msg: fmt.Sprintf("the method %s of %s (func_name: %s) is not supported locally", strings.TrimPrefix(key, owner+"."), c.frameType(api), st.Func),
			Hint: "write the step as SQL (`expr: SELECT ... FROM {df}`)", kind: ErrUnsupported}
	}
	ev := c.newEvaluator(api, c.df)
	m := &mcall{c: c, ev: ev, api: api, name: st.Func, key: key, in: c.df, kwArg: map[string]string{}}
	cl := &call{ev: ev, fn: &callable{key: key, name: lastPart(st.Func)}, pos: -1, at: -1}
	npos := 0
	for _, a := range st.Args {
		where := fmt.Sprintf("func_args[%d]", npos)
		if a.Name != "" {
			where = "func_kwargs." + a.Name
		}
		v, err := c.evalArg(ev, a.Value)
		if err != nil {
			return nil, at(err, where)
		}
		if a.Name == "" {
			cl.args = append(cl.args, v)
			cl.argPos = append(cl.argPos, -1)
			m.argNames = append(m.argNames, where)
			npos++
		} else {
			cl.kwNames = append(cl.kwNames, a.Name)
			cl.kwVals = append(cl.kwVals, v)
			cl.kwPos = append(cl.kwPos, -1)
			m.kwArg[a.Name] = where
		}
	}
	m.call = cl
	rel, err := fn(m)
	if err != nil {
		return nil, m.locate(err)
	}
	return rel, nil
}

// spNwMethods are narwhals' methods on PYSPARK; sparkShared the ones
// written for both backends.
var (
	spNwMethods = map[string]method{}
	sparkShared = map[string]bool{}
)

func lastPart(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// at sets the argument an error belongs to.
func at(err error, where string) error {
	if e, ok := err.(*Error); ok && e.Arg == "" {
		e.Arg = where
	}
	return err
}

// locate names the argument of an error raised while evaluating a value
// (positions are -1 for values given in the YAML rather than in a string).
func (m *mcall) locate(err error) error {
	return err
}

// resolveMethod finds the method as DataFrameMethod.execute does: a
// dotted name walks the attributes (laktory.union), a plain name must be
// an attribute of the DataFrame's class.
func (c *compiler) resolveMethod(name string, api API, owner string) (string, error) {
	parts := strings.Split(name, ".")
	if len(parts) == 1 {
		kind, ok := libraryNames[owner][name]
		if !ok {
			return "", c.notAvailable(name, api, "")
		}
		if kind == 'p' || kind == 'v' {
			return "", laktoryErr(-1, "TypeError: the attribute %s of %s is not callable (func_name must name a method)", name, c.frameType(api))
		}
		return owner + "." + name, nil
	}
	// Namespaces: laktory (narwhals frames), and attributes holding objects.
	sub := owner
	for i, p := range parts[:len(parts)-1] {
		next := sub + "." + p
		if _, ok := libraryNames[next]; !ok {
			if _, isAttr := libraryNames[sub][p]; isAttr {
				return "", unsupportedAt(-1, "", "func_name %s (the attribute %s of the DataFrame is not a DataFrame namespace)", name, strings.Join(parts[:i+1], "."))
			}
			loc := "the dataframe"
			if i > 0 {
				loc = strings.Join(parts[:i], ".")
			}
			return "", c.notAvailable(name, api, fmt.Sprintf("%s has no attribute '%s'", loc, p))
		}
		sub = next
	}
	last := parts[len(parts)-1]
	if _, ok := libraryNames[sub][last]; !ok {
		return "", c.notAvailable(name, api, "")
	}
	return sub + "." + last, nil
}
