package sparksql

import (
	"fmt"
	"strconv"
	"strings"
)

// generatorDef is a table-generating function (explode and friends).
type generatorDef struct {
	name  string
	kind  string // explode, posexplode, inline
	outer bool
}

var generators = map[string]*generatorDef{
	"explode":          {"explode", "explode", false},
	"explode_outer":    {"explode_outer", "explode", true},
	"posexplode":       {"posexplode", "posexplode", false},
	"posexplode_outer": {"posexplode_outer", "posexplode", true},
	"inline":           {"inline", "inline", false},
	"inline_outer":     {"inline_outer", "inline", true},
	// json_tuple gives one row per input row, NULLs for a NULL input:
	// OUTER changes nothing.
	"json_tuple": {"json_tuple", "json_tuple", true},
	// stack(n, e1, ..., ek): n rows of ceil(k / n) columns.
	"stack": {"stack", "stack", true},
}

func generatorFor(name string) *generatorDef { return generators[strings.ToLower(name)] }

func (g *generatorDef) outerVariant() *generatorDef {
	if g.outer {
		return g
	}
	return generators[g.name+"_outer"]
}

// generator resolves a generator call over the columns of sc: it returns
// the lateral join that produces its rows and its output columns.
func (r *resolver) generator(call *Call, g *generatorDef, aliases []Ident, alias *Ident, sc *scope) (string, []*column, error) {
	if g.kind == "json_tuple" {
		return r.jsonTuple(call, g, aliases, alias, sc)
	}
	if g.kind == "stack" {
		return r.stack(call, g, aliases, alias, sc)
	}
	if len(call.Args) != 1 {
		return "", nil, sparkErr(call.P, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `%s` requires 1 parameters but the actual number is %d.", g.name, len(call.Args))
	}
	x, err := r.expr(call.Args[0], sc, &ectx{})
	if err != nil {
		return "", nil, err
	}
	a := r.alias()
	var outs []genOut
	src := x.sql
	switch {
	case g.kind == "inline":
		if x.t.Kind != KArray || x.t.Elem.Kind != KStruct {
			return "", nil, sparkErr(call.P, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve \"%s(%s)\" due to data type mismatch: The first parameter requires the \"ARRAY<STRUCT>\" type, however %s has the type %q.", g.name, x.name, quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
		}
		if g.outer {
			src = fmt.Sprintf("CASE WHEN len(%[1]s) > 0 THEN %[1]s ELSE [CAST(NULL AS %[2]s)] END", src, x.t.Elem.DuckDB())
		}
		for _, f := range x.t.Elem.Fields {
			outs = append(outs, genOut{f.Name, f.Type, "struct_extract(u, " + duckString(f.Name) + ")"})
		}
		var items []string
		for i, o := range outs {
			items = append(items, o.sql+" AS "+duckIdent(fmt.Sprint("c", i)))
		}
		return r.generatorCols(a, "(SELECT "+strings.Join(items, ", ")+" FROM (SELECT unnest("+src+") AS u))", outs2cols(a, outs), aliases, alias, g, call.P)
	case x.t.Kind == KArray:
		elem := "unnest(" + src + ")"
		pos := "unnest(generate_series(0, len(" + src + ") - 1))"
		if g.outer {
			elem = fmt.Sprintf("unnest(CASE WHEN len(%[1]s) > 0 THEN %[1]s ELSE [CAST(NULL AS %[2]s)] END)", src, x.t.Elem.DuckDB())
			pos = fmt.Sprintf("unnest(CASE WHEN len(%[1]s) > 0 THEN generate_series(0, len(%[1]s) - 1) ELSE [NULL] END)", src)
		}
		if g.kind == "posexplode" {
			outs = append(outs, genOut{"pos", tInt, "CAST(" + pos + " AS INTEGER)"})
		}
		outs = append(outs, genOut{"col", x.t.Elem, elem})
	case x.t.Kind == KMap:
		keys, vals := "map_keys("+src+")", "map_values("+src+")"
		pos := "generate_series(0, cardinality(" + src + ") - 1)"
		if g.outer {
			keys = fmt.Sprintf("CASE WHEN cardinality(%[1]s) > 0 THEN map_keys(%[1]s) ELSE [CAST(NULL AS %[2]s)] END", src, x.t.Key.DuckDB())
			vals = fmt.Sprintf("CASE WHEN cardinality(%[1]s) > 0 THEN map_values(%[1]s) ELSE [CAST(NULL AS %[2]s)] END", src, x.t.Val.DuckDB())
			pos = fmt.Sprintf("CASE WHEN cardinality(%[1]s) > 0 THEN generate_series(0, cardinality(%[1]s) - 1) ELSE [NULL] END", src)
		}
		if g.kind == "posexplode" {
			outs = append(outs, genOut{"pos", tInt, "CAST(unnest(" + pos + ") AS INTEGER)"})
		}
		outs = append(outs, genOut{"key", x.t.Key, "unnest(" + keys + ")"}, genOut{"value", x.t.Val, "unnest(" + vals + ")"})
	default:
		return "", nil, sparkErr(call.P, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve \"%s(%s)\" due to data type mismatch: The first parameter requires the (\"ARRAY\" or \"MAP\") type, however %s has the type %q.", g.name, x.name, quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
	}
	var items []string
	for i, o := range outs {
		items = append(items, o.sql+" AS "+duckIdent(fmt.Sprint("c", i)))
	}
	return r.generatorCols(a, "(SELECT "+strings.Join(items, ", ")+")", outs2cols(a, outs), aliases, alias, g, call.P)
}

// genOut is an output column of a generator: its name, type and SQL.
type genOut struct {
	name string
	t    *Type
	sql  string
}

func outs2cols(a string, outs []genOut) []*column {
	cols := make([]*column, len(outs))
	for i, o := range outs {
		cols[i] = &column{name: o.name, t: o.t, sql: a + "." + duckIdent(fmt.Sprint("c", i))}
	}
	return cols
}

// generatorCols names a generator's columns (AS a, b) and returns its
// lateral join.
func (r *resolver) generatorCols(a, sub string, cols []*column, aliases []Ident, alias *Ident, g *generatorDef, pos int) (string, []*column, error) {
	if alias != nil {
		aliases = []Ident{*alias}
	}
	if len(aliases) > 0 {
		if len(aliases) != len(cols) {
			return "", nil, sparkErr(pos, "UDTF_ALIAS_NUMBER_MISMATCH", "The number of aliases supplied in the AS clause does not match the number of columns output by the UDTF. Expected %d aliases, but got %s.", len(cols), strings.Join(identNames(aliases), ", "))
		}
		for i := range cols {
			cols[i].name = aliases[i].Name
		}
	}
	return "CROSS JOIN LATERAL " + sub + " AS " + a, cols, nil
}

// jsonTuple is json_tuple(json, k1, k2, ...): one row of strings c0, c1,
// ... per input row, the top-level field k of the JSON object as
// get_json_object(json, '$.k') gives it (a string unquoted, other values
// as JSON text as Jackson writes them, NULL for null, a missing field, a
// malformed text or one that is not an object). The keys must be
// literals.
func (r *resolver) jsonTuple(call *Call, g *generatorDef, aliases []Ident, alias *Ident, sc *scope) (string, []*column, error) {
	xs, names, err := r.generatorArgs(call, "json_tuple", sc)
	if err != nil {
		return "", nil, err
	}
	for _, x := range xs {
		if x.t.Kind != KString && x.t.Kind != KVoid {
			return "", nil, sparkErr(call.P, "DATATYPE_MISMATCH.NON_STRING_TYPE", "Cannot resolve \"json_tuple(%s)\" due to data type mismatch: all arguments of the function `json_tuple` must be strings.", strings.Join(names, ", "))
		}
	}
	var outs []genOut
	for i, x := range xs[1:] {
		name := fmt.Sprint("c", i)
		if x.t.Kind == KVoid {
			outs = append(outs, genOut{name, tString, "CAST(NULL AS VARCHAR)"})
			continue
		}
		if x.lit == nil || x.lit.Kind != LitString {
			return "", nil, unsupported(call.Args[i+1].Pos(), "name the fields with string literals", "json_tuple with a computed field name")
		}
		key := x.lit.Value
		if strings.ContainsAny(key, "\"\\") {
			return "", nil, unsupported(call.Args[i+1].Pos(), "", "json_tuple of a field name with a quote or a backslash")
		}
		path := `$."` + key + `"`
		outs = append(outs, genOut{name, tString, jsonDoc(xs[0].sql, "list_transform([CASE WHEN json_type(v) = 'OBJECT' THEN json_extract(v, "+duckString(path)+") END], e -> "+jsonValueText("e")+")[1]")})
	}
	a := r.alias()
	var items []string
	for i, o := range outs {
		items = append(items, o.sql+" AS "+duckIdent(fmt.Sprint("c", i)))
	}
	return r.generatorCols(a, "(SELECT "+strings.Join(items, ", ")+")", outs2cols(a, outs), aliases, alias, g, call.P)
}

// generatorArgs resolves the arguments of json_tuple and stack, which
// take more than one (else Spark's WRONG_NUM_ARGS), with the names Spark
// shows them by in its messages.
func (r *resolver) generatorArgs(call *Call, fn string, sc *scope) ([]*rx, []string, error) {
	if len(call.Args) < 2 {
		return nil, nil, sparkErr(call.P, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `%s` requires > 1 parameters but the actual number is %d.", fn, len(call.Args))
	}
	var xs []*rx
	var names []string
	for _, a := range call.Args {
		x, err := r.expr(a, sc, &ectx{})
		if err != nil {
			return nil, nil, err
		}
		xs, names = append(xs, x), append(names, x.name)
	}
	return xs, names, nil
}

// stack is stack(n, e1, ..., ek): n rows of ceil(k / n) columns col0,
// col1, ..., filled row by row (NULL after ek), as Spark's Stack: n a
// positive INT literal, the values of a column of one type (NULLs take
// it), else Spark's error class. A foldable n that is no literal is
// refused, naming it.
func (r *resolver) stack(call *Call, g *generatorDef, aliases []Ident, alias *Ident, sc *scope) (string, []*column, error) {
	xs, names, err := r.generatorArgs(call, "stack", sc)
	if err != nil {
		return "", nil, err
	}
	shown := "stack(" + strings.Join(names, ", ") + ")"
	nx := xs[0]
	// Spark's Stack.checkInputDataTypes, in its order.
	switch {
	case nx.t.Kind != KInt:
		return "", nil, sparkErr(call.P, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: The first parameter requires the \"INT\" type, however %s has the type %q.", quoteSparkSQL(shown), quoteSparkSQL(nx.name), strings.ToUpper(nx.t.String()))
	case !nx.foldable:
		return "", nil, sparkErr(call.P, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "Cannot resolve %s due to data type mismatch: the input `n` should be a foldable \"INT\" expression; however, got %s.", quoteSparkSQL(shown), quoteSparkSQL(nx.name))
	case nx.lit == nil:
		return "", nil, unsupported(call.P, "write the number of rows as an integer literal", "%s with a number of rows that is not an integer literal", shown)
	}
	n, err := strconv.Atoi(nx.lit.Value)
	if err != nil {
		return "", nil, unsupported(call.P, "write the number of rows as an integer literal", "%s with a number of rows that is not an integer literal", shown)
	}
	if n <= 0 {
		return "", nil, sparkErr(call.P, "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", "Cannot resolve %s due to data type mismatch: The `n` must be between (0, 2147483647] (current value = %d).", quoteSparkSQL(shown), n)
	}
	vals := xs[1:]
	cols := (len(vals) + n - 1) / n
	types := make([]*Type, cols)
	for i, v := range vals {
		j := i % cols
		switch {
		case v.t.Kind == KVoid:
		case types[j] == nil:
			types[j] = v.t
		case !types[j].Equal(v.t):
			// NULLs take the column's type (StackCoercion); any other
			// value must have the type of the column's first one.
			return "", nil, sparkErr(call.P, "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: The data type of the column (%d) do not have the same type: %q (%d) <> %q (%d).", quoteSparkSQL(shown), j, strings.ToUpper(types[j].String()), j+1, strings.ToUpper(v.t.String()), i+1)
		}
	}
	for j := range types {
		if types[j] == nil {
			return "", nil, unsupported(call.P, "cast the NULLs to a type", "a stack column of NULLs only")
		}
	}
	var rows []string
	for i := 0; i < n; i++ {
		var fs []string
		for j := 0; j < cols; j++ {
			v := "NULL"
			if k := i*cols + j; k < len(vals) {
				v = vals[k].sql
			}
			fs = append(fs, fmt.Sprintf("c%d := CAST(%s AS %s)", j, v, types[j].DuckDB()))
		}
		rows = append(rows, "struct_pack("+strings.Join(fs, ", ")+")")
	}
	var outs []genOut
	var items []string
	for j, t := range types {
		outs = append(outs, genOut{fmt.Sprint("col", j), t, ""})
		items = append(items, fmt.Sprintf("struct_extract(u, 'c%d') AS %s", j, duckIdent(fmt.Sprint("c", j))))
	}
	a := r.alias()
	return r.generatorCols(a, "(SELECT "+strings.Join(items, ", ")+" FROM (SELECT unnest(["+strings.Join(rows, ", ")+"]) AS u))", outs2cols(a, outs), aliases, alias, g, call.P)
}
