package corpus

import (
	"database/sql"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/frame"
)

var benchInput = frame.Input{Ref: "df", Relation: "t", Columns: []frame.Column{
	{Name: "id", Type: "BIGINT"}, {Name: "symbol", Type: "VARCHAR"}, {Name: "price", Type: "DOUBLE"}, {Name: "qty", Type: "BIGINT"}, {Name: "ts", Type: "TIMESTAMP"},
	{Name: "data", Type: `STRUCT("symbol" VARCHAR, "currency" VARCHAR, "firstTradeDate" BIGINT)`},
}}

// benchSteps are typical func_name steps (the local-pipeline quickstart's
// among them).
var benchSteps = []struct {
	name string
	env  frame.Env
	st   frame.Step
}{
	{"rename", frame.Env{Backend: frame.Polars, API: frame.Narwhals}, frame.Step{Func: "rename", Args: []frame.Arg{{Value: map[string]any{"price": "p"}}}}},
	{"filter", frame.Env{Backend: frame.Polars, API: frame.Narwhals}, frame.Step{Func: "filter", Args: []frame.Arg{{Value: `(nw.col("price") > 10) & (nw.col("symbol") == "A")`}}}},
	{"quickstart_struct", frame.Env{Backend: frame.Polars, API: frame.Narwhals}, frame.Step{Func: "with_columns", Args: []frame.Arg{
		{Name: "symbol", Value: `nw.col("data").struct.field("symbol").cast(nw.dtypes.String())`},
		{Name: "currency", Value: `nw.col("data").struct.field("currency").cast(nw.dtypes.String())`},
		{Name: "first_traded", Value: `nw.col("data").struct.field("firstTradeDate").cast(nw.dtypes.Datetime())`}}}},
	{"quickstart_groupby", frame.Env{Backend: frame.Polars, API: frame.Narwhals}, frame.Step{Func: "laktory.groupby_and_agg", Args: []frame.Arg{
		{Name: "groupby_columns", Value: []any{"symbol"}},
		{Name: "agg_expressions", Value: []any{map[string]any{"expr": `nw.col('price').min().alias("low")`}, map[string]any{"expr": `nw.col('qty').count().alias("count")`}}}}}},
	{"when_over", frame.Env{Backend: frame.Polars, API: frame.Narwhals}, frame.Step{Func: "with_columns", Args: []frame.Arg{
		{Name: "band", Value: `nw.when(nw.col("price") < 10).then(nw.lit("low")).otherwise(nw.lit("high"))`},
		{Name: "share", Value: `nw.col("qty") / nw.col("qty").sum().over("symbol")`}}}},
	{"spark_withColumn", frame.Env{Backend: frame.PySpark, API: frame.Native}, frame.Step{Func: "withColumn", Args: []frame.Arg{
		{Value: "total"}, {Value: `F.round(F.col("price") * F.col("qty"), 2)`}}}},
	{"spark_narwhals_filter", frame.Env{Backend: frame.PySpark, API: frame.Narwhals}, frame.Step{Func: "filter", Args: []frame.Arg{{Value: `nw.col("price") > 10`}}}},
}

// BenchmarkTranslate: the cost of translating one step (parse, evaluate,
// type, emit; PYSPARK steps through the Spark SQL front end).
func BenchmarkTranslate(b *testing.B) {
	for _, s := range benchSteps {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := frame.Compile(s.env, s.st, benchInput, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRenameFilter: a func_name step that only renames or filters
// runs as fast as the SQL step a user would write for it, on 5M rows
// (the translated query and the hand-written one, side by side in one run;
// the ratio is reported as frame/sql).
func BenchmarkRenameFilter(b *testing.B) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t AS SELECT i AS id, CASE WHEN i % 3 = 0 THEN 'A' ELSE 'B' END AS symbol,
		(i % 1000) / 10.0 AS price, i % 17 AS qty, TIMESTAMP '2024-01-01' + to_seconds(i) AS ts,
		{'symbol': 'S', 'currency': 'USD', 'firstTradeDate': i} AS data FROM range(5000000) r(i)`); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		step frame.Step
		sql  string
	}{
		{"rename", benchSteps[0].st, `SELECT * RENAME (price AS p) FROM t`},
		{"filter", benchSteps[1].st, `SELECT * FROM t WHERE price > 10 AND symbol = 'A'`},
	}
	for _, c := range cases {
		r, err := frame.Compile(frame.Env{Backend: frame.Polars, API: frame.Narwhals}, c.step, benchInput, nil)
		if err != nil {
			b.Fatal(err)
		}
		run := func(q string) time.Duration {
			start := time.Now()
			if _, err := db.Exec("CREATE OR REPLACE TEMP TABLE out AS " + q); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		}
		b.Run(c.name, func(b *testing.B) {
			var ours, theirs time.Duration
			for b.Loop() {
				ours += run(r.SQL)
				theirs += run(c.sql)
			}
			b.ReportMetric(float64(ours.Microseconds())/float64(b.N)/1000, "frame-ms/op")
			b.ReportMetric(float64(theirs.Microseconds())/float64(b.N)/1000, "sql-ms/op")
			b.ReportMetric(float64(ours)/float64(theirs), "frame/sql")
		})
	}
}
