package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

type W = workspacetest.Want

var D = workspacetest.D

// sqlData are the landing files of the schema checks' workspaces.
var sqlData = map[string]string{
	"data/prices.csv":     "symbol,price,qty\nAAA,10.5,3\nBBB,0.5,1\n",
	"data/orders/o.jsonl": `{"order_id": 1, "client_id": 1, "amount": 12.5, "ts": "2026-01-01T09:00:00Z"}` + "\n",
	// A CSV read without infer_schema: every column is a string.
	"data/clients/c.csv": "order_id,client_id\n1,1\n2,3\n",
}

// clientsWriter is a pipeline writing the clients CSV (string columns)
// into the shared table all_orders with the ownership predicate where.
func clientsWriter(name, where string) string {
	return "name: " + name + "\nnodes:\n- name: orders\n  sources:\n  - path: ../data/clients/\n    format: CSV\n  sinks:\n  - table_name: all_orders\n    mode: APPEND\n    shared:\n      where: " + where + "\n"
}

// node is a pipeline of one node reading prices.csv (typed: infer_schema)
// with the given lines (transformer, expectations, sinks) after its sources.
func node(lines string) string {
	return "name: pl\nnodes:\n- name: a\n  sources:\n  - path: ../data/prices.csv\n    format: CSV\n    infer_schema: true\n" + lines
}

// TestValidateSQL: every SQL text of a node is bound against its inputs'
// schemas; what does not bind is an error at its place in the YAML, with
// DuckDB's candidates.
func TestValidateSQL(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []W
	}{
		{name: "valid", files: map[string]string{"pipelines/pl.yaml": node(`    filter: price > 0
  transformer:
    nodes:
    - expr: |
        SELECT symbol, price * qty AS value
        FROM {df}
    - func_name: with_columns
      func_kwargs: {double: 'nw.col("value") * 2'}
  expectations:
  - {name: positive, expr: value IS NOT NULL AND value > 0, action: DROP}
  sinks:
  - table_name: out
    mode: APPEND
`)}},
		// Laktory 0.13.1 drops a row whose DROP or QUARANTINE expectation is
		// NULL without a word: LK308 names the columns it reads; not for an
		// expectation that is never NULL, nor for WARN or FAIL (they keep it).
		{name: "expectations NULL on NULLs", files: map[string]string{"pipelines/pl.yaml": node(`  expectations:
  - {name: p, expr: price > 0 OR "qty" > 0, action: DROP}
  - {name: q, expr: qty > 1, action: QUARANTINE}
  - {name: w, expr: qty > 1, action: WARN}
  - {name: f, expr: qty > 1 OR symbol = 'price', action: FAIL}
  - {name: c, expr: qty IS NULL OR qty > 0, action: DROP}
  - {name: n, expr: symbol IS NULL OR symbol <> '', action: QUARANTINE}
`)}, want: []W{
			D("pipelines/pl.yaml", 9, 21, validate.CodeNullDropped, "expectation 'p': action DROP: a row where it is NULL (price, qty may be NULL) is dropped from the output as Laktory 0.13.1 does, though its fails count may count it as a failure (on PYSPARK it checks a pandas copy of the frame"),
			D("pipelines/pl.yaml", 10, 21, validate.CodeNullDropped, "expectation 'q': action QUARANTINE: a row where it is NULL (qty may be NULL) is dropped from the output and not quarantined"),
		}},
		// On POLARS Laktory's check does not count such a row either.
		{name: "expectations NULL on NULLs, POLARS", files: map[string]string{"pipelines/pl.yaml": strings.Replace(node(`  expectations:
  - {name: p, expr: price > 0 OR "qty" > 0, action: DROP}
  - {name: c, expr: qty IS NULL OR qty > 0, action: DROP}
`), "name: pl\n", "name: pl\ndataframe_backend: POLARS\n", 1)}, want: []W{
			D("pipelines/pl.yaml", 10, 21, validate.CodeNullDropped, "expectation 'p': action DROP: a row where it is NULL (price, qty may be NULL) is dropped from the output, and not counted as a failure, as Laktory 0.13.1 does"),
		}},
		// On PYSPARK Laktory counts a narwhals expectation on a pandas copy
		// of the frame, which local runs model for SQL expectations only:
		// LK154 where a NULL or a NaN can make the counts differ; not for
		// what is never NULL over one column, an AGGREGATE of integers, or
		// on POLARS.
		{name: "narwhals expectations on PYSPARK", files: map[string]string{"pipelines/pl.yaml": node(`  expectations:
  - {name: g, expr: "nw.col('qty') > 1", action: WARN}
  - {name: n, expr: "nw.col('qty').is_null()", action: WARN}
  - {name: f, expr: "nw.col('qty').fill_null(0) > 1", action: DROP}
  - {name: t, expr: "nw.col('qty').is_null() | (nw.col('symbol') == 'A')", action: WARN}
  - {name: p, expr: "nw.col('price').is_null()", action: QUARANTINE}
  - {name: a, expr: "nw.col('qty').sum() > 0", action: FAIL, type: AGGREGATE}
  - {name: m, expr: "nw.col('price').max() > 0", action: WARN, type: AGGREGATE}
  - {name: s, expr: qty > 1, action: WARN}
`)}, want: []W{
			D("pipelines/pl.yaml", 9, 21, validate.CodePandasCheck, "expectation 'g': a narwhals expression on PYSPARK, which Laktory 0.13.1 checks on a pandas copy of the frame, where a missing value in a comparison makes it false (!= true), not NULL: it is NULL where qty is NULL"),
			D("pipelines/pl.yaml", 12, 21, validate.CodePandasCheck, "expectation 't': a narwhals expression on PYSPARK, which Laktory 0.13.1 checks on a pandas copy of the frame, where a missing value in a comparison makes it false (!= true), not NULL: it reads symbol, qty, and a NULL in any of them can make it NULL"),
			D("pipelines/pl.yaml", 13, 21, validate.CodePandasCheck, "expectation 'p': a narwhals expression on PYSPARK, which Laktory 0.13.1 checks on a pandas copy of the frame, where a missing value in a comparison makes it false (!= true), not NULL: price is a float column, and pandas takes a NaN for a missing value"),
			D("pipelines/pl.yaml", 15, 21, validate.CodePandasCheck, "expectation 'm': a narwhals expression on PYSPARK, which Laktory 0.13.1 checks on a pandas copy of the frame, where a missing value in a comparison makes it false (!= true), not NULL: price is a float column"),
		}},
		// LK154 judges the columns an expression reads, as the frame front
		// end resolves them, not the names its text quotes: a column's name
		// in a string literal or an alias is not read (they were refused,
		// price being a float column), a name built from strings is.
		{name: "narwhals expectations on PYSPARK, the columns read", files: map[string]string{"pipelines/pl.yaml": node(`  expectations:
  - {name: alias, expr: "nw.col('qty').fill_null(0).alias('price') > 1", action: DROP}
  - {name: literal, expr: "nw.col('symbol').fill_null('price') == 'price'", action: WARN}
  - {name: built, expr: "nw.col('pri' + 'ce').fill_null(0) > 1", action: WARN}
`)}, want: []W{
			D("pipelines/pl.yaml", 11, 25, validate.CodePandasCheck, "expectation 'built': a narwhals expression on PYSPARK, which Laktory 0.13.1 checks on a pandas copy of the frame, where a missing value in a comparison makes it false (!= true), not NULL: price is a float column"),
		}},
		{name: "narwhals expectations on POLARS", files: map[string]string{"pipelines/pl.yaml": strings.Replace(node(`  expectations:
  - {name: g, expr: "nw.col('qty') > 1", action: WARN}
  - {name: p, expr: "nw.col('price').is_null()", action: QUARANTINE}
  - {name: m, expr: "nw.col('price').max() > 0", action: WARN, type: AGGREGATE}
`), "name: pl\n", "name: pl\ndataframe_backend: POLARS\n", 1)}, want: []W{
			D("pipelines/pl.yaml", 12, 70, validate.CodeAggregatePandas, "expectation 'm'"),
		}},
		{name: "wrong column in a block expr", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: |
        SELECT symbol,
               prise * qty AS value
        FROM {df}
`)}, want: []W{D("pipelines/pl.yaml", 12, 16, validate.CodeSQLBind, "the `expr` of transformer step #1 does not bind: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name `prise` cannot be resolved. Did you mean one of the following? [`symbol`, `price`, `qty`].")}},
		{name: "wrong column in a folded expr", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: >
        SELECT symbol, qty
        FROM {df} WHERE prise > 1
`)}, want: []W{D("pipelines/pl.yaml", 12, 25, validate.CodeSQLBind, "`prise`")}},
		{name: "wrong column in a plain expr", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: SELECT *, prise AS p FROM {df}
`)}, want: []W{D("pipelines/pl.yaml", 10, 23, validate.CodeSQLBind, "Did you mean one of the following? [`symbol`, `price`, `qty`]")}},
		{name: "wrong column in a source filter", files: map[string]string{"pipelines/pl.yaml": node(`    filter: qty > 0 AND prise > 1
`)}, want: []W{D("pipelines/pl.yaml", 8, 25, validate.CodeSQLBind, "the filter of source #1 does not bind")}},
		{name: "wrong column in with_columns", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - func_name: with_columns
      func_kwargs: {value: 'nw.col("prise") * 2'}
`)}, want: []W{D("pipelines/pl.yaml", 11, 36, validate.CodeFrameFails, "func_kwargs.value of transformer step #1 (func_name: with_columns): Laktory 0.13.1 fails: ColumnNotFoundError: The selected columns were not found. Missing column: prise did you mean price?")}},
		{name: "filter func", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - func_name: filter
      func_args: ['nw.col("qty") > 1', 'nw.col("qtty") > 1']
`)}, want: []W{D("pipelines/pl.yaml", 11, 48, validate.CodeFrameFails, "func_args[1] of transformer step #1 (func_name: filter): Laktory 0.13.1 fails: ColumnNotFoundError: The selected columns were not found. Missing column: qtty did you mean qty?")}},
		{name: "SQL text where narwhals reads a column name", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - func_name: filter
      func_args: ["qty > 1"]
`)}, want: []W{D("pipelines/pl.yaml", 11, 19, validate.CodeFrameFails, "a string argument is a column name in Laktory's NARWHALS api: write the expression with nw.col(...) (or sql_expr(\"qty > 1\") on POLARS)")}},
		{name: "select and drop of columns the input lacks", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - func_name: select
      func_args: [symbol, prise]
`)}, want: []W{D("pipelines/pl.yaml", 11, 27, validate.CodeFrameFails, "Missing column: prise")}},
		{name: "expectations as narwhals expressions", files: map[string]string{"pipelines/pl.yaml": node(`  expectations:
  - {name: ok, expr: 'nw.col("price") > 0', action: DROP}
  - {name: typo, expr: 'nw.col("prise") > 0'}
  - {name: number, expr: 'nw.col("qty") * 2'}
  - {name: agg, type: AGGREGATE, expr: 'nw.col("qty").sum() > 1'}
  - {name: nosql, expr: 'sql_expr("qty > 1") & (nw.col("qty") > 0)'}
`)}, want: []W{
			D("pipelines/pl.yaml", 9, 22, validate.CodePandasCheck, "expectation 'ok': a narwhals expression on PYSPARK, which Laktory 0.13.1 checks on a pandas copy of the frame, where a missing value in a comparison makes it false (!= true), not NULL: price is a float column"),
			D("pipelines/pl.yaml", 10, 32, validate.CodeFrameFails, "expectation 'typo': Laktory 0.13.1 fails: ColumnNotFoundError: The selected columns were not found. Missing column: prise did you mean price?"),
			D("pipelines/pl.yaml", 11, 26, validate.CodeNotBoolean, "expectation 'number' is not a condition: it gives INTEGER, not BOOLEAN"),
			D("pipelines/pl.yaml", 13, 26, validate.CodeFrameFails, "expectation 'nosql': Laktory 0.13.1 fails: NameError: name 'sql_expr' is not defined"),
		}},
		{name: "a method narwhals lacks", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - func_name: limit
      func_args: [3]
`)}, want: []W{D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Function limit is not available on dataframe of type <class 'narwhals.dataframe.LazyFrame'> with NARWHALS API")}},
		{name: "a construct local runs do not translate", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - func_name: join_asof
`)}, want: []W{D("pipelines/pl.yaml", 10, 18, validate.CodeLocalStep, "transformer step #1 (func_name: join_asof) cannot run locally: the method join_asof of <class 'narwhals.dataframe.LazyFrame'> (func_name: join_asof) is not supported locally")}},
		{name: "a method narwhals lacks on a LazyFrame", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - func_name: pivot
      func_args: [symbol]
`)}, want: []W{D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Function pivot is not available on dataframe of type <class 'narwhals.dataframe.LazyFrame'> with NARWHALS API")}},
		{name: "a function DuckDB lacks", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: SELECT date_formatt(current_date, 'yyyy') AS y FROM {df}
`)}, want: []W{D("pipelines/pl.yaml", 10, 20, validate.CodeSQLBind, "Cannot resolve routine `date_formatt`")}},
		{name: "a type mismatch", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: SELECT date_add(symbol, price) AS q FROM {df}
`)}, want: []W{D("pipelines/pl.yaml", 10, 37, validate.CodeSQLBind, "The second parameter requires the (\"INT\" or \"SMALLINT\" or \"TINYINT\") type")}},
		{name: "a function Spark has that does not run locally", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: SELECT soundex(symbol) AS q FROM {df}
`)}, want: []W{D("pipelines/pl.yaml", 10, 20, validate.CodeSQLDialect, "Spark function `soundex` is not supported locally")}},
		{name: "expectations: not boolean, wrong column", files: map[string]string{"pipelines/pl.yaml": node(`  expectations:
  - name: doubled
    expr: price * 2
  - name: typo
    expr: qtty > 0
`)}, want: []W{
			D("pipelines/pl.yaml", 10, 11, validate.CodeNotBoolean, "expectation 'doubled' is not a condition: it gives DOUBLE, not BOOLEAN"),
			D("pipelines/pl.yaml", 12, 11, validate.CodeSQLBind, "expectation 'typo' does not bind: [UNRESOLVED_COLUMN.WITH_SUGGESTION]"),
		}},
		{name: "a node's output feeds the next node", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: SELECT symbol, price * qty AS value FROM {df}
- name: b
  sources:
  - node_name: a
  transformer:
    nodes:
    - expr: SELECT symbol, valeu FROM {df} JOIN {nodes.a} USING (symbol)
`)}, want: []W{D("pipelines/pl.yaml", 16, 28, validate.CodeSQLBind, "name `valeu` cannot be resolved")}},
		{name: "a table no run wrote has its writer's schema", files: map[string]string{
			"pipelines/pl.yaml": node("  sinks:\n  - table_name: prices\n    mode: APPEND\n"),
			"pipelines/gold.yaml": `name: gold
nodes:
- name: g
  sources:
  - table_name: prices
  transformer:
    nodes:
    - expr: SELECT sum(quantity) AS q FROM {df}
`}, want: []W{D("pipelines/gold.yaml", 8, 24, validate.CodeSQLBind, "name `quantity` cannot be resolved")}},
		{name: "where on a column the table does not have", files: map[string]string{
			"pipelines/acme.yaml": `name: acme
nodes:
- name: orders
  sources:
  - path: ../data/orders/
    format: JSONL
  sinks:
  - table_name: all_orders
    mode: APPEND
    shared:
      where: clientid = 1
`,
			"pipelines/globex.yaml": `name: globex
nodes:
- name: orders
  sources:
  - path: ../data/orders/
    format: JSONL
  sinks:
  - table_name: all_orders
    mode: APPEND
    shared:
      where: client_id = 2
`}, want: []W{D("pipelines/acme.yaml", 11, 14, validate.CodeWhereColumn,
			"names the column 'clientid', which table main.default.all_orders does not have (its columns: amount, client_id, order_id, ts); did you mean 'client_id'?")}},
		{name: "where on a column the writer does not write", files: map[string]string{
			"pipelines/acme.yaml": `name: acme
nodes:
- name: orders
  sources:
  - path: ../data/orders/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT order_id, amount FROM {df}
  sinks:
  - table_name: all_orders
    mode: APPEND
    shared:
      where: client_id = 1
`,
			"pipelines/globex.yaml": `name: globex
nodes:
- name: orders
  sources:
  - path: ../data/orders/
    format: JSONL
  sinks:
  - table_name: all_orders
    mode: APPEND
    shared:
      where: client_id = 2
`}, want: []W{D("pipelines/acme.yaml", 14, 14, validate.CodeSQLBind, "the shared.where of sink #1 does not bind: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name `client_id` cannot be resolved. Did you mean one of the following? [`order_id`, `amount`].")}},
		// A PYSPARK writer's where is Spark SQL, typed as Spark types it:
		// a string column meets numbers as a number (DuckDB's binder
		// refused BETWEEN of VARCHAR and INTEGER).
		{name: "where over a CSV string column compares as Spark does", files: map[string]string{
			"pipelines/acme.yaml":   clientsWriter("acme", "client_id = 1"),
			"pipelines/globex.yaml": clientsWriter("globex", "client_id BETWEEN 2 AND 5"),
		}},
		{name: "where Spark refuses, with Spark's error class", files: map[string]string{
			"pipelines/acme.yaml":   clientsWriter("acme", "client_id = 1"),
			"pipelines/globex.yaml": clientsWriter("globex", "client_id + 1"),
		}, want: []W{
			D("pipelines/globex.yaml", 11, 24, validate.CodeSQLBind, `the shared.where of sink #1 does not bind: [DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN] Cannot resolve "(client_id + 1)" due to data type mismatch: Filter expression "(client_id + 1)" of type "BIGINT" is not a boolean.`),
			D("pipelines/acme.yaml", 11, 14, validate.CodeWhereUnproven, "cannot prove disjoint"),
			D("pipelines/globex.yaml", 11, 14, validate.CodeWhereUnproven, "cannot prove disjoint"),
		}},
		{name: "where with an aggregate", files: map[string]string{
			"pipelines/acme.yaml":   clientsWriter("acme", "client_id = 1"),
			"pipelines/globex.yaml": clientsWriter("globex", "client_id > max(order_id)"),
		}, want: []W{
			D("pipelines/globex.yaml", 11, 26, validate.CodeSQLBind, "the shared.where of sink #1 does not bind: [INVALID_WHERE_CONDITION] The WHERE condition contains invalid expressions: max."),
			D("pipelines/globex.yaml", 11, 26, validate.CodeWhereReads, "it calls max()"),
		}},
		// A merge's delete_where is a condition of Spark's MERGE: boolean,
		// row by row.
		{name: "delete_where with a window", files: map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: silver
  sources:
  - path: ../data/clients/
    format: CSV
  sinks:
  - table_name: silver
    mode: MERGE
    merge_cdc_options:
      primary_keys: [order_id]
      order_by: client_id
      scd_type: 2
      delete_where: count(*) OVER (PARTITION BY order_id) > 1
`}},
		{name: "delete_where Spark refuses", files: map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: silver
  sources:
  - path: ../data/clients/
    format: CSV
  sinks:
  - table_name: silver
    mode: MERGE
    merge_cdc_options:
      primary_keys: [order_id]
      order_by: client_id
      delete_where: client_idd = 2
`}, want: []W{D("pipelines/pl.yaml", 13, 21, validate.CodeSQLBind, "merge_cdc_options.delete_where of table silver does not bind: [UNRESOLVED_COLUMN.WITH_SUGGESTION]")}},
		{name: "declared sink schema", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: SELECT symbol, CAST(qty AS INTEGER) AS qty, price FROM {df}
  sinks:
  - table_name: out
    mode: APPEND
    schema:
      columns:
        symbol: string
        qty: bigint
        price: decimal
`)}, want: []W{
			D("pipelines/pl.yaml", 12, 17, validate.CodeSinkWidened, "node 'a' writes the column 'qty' as INTEGER into the declared schema of main.default.out, which stores it as BIGINT"),
			D("pipelines/pl.yaml", 12, 17, validate.CodeSinkType, "writes the column 'price' as DOUBLE, but the declared schema of main.default.out stores it as DECIMAL(10,0)"),
		}},
		{name: "a statement before the query is refused (an expr is one query), not bound", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: |
        SET VARIABLE x = 1;
        SELECT prise FROM {df}
`)}, want: []W{D("pipelines/pl.yaml", 10, 13, validate.CodeExprStmts, "holds a statement that is not a query")}},
		{name: "a semicolon in a Spark string with a backslash escape is not a statement's end", files: map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: |
        SELECT symbol, 'it\'s; one query' AS note FROM {df};
`)}, want: nil},
		{name: "a source with no file yet is not checked", files: map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/none/
    format: JSONL
    as_stream: true
  transformer:
    nodes:
    - expr: SELECT prise FROM {df}
`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, sqlData)
			w.write(tt.files)
			snap := w.load()
			ds, err := testRunner(t).Validate(context.Background(), snap, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			workspacetest.Expect(t, snap, ds, tt.want)
		})
	}
}

// TestValidateSinkAgainstTable: the columns a sink writes are checked
// against the existing table's schema: a type the append cannot cast to
// the table's is an error, a narrower one an info.
func TestValidateSinkAgainstTable(t *testing.T) {
	w := newWS(t, sqlData)
	w.write(map[string]string{"pipelines/pl.yaml": node("  sinks:\n  - table_name: out\n    mode: APPEND\n")})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	w.write(map[string]string{"pipelines/pl.yaml": node(`  transformer:
    nodes:
    - expr: SELECT symbol, CAST(price AS STRING) AS price, CAST(qty AS TINYINT) AS qty FROM {df}
  sinks:
  - table_name: out
    mode: APPEND
`)})
	snap := w.load()
	ds, err := r.Validate(context.Background(), snap, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	workspacetest.Expect(t, snap, ds, []W{
		D("pipelines/pl.yaml", 12, 17, validate.CodeSinkType, "writes the column 'price' as VARCHAR, but table main.default.out (version 0) stores it as DOUBLE: a Delta append does not change a column's type"),
		D("pipelines/pl.yaml", 12, 17, validate.CodeSinkWidened, "'qty' as TINYINT into table main.default.out (version 0), which stores it as INTEGER"),
	})
	for _, d := range ds {
		if d.Code == validate.CodeSinkType && !strings.Contains(d.Hint, "(laktory run --select pl.a --refresh RESET --reset-mode DROP && laktory run --select pl.a)") {
			t.Errorf("hint %q: the command that drops the table and runs its writers again", d.Hint)
		}
	}
	// The run is refused before it starts, with the same error.
	_, err = r.Plan(context.Background(), snap, Request{})
	if err == nil || !strings.Contains(err.Error(), "stores it as DOUBLE") {
		t.Fatalf("plan: %v", err)
	}
}

// TestValidateCache: a warm check reads no schema and binds no node; a new
// landing file is read once; a change to one file binds only its nodes
// and the nodes whose inputs' schemas changed.
func TestValidateCache(t *testing.T) {
	w := newWS(t, sqlData)
	up := func(col string) string {
		return node("  transformer:\n    nodes:\n    - expr: SELECT symbol, price AS " + col + " FROM {df}\n  sinks:\n  - table_name: prices\n    mode: APPEND\n")
	}
	reader := func(name string) string {
		return "name: " + name + "\nnodes:\n- name: r\n  sources:\n  - table_name: prices\n  transformer:\n    nodes:\n    - expr: SELECT * FROM {df}\n"
	}
	w.write(map[string]string{"pipelines/pl.yaml": up("price"), "pipelines/r1.yaml": reader("r1"), "pipelines/r2.yaml": reader("r2"),
		"pipelines/other.yaml": strings.Replace(node(""), "name: pl", "name: other", 1)})
	r := testRunner(t)
	ctx := context.Background()
	f := r.SchemaFlow()
	check := func(snap *workspace.Snapshot) (binds, reads int64) {
		t.Helper()
		b, rd := f.Binds(), f.Reads()
		if _, err := r.Validate(ctx, snap, validate.Options{}); err != nil {
			t.Fatal(err)
		}
		return f.Binds() - b, f.Reads() - rd
	}
	snap := w.load()
	if b, rd := check(snap); b != 4 || rd != 1 {
		t.Fatalf("cold: %d binds, %d reads; want 4 nodes bound, prices.csv read once", b, rd)
	}
	if b, rd := check(snap); b != 0 || rd != 0 {
		t.Fatalf("warm: %d binds, %d reads", b, rd)
	}
	// Editing a reader binds it alone.
	w.write(map[string]string{"pipelines/r1.yaml": reader("r1") + "# edited\n"})
	snap, err := workspace.Reload(ctx, snap, []string{filepath.Join(w.dir, "pipelines/r1.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if b, rd := check(snap); b != 1 || rd != 0 {
		t.Fatalf("one reader edited: %d binds, %d reads", b, rd)
	}
	// A writer whose output changes binds again with its readers (not the
	// unrelated pipeline).
	w.write(map[string]string{"pipelines/pl.yaml": up("close")})
	if snap, err = workspace.Reload(ctx, snap, []string{filepath.Join(w.dir, "pipelines/pl.yaml")}); err != nil {
		t.Fatal(err)
	}
	if b, _ := check(snap); b != 3 {
		t.Fatalf("writer edited: %d binds, want the writer and its 2 readers", b)
	}
	// A changed landing file is read again; nodes whose schema did not
	// change are not bound again.
	p := filepath.Join(w.dir, "data/prices.csv")
	if err := os.WriteFile(p, []byte(sqlData["data/prices.csv"]+"CCC,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, rd := check(snap); b != 0 || rd != 1 {
		t.Fatalf("landing file changed: %d binds, %d reads", b, rd)
	}
}

// TestValidateSourceSchemas: each source format's schema is read as the
// run reads it (reader options included), from headers and footers, and a
// wrong column over it is found.
func TestValidateSourceSchemas(t *testing.T) {
	w := newWS(t, map[string]string{
		"data/semi.csv":    "symbol;price\nAAA;1.5\n",
		"data/nohead.csv":  "AAA,1.5\n",
		"data/items.json":  `[{"sku": "a", "weight": 2}]`,
		"data/notes.jsonl": `{"note": "x", "at": "2026-01-01T00:00:00Z"}` + "\n",
	})
	r := testRunner(t)
	ctx := context.Background()
	if _, err := r.db.ExecContext(ctx, "COPY (SELECT 1::BIGINT AS id, 'x' AS label) TO '"+filepath.Join(w.dir, "data/ids.parquet")+"' (FORMAT parquet)"); err != nil {
		t.Fatal(err)
	}
	w.write(map[string]string{"pipelines/delta.yaml": "name: delta\nnodes:\n- name: d\n  sources:\n  - path: ../data/ids.parquet\n    format: PARQUET\n  sinks:\n  - path: ../out/ids\n    format: DELTA\n    mode: APPEND\n"})
	mustRun(t, r, w.load(), Request{})
	tests := []struct{ source, wrong, want string }{
		{"path: ../data/semi.csv\n    format: CSV\n    reader_kwargs: {sep: ';'}", "prices", "Did you mean one of the following? [`symbol`, `price`]"},
		{"path: ../data/nohead.csv\n    format: CSV\n    reader_kwargs: {header: false}", "symbol", "Did you mean one of the following? [`_c0`, `_c1`]"},
		{"path: ../data/items.json\n    format: JSON", "weigth", "Did you mean one of the following? [`sku`, `weight`]"},
		{"path: ../data/notes.jsonl\n    format: JSONL", "nots", "Did you mean one of the following? [`at`, `note`]"},
		{"path: ../data/ids.parquet\n    format: PARQUET", "lable", "Did you mean one of the following? [`id`, `label`]"},
		{"path: ../out/ids\n    format: DELTA", "idd", "Did you mean one of the following? [`id`, `label`]"},
	}
	for _, tt := range tests {
		t.Run(tt.source[:strings.Index(tt.source, "\n")], func(t *testing.T) {
			yaml := "name: pl\nnodes:\n- name: a\n  sources:\n  - " + tt.source + "\n  transformer:\n    nodes:\n    - expr: SELECT " + tt.wrong + " FROM {df}\n"
			w.write(map[string]string{"pipelines/pl.yaml": yaml})
			snap := w.load()
			ds, err := r.Validate(ctx, snap, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			line := strings.Count(yaml[:strings.Index(yaml, "- expr:")], "\n") + 1
			workspacetest.Expect(t, snap, ds, []W{D("pipelines/pl.yaml", line, 20, validate.CodeSQLBind, tt.want)})
		})
	}
}
