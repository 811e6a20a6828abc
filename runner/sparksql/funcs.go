package sparksql

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Support says how a Spark function runs locally.
type Support int

const (
	// Same: a DuckDB function computes what Spark computes.
	Same Support = iota
	// Rewritten: rewritten into other DuckDB expressions (argument
	// coercion, a different function, offsets, error checks).
	Rewritten
	// Macro: emulated by a DuckDB macro of ours (see Macros).
	Macro
	// Unsupported: rejected at validation, naming the function.
	Unsupported
)

func (s Support) String() string {
	return [...]string{"same", "rewritten", "macro", "unsupported"}[s]
}

// fnDef is an entry of the function table.
type fnDef struct {
	name     string
	support  Support
	agg, win bool
	min, max int // arity; max -1 for variadic
	impl     func(c *fcall) (*rx, error)
	note     string // why it is unsupported, or what differs in how it is computed
	aliasOf  string // the canonical name when this is an alias
}

// fcall is one call being resolved.
type fcall struct {
	r    *resolver
	def  *fnDef
	node *Call
	args []*rx // resolved arguments (nil for lambda arguments)
	sc   *scope
	ctx  *ectx
	name string // Spark's name for the call: f(arg names)
	// lambdaNames are the names of the resolved lambda bodies by argument.
	lambdaNames map[int]string
	// bodies are the resolved lambda bodies: children of the call's
	// result with its arguments (the grouped-query check walks them).
	bodies []*rx
}

func (c *fcall) pos() int { return c.node.P }

// out builds the call's result with Spark's name.
func (c *fcall) out(t *Type, sql string) *rx {
	var kids []*rx
	for _, a := range c.args {
		if a != nil { // a lambda argument: its body is in bodies
			kids = append(kids, a)
		}
	}
	x := mk(t, sql, c.name, append(kids, c.bodies...)...)
	x.pos = c.node.P
	return x
}

// str is argument i cast to a string.
func (c *fcall) str(i int) (*rx, error) { return c.r.stringArg(c.args[i], c.argPos(i)) }

func (c *fcall) argPos(i int) int {
	if i < len(c.node.Args) {
		return c.node.Args[i].Pos()
	}
	return c.node.P
}

// typed is argument i cast to t (implicitly).
func (c *fcall) typed(i int, t *Type) (*rx, error) {
	x := c.args[i]
	if x.t.Equal(t) {
		return x, nil
	}
	if !implicitlyCastable(x.t, t) {
		return nil, c.wrongType(i, strings.ToUpper(t.String()))
	}
	return c.r.cast(x, t, castImplicit)
}

// implicitlyCastable is Spark's ANSI implicit cast rule for function
// arguments.
func implicitlyCastable(from, to *Type) bool {
	switch {
	case from.hasCalendar() || to.hasCalendar():
		// CalendarIntervalType is no AtomicType: no implicit cast.
		return from.Equal(to)
	case from.Kind == KVoid, from.Equal(to):
		return true
	case to.Kind == KString:
		return from.isAtomic() && from.Kind != KBinary
	case from.Kind == KString:
		return to.isNumeric() || to.isDatetime() || to.Kind == KBool || to.Kind == KBinary
	case from.isNumeric() && to.isNumeric():
		w := widerType(from, to)
		return w != nil && (w.Equal(to) || to.Kind == KDouble || to.Kind == KDecimal)
	case from.Kind == KDate && to.Kind == KTimestamp, from.Kind == KDate && to.Kind == KTimestampNTZ:
		return true
	case from.Kind == KTimestamp && to.Kind == KDate, from.Kind == KTimestampNTZ && to.Kind == KDate:
		return true
	case from.Kind == KTimestampNTZ && to.Kind == KTimestamp:
		return true
	case from.Kind == KArray && to.Kind == KArray:
		return implicitlyCastable(from.Elem, to.Elem)
	}
	return false
}

func (c *fcall) wrongType(i int, want string) error {
	x := c.args[i]
	return sparkErr(c.argPos(i), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: The %s parameter requires the %s type, however %s has the type %q.",
		quoteSparkSQL(c.name), ordinal(i+1), want, quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
}

// litStr is argument i as a constant string (patterns, formats, units).
func (c *fcall) litStr(i int, what string) (string, bool, error) {
	x := c.args[i]
	if x.t.Kind == KVoid && x.foldable {
		return "", true, nil // NULL
	}
	if x.lit == nil || x.lit.Kind != LitString {
		return "", false, unsupported(c.argPos(i), "write "+what+" as a string literal", "a non-constant %s in %s", what, c.def.name)
	}
	return x.lit.Value, false, nil
}

// litInt is argument i as a constant integer.
func (c *fcall) litInt(i int, what string) (int, error) {
	x := c.args[i]
	if x.lit == nil || !x.t.isIntegral() {
		return 0, unsupported(c.argPos(i), "write "+what+" as an integer literal", "a non-constant %s in %s", what, c.def.name)
	}
	var n int
	if _, err := fmt.Sscan(x.lit.Value, &n); err != nil {
		return 0, errAt(c.argPos(i), "invalid integer "+x.lit.Value)
	}
	return n, nil
}

// litInt64 is the value of an integer literal (through implicit casts).
func litInt64(x *rx) (int64, bool) {
	if x.lit == nil || !x.t.isIntegral() {
		return 0, false
	}
	n, err := strconv.ParseInt(x.lit.Value, 10, 64)
	return n, err == nil
}

//go:embed spark_functions.txt
var sparkFunctionsText string

// sparkFunctions are the names of Spark 4.2's built-in functions
// (SHOW FUNCTIONS, scripts/sparksql/functions.py).
var sparkFunctions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(sparkFunctionsText, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			m[l] = true
		}
	}
	return m
})

var (
	tableOnce sync.Once
	tableMap  map[string]*fnDef
)

// table is the function table by name, built once.
func table() map[string]*fnDef {
	tableOnce.Do(func() { tableMap = buildTable() })
	return tableMap
}

func buildTable() map[string]*fnDef {
	m := map[string]*fnDef{}
	for _, group := range [][]*fnDef{stringFuncs(), mathFuncs(), nullFuncs(), datetimeFuncs(), collectionFuncs(), aggFuncs(), percentileFuncs(), windowFuncs(), miscFuncs(), jsonFuncs(), hofFuncs(), codecFuncs(), numFmtFuncs(), urlFuncs()} {
		for _, d := range group {
			if _, dup := m[d.name]; dup {
				panic("sparksql: function " + d.name + " defined twice")
			}
			m[d.name] = d
		}
	}
	return m
}

// lookupFunc finds a function by name (case-insensitive).
func lookupFunc(name string) *fnDef {
	if d := syntaxFuncs[strings.ToLower(name)]; d != nil {
		return d
	}
	return table()[strings.ToLower(name)]
}

// syntaxFuncs are the functions Spark's parser builds (a unit keyword
// first), not in its function registry: timestampadd and timestampdiff.
var syntaxFuncs = map[string]*fnDef{"timestampadd": timestampAdd, "timestampdiff": timestampDiff}

// FunctionInfo describes a Spark function's local support (for the docs).
type FunctionInfo struct {
	Name    string
	Support Support
	Note    string
}

// Functions lists every Spark 4.2 built-in function with its local
// support, sorted by name. Functions of the table that Spark does not list
// (none) would be a test failure.
func Functions() []FunctionInfo {
	var out []FunctionInfo
	for name := range sparkFunctions() {
		info := FunctionInfo{Name: name, Support: Unsupported}
		if d := lookupFunc(name); d != nil {
			info.Support, info.Note = d.support, d.note
			if d.aliasOf != "" && info.Note == "" {
				info.Note = "as " + d.aliasOf
			}
		}
		switch {
		case generatorFor(name) != nil:
			info.Note = "inside an expression; as a generator (the select list, LATERAL VIEW) it is translated"
		case name == "window":
			info.Note = "a tumbling or sliding window in GROUP BY is translated; window() elsewhere is not"
		case name == "range":
			info.Note = "as a scalar function; as a table function in FROM it is translated"
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// call resolves a function call.
func (r *resolver) call(n *Call, sc *scope, ctx *ectx) (*rx, error) {
	lname := strings.ToLower(n.Name.Name)
	if lname == "window" && n.Over == nil {
		if c := timeWindowRef(n, sc); c != nil {
			return colRx(c, n.P), nil
		}
	}
	def := lookupFunc(lname)
	if def == nil || def.support == Unsupported && def.impl == nil {
		if sparkFunctions()[lname] || def != nil {
			hint := ""
			if def != nil {
				hint = def.note
			}
			return nil, unsupported(n.P, hint, "Spark function `%s`", lname)
		}
		return nil, sparkErr(n.P, "UNRESOLVED_ROUTINE", "Cannot resolve routine `%s` on search path [`system`.`builtin`, `system`.`session`, `spark_catalog`.`default`].", n.Name.Name)
	}
	if err := withinGroupRefused(n, def, lname); err != nil {
		return nil, err
	}
	if n.Over != nil {
		return r.window(n, def, sc, ctx)
	}
	if def.win && !def.agg {
		return nil, sparkErr(n.P, "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE", "Window function %q requires an OVER clause.", lname)
	}
	if def.agg {
		switch {
		case ctx.inAgg:
			return nil, sparkErr(n.P, "NESTED_AGGREGATE_FUNCTION", "It is not allowed to use an aggregate function in the argument of another aggregate function. Please use the inner aggregate function in a sub-query.")
		case ctx.clause == "WHERE":
			return nil, sparkErr(n.P, "INVALID_WHERE_CONDITION", "The WHERE condition contains invalid expressions: %s. Rewrite the query to avoid window functions, aggregate functions, and generator functions in the WHERE clause.", lname)
		case !ctx.aggOK && !ctx.agg:
			return nil, sparkErr(n.P, "UNSUPPORTED_EXPR_FOR_OPERATOR", "Aggregate function %s is not allowed here: aggregates belong in the select list, HAVING or ORDER BY of an aggregating query.", lname)
		}
	} else if n.Distinct || n.Filter != nil {
		return nil, sparkErr(n.P, "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX", "Invalid SQL syntax: The function `%s` does not support DISTINCT or FILTER.", lname)
	}
	x, err := r.callWith(n, def, sc, ctx)
	if err != nil {
		return nil, err
	}
	if def.agg {
		x.isAgg, x.hasAgg = true, true
	}
	return x, nil
}

// callWith resolves the arguments and applies the function's
// implementation (aggregates without their OVER).
func (r *resolver) callWith(n *Call, def *fnDef, sc *scope, ctx *ectx) (*rx, error) {
	argCtx := ctx.with(func(c *ectx) { c.overArgs = false })
	switch {
	case def.agg && ctx.overArgs:
		// An aggregate over a window reads the rows of the query, grouped
		// ones too: sum(sum(x)) OVER () sums the groups' sums.
		argCtx = ctx.with(func(c *ectx) { c.overArgs = false; c.winOK = false })
	case def.agg:
		argCtx = ctx.with(func(c *ectx) { c.inAgg = true; c.aggOK = false; c.winOK = false; c.overArgs = false })
	}
	if len(n.Args) < def.min || (def.max >= 0 && len(n.Args) > def.max) {
		if !(n.StarArg && def.name == "count") {
			return nil, arityError(n, def)
		}
	}
	c := &fcall{r: r, def: def, node: n, sc: sc, ctx: argCtx}
	var names []string
	for i, a := range n.Args {
		if cr, ok := a.(*ColumnRef); ok && i == 0 && len(cr.Parts) == 1 && unitFirst(def.name, len(n.Args)) {
			// timestampadd(HOUR, ...): the unit is a keyword, not a column.
			f := cr.Parts[0]
			lit := &Literal{Kind: LitString, Value: strings.ToUpper(f.Name), P: f.P}
			c.args = append(c.args, litRx(tString, duckString(strings.ToUpper(f.Name)), strings.ToUpper(f.Name), lit))
			names = append(names, strings.ToUpper(f.Name))
			continue
		}
		if n.Syntax == "EXTRACT" && i == 0 {
			// EXTRACT's first argument names a field, not a column.
			f := a.(*ColumnRef).Parts[0]
			lit := &Literal{Kind: LitString, Value: f.Name, P: f.P}
			c.args = append(c.args, litRx(tString, duckString(f.Name), f.Name, lit))
			names = append(names, f.Name)
			continue
		}
		if _, isLambda := a.(*Lambda); isLambda {
			c.args = append(c.args, nil)
			names = append(names, "lambdafunction(...)")
			continue
		}
		x, err := r.expr(a, sc, argCtx)
		if err != nil {
			return nil, err
		}
		if i < len(n.Aliases) && n.Aliases[i] != nil && def.name != "struct" {
			return nil, errAt(a.Pos(), "AS names an argument only in struct(...)")
		}
		c.args = append(c.args, x)
		names = append(names, x.name)
	}
	fname := strings.ToLower(n.Name.Name)
	switch {
	case n.StarArg:
		c.name = fname + "(1)"
	case n.Distinct:
		c.name = fname + "(DISTINCT " + strings.Join(names, ", ") + ")"
	default:
		c.name = fname + "(" + strings.Join(names, ", ") + ")"
	}
	if err := calendarArgs(c); err != nil {
		return nil, err
	}
	x, err := def.impl(c)
	if err != nil {
		return nil, err
	}
	if n.Filter != nil {
		f, err := r.expr(n.Filter, sc, ctx.with(func(c *ectx) { c.inAgg = true; c.aggOK = false }))
		if err != nil {
			return nil, err
		}
		if f, err = r.boolArg(f, n.Filter); err != nil {
			return nil, err
		}
		y := mk(x.t, "", x.name+" FILTER (WHERE "+f.name+")", append(x.kids, f)...)
		y.aggFmt = x.aggFmt
		for _, p := range x.aggParts {
			y.aggParts = append(y.aggParts, p+" FILTER (WHERE "+f.sql+")")
		}
		y.sql = y.aggSQL()
		x = y
	}
	if x.pos == 0 {
		x.pos = n.P
	}
	return x, nil
}

func arityError(n *Call, def *fnDef) error {
	want := fmt.Sprint(def.min)
	switch {
	case def.max < 0:
		want = fmt.Sprintf("at least %d", def.min)
	case def.max != def.min:
		want = fmt.Sprintf("[%d, %d]", def.min, def.max)
	}
	return sparkErr(n.P, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `%s` requires %s parameters but the actual number is %d.", strings.ToLower(n.Name.Name), want, len(n.Args))
}

// callResolved applies a function to resolved arguments (operators such
// as || that are functions in Spark).
func (r *resolver) callResolved(name string, args []*rx, pos int) (*rx, error) {
	def := lookupFunc(name)
	c := &fcall{r: r, def: def, node: &Call{Name: Ident{Name: name}, P: pos}, args: args, ctx: &ectx{}}
	var names []string
	for _, a := range args {
		names = append(names, a.name)
	}
	c.name = name + "(" + strings.Join(names, ", ") + ")"
	if err := calendarArgs(c); err != nil {
		return nil, err
	}
	return def.impl(c)
}

// lambdaCapture collects what a lambda body reads from outside the lambda
// (columns, enclosing lambdas' variables): DuckDB's list_reduce misaligns
// such values between rows when lists differ in length, so a fold's body
// reads them from its element (elem.c.kN) instead.
type lambdaCapture struct {
	elem  string // the element's lambda variable
	items []*rx  // the captured values, in their own SQL
}

func (lc *lambdaCapture) add(x *rx) *rx {
	k := -1
	for i, it := range lc.items {
		if it.sql == x.sql {
			k = i
		}
	}
	if k < 0 {
		k = len(lc.items)
		lc.items = append(lc.items, x)
	}
	y := mk(x.t, lc.elem+".c.k"+strconv.Itoa(k), x.name, x)
	y.pos, y.outer, y.foldable = x.pos, x.outer, x.foldable
	return y
}

// capturesSQL is the struct of the captured values (as evaluated in the
// element's list_transform) and its DuckDB type.
func (lc *lambdaCapture) capturesSQL() (string, string) {
	var vals, types []string
	for i, it := range lc.items {
		vals = append(vals, "'k"+strconv.Itoa(i)+"': "+it.sql)
		types = append(types, "k"+strconv.Itoa(i)+" "+it.t.DuckDB())
	}
	return "{" + strings.Join(vals, ", ") + "}", "STRUCT(" + strings.Join(types, ", ") + ")"
}

// foldLambda resolves a fold's lambda (acc, x) -> ... whose parameters are
// the given SQL expressions, capturing outside values into cap.
func (c *fcall) foldLambda(i int, cap *lambdaCapture, params []*rx) (*rx, error) {
	lam, ok := c.node.Args[i].(*Lambda)
	if !ok {
		return nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "The %s argument of %s must be a lambda function (x -> ...).", ordinal(i+1), c.def.name)
	}
	if len(lam.Params) != len(params) {
		return nil, sparkErr(lam.P, "INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH", "Invalid lambda function call. A higher order function expects %d arguments, but got %d.", len(params), len(lam.Params))
	}
	inner := &scope{parent: c.sc, ctes: c.sc.ctes, lambdas: map[string]*rx{}, lambda: true, capture: cap}
	for j, p := range lam.Params {
		inner.lambdas[strings.ToLower(p.Name)] = params[j]
	}
	body, err := c.r.expr(lam.Body, inner, c.ctx)
	if err != nil {
		return nil, err
	}
	c.noteLambda(i, body)
	return body, nil
}

// lambda resolves a lambda argument with parameters of the given types.
func (c *fcall) lambda(i int, types ...*Type) (*rx, []string, error) {
	lam, ok := c.node.Args[i].(*Lambda)
	if !ok {
		return nil, nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "The %s argument of %s must be a lambda function (x -> ...).", ordinal(i+1), c.def.name)
	}
	if len(lam.Params) > len(types) || (len(lam.Params) < len(types) && !lambdaOptionalParams(c.def.name, len(lam.Params))) {
		return nil, nil, sparkErr(lam.P, "INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH", "Invalid lambda function call. A higher order function expects %d arguments, but got %d.", len(types), len(lam.Params))
	}
	inner := &scope{parent: c.sc, ctes: c.sc.ctes, lambdas: map[string]*rx{}, lambda: true}
	var names []string
	for j, p := range lam.Params {
		v := c.r.lambdaName()
		inner.lambdas[strings.ToLower(p.Name)] = &rx{t: types[j], sql: v, isLambdaVar: true}
		names = append(names, v)
	}
	body, err := c.r.expr(lam.Body, inner, c.ctx)
	if err != nil {
		return nil, nil, err
	}
	c.noteLambda(i, body)
	return body, names, nil
}

// noteLambda keeps a resolved lambda body's name for the call's name.
func (c *fcall) noteLambda(i int, body *rx) {
	if c.lambdaNames == nil {
		c.lambdaNames = map[int]string{}
	}
	c.lambdaNames[i] = body.name
	c.bodies = append(c.bodies, body)
}

// lambdaOptionalParams: transform and filter take (x) or (x, i).
func lambdaOptionalParams(fn string, n int) bool {
	switch fn {
	case "transform", "filter":
		return n == 1
	}
	return false
}

// aggOut builds an aggregate (or window function) result: parts are the
// bare aggregate calls, combined by format (with %[1]s, %[2]s, ...), so
// that FILTER and OVER can be attached to each call.
func (c *fcall) aggOut(t *Type, format string, parts ...string) *rx {
	x := c.out(t, "")
	x.aggFmt, x.aggParts = format, parts
	x.sql = x.aggSQL()
	return x
}

func (x *rx) aggSQL() string {
	args := make([]any, len(x.aggParts))
	for i, p := range x.aggParts {
		args[i] = p
	}
	return fmt.Sprintf(x.aggFmt, args...)
}

// --------------------------------------------------------------- windows

// window resolves f(...) OVER (...).
func (r *resolver) window(n *Call, def *fnDef, sc *scope, ctx *ectx) (*rx, error) {
	if !ctx.winOK {
		if ctx.clause == "WHERE" {
			return nil, sparkErr(n.P, "WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE", "Window function %s is not allowed in the WHERE clause.", strings.ToLower(n.Name.Name))
		}
		return nil, sparkErr(n.P, "UNSUPPORTED_EXPR_FOR_WINDOW", "Window functions are not allowed here: use them in the select list, QUALIFY or ORDER BY.")
	}
	if !def.win && !def.agg {
		return nil, sparkErr(n.P, "UNSUPPORTED_EXPR_FOR_WINDOW", "Expression %q not supported within a window function.", strings.ToLower(n.Name.Name))
	}
	spec, err := r.windowSpec(n.Over, sc)
	if err != nil {
		return nil, err
	}
	if err := orderedWindowRefused(n, def, spec); err != nil {
		return nil, err
	}
	wctx := ctx.with(func(c *ectx) { c.winOK = false; c.inAgg = false })
	inner := *n
	inner.Over = nil
	x, err := r.callWith(&inner, def, sc, wctx.with(func(c *ectx) { c.aggOK = true; c.overArgs = true }))
	if err != nil {
		return nil, err
	}
	var parts, names []string
	kids := append([]*rx{}, x.kids...)
	if len(spec.PartitionBy) > 0 {
		var ps, pn []string
		for _, e := range spec.PartitionBy {
			p, err := r.expr(e, sc, wctx)
			if err != nil {
				return nil, err
			}
			ps = append(ps, p.sql)
			pn = append(pn, p.name)
			kids = append(kids, p)
		}
		parts = append(parts, "PARTITION BY "+strings.Join(ps, ", "))
		names = append(names, "PARTITION BY "+strings.Join(pn, ", "))
	}
	var orderTypes []*Type
	if len(spec.OrderBy) > 0 {
		var os, on []string
		for _, it := range spec.OrderBy {
			o, err := r.expr(it.X, sc, wctx)
			if err != nil {
				return nil, err
			}
			kids = append(kids, o)
			orderTypes = append(orderTypes, o.t)
			dir, nulls := "ASC", "FIRST"
			if it.Desc {
				dir, nulls = "DESC", "LAST"
			}
			if it.Nulls != "" {
				nulls = it.Nulls
			}
			os = append(os, r.orderKey(o.sql, o.t)+" "+dir+" NULLS "+nulls)
			on = append(on, o.name+" "+dir+" NULLS "+nulls)
		}
		parts = append(parts, "ORDER BY "+strings.Join(os, ", "))
		names = append(names, "ORDER BY "+strings.Join(on, ", "))
	} else if def.win && windowNeedsOrder(def.name) {
		return nil, sparkErr(n.P, "WINDOW_FUNCTION_FRAME_NOT_ORDERED", "Window function %s requires window to be ordered, please add ORDER BY clause. For example SELECT %s OVER (PARTITION BY window_partition ORDER BY window_ordering) from table.", x.name, x.name)
	}
	frameName, frameSQL, err := r.frame(spec, def, len(spec.OrderBy) > 0, sc)
	if err != nil {
		return nil, err
	}
	if frameSQL != "" {
		parts = append(parts, frameSQL)
	}
	if x.frameName != "" {
		frameName = x.frameName
	}
	names = append(names, frameName)
	if err := r.rangeFrameType(spec, orderTypes, "("+strings.Join(names, " ")+")"); err != nil {
		return nil, err
	}
	over := " OVER (" + strings.Join(parts, " ") + ")"
	out := mk(x.t, "", x.name+" OVER ("+strings.Join(names, " ")+")", kids...)
	if n.Distinct {
		return nil, sparkErr(n.P, "DISTINCT_WINDOW_FUNCTION_UNSUPPORTED", "Distinct window functions are not supported: %q.", out.name)
	}
	if x.aggParts == nil {
		return nil, unsupported(n.P, "", "%s as a window function", x.name)
	}
	if def.name == "skewness" || def.name == "kurtosis" {
		// spark_moment folds a list per row: quadratic in the frame (20,000
		// rows of a running frame took 29 s).
		return nil, unsupported(n.P, "aggregate in a grouped subquery and join it back", "%s as a window function", def.name)
	}
	out.aggFmt = x.aggFmt
	calls := x.aggParts
	if x.winParts != nil {
		calls = x.winParts
	}
	for _, p := range calls {
		out.aggParts = append(out.aggParts, p+over)
	}
	out.sql = out.aggSQL()
	if guard := r.rangeGuard(spec, sc); guard != "" {
		out.sql = "CASE WHEN " + guard + " ELSE " + out.sql + " END"
	}
	out.isWin, out.hasWin = true, true
	return out, nil
}

// rangeGuard: a RANGE frame with value offsets computes the order key plus
// or minus the offset in the key's type, and Spark fails when that
// overflows; the guard raises the same error ("" when no overflow can
// happen).
func (r *resolver) rangeGuard(w *WindowSpec, sc *scope) string {
	f := w.Frame
	if f == nil || f.Unit != "RANGE" || len(w.OrderBy) != 1 {
		return ""
	}
	key, err := r.expr(w.OrderBy[0].X, sc, &ectx{aggOK: true})
	if err != nil || !key.t.isIntegral() {
		return ""
	}
	lim := map[Kind][2]string{KByte: {"-128", "127"}, KShort: {"-32768", "32767"}, KInt: {"-2147483648", "2147483647"}, KLong: {"-9223372036854775808", "9223372036854775807"}}[key.t.Kind]
	class := "ARITHMETIC_OVERFLOW"
	if key.t.Kind == KByte || key.t.Kind == KShort {
		class = "BINARY_ARITHMETIC_OVERFLOW"
	}
	var conds []string
	for _, b := range []*Bound{f.Start, f.End} {
		if b == nil || b.Offset == nil {
			continue
		}
		off, err := r.expr(b.Offset, &scope{}, &ectx{})
		if err != nil {
			return ""
		}
		op, limit := "-", lim[0]
		cmp := "<"
		if b.Kind == "FOLLOWING" {
			op, limit, cmp = "+", lim[1], ">"
		}
		conds = append(conds, fmt.Sprintf("CAST(%s AS HUGEINT) %s CAST(%s AS HUGEINT) %s %s", key.sql, op, off.sql, cmp, limit))
	}
	if len(conds) == 0 {
		return ""
	}
	return "(" + strings.Join(conds, " OR ") + ") THEN error(" + sqlq("["+class+"] The window frame's bound overflows the order key's type "+key.t.String()+". Use `try_add` to ignore overflow problem and return NULL.") + ")"
}

// rangeFrameType is Spark's check of a RANGE frame's value offsets
// against a date or timestamp order key (WindowSpecDefinition's
// isValidFrameType; WindowFrameCoercion does not cast offsets to these
// keys' types): a date takes an INT or an interval, a timestamp an
// interval. spec names the window in the message.
func (r *resolver) rangeFrameType(w *WindowSpec, orderTypes []*Type, spec string) error {
	f := w.Frame
	if f == nil || f.Unit != "RANGE" || len(orderTypes) != 1 {
		return nil
	}
	key := orderTypes[0]
	if key.Kind != KDate && key.Kind != KTimestamp && key.Kind != KTimestampNTZ {
		return nil
	}
	for _, b := range []*Bound{f.Start, f.End} {
		if b == nil || b.Offset == nil {
			continue
		}
		off, err := r.expr(b.Offset, &scope{}, &ectx{})
		if err != nil {
			return nil // reported by the frame itself
		}
		ok := off.t.Kind == KIntervalYM || off.t.Kind == KIntervalDT || (key.Kind == KDate && off.t.Kind == KInt)
		if !ok {
			return sparkErr(b.Offset.Pos(), "DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE", "Cannot resolve %s due to data type mismatch: The data type %q used in the order specification does not support the data type %q which is used in the range frame.",
				quoteSparkSQL(spec), strings.ToUpper(key.String()), strings.ToUpper(off.t.String()))
		}
	}
	return nil
}

func windowNeedsOrder(name string) bool {
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead":
		return true
	}
	return false
}

// windowSpec resolves OVER name and (name ...) against the WINDOW clause.
func (r *resolver) windowSpec(w *WindowSpec, sc *scope) (*WindowSpec, error) {
	if w.Name == "" {
		return w, nil
	}
	var base *WindowSpec
	for s := sc; s != nil && base == nil; s = s.parent {
		base = s.windows[strings.ToLower(w.Name)]
	}
	if base == nil {
		return nil, sparkErr(w.P, "MISSING_WINDOW_SPECIFICATION", "Window specification %s is not defined in the WINDOW clause.", w.Name)
	}
	out := *base
	if w.Paren && (len(w.PartitionBy) > 0 || len(w.OrderBy) > 0 || w.Frame != nil) {
		return nil, errAt(w.P, fmt.Sprintf("Syntax error at or near '%s': a named window cannot be refined in OVER", w.Name))
	}
	if w.Paren {
		if len(w.PartitionBy) > 0 {
			out.PartitionBy = w.PartitionBy
		}
		if len(w.OrderBy) > 0 {
			out.OrderBy = w.OrderBy
		}
		if w.Frame != nil {
			out.Frame = w.Frame
		}
	}
	return r.windowSpec(&out, sc)
}

// frame returns the frame's Spark name and DuckDB SQL ("" for DuckDB's
// default, which is Spark's).
func (r *resolver) frame(w *WindowSpec, def *fnDef, ordered bool, sc *scope) (string, string, error) {
	if w.Frame == nil {
		switch {
		case def.name == "lag" || def.name == "lead":
			return "", "", nil // named by the function itself
		case def.win:
			return "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", "", nil
		case ordered:
			return "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", "", nil
		}
		return "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING", "", nil
	}
	if def.win && def.name != "first_value" && def.name != "last_value" && def.name != "nth_value" {
		return "", "", sparkErr(w.P, "INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC", "Cannot specify ORDER BY or a window frame for %s.", def.name)
	}
	bound := func(b *Bound) (string, string, error) {
		if b.Offset == nil {
			return b.Kind, b.Kind, nil
		}
		x, err := r.expr(b.Offset, &scope{}, &ectx{})
		if err != nil {
			return "", "", err
		}
		if !x.foldable || (!x.t.isNumeric() && x.t.Kind != KIntervalDT && x.t.Kind != KIntervalYM) {
			return "", "", sparkErr(b.Offset.Pos(), "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE", "The data type used in the window frame must be numeric or an interval constant.")
		}
		if w.Frame.Unit == "ROWS" && !x.t.isIntegral() {
			return "", "", sparkErr(b.Offset.Pos(), "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE", "ROWS frame offsets must be integers.")
		}
		name := x.name + " " + b.Kind
		if b.Kind == "PRECEDING" && w.Frame.Unit == "ROWS" {
			name = "-" + x.name + " FOLLOWING"
		}
		return name, x.sql + " " + b.Kind, nil
	}
	sn, ss, err := bound(w.Frame.Start)
	if err != nil {
		return "", "", err
	}
	end := w.Frame.End
	if end == nil {
		end = &Bound{Kind: "CURRENT ROW"}
	}
	en, es, err := bound(end)
	if err != nil {
		return "", "", err
	}
	if w.Frame.Unit == "RANGE" && (w.Frame.Start.Offset != nil || end.Offset != nil) && len(w.OrderBy) != 1 {
		return "", "", sparkErr(w.P, "DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER", "A range window frame with value boundaries cannot be used in a window specification with multiple order by expressions.")
	}
	return w.Frame.Unit + " BETWEEN " + sn + " AND " + en, w.Frame.Unit + " BETWEEN " + ss + " AND " + es, nil
}

// FunctionsMarkdown is the docs' table of Spark functions and how each
// runs locally.
func FunctionsMarkdown() string {
	var b strings.Builder
	counts := map[Support]int{}
	fs := Functions()
	for _, f := range fs {
		counts[f.Support]++
	}
	fmt.Fprintf(&b, "Spark 4.2 has %d built-in functions: %d run as the DuckDB function of the same meaning (same), %d are rewritten into other DuckDB expressions (rewritten), %d are emulated by macros of ours (macro) and %d are rejected at validation (unsupported).\n\n",
		len(fs), counts[Same], counts[Rewritten], counts[Macro], counts[Unsupported])
	b.WriteString("| function | local support | note |\n|---|---|---|\n")
	for _, f := range fs {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Name, f.Support, strings.ReplaceAll(f.Note, "|", "\\|"))
	}
	return b.String()
}
