package frame

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// evaluator evaluates the Python expression of one argument as Laktory's
// eval() does, with the names of the step's dataframe_api and backend in
// scope, into Python values and column expressions of the engine.
type evaluator struct {
	env   *Env
	eng   engine
	scope map[string]value
	// frame is the relation expressions refer to (the step's input).
	frame *relation
	// read, when set, is told each column of frame an expression names.
	read func(name string)
}

// engine builds the column expressions of a backend.
type engine interface {
	// attr is an attribute of an expression: a method (a callable) or a
	// namespace.
	attr(x Expr, name string, pos int) (value, error)
	// binary is x op y with at least one of them an expression (reflected
	// when the expression is on the right).
	binary(op string, l, r value, pos int) (value, error)
	// unary is -x, +x or ~x of an expression.
	unary(op string, x Expr, pos int) (value, error)
	// call runs the implementation of a callable.
	call(c *call) (value, error)
	// truthErr is the error Python raises for bool(x).
	truthErr(x Expr, pos int) error
}

// laktoryLocals are the names eval() also sees in Laktory's
// DataFrameMethodArg.eval (its locals and its module's globals): a user
// would not write them, and they are not evaluated here.
var laktoryLocals = map[string]bool{
	"self": true, "v": true, "m": true, "backend": true, "named_dfs": true, "re": true, "Any": true,
	"Field": true, "model_validator": true, "get_logger": true, "DataFrameBackends": true, "BaseModel": true,
	"BaseChild": true, "PipelineChild": true, "AnyFrame": true, "logger": true, "DataFrameMethodArg": true,
	"DataFrameMethod": true, "_SOURCE_REF_PATTERN": true, "key": true, "resolved": true,
}

// pyBuiltins are Python's builtin names (eval sees them).
var pyBuiltins = map[string]bool{
	"abs": true, "all": true, "any": true, "bool": true, "dict": true, "divmod": true, "enumerate": true,
	"filter": true, "float": true, "format": true, "getattr": true, "hasattr": true, "int": true, "isinstance": true,
	"iter": true, "len": true, "list": true, "map": true, "max": true, "min": true, "next": true, "ord": true,
	"chr": true, "pow": true, "print": true, "range": true, "repr": true, "reversed": true, "round": true, "set": true,
	"sorted": true, "str": true, "sum": true, "tuple": true, "type": true, "zip": true, "open": true, "eval": true,
	"exec": true, "globals": true, "locals": true, "vars": true, "id": true, "hash": true, "object": true,
	"slice": true, "bytes": true, "frozenset": true, "complex": true, "hex": true, "oct": true, "bin": true,
	"callable": true, "super": true, "property": true, "staticmethod": true, "classmethod": true,
	"__import__": true, "input": true, "compile": true, "delattr": true, "setattr": true, "issubclass": true,
	"memoryview": true, "bytearray": true, "ascii": true, "breakpoint": true, "help": true, "dir": true,
	"Exception": true, "ValueError": true, "TypeError": true,
}

// scopeOf is what eval() sees by name for a step's API and backend
// (DataFrameMethodArg.eval): narwhals' nw, col, lit and Laktory's sql_expr;
// or, NATIVE, Polars' pl, col, lit, sql_expr, or PySpark's F, T, col, expr,
// lit. nw is a global of Laktory's module, so NATIVE steps see it too.
func scopeOf(api API, backend Backend) map[string]value {
	s := map[string]value{"nw": &module{path: "nw"}}
	switch {
	case api == Narwhals:
		s["col"] = &callable{key: "nw.col", name: "col"}
		s["lit"] = &callable{key: "nw.lit", name: "lit"}
		s["sql_expr"] = &callable{key: "laktory.sql_expr", name: "sql_expr"}
	case backend == Polars:
		s["pl"] = &module{path: "pl"}
		s["col"] = &callable{key: "pl.col", name: "col"}
		s["lit"] = &callable{key: "pl.lit", name: "lit"}
		s["sql_expr"] = &callable{key: "pl.sql_expr", name: "sql_expr"}
	default:
		s["F"] = &module{path: "F"}
		s["T"] = &module{path: "T"}
		s["col"] = &callable{key: "F.col", name: "col"}
		s["expr"] = &callable{key: "F.expr", name: "expr"}
		s["lit"] = &callable{key: "F.lit", name: "lit"}
	}
	return s
}

func (ev *evaluator) eval(n Node) (value, error) {
	switch x := n.(type) {
	case *Const:
		switch x.Kind {
		case ConstNone:
			return nil, nil
		case ConstBool:
			return x.Bool, nil
		case ConstInt:
			return x.Int, nil
		case ConstFloat:
			return x.Float, nil
		case ConstStr:
			return x.Str, nil
		}
		return nil, unsupportedAt(x.P, "", "a bytes literal")
	case *Name:
		if v, ok := ev.scope[x.ID]; ok {
			return v, nil
		}
		if pyBuiltins[x.ID] {
			return nil, unsupportedAt(x.P, "write the value itself", "the Python builtin %s", x.ID)
		}
		if laktoryLocals[x.ID] {
			return nil, unsupportedAt(x.P, "", "Laktory's internal name %s", x.ID)
		}
		return nil, laktoryErr(x.P, "NameError: name '%s' is not defined", x.ID)
	case *Attr:
		recv, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		return ev.attr(recv, x.Name, x.P)
	case *Call:
		return ev.evalCall(x)
	case *List:
		elts, err := ev.evalAll(x.Elts)
		if err != nil {
			return nil, err
		}
		return &pyList{elts: elts}, nil
	case *Tuple:
		elts, err := ev.evalAll(x.Elts)
		if err != nil {
			return nil, err
		}
		return &pyTuple{elts: elts}, nil
	case *Dict:
		d := &pyDict{}
		for i := range x.Keys {
			k, err := ev.eval(x.Keys[i])
			if err != nil {
				return nil, err
			}
			if _, isExpr := k.(Expr); isExpr {
				return nil, unsupportedAt(x.Keys[i].Pos(), "", "an expression as a dict key")
			}
			v, err := ev.eval(x.Values[i])
			if err != nil {
				return nil, err
			}
			d.keys, d.vals = append(d.keys, k), append(d.vals, v)
		}
		return d, nil
	case *UnaryOp:
		v, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		if e, ok := v.(Expr); ok {
			if x.Op == "not" {
				return nil, ev.eng.truthErr(e, x.P)
			}
			return ev.eng.unary(x.Op, e, x.P)
		}
		return pyUnary(x.Op, v, x.P)
	case *BinOp:
		l, err := ev.eval(x.L)
		if err != nil {
			return nil, err
		}
		r, err := ev.eval(x.R)
		if err != nil {
			return nil, err
		}
		_, le := l.(Expr)
		_, re := r.(Expr)
		if le || re {
			return ev.eng.binary(x.Op, l, r, x.P)
		}
		return pyBinary(x.Op, l, r, x.P)
	case *Compare:
		return ev.compare(x)
	case *BoolOp:
		var last value
		for _, sub := range x.Xs {
			v, err := ev.eval(sub)
			if err != nil {
				return nil, err
			}
			t, ok := truthy(v)
			if !ok {
				if e, isExpr := v.(Expr); isExpr {
					return nil, ev.eng.truthErr(e, sub.Pos())
				}
				return nil, unsupportedAt(sub.Pos(), "", "`%s` of a %s", x.Op, pyType(v))
			}
			last = v
			if x.Op == "and" && !t || x.Op == "or" && t {
				return v, nil
			}
		}
		return last, nil
	case *Subscript:
		recv, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		idx, err := ev.eval(x.Index)
		if err != nil {
			return nil, err
		}
		if e, ok := recv.(Expr); ok {
			fn, err := ev.eng.attr(e, "__getitem__", x.P)
			if err != nil {
				return nil, err
			}
			return ev.eng.call(&call{ev: ev, fn: fn.(*callable), args: []value{idx}, argPos: []int{x.Index.Pos()}, pos: x.P})
		}
		return pySubscript(recv, idx, x.P)
	}
	return nil, unsupportedAt(n.Pos(), "", "this Python construct")
}

func (ev *evaluator) evalAll(ns []Node) ([]value, error) {
	out := make([]value, len(ns))
	for i, n := range ns {
		v, err := ev.eval(n)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// attr is recv.name.
func (ev *evaluator) attr(recv value, name string, pos int) (value, error) {
	switch r := recv.(type) {
	case *module:
		v, ok := moduleAttr(r.path, name, ev.env.API)
		if !ok {
			return nil, laktoryErr(pos, "AttributeError: module '%s' has no attribute '%s'", moduleName(r.path), name)
		}
		return v, nil
	case Expr:
		return ev.eng.attr(r, name, pos)
	case *namespace:
		key := r.family + ".Expr." + r.name + "." + name
		if !hasLibraryName(r.family+".Expr."+r.name, name) {
			return nil, laktoryErr(pos, "AttributeError: '%s' object has no attribute '%s'", namespaceClass(r), name)
		}
		return &callable{key: key, name: name, recv: r.x}, nil
	case *whenChain:
		return r.attr(name, pos)
	case *dtypeVal:
		return nil, unsupportedAt(pos, "", "the attribute %s of a data type", name)
	}
	return nil, laktoryErr(pos, "AttributeError: '%s' object has no attribute '%s'", pyType(recv), name)
}

func namespaceClass(ns *namespace) string {
	if ns.family == "nw" {
		return map[string]string{"str": "ExprStringNamespace", "dt": "ExprDateTimeNamespace", "list": "ExprListNamespace",
			"struct": "ExprStructNamespace", "cat": "ExprCatNamespace", "name": "ExprNameNamespace", "laktory": "LaktoryExpr"}[ns.name]
	}
	return map[string]string{"str": "ExprStringNameSpace", "dt": "ExprDateTimeNameSpace", "list": "ExprListNameSpace",
		"struct": "ExprStructNameSpace", "arr": "ExprArrayNameSpace", "name": "ExprNameNameSpace"}[ns.name]
}

func moduleName(path string) string {
	switch path {
	case "nw":
		return "narwhals"
	case "nw.dtypes":
		return "narwhals.dtypes"
	case "pl":
		return "polars"
	case "F":
		return "pyspark.sql.functions"
	case "T":
		return "pyspark.sql.types"
	}
	return path
}

func (ev *evaluator) evalCall(x *Call) (value, error) {
	fnv, err := ev.eval(x.Fn)
	if err != nil {
		return nil, err
	}
	c := &call{ev: ev, pos: x.P, at: x.Fn.Pos()}
	for _, a := range x.Args {
		v, err := ev.eval(a)
		if err != nil {
			return nil, err
		}
		c.args, c.argPos = append(c.args, v), append(c.argPos, a.Pos())
	}
	for _, k := range x.Kw {
		v, err := ev.eval(k.Value)
		if err != nil {
			return nil, err
		}
		c.kwNames = append(c.kwNames, k.Name)
		c.kwVals = append(c.kwVals, v)
		c.kwPos = append(c.kwPos, k.P)
	}
	switch f := fnv.(type) {
	case *callable:
		c.fn = f
		if w, ok := f.recv.(*whenChain); ok {
			return whenCall(c, w)
		}
		return ev.eng.call(c)
	case *dtypeVal:
		if !f.class {
			return nil, laktoryErr(x.P, "TypeError: '%s' object is not callable", f.name)
		}
		return dtypeCall(c, f)
	}
	return nil, laktoryErr(x.P, "TypeError: '%s' object is not callable", pyType(fnv))
}

func (ev *evaluator) compare(x *Compare) (value, error) {
	l, err := ev.eval(x.L)
	if err != nil {
		return nil, err
	}
	var result value
	for i, op := range x.Ops {
		r, err := ev.eval(x.Rs[i])
		if err != nil {
			return nil, err
		}
		_, le := l.(Expr)
		_, re := r.(Expr)
		var v value
		switch {
		case op == "in" || op == "not in" || op == "is" || op == "is not":
			if le || re {
				return nil, unsupportedAt(x.P, "use .is_in([...]) or .is_null()", "`%s` with an expression", op)
			}
			v, err = pyCompare(op, l, r, x.P)
		case le || re:
			v, err = ev.eng.binary(op, l, r, x.P)
		default:
			v, err = pyCompare(op, l, r, x.P)
		}
		if err != nil {
			return nil, err
		}
		if i < len(x.Ops)-1 {
			// a < b < c is (a < b) and (b < c): the truth of the first.
			t, ok := truthy(v)
			if !ok {
				if e, isExpr := v.(Expr); isExpr {
					return nil, ev.eng.truthErr(e, x.P)
				}
			}
			if !t {
				return v, nil
			}
		}
		result, l = v, r
	}
	return result, nil
}

// call is one call of a callable with evaluated arguments.
type call struct {
	ev      *evaluator
	fn      *callable
	args    []value
	argPos  []int
	kwNames []string
	kwVals  []value
	kwPos   []int
	pos     int // the opening parenthesis
	at      int // the callee's first token
}

// param is one parameter of a signature.
type param struct {
	name     string
	def      value // the default (when optional)
	optional bool
	kwOnly   bool
	varPos   bool // *args
	varKw    bool // **kwargs
}

// sig parses a Python signature: "x, decimals=0, *, strict=True",
// "*exprs, separator=”", "**named". Defaults are Python literals.
func sig(s string) []param {
	var out []param
	kwOnly := false
	for _, p := range splitTopComma(s) {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
			continue
		case p == "*":
			kwOnly = true
			continue
		case strings.HasPrefix(p, "**"):
			out = append(out, param{name: p[2:], varKw: true})
			continue
		case strings.HasPrefix(p, "*"):
			out = append(out, param{name: p[1:], varPos: true})
			kwOnly = true
			continue
		}
		name, def, hasDef := strings.Cut(p, "=")
		pr := param{name: strings.TrimSpace(name), kwOnly: kwOnly}
		if hasDef {
			pr.optional = true
			pr.def = literalValue(strings.TrimSpace(def))
		}
		out = append(out, pr)
	}
	return out
}

func splitTopComma(s string) []string {
	var out []string
	depth, start := 0, 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// literalValue parses a default of a signature.
func literalValue(s string) value {
	n, err := Parse(s)
	if err != nil {
		panic("frame: bad default " + s)
	}
	ev := &evaluator{scope: map[string]value{}}
	v, err := ev.eval(n)
	if err != nil {
		panic("frame: bad default " + s)
	}
	return v
}

// args are a call's arguments bound to a signature.
type args struct {
	c    *call
	vals map[string]value
	pos  map[string]int
	set  map[string]bool
	rest []value // *args
	kw   map[string]value
}

func (a *args) get(name string) value    { return a.vals[name] }
func (a *args) given(name string) bool   { return a.set[name] }
func (a *args) posOf(name string) int    { return a.pos[name] }
func (a *args) str(name string) string   { s, _ := a.vals[name].(string); return s }
func (a *args) boolean(name string) bool { b, _ := truthy(a.vals[name]); return b }

// bind binds the call's arguments to a signature, with Python's
// TypeErrors for what does not fit (Laktory raises them at run time).
func (c *call) bind(signature string) (*args, error) {
	ps := sig(signature)
	a := &args{c: c, vals: map[string]value{}, pos: map[string]int{}, set: map[string]bool{}, kw: map[string]value{}}
	fname := c.fn.name + "()"
	i := 0
	nPositional := 0
	for _, p := range ps {
		if !p.kwOnly && !p.varPos && !p.varKw {
			nPositional++
		}
	}
	for _, p := range ps {
		switch {
		case p.varPos:
			a.rest = append(a.rest, c.args[min(i, len(c.args)):]...)
			for k := i; k < len(c.args); k++ {
				a.pos[fmt.Sprintf("%s[%d]", p.name, k-i)] = c.argPos[k]
			}
			i = len(c.args)
		case p.varKw:
		case !p.kwOnly && i < len(c.args):
			a.vals[p.name], a.pos[p.name], a.set[p.name] = c.args[i], c.argPos[i], true
			i++
		}
	}
	if i < len(c.args) {
		return nil, laktoryErr(c.argPos[i], "TypeError: %s takes %d positional arguments but %d were given", fname, nPositional, len(c.args))
	}
	for k, name := range c.kwNames {
		found := false
		for _, p := range ps {
			if p.name == name && !p.varPos && !p.varKw {
				found = true
				if a.set[name] {
					return nil, laktoryErr(c.kwPos[k], "TypeError: %s got multiple values for argument '%s'", fname, name)
				}
				a.vals[name], a.pos[name], a.set[name] = c.kwVals[k], c.kwPos[k], true
			}
		}
		if !found {
			varKw := false
			for _, p := range ps {
				varKw = varKw || p.varKw
			}
			if !varKw {
				return nil, laktoryErr(c.kwPos[k], "TypeError: %s got an unexpected keyword argument '%s'", fname, name)
			}
			a.kw[name] = c.kwVals[k]
			a.pos[name] = c.kwPos[k]
		}
	}
	var missing []string
	for _, p := range ps {
		if p.varPos || p.varKw || a.set[p.name] {
			continue
		}
		if !p.optional {
			missing = append(missing, p.name)
			continue
		}
		a.vals[p.name] = p.def
	}
	if len(missing) > 0 {
		kind := "positional"
		for _, p := range ps {
			if p.name == missing[0] && p.kwOnly {
				kind = "keyword-only"
			}
		}
		q := make([]string, len(missing))
		for i, m := range missing {
			q[i] = "'" + m + "'"
		}
		word := "argument"
		if len(q) > 1 {
			word = "arguments"
		}
		return nil, laktoryErr(c.pos, "TypeError: %s missing %d required %s %s: %s", fname, len(q), kind, word, strings.Join(q, " and "))
	}
	return a, nil
}

// kwNamesSorted returns the call's keyword names sorted (for messages).
func (a *args) kwNamesSorted() []string {
	ks := make([]string, 0, len(a.kw))
	for k := range a.kw {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// --- Python semantics on plain values

func pyUnary(op string, v value, pos int) (value, error) {
	switch op {
	case "not":
		t, ok := truthy(v)
		if !ok {
			return nil, unsupportedAt(pos, "", "`not` of a %s", pyType(v))
		}
		return !t, nil
	case "-":
		switch x := v.(type) {
		case int64:
			return -x, nil
		case float64:
			return -x, nil
		case bool:
			if x {
				return int64(-1), nil
			}
			return int64(0), nil
		}
	case "+":
		switch v.(type) {
		case int64, float64:
			return v, nil
		}
	case "~":
		if x, ok := v.(int64); ok {
			return ^x, nil
		}
	}
	return nil, laktoryErr(pos, "TypeError: bad operand type for unary %s: '%s'", op, pyType(v))
}

func asFloat(v value) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func pyBinary(op string, l, r value, pos int) (value, error) {
	li, lInt := l.(int64)
	ri, rInt := r.(int64)
	if lb, ok := l.(bool); ok {
		li, lInt = b2i(lb), true
	}
	if rb, ok := r.(bool); ok {
		ri, rInt = b2i(rb), true
	}
	if lInt && rInt {
		switch op {
		case "+":
			return li + ri, nil
		case "-":
			return li - ri, nil
		case "*":
			return li * ri, nil
		case "/":
			if ri == 0 {
				return nil, laktoryErr(pos, "ZeroDivisionError: division by zero")
			}
			return float64(li) / float64(ri), nil
		case "//":
			if ri == 0 {
				return nil, laktoryErr(pos, "ZeroDivisionError: integer division or modulo by zero")
			}
			q := li / ri
			if (li%ri != 0) && ((li < 0) != (ri < 0)) {
				q--
			}
			return q, nil
		case "%":
			if ri == 0 {
				return nil, laktoryErr(pos, "ZeroDivisionError: integer modulo by zero")
			}
			m := li % ri
			if m != 0 && (m < 0) != (ri < 0) {
				m += ri
			}
			return m, nil
		case "**":
			if ri >= 0 {
				return int64(math.Pow(float64(li), float64(ri))), nil
			}
			return math.Pow(float64(li), float64(ri)), nil
		case "&":
			return li & ri, nil
		case "|":
			return li | ri, nil
		case "^":
			return li ^ ri, nil
		case "<<":
			return li << uint(ri), nil
		case ">>":
			return li >> uint(ri), nil
		}
	}
	lf, lok := asFloat(l)
	rf, rok := asFloat(r)
	if lok && rok {
		switch op {
		case "+":
			return lf + rf, nil
		case "-":
			return lf - rf, nil
		case "*":
			return lf * rf, nil
		case "/":
			if rf == 0 {
				return nil, laktoryErr(pos, "ZeroDivisionError: float division by zero")
			}
			return lf / rf, nil
		case "//":
			if rf == 0 {
				return nil, laktoryErr(pos, "ZeroDivisionError: float floor division by zero")
			}
			return math.Floor(lf / rf), nil
		case "%":
			if rf == 0 {
				return nil, laktoryErr(pos, "ZeroDivisionError: float modulo")
			}
			m := math.Mod(lf, rf)
			if m != 0 && (m < 0) != (rf < 0) {
				m += rf
			}
			return m, nil
		case "**":
			return math.Pow(lf, rf), nil
		}
	}
	ls, lStr := l.(string)
	rs, rStr := r.(string)
	if lStr && rStr && op == "+" {
		return ls + rs, nil
	}
	if lStr && rInt && op == "*" {
		return strings.Repeat(ls, int(max(ri, 0))), nil
	}
	if ll, ok := l.(*pyList); ok && op == "+" {
		if rl, ok := r.(*pyList); ok {
			return &pyList{elts: append(append([]value{}, ll.elts...), rl.elts...)}, nil
		}
	}
	return nil, laktoryErr(pos, "TypeError: unsupported operand type(s) for %s: '%s' and '%s'", op, pyType(l), pyType(r))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func pyCompare(op string, l, r value, pos int) (value, error) {
	switch op {
	case "in", "not in":
		elts, ok := elements(r)
		var found bool
		switch {
		case ok:
			for _, e := range elts {
				if eq, _ := pyEqual(l, e); eq {
					found = true
				}
			}
		default:
			rs, isStr := r.(string)
			ls, lIsStr := l.(string)
			if !isStr || !lIsStr {
				return nil, unsupportedAt(pos, "", "`in` with a %s", pyType(r))
			}
			found = strings.Contains(rs, ls)
		}
		return found == (op == "in"), nil
	case "is", "is not":
		if l != nil && r != nil {
			return nil, unsupportedAt(pos, "", "`is` between values")
		}
		return (l == nil && r == nil) == (op == "is"), nil
	case "==", "!=":
		eq, _ := pyEqual(l, r)
		return eq == (op == "=="), nil
	}
	if lf, ok := asFloat(l); ok {
		if rf, ok := asFloat(r); ok {
			switch op {
			case "<":
				return lf < rf, nil
			case "<=":
				return lf <= rf, nil
			case ">":
				return lf > rf, nil
			case ">=":
				return lf >= rf, nil
			}
		}
	}
	ls, lok := l.(string)
	rs, rok := r.(string)
	if lok && rok {
		switch op {
		case "<":
			return ls < rs, nil
		case "<=":
			return ls <= rs, nil
		case ">":
			return ls > rs, nil
		case ">=":
			return ls >= rs, nil
		}
	}
	return nil, laktoryErr(pos, "TypeError: '%s' not supported between instances of '%s' and '%s'", op, pyType(l), pyType(r))
}

func pyEqual(l, r value) (bool, bool) {
	if lf, ok := asFloat(l); ok {
		if rf, ok := asFloat(r); ok {
			return lf == rf, true
		}
	}
	switch x := l.(type) {
	case nil:
		return r == nil, true
	case string:
		s, ok := r.(string)
		return ok && s == x, true
	}
	return false, false
}

func pySubscript(recv, idx value, pos int) (value, error) {
	i, isInt := idx.(int64)
	switch r := recv.(type) {
	case *pyList, *pyTuple:
		elts, _ := elements(r)
		if !isInt {
			return nil, laktoryErr(pos, "TypeError: list indices must be integers or slices, not %s", pyType(idx))
		}
		if i < 0 {
			i += int64(len(elts))
		}
		if i < 0 || i >= int64(len(elts)) {
			return nil, laktoryErr(pos, "IndexError: list index out of range")
		}
		return elts[i], nil
	case *pyDict:
		for k := range r.keys {
			if eq, _ := pyEqual(r.keys[k], idx); eq {
				return r.vals[k], nil
			}
		}
		return nil, laktoryErr(pos, "KeyError: %s", repr(idx))
	case string:
		if !isInt {
			return nil, laktoryErr(pos, "TypeError: string indices must be integers, not '%s'", pyType(idx))
		}
		rs := []rune(r)
		if i < 0 {
			i += int64(len(rs))
		}
		if i < 0 || i >= int64(len(rs)) {
			return nil, laktoryErr(pos, "IndexError: string index out of range")
		}
		return string(rs[i]), nil
	}
	return nil, laktoryErr(pos, "TypeError: '%s' object is not subscriptable", pyType(recv))
}
