package sparksql

import (
	"context"
	"database/sql"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkTranslateCorpus: parse, resolve and emit every step of the
// corpus (every part) against its inputs'
// schemas; ns/step is the translation's cost per step at validate time
// (budget: under 1 ms).
func BenchmarkTranslateCorpus(b *testing.B) {
	db := benchDB(b)
	fixtures := loadFixtures(b, db)
	var cases []*corpusCase
	for _, part := range corpusParts {
		files, _ := filepath.Glob(filepath.Join(part.dir, "*.sql"))
		sort.Strings(files)
		for _, f := range files {
			cases = append(cases, readCases(b, f, filepath.Base(f))...)
		}
	}
	translate := func(c *corpusCase) {
		opts := Options{TimeZone: c.conf["spark.sql.session.timeZone"]}
		switch c.mode {
		case "query":
			var inputs []Input
			for ref, tb := range c.inputs {
				inputs = append(inputs, Input{Ref: ref, SQL: duckIdent("t_" + tb), Schema: fixtures[tb].schema})
			}
			Translate(c.sql, inputs, opts) //nolint:errcheck // rejections cost as much as translations
		case "filter":
			TranslatePredicate(c.sql, ExprInput{Schema: fixtures[c.inputs["df"]].schema}, opts) //nolint:errcheck
		case "expr":
			TranslateExpr(c.sql, ExprInput{Schema: fixtures[c.inputs["df"]].schema}, opts, false) //nolint:errcheck
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			translate(c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/step")
	b.ReportMetric(float64(len(cases)), "steps")
}

// benchSteps are Spark SQL steps over a 5M-row orders table and the DuckDB
// SQL one would write by hand for the same computation: the same rows and
// column types (Spark's: a sum of decimal(10,2) is decimal(20,2),
// row_number an int), checked before timing; a double becomes a decimal
// through its shortest string, as Spark's cast does.
var benchSteps = []struct {
	name, spark, duckdb string
}{
	{"project", `SELECT order_id, upper(status) AS status, CAST(amount * (1 - discount) AS DECIMAL(12, 2)) AS net,
		date_format(ordered_at, 'yyyy-MM') AS month, CAST(ordered_at AS DATE) AS day, quantity * 2 AS q2
		FROM {df} WHERE amount > 10`,
		`SELECT order_id, upper(status) AS status, CAST(CAST(amount * (1 - discount) AS VARCHAR) AS DECIMAL(12, 2)) AS net,
		strftime(ordered_at, '%Y-%m') AS month, CAST(ordered_at AS DATE) AS day, quantity * 2 AS q2
		FROM orders WHERE amount > 10`},
	{"aggregate", `SELECT customer_id, count(*) AS n, sum(quantity) AS q, sum(amount) AS total, max(ordered_at) AS last
		FROM {df} GROUP BY customer_id`,
		`SELECT customer_id, count(*) AS n, CAST(sum(quantity) AS BIGINT) AS q, CAST(sum(amount) AS DECIMAL(20, 2)) AS total, max(ordered_at) AS last
		FROM orders GROUP BY customer_id`},
	{"window", `SELECT order_id, customer_id, row_number() OVER (PARTITION BY customer_id ORDER BY ordered_at DESC) AS rn
		FROM {df}`,
		`SELECT order_id, customer_id, CAST(row_number() OVER (PARTITION BY customer_id ORDER BY ordered_at DESC) AS INTEGER) AS rn
		FROM orders`},
}

// BenchmarkTranslatedVsHandwritten: each step translated from Spark SQL
// and its hand-written DuckDB SQL, materialized over 5M rows, in
// alternating rounds; ratio is translated/handwritten (budget: 1.2).
// -short uses 500k rows.
func BenchmarkTranslatedVsHandwritten(b *testing.B) {
	rows := 5_000_000
	if testing.Short() {
		rows = 500_000
	}
	db := benchDB(b)
	ctx := context.Background()
	exec(b, db, `CREATE TABLE orders AS SELECT range AS order_id, CAST(range % 1000 AS INTEGER) AS customer_id,
		CAST((range % 100000) / 100 AS DECIMAL(10, 2)) AS amount, CAST(range % 7 AS DOUBLE) / 10 AS discount,
		CAST(range % 10 AS INTEGER) AS quantity, ['shipped', 'pending', 'returned'][range % 3 + 1] AS status,
		TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(range) AS ordered_at
		FROM range(`+strconv.Itoa(rows)+`)`)
	schema := []Column{
		{Name: "order_id", Type: mustParse(b, "bigint")}, {Name: "customer_id", Type: mustParse(b, "int")},
		{Name: "amount", Type: mustParse(b, "decimal(10,2)")}, {Name: "discount", Type: mustParse(b, "double")},
		{Name: "quantity", Type: mustParse(b, "int")}, {Name: "status", Type: mustParse(b, "string")},
		{Name: "ordered_at", Type: mustParse(b, "timestamp")},
	}
	for _, st := range benchSteps {
		r, err := Translate(st.spark, []Input{{Ref: "df", SQL: "orders", Schema: schema}}, Options{})
		if err != nil {
			b.Fatalf("%s: %v", st.name, err)
		}
		var diff int64
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM ((("+r.SQL+") EXCEPT ALL ("+st.duckdb+")) UNION ALL (("+st.duckdb+") EXCEPT ALL ("+r.SQL+")))").Scan(&diff); err != nil {
			b.Fatalf("%s: %v", st.name, err)
		}
		if diff != 0 {
			b.Fatalf("%s: the translated and the hand-written SQL differ by %d rows", st.name, diff)
		}
		if ours, theirs := describe(b, db, r.SQL), describe(b, db, st.duckdb); ours != theirs {
			b.Fatalf("%s: the translated SQL gives %s, the hand-written %s", st.name, ours, theirs)
		}
		b.Run(st.name, func(b *testing.B) {
			var ours, theirs time.Duration
			run := func(q string) time.Duration {
				start := time.Now()
				exec(b, db, "CREATE OR REPLACE TEMP TABLE out AS "+q)
				return time.Since(start)
			}
			for b.Loop() {
				ours += run(r.SQL)
				theirs += run(st.duckdb)
			}
			b.ReportMetric(float64(ours.Milliseconds())/float64(b.N), "translated-ms/op")
			b.ReportMetric(float64(theirs.Milliseconds())/float64(b.N), "handwritten-ms/op")
			b.ReportMetric(float64(ours)/float64(theirs), "ratio")
		})
	}
}

func benchDB(b *testing.B) *sql.DB {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	exec(b, db, "SET TimeZone = 'UTC'")
	if err := installTest(context.Background(), db); err != nil {
		b.Fatal(err)
	}
	return db
}

func exec(b *testing.B, db *sql.DB, q string) {
	b.Helper()
	if _, err := db.Exec(q); err != nil {
		b.Fatalf("%v\n%s", err, q)
	}
}

// describe is the column types of a query.
func describe(b *testing.B, db *sql.DB, q string) string {
	rows, err := db.Query("SELECT column_type FROM (DESCRIBE " + q + ")")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			b.Fatal(err)
		}
		out = append(out, t)
	}
	return strings.Join(out, ", ")
}

func mustParse(b *testing.B, s string) *Type {
	t, err := ParseType(s)
	if err != nil {
		b.Fatal(err)
	}
	return t
}
