package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/dialect/spark"
	"github.com/laktory/workbench/runner/frame"
	"github.com/laktory/workbench/runner/schemaflow"
	"github.com/laktory/workbench/workspace"
)

// frameEnv is what a node's func_name steps translate with: its
// dataframe_backend (Laktory's default PYSPARK) and dataframe_api
// (NARWHALS by default), and for PYSPARK its session time zone.
func frameEnv(n *workspace.Node) frame.Env {
	env := frame.Env{Backend: frame.PySpark, API: frame.Narwhals, Spark: spark.Options(n)}
	if n.DataframeBackend == "POLARS" {
		env.Backend = frame.Polars
	}
	if n.DataframeAPI == "NATIVE" {
		env.API = frame.Native
	}
	return env
}

// frameStep is a func_name step as runner/frame takes it: func_args then
// func_kwargs, as Laktory calls the method.
func frameStep(st *workspace.Step) frame.Step {
	fs := frame.Step{Func: st.FuncName}
	switch st.DataframeAPI {
	case "NATIVE":
		fs.API = frame.Native
	case "NARWHALS":
		fs.API = frame.Narwhals
	}
	for _, a := range st.FuncArgs {
		fs.Args = append(fs.Args, frame.Arg{Value: a.Value})
	}
	for _, a := range st.FuncKwargs {
		fs.Args = append(fs.Args, frame.Arg{Name: a.Name, Value: a.Value})
	}
	return fs
}

// nodeRef matches an argument naming another node's output, as Laktory
// resolves it ({nodes.x}).
var nodeRef = regexp.MustCompile(`^\{nodes\.(.+)\}$`)

// nodeRefs are the nodes a step's arguments name ({nodes.x}), in order.
func nodeRefs(st *workspace.Step) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if m := nodeRef.FindStringSubmatch(strings.TrimSpace(x)); m != nil && !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, m[1])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k])
			}
		}
	}
	for _, a := range st.FuncArgs {
		walk(a.Value)
	}
	for _, a := range st.FuncKwargs {
		walk(a.Value)
	}
	return out
}

// funcSQL translates a func_name step over the view df with runner/frame
// (the node's backend and dataframe_api, the step's own api): the named
// sources of the node and the nodes its arguments name ({nodes.x}) are
// its other inputs. It returns the query and its columns.
func (c *compiler) funcSQL(ctx context.Context, st *workspace.Step, df string) (string, []column, error) {
	if df == "" {
		return "", nil, fmt.Errorf("%w: func_name %s needs a DataFrame to call it on: the node has no source", ErrStep, st.FuncName)
	}
	cols, err := c.columns(ctx, df)
	if err != nil {
		return "", nil, err
	}
	in := frame.Input{Ref: "df", Relation: df, Columns: frameColumns(cols)}
	var named []frame.Input
	for _, name := range sortedKeys(c.sources) {
		v := c.sources[name]
		cols, err := c.columns(ctx, v)
		if err != nil {
			return "", nil, err
		}
		named = append(named, frame.Input{Ref: "sources." + name, Relation: v, Columns: frameColumns(cols)})
	}
	for _, name := range nodeRefs(st) {
		v, err := c.resolveRef(ctx, "{nodes."+name+"}", df)
		if err != nil {
			return "", nil, err
		}
		cols, err := c.columns(ctx, v)
		if err != nil {
			return "", nil, err
		}
		named = append(named, frame.Input{Ref: "nodes." + name, Relation: v, Columns: frameColumns(cols)})
	}
	res, err := frame.Compile(frameEnv(c.n), frameStep(st), in, named)
	if err != nil {
		return "", nil, c.frameError(st, err)
	}
	out := make([]column, len(res.Columns))
	for i, col := range res.Columns {
		out[i] = column{Name: col.Name, Type: col.Type}
	}
	return res.SQL, out, nil
}

// frameError is runner/frame's refusal of a step: a run's error naming the
// argument, or, when checking, a problem placed at the argument (at the
// offset in its text when the argument is one string).
func (c *compiler) frameError(st *workspace.Step, err error) error {
	var fe *frame.Error
	if !errors.As(err, &fe) {
		return fmt.Errorf("%w: func_name %s: %w", ErrStep, st.FuncName, err)
	}
	what := fmt.Sprintf("transformer step #%d (func_name: %s)", st.Index+1, st.FuncName)
	if m := missingColumn.FindStringSubmatch(fe.Msg); m != nil && strings.ContainsAny(m[1], " ()<>=!+*/'") {
		// SQL where narwhals and Polars read a column name.
		fe.Hint = joinHint(fe.Hint, fmt.Sprintf("a string argument is a column name in Laktory's %s api: write the expression with nw.col(...) (or sql_expr(%q) on POLARS)", frameEnv(c.n).API, m[1]))
	}
	at, offset := st.At("func_name"), -1
	if a, ok := stepArg(st, fe.Arg); ok {
		what = fmt.Sprintf("%s of %s", fe.Arg, what)
		at = a.Pos
		if _, isStr := a.Value.(string); isStr && fe.Pos >= 0 {
			offset = fe.Pos
		}
	}
	if c.bind != nil {
		kind := schemaflow.FrameUnsupported
		if errors.Is(err, frame.ErrLaktory) {
			kind = schemaflow.FrameFails
		}
		c.bind.problems = append(c.bind.problems, schemaflow.Problem{Kind: kind, What: what, At: at, Offset: offset, Message: fe.Msg, Hint: fe.Hint})
		return errStop
	}
	msg := fe.Msg
	if fe.Hint != "" {
		msg += " (" + fe.Hint + ")"
	}
	if errors.Is(err, frame.ErrLaktory) {
		msg = "Laktory 0.13.1 fails: " + msg
	} else {
		msg = "cannot run locally: " + msg
	}
	return &frameStepError{msg: fmt.Sprintf("%v: %s: %s", ErrStep, what, msg), base: ErrStep, err: fe}
}

// frameStepError is a step or expectation runner/frame refuses: errors.Is
// matches base (ErrStep, ErrExpectation) and frame.ErrLaktory or
// frame.ErrUnsupported.
type frameStepError struct {
	msg  string
	base error
	err  *frame.Error
}

func (e *frameStepError) Error() string   { return e.msg }
func (e *frameStepError) Unwrap() []error { return []error{e.base, e.err} }

// missingColumn matches the missing column of Polars' and narwhals'
// messages.
var missingColumn = regexp.MustCompile(`(?:Missing column: |unable to find column ")(.+?)"?(?:;|$)`)

func joinHint(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// stepArg finds the argument runner/frame names "func_args[i]" or
// "func_kwargs.name".
func stepArg(st *workspace.Step, name string) (workspace.Arg, bool) {
	if k, ok := strings.CutPrefix(name, "func_kwargs."); ok {
		for _, a := range st.FuncKwargs {
			if a.Name == k {
				return a, true
			}
		}
		return workspace.Arg{}, false
	}
	var i int
	if _, err := fmt.Sscanf(name, "func_args[%d]", &i); err == nil && i >= 0 && i < len(st.FuncArgs) {
		return st.FuncArgs[i], true
	}
	return workspace.Arg{}, false
}

func frameColumns(cols []column) []frame.Column {
	out := make([]frame.Column, len(cols))
	for i, c := range cols {
		out[i] = frame.Column{Name: c.Name, Type: c.Type}
	}
	return out
}

// columnExpr is a column name quoted, or an expression of the node's
// dialect over df, translated.
func (c *compiler) columnExpr(ctx context.Context, s, df string, o origin) (string, error) {
	if isIdent(s) {
		return c.ident(s, o), nil
	}
	return c.translate(ctx, dialect.Expression, s, df, o)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// funcStep applies a func_name step to the view df: the view of its
// translation, with the columns runner/frame typed (a column DuckDB would
// type otherwise is cast to frame's type, so the next step and the sink
// see the backend's type).
func (c *compiler) funcStep(ctx context.Context, st *workspace.Step, df string) (string, error) {
	q, want, err := c.funcSQL(ctx, st, df)
	if err != nil {
		return "", err
	}
	v, err := c.s.view(ctx, "step", q)
	if err != nil {
		return "", fmt.Errorf("%w: func_name %s: %w", ErrStep, st.FuncName, err)
	}
	got, err := c.columns(ctx, v)
	if err != nil {
		return "", fmt.Errorf("%w: func_name %s: %w", ErrStep, st.FuncName, err)
	}
	if len(got) != len(want) {
		return "", fmt.Errorf("%w: func_name %s: the translation gives %d columns, %d typed", ErrStep, st.FuncName, len(got), len(want))
	}
	var casts []string
	cast := false
	for i, g := range got {
		casts = append(casts, quoteIdent(g.Name))
		if g.Name != want[i].Name {
			return "", fmt.Errorf("%w: func_name %s: the translation names column %d %q, typed as %q", ErrStep, st.FuncName, i+1, g.Name, want[i].Name)
		}
		if !strings.EqualFold(g.Type, want[i].Type) {
			casts[i] = fmt.Sprintf("CAST(%s AS %s) AS %s", quoteIdent(g.Name), want[i].Type, quoteIdent(g.Name))
			cast = true
		}
	}
	if !cast {
		return v, nil
	}
	v, err = c.s.view(ctx, "step", "SELECT "+strings.Join(casts, ", ")+" FROM "+quoteIdent(v))
	if err != nil {
		return "", fmt.Errorf("%w: func_name %s: %w", ErrStep, st.FuncName, err)
	}
	c.cols[v] = want
	return v, nil
}

// dfCall and dfMarkers are how Laktory 0.13.1 tells an expectation's
// DataFrame expression from SQL (DataFrameColumnExpr.guess_type).
var (
	dfCall    = regexp.MustCompile(`\w+\.\w+\(`)
	dfMarkers = []string{"lit(", "col(", "F.", "nw.", "pl."}
)

// dfExpectation reports whether Laktory evaluates an expectation's expr as
// a narwhals expression (eval with nw, col and lit in scope: expectations
// are always checked on the NARWHALS api) rather than as SQL.
func dfExpectation(expr string) bool {
	clean := strings.ReplaceAll(strings.TrimSpace(expr), "\n", " ")
	if dfCall.MatchString(clean) {
		return true
	}
	for _, k := range dfMarkers {
		if strings.Contains(clean, k) {
			return true
		}
	}
	return false
}

// sqlExprName matches a call of sql_expr, which the scope of an
// expectation's eval lacks.
var sqlExprName = regexp.MustCompile(`(^|[^\w.])sql_expr\s*\(`)

// frameExpectations are a node's expectations written as narwhals
// expressions, translated by runner/frame over the relation rel.
type frameExpectations struct {
	// rel is rel with one column per ROW expectation (cols), "" when none.
	rel  string
	cols map[int]string
	// agg is the one-row query of each AGGREGATE expectation.
	agg map[int]string
	// types are the DuckDB types of their results.
	types map[int]string
}

// expectColumn names the column of ROW expectation i.
func expectColumn(i int) string { return fmt.Sprintf("__laktory_expectation_%d", i) }

// dfExpectations translates the DataFrame-expression expectations of the
// node over rel (as Laktory checks them: a ROW one filters the rows, an
// AGGREGATE one is selected); when checking, what runner/frame refuses is
// a problem at the expectation, and the others are still translated.
func (c *compiler) dfExpectations(ctx context.Context, rel string) (frameExpectations, error) {
	fx := frameExpectations{cols: map[int]string{}, agg: map[int]string{}, types: map[int]string{}}
	cols, err := c.columns(ctx, rel)
	if err != nil {
		return fx, err
	}
	in := frame.Input{Ref: "df", Relation: rel, Columns: frameColumns(cols)}
	env := frameEnv(c.n)
	env.API = frame.Narwhals
	row := frame.Step{Func: "with_columns", API: frame.Narwhals}
	var rowIdx []int
	for i, e := range c.n.Expectations {
		if !dfExpectation(e.Expr) {
			continue
		}
		if m := sqlExprName.FindStringIndex(e.Expr); m != nil {
			if err := c.expectationError(e, &frame.Error{Pos: m[0], Msg: "NameError: name 'sql_expr' is not defined (an expectation's narwhals expression sees nw, col and lit)",
				Hint: "write the expectation as SQL (without nw./col(/lit() for Laktory's SQL parser)"}, frame.ErrLaktory); err != nil {
				return fx, err
			}
			continue
		}
		if !strings.EqualFold(e.Type, "AGGREGATE") {
			row.Args = append(row.Args, frame.Arg{Name: expectColumn(i), Value: e.Expr})
			rowIdx = append(rowIdx, i)
			continue
		}
		res, err := frame.Compile(env, frame.Step{Func: "select", API: frame.Narwhals, Args: []frame.Arg{{Value: e.Expr}}}, in, nil)
		if err != nil {
			if err := c.expectationError(e, err, nil); err != nil {
				return fx, err
			}
			continue
		}
		fx.agg[i], fx.types[i] = res.SQL, res.Columns[len(res.Columns)-1].Type
	}
	for len(row.Args) > 0 {
		res, err := frame.Compile(env, row, in, nil)
		if err == nil {
			if fx.rel, err = c.s.view(ctx, "expect", res.SQL); err != nil {
				return fx, fmt.Errorf("%w: %s: expectations: %w", ErrExpectation, c.where(), err)
			}
			for k, i := range rowIdx {
				fx.cols[i] = expectColumn(i)
				fx.types[i] = res.Columns[len(cols)+k].Type
			}
			break
		}
		// The expectation it names is reported; the others are tried again.
		var fe *frame.Error
		k := -1
		if errors.As(err, &fe) {
			for j, i := range rowIdx {
				if fe.Arg == "func_kwargs."+expectColumn(i) {
					k = j
				}
			}
		}
		if k < 0 {
			return fx, fmt.Errorf("%w: %s: expectations: %w", ErrExpectation, c.where(), err)
		}
		if err := c.expectationError(c.n.Expectations[rowIdx[k]], err, nil); err != nil {
			return fx, err
		}
		row.Args = append(row.Args[:k:k], row.Args[k+1:]...)
		rowIdx = append(rowIdx[:k:k], rowIdx[k+1:]...)
	}
	return fx, nil
}

// expectationError is runner/frame's refusal of an expectation: a run's
// error, or a problem when checking (nil returned: carry on).
func (c *compiler) expectationError(e *workspace.Expectation, err error, kind error) error {
	var fe *frame.Error
	if !errors.As(err, &fe) {
		return fmt.Errorf("%w: %s: expectation '%s': %w", ErrExpectation, c.where(), e.Name, err)
	}
	if kind == nil {
		kind = frame.ErrUnsupported
		if errors.Is(err, frame.ErrLaktory) {
			kind = frame.ErrLaktory
		}
	}
	what := fmt.Sprintf("expectation '%s'", e.Name)
	if c.bind != nil {
		pk := schemaflow.FrameUnsupported
		if kind == frame.ErrLaktory {
			pk = schemaflow.FrameFails
		}
		off := fe.Pos
		if off < 0 {
			off = -1
		}
		c.bind.problems = append(c.bind.problems, schemaflow.Problem{Kind: pk, What: what, At: e.At("expr"), Offset: off, Message: fe.Msg, Hint: fe.Hint})
		return nil
	}
	msg := fe.Msg
	if fe.Hint != "" {
		msg += " (" + fe.Hint + ")"
	}
	if kind == frame.ErrLaktory {
		msg = "Laktory 0.13.1 fails: " + msg
	} else {
		msg = "cannot run locally: " + msg
	}
	return &frameStepError{msg: fmt.Sprintf("%v: %s: %s: %s", ErrExpectation, c.where(), what, msg), base: ErrExpectation, err: fe}
}

// pandasUnmodelled adds the LK154 problem of each narwhals expectation of
// a PYSPARK node (translated in fx, over df) whose check may count
// otherwise than Laktory 0.13.1's: Laktory counts a ROW expectation's
// failures, and computes an AGGREGATE one, on a pandas copy of the frame
// (DataQualityExpectation._check_df), where a NULL or NaN operand makes
// a comparison false (!= true) instead of NULL, and aggregates skip NaN;
// the local check is Spark's. A SQL expectation's check models pandas
// (dialect.Result.Check); a narwhals one's does not, so it is refused
// where the difference can show: it reads a float column (a NaN), or as
// a ROW expectation it is NULL where every column is NULL, or reads
// several columns (one NULL among them can make it NULL). What is never
// NULL over one column (nw.col('x').is_null(), fill_null) is kept.
func (c *compiler) pandasUnmodelled(ctx context.Context, df string, fx frameExpectations) {
	cols, err := c.columns(ctx, df)
	if err != nil {
		return
	}
	nulls := make([]string, len(cols))
	for i, col := range cols {
		nulls[i] = fmt.Sprintf("NULL::%s AS %s", col.Type, quoteIdent(col.Name))
	}
	in := frame.Input{Ref: "df", Relation: df, Columns: frameColumns(cols)}
	env := frameEnv(c.n)
	env.API = frame.Narwhals
	for i, e := range c.n.Expectations {
		_, row := fx.cols[i]
		_, agg := fx.agg[i]
		if t := fx.types[i]; !dfExpectation(e.Expr) || (!row && !agg) || (t != "BOOLEAN" && !strings.Contains(t, "NULL")) {
			continue // SQL, or refused already (not a condition: LK304)
		}
		step := frame.Step{Func: "with_columns", API: frame.Narwhals, Args: []frame.Arg{{Name: expectColumn(i), Value: e.Expr}}}
		res, err := frame.Compile(env, step, in, nil)
		if err != nil {
			continue // refused already (fx has no translation)
		}
		read, floats := res.Reads, floatColumns(res.Reads, cols)
		why := ""
		switch {
		case len(floats) > 0:
			why = fmt.Sprintf("%s is a float column, and pandas takes a NaN for a missing value (Spark compares NaN as equal to itself and greater than every number)", floats[0])
		case agg:
			continue // pandas and Spark both skip NULLs
		case len(read) > 1:
			why = fmt.Sprintf("it reads %s, and a NULL in any of them can make it NULL", strings.Join(read, ", "))
		default:
			var isNull *bool
			probe := fmt.Sprintf("WITH %s AS (SELECT %s) SELECT %s IS NULL FROM (%s)", quoteIdent(df), strings.Join(nulls, ", "), quoteIdent(expectColumn(i)), res.SQL)
			if err := c.s.queryRow(ctx, probe, &isNull); err != nil || isNull == nil || !*isNull {
				continue
			}
			what := "it"
			if len(read) == 1 {
				what = read[0]
			}
			why = fmt.Sprintf("it is NULL where %s is NULL", what)
		}
		c.bind.problems = append(c.bind.problems, schemaflow.Problem{Kind: schemaflow.PandasUnmodelled,
			What: fmt.Sprintf("expectation '%s'", e.Name), At: e.At("expr"), Offset: -1,
			Message: "a narwhals expression on PYSPARK, which Laktory 0.13.1 checks on a pandas copy of the frame, where a missing value in a comparison makes it false (!= true), not NULL: " +
				why + "; local runs model that for SQL expectations only, so the fails count and the verdict could differ",
			Hint: "write the expectation in SQL (Laktory's SQL parser), e.g. x > 2, or say what a missing value means (nw.col('x').fill_null(0) > 2)"})
	}
}

// floatColumns are those of the columns read (the frame front end's
// Result.Reads) that cols types as floats.
func floatColumns(read []string, cols []column) []string {
	var floats []string
	for _, col := range cols {
		if !slices.Contains(read, col.Name) {
			continue
		}
		if t := strings.ToUpper(col.Type); t == "DOUBLE" || t == "FLOAT" || t == "REAL" {
			floats = append(floats, col.Name)
		}
	}
	return floats
}
