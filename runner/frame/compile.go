package frame

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/laktory/workbench/runner/sparksql"
)

// Backend is a pipeline's dataframe_backend.
type Backend int

// Backends.
const (
	Polars Backend = iota + 1
	PySpark
)

func (b Backend) String() string {
	if b == PySpark {
		return "PYSPARK"
	}
	return "POLARS"
}

// API is a step's dataframe_api.
type API int

// APIs.
const (
	Narwhals API = iota + 1
	Native
)

func (a API) String() string {
	if a == Native {
		return "NATIVE"
	}
	return "NARWHALS"
}

// Env is what a step's translation depends on besides its arguments.
type Env struct {
	Backend Backend
	API     API
	// Spark are the session settings of PYSPARK steps (the time zone).
	Spark sparksql.Options
}

// Column is a column of a relation: its name and DuckDB type.
type Column struct {
	Name string
	Type string
}

// Input is a DataFrame a step reads: the flowing DataFrame, or one named
// by a {sources.x} / {nodes.x} argument.
type Input struct {
	// Ref is "df", "sources.x" or "nodes.x".
	Ref string
	// Relation is the DuckDB relation (a view or table name, unquoted).
	Relation string
	Columns  []Column
}

// Arg is one argument of a func_name step: positional (Name "") or by
// name, its value as YAML decoded it (string, int64, float64, bool, nil,
// []any, map[string]any).
type Arg struct {
	Name  string
	Value any
}

// Step is a func_name step.
type Step struct {
	Func string
	Args []Arg
	// API is the step's own dataframe_api (0: the node's).
	API API
}

// Result is a translated step: a DuckDB query and its columns.
type Result struct {
	SQL     string
	Columns []Column
	// Types are the backend's types of the columns: Polars dtypes
	// (Int64, Datetime(time_unit='us', time_zone=None)) or Spark's
	// (bigint, timestamp).
	Types []string
	// Reads are the columns of df the step's expressions name (nw.col,
	// col, F.col, pl.col, a column by name), in df's order, with df's
	// spelling: what they read, not what their text happens to quote (a
	// string literal, an alias).
	Reads []string
}

// Compile translates one func_name step reading df (and the DataFrames
// its arguments name) into DuckDB SQL computing what Laktory computes on
// the backend. Errors are *Error: ErrLaktory when Laktory fails on the
// step (its message), ErrUnsupported for what local runs do not translate.
func Compile(env Env, st Step, df Input, named []Input) (*Result, error) {
	c, err := newCompiler(env, df, named)
	if err != nil {
		return nil, err
	}
	rel, err := c.step(st)
	if err != nil {
		return nil, err
	}
	res := c.result(rel)
	for _, col := range c.df.cols {
		if c.reads[col.name] {
			res.Reads = append(res.Reads, col.name)
		}
	}
	return res, nil
}

// compiler translates the steps of one node.
type compiler struct {
	env   Env
	df    *relation
	named map[string]*relation
	// seq numbers the relations of subqueries.
	seq int
	// reads are the columns of df its expressions name.
	reads map[string]bool
}

func newCompiler(env Env, df Input, named []Input) (*compiler, error) {
	c := &compiler{env: env, named: map[string]*relation{}, reads: map[string]bool{}}
	var err error
	if c.df, err = c.relationOf(df); err != nil {
		return nil, err
	}
	for _, in := range named {
		r, err := c.relationOf(in)
		if err != nil {
			return nil, err
		}
		c.named[in.Ref] = r
	}
	return c, nil
}

func (c *compiler) relationOf(in Input) (*relation, error) {
	r := &relation{sql: quoteIdent(in.Relation), spark: c.env.Backend == PySpark}
	for _, col := range in.Columns {
		cl := column{name: col.Name}
		if c.env.Backend == PySpark {
			t, err := sparksql.FromDuckDB(col.Type)
			if err != nil {
				return nil, &Error{Pos: -1, Msg: fmt.Sprintf("column `%s` of {%s}: %v", col.Name, in.Ref, err), kind: ErrUnsupported}
			}
			cl.st = t
		} else {
			cl.t = FromDuckDB(col.Type)
		}
		r.cols = append(r.cols, cl)
	}
	return r, nil
}

func (c *compiler) result(r *relation) *Result {
	res := &Result{SQL: r.sql}
	if strings.HasPrefix(res.SQL, "(") && strings.HasSuffix(res.SQL, ")") && !strings.HasPrefix(res.SQL, `"`) {
		res.SQL = strings.TrimSuffix(strings.TrimPrefix(res.SQL, "("), ")")
	} else {
		res.SQL = "SELECT * FROM " + r.sql
	}
	for _, col := range r.cols {
		if col.st != nil {
			res.Columns = append(res.Columns, Column{Name: col.name, Type: col.st.DuckDB()})
			res.Types = append(res.Types, col.st.String())
		} else {
			res.Columns = append(res.Columns, Column{Name: col.name, Type: col.t.Duck()})
			res.Types = append(res.Types, col.t.String())
		}
	}
	return res
}

// sub wraps a query as a relation.
func sub(sql string, cols []column, spark bool) *relation {
	return &relation{sql: "(" + sql + ")", cols: cols, spark: spark}
}

// dfRef matches the DataFrame references Laktory resolves in arguments.
var dfRef = regexp.MustCompile(`^\{(nodes\..+|[^{}]+)\}$`)

// argVal is one evaluated argument with where it came from.
type argVal struct {
	v    value
	name string // "func_args[0]" or "func_kwargs.x"
	kw   string // the keyword ("" for positional)
	src  string // the argument's text when a string
}

// evalArg evaluates an argument as DataFrameMethodArg.eval does: a
// DataFrame reference, a Python expression when the string has "(" (a
// SyntaxError keeps the string), or the value itself (lists and dicts are
// not evaluated).
func (c *compiler) evalArg(ev *evaluator, v any) (value, error) {
	switch x := v.(type) {
	case string:
		if m := dfRef.FindStringSubmatch(strings.TrimSpace(x)); m != nil {
			r, ok := c.named[m[1]]
			if !ok {
				var keys []string
				for k := range c.named {
					keys = append(keys, "'"+k+"'")
				}
				return nil, laktoryErr(-1, "KeyError: \"Method arg '%s' references '%s' which is not available. Available keys: [%s]\"", x, m[1], strings.Join(sortedStrings(keys), ", "))
			}
			return &frameVal{rel: r, ref: m[1]}, nil
		}
		if !strings.Contains(x, "(") {
			return x, nil
		}
		// Laktory replaces nw.sql_expr by sql_expr before eval on the
		// NARWHALS api: moduleAttr resolves it so, offsets unchanged.
		n, err := Parse(x)
		if err != nil {
			if _, ok := err.(*syntaxError); ok {
				return x, nil
			}
			return nil, err
		}
		return ev.eval(n)
	case []any:
		out := &pyList{}
		for _, e := range x {
			v, err := plainValue(e)
			if err != nil {
				return nil, err
			}
			out.elts = append(out.elts, v)
		}
		return out, nil
	case map[string]any:
		return plainValue(x)
	}
	return plainValue(v)
}

// plainValue converts a YAML value to a Python value, unevaluated.
func plainValue(v any) (value, error) {
	switch x := v.(type) {
	case nil, bool, int64, float64, string:
		return x, nil
	case int:
		return int64(x), nil
	case []any:
		out := &pyList{}
		for _, e := range x {
			y, err := plainValue(e)
			if err != nil {
				return nil, err
			}
			out.elts = append(out.elts, y)
		}
		return out, nil
	case map[string]any:
		d := &pyDict{}
		for _, k := range sortedKeys(x) {
			y, err := plainValue(x[k])
			if err != nil {
				return nil, err
			}
			d.keys, d.vals = append(d.keys, k), append(d.vals, y)
		}
		return d, nil
	}
	return nil, unsupportedAt(-1, "", "an argument of type %T", v)
}

// frameVal is a DataFrame argument ({sources.x}, {nodes.x}).
type frameVal struct {
	rel *relation
	ref string
}

func sortedStrings(s []string) []string {
	out := append([]string{}, s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return sortedStrings(keys)
}

// frameType is Laktory's name of the DataFrame type a step's method is
// looked up on.
func (c *compiler) frameType(api API) string {
	switch {
	case api == Narwhals:
		return "<class 'narwhals.dataframe.LazyFrame'>"
	case c.env.Backend == Polars:
		return "<class 'polars.lazyframe.frame.LazyFrame'>"
	}
	return "<class 'pyspark.sql.classic.dataframe.DataFrame'>"
}

// notAvailable is Laktory's error for a func_name the DataFrame lacks.
func (c *compiler) notAvailable(name string, api API, missing string) *Error {
	msg := fmt.Sprintf("ValueError: Function %s is not available on dataframe of type %s with %s API", name, c.frameType(api), api)
	if missing != "" {
		msg += ": " + missing
	}
	e := laktoryErr(-1, "%s", msg)
	e.Hint = c.methodHint(name, api)
	return e
}

// methodHint suggests the name the API has for a method users often
// write in another API's spelling.
func (c *compiler) methodHint(name string, api API) string {
	nw := map[string]string{
		"limit":             "use head (narwhals' LazyFrame has no limit)",
		"union":             "use laktory.union",
		"drop_duplicates":   "use unique (or dataframe_api: NATIVE on PYSPARK)",
		"dropDuplicates":    "use unique",
		"withColumn":        "use with_columns",
		"withColumns":       "use with_columns",
		"withColumnRenamed": "use rename",
		"where":             "use filter",
		"orderBy":           "use sort",
		"distinct":          "use unique",
		"groupBy":           "use laktory.groupby_and_agg",
		"group_by":          "use laktory.groupby_and_agg",
	}
	if api == Narwhals {
		return nw[name]
	}
	if c.env.Backend == Polars {
		return map[string]string{"drop_duplicates": "use unique", "dropDuplicates": "use unique", "withColumn": "use with_columns",
			"union": "use laktory.union with the NARWHALS api", "where": "use filter", "orderBy": "use sort"}[name]
	}
	return ""
}

func (c *compiler) newEvaluator(api API, frame *relation) *evaluator {
	ev := &evaluator{env: &Env{Backend: c.env.Backend, API: api, Spark: c.env.Spark}, scope: scopeOf(api, c.env.Backend), frame: frame}
	if frame == c.df {
		ev.read = func(name string) { c.reads[name] = true }
	}
	if c.env.Backend == PySpark {
		ev.eng = &spEngine{ev: ev}
	} else {
		ev.eng = &plEngine{ev: ev}
	}
	return ev
}
