package frame

import (
	"errors"
	"strings"
	"testing"
)

var typingInput = Input{Ref: "df", Relation: "t", Columns: []Column{
	{"a", "BIGINT"}, {"i8", "TINYINT"}, {"i32", "INTEGER"}, {"u", "UINTEGER"}, {"x", "DOUBLE"}, {"f32", "FLOAT"},
	{"s", "VARCHAR"}, {"d", "DATE"}, {"ts", "TIMESTAMP"}, {"tz", "TIMESTAMPTZ"}, {"b", "BOOLEAN"},
	{"l", "VARCHAR[]"}, {"st", `STRUCT("sym" VARCHAR, "n" BIGINT)`},
}}

// withColumn compiles with_columns(out=expr) and returns out's type.
func withColumn(t *testing.T, env Env, expr string) (string, error) {
	t.Helper()
	r, err := Compile(env, Step{Func: "with_columns", Args: []Arg{{Name: "out", Value: expr}}}, typingInput, nil)
	if err != nil {
		return "", err
	}
	return r.Types[len(r.Types)-1], nil
}

// The Polars types of narwhals and Polars expressions (polars 1.32.0:
// dynamic literals, supertypes, the types of aggregations and namespaces).
func TestPolarsTypes(t *testing.T) {
	nw := Env{Backend: Polars, API: Narwhals}
	pl := Env{Backend: Polars, API: Native}
	for _, c := range []struct {
		env        Env
		expr, want string
	}{
		{nw, `nw.col("a") + 1`, "Int64"},
		{nw, `nw.col("i8") + 1`, "Int8"},
		{nw, `nw.col("i8") + 1000`, "Int16"},
		{nw, `nw.col("i32") * 1.5`, "Float64"},
		{nw, `nw.col("f32") * 1.5`, "Float32"},
		{nw, `nw.col("u") + nw.col("a")`, "Int64"},
		{nw, `nw.col("u") - 1`, "UInt32"},
		{nw, `nw.col("i8") + nw.col("f32")`, "Float32"},
		{nw, `nw.col("a") + nw.col("f32")`, "Float64"},
		{nw, `nw.col("a") / nw.col("a")`, "Float64"},
		{nw, `nw.col("f32") / 3`, "Float32"},
		{nw, `nw.col("a") // 2`, "Int64"},
		{nw, `nw.col("i32") ** 2`, "Int32"},
		{nw, `nw.col("a") ** 0.5`, "Float64"},
		{nw, `nw.lit(1)`, "Int32"},
		{nw, `nw.lit(2**40)`, "Int64"},
		{nw, `nw.lit(None)`, "Null"},
		{nw, `nw.lit(3, nw.Int16)`, "Int16"},
		{nw, `nw.col("s") + "x"`, "String"},
		{nw, `nw.col("a") > 1`, "Boolean"},
		{nw, `nw.col("a").sum()`, "Int64"},
		{nw, `nw.col("i8").sum()`, "Int64"},
		{nw, `nw.col("i32").sum()`, "Int32"},
		{nw, `nw.col("a").mean()`, "Float64"},
		{nw, `nw.col("f32").mean()`, "Float32"},
		{nw, `nw.col("a").count()`, "UInt32"},
		{nw, `nw.col("s").n_unique()`, "UInt32"},
		{nw, `nw.len()`, "UInt32"},
		{nw, `nw.col("a").rank()`, "Float64"},
		{nw, `nw.col("a").rank(method="dense").over("s")`, "UInt32"},
		{nw, `nw.col("a").cum_sum().over(order_by="ts")`, "Int64"},
		{nw, `nw.col("s").str.len_chars()`, "UInt32"},
		{nw, `nw.col("s").str.split(" ")`, "List(String)"},
		{nw, `nw.col("ts").dt.year()`, "Int32"},
		{nw, `nw.col("ts").dt.month()`, "Int8"},
		{nw, `nw.col("d").dt.ordinal_day()`, "Int16"},
		{nw, `nw.col("ts").dt.truncate("1d")`, "Datetime(time_unit='us', time_zone=None)"},
		{nw, `nw.col("tz").dt.date()`, "Date"},
		{nw, `nw.col("ts") - nw.col("ts")`, "Duration(time_unit='us')"},
		{nw, `nw.col("l").list.len()`, "UInt32"},
		{nw, `nw.col("l").list.get(0)`, "String"},
		{nw, `nw.col("st").struct.field("n")`, "Int64"},
		{nw, `nw.col("a").cast(nw.Datetime())`, "Datetime(time_unit='us', time_zone=None)"},
		{nw, `nw.col("ts").cast(nw.Datetime(time_zone="UTC"))`, "Datetime(time_unit='us', time_zone='UTC')"},
		{nw, `nw.col("a").cast(nw.dtypes.String())`, "String"},
		{nw, `nw.when(nw.col("a") > 0).then(nw.col("a")).otherwise(nw.col("x"))`, "Float64"},
		{nw, `nw.when(nw.col("a") > 0).then(1)`, "Int32"},
		{nw, `nw.when(nw.col("a") > 0).then(nw.lit("p")).otherwise(nw.lit("n"))`, "String"},
		{nw, `nw.sum_horizontal("i8", "i32")`, "Int32"},
		{nw, `nw.sum_horizontal("b", "b")`, "UInt32"},
		{nw, `nw.max_horizontal("a", "x")`, "Float64"},
		{nw, `nw.mean_horizontal("a", "i32")`, "Float64"},
		{nw, `nw.concat_str([nw.col("s"), nw.col("a")], separator="-")`, "String"},
		{nw, `nw.col("a").fill_null(1.5)`, "Float64"},
		{nw, `nw.col("i8").fill_null(1.5)`, "Float64"},
		{nw, `nw.col("x").round(1)`, "Float64"},
		{nw, `nw.col("a").round(1)`, "Int64"},
		{nw, `nw.col("a").clip(0, 8)`, "Int64"},
		{pl, `pl.col("s").str.strptime(pl.Datetime, "%Y-%m-%d")`, "Datetime(time_unit='us', time_zone=None)"},
		{pl, `pl.col("a").cast(pl.Int32)`, "Int32"},
		{pl, `pl.len().over("s")`, "UInt32"},
	} {
		got, err := withColumn(t, c.env, c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.expr, got, c.want)
		}
	}
}

// The output names Polars gives unaliased expressions: the leftmost
// column, "literal", "len".
func TestPolarsNames(t *testing.T) {
	env := Env{Backend: Polars, API: Narwhals}
	for _, c := range []struct{ expr, want string }{
		{`nw.col("a") + nw.col("x")`, "a"},
		{`100 - nw.col("a")`, "literal"},
		{`nw.lit(1)`, "literal"},
		{`nw.len()`, "len"},
		{`nw.sum_horizontal("x", "a")`, "x"},
		{`nw.when(nw.col("a") > 1).then(nw.col("x"))`, "x"},
		{`nw.when(nw.col("a") > 1).then(5)`, "literal"},
		{`nw.coalesce("x", "a")`, "x"},
		{`nw.col("st").struct.field("sym")`, "sym"},
		{`nw.col("a").alias("z")`, "z"},
	} {
		r, err := Compile(env, Step{Func: "select", Args: []Arg{{Value: c.expr}}}, typingInput, nil)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if r.Columns[0].Name != c.want {
			t.Errorf("%s: named %s, want %s", c.expr, r.Columns[0].Name, c.want)
		}
	}
}

// What Laktory fails on is ErrLaktory with its message, at the argument
// and the offset of the construct; candidates for a missing column.
func TestLaktoryErrors(t *testing.T) {
	nw := Env{Backend: Polars, API: Narwhals}
	for _, c := range []struct {
		env  Env
		st   Step
		arg  string
		pos  int
		msg  string
		hint string
	}{
		{nw, Step{Func: "with_columns", Args: []Arg{{Name: "z", Value: `nw.col("a") + nw.col("ss")`}}}, "func_kwargs.z", 21,
			`ColumnNotFoundError: unable to find column "ss"`, "did you mean s"},
		{nw, Step{Func: "limit", Args: []Arg{{Value: int64(2)}}}, "", -1,
			"Function limit is not available on dataframe of type <class 'narwhals.dataframe.LazyFrame'> with NARWHALS API", "use head"},
		{nw, Step{Func: "drop_duplicates"}, "", -1, "Function drop_duplicates is not available", "use unique"},
		{Env{Backend: Polars, API: Native}, Step{Func: "laktory.union", Args: []Arg{{Value: "{df}"}}}, "", -1,
			"the dataframe has no attribute 'laktory'", ""},
		{nw, Step{Func: "filter", Args: []Arg{{Value: "a > 0"}}}, "func_args[0]", -1, `unable to find column "a > 0"`, "narwhals reads a string as a column name"},
		{nw, Step{Func: "with_columns", Args: []Arg{{Name: "r", Value: "ROUND(a, 1)"}}}, "func_kwargs.r", 0, "NameError: name 'ROUND' is not defined", ""},
		{nw, Step{Func: "filter", Args: []Arg{{Value: `nw.col("a") > 0 and nw.col("x") > 0`}}}, "func_args[0]", 0, "the truth value of <class 'narwhals.expr.Expr'> is ambiguous", ""},
		{nw, Step{Func: "with_columns", Args: []Arg{{Name: "z", Value: `nw.col("a").frobnicate()`}}}, "func_kwargs.z", 12, "'Expr' object has no attribute 'frobnicate'", ""},
		{nw, Step{Func: "with_columns", Args: []Arg{{Name: "z", Value: `nw.col("a").cum_sum()`}}}, "func_kwargs.z", -1, "Order-dependent expressions are not supported", ""},
		{nw, Step{Func: "laktory.groupby_and_agg", Args: []Arg{{Name: "groupby_columns", Value: []any{"s"}},
			{Name: "agg_expressions", Value: []any{map[string]any{"name": "t", "expr": "sum(a)"}}}}}, "func_kwargs.agg_expressions[0]", -1,
			"Extra inputs are not permitted", "alias"},
		{nw, Step{Func: "with_columns", Args: []Arg{{Name: "z", Value: `nw.col("st").struct.field("nope")`}}}, "func_kwargs.z", -1, "StructFieldNotFoundError: nope", ""},
		{nw, Step{Func: "join", Args: []Arg{{Name: "other", Value: "{df}"}, {Name: "on", Value: "a"}}}, "func_kwargs.other", -1, "references 'df' which is not available", ""},
	} {
		_, err := Compile(c.env, c.st, typingInput, nil)
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, ErrLaktory) {
			t.Errorf("%s %v: %v, want Laktory's failure", c.st.Func, c.st.Args, err)
			continue
		}
		if fe.Arg != c.arg || (c.pos >= 0 && fe.Pos != c.pos) || !strings.Contains(fe.Msg, c.msg) || !strings.Contains(fe.Hint, c.hint) {
			t.Errorf("%s %v:\n got %s at %d: %s (hint %q)\nwant %s at %d: %s (hint %q)", c.st.Func, c.st.Args, fe.Arg, fe.Pos, fe.Msg, fe.Hint, c.arg, c.pos, c.msg, c.hint)
		}
	}
}

// What Laktory runs and local runs do not translate is ErrUnsupported,
// naming the construct.
func TestUnsupported(t *testing.T) {
	nw := Env{Backend: Polars, API: Narwhals}
	for _, c := range []struct {
		expr, msg string
	}{
		{`nw.col("x").rolling_mean(3)`, "narwhals' Expr.rolling_mean"},
		{`nw.col("a").rank(method="ordinal")`, "rank(method=\"ordinal\")"},
		{`nw.col("s").str.to_datetime()`, "to_datetime without a format"},
		{`nw.col("ts").dt.to_string("%G-W%V")`, "the format specifier %G"},
		{`nw.col("ts").cast(nw.Datetime(time_zone="Europe/Paris"))`, "a Datetime in the time zone Europe/Paris"},
		{`sum(c for c in cols)`, "a comprehension"},
		{`len("abc")`, "the Python builtin len"},
	} {
		_, err := withColumn(t, nw, c.expr)
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, ErrUnsupported) || !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%s: %v, want unsupported naming %q", c.expr, err, c.msg)
		}
	}
}
