package polarssql

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/dialect"
)

// TestRandomVariance: Polars SQL's VARIANCE and STDDEV of Float64 and
// Float32, per group and over a window, give polars 1.32.0's values bit
// for bit over 240 random groups (testdata/random/variance.json, by
// scripts/polars/random_variance.py through Laktory's DataFrameExpr):
// cancellation around a large mean, huge values beside small ones (the
// scaled path), values whose squares overflow (inf), subnormals, NaN and
// infinities (NaN), NULLs and one-row groups (NULL). DuckDB's own
// var_samp fails on most of the non-finite groups.
func TestRandomVariance(t *testing.T) { randomQueries(t, "testdata/random/variance.json", false) }

// TestRandomQuantile: Polars SQL's QUANTILE_CONT (linear) and
// QUANTILE_DISC (equiprobable) of Float64, Int64 and Float32 over 300
// random groups of 1 to 30 values (NULLs, NaN) at 15 quantiles give polars
// 1.32.0's values bit for bit (testdata/random/quantile.json, by
// scripts/polars/random_quantile.py through Laktory's DataFrameExpr).
// One difference is allowed, and counted: where a group holds both -0.0
// and 0.0 and the quantile is a zero, its sign, which polars' unstable
// sort decides (a stable sort, or -0.0 before 0.0, each disagree with it
// somewhere).
func TestRandomQuantile(t *testing.T) { randomQueries(t, "testdata/random/quantile.json", true) }

// randomQueries runs the queries of a testdata/random file (a table and
// what polars computed from it) through the translation and compares the
// values, bit for bit (zeroSign: a zero of the other sign counts as the
// same value).
func randomQueries(t *testing.T, file string, zeroSign bool) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Schema  [][2]string                  `json:"schema"`
		Columns map[string][]json.RawMessage `json:"columns"`
		Results map[string]struct {
			Schema [][2]string         `json:"schema"`
			Rows   [][]json.RawMessage `json:"rows"`
		} `json:"results"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if err := Install(ctx, func(ctx context.Context, s string) error { _, err := db.ExecContext(ctx, s); return err }); err != nil {
		t.Fatal(err)
	}
	var cols []Column
	var defs, names []string
	for _, c := range data.Schema {
		ty, err := ParseType(c[1])
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, Column{Name: c[0], Type: ty})
		defs = append(defs, dialect.QuoteIdent(c[0])+" "+ty.DuckDB())
		names = append(names, c[0])
	}
	var rows []string
	for i := range data.Columns[names[0]] {
		var vals []string
		for j, c := range names {
			v := string(data.Columns[c][i])
			if v == "null" {
				vals = append(vals, "NULL")
				continue
			}
			vals = append(vals, "CAST('"+strings.Trim(v, `"`)+"' AS "+cols[j].Type.DuckDB()+")")
		}
		rows = append(rows, "("+strings.Join(vals, ", ")+")")
	}
	if _, err := db.Exec("CREATE TABLE r (" + strings.Join(defs, ", ") + ")"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO r VALUES " + strings.Join(rows, ", ")); err != nil {
		t.Fatal(err)
	}
	if len(data.Results) == 0 {
		t.Fatal("no queries")
	}
	for q, want := range data.Results {
		t.Run(q, func(t *testing.T) {
			res, err := Translate(q, []Input{{Ref: "df", SQL: "r", Schema: cols}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Columns) != len(want.Schema) {
				t.Fatalf("%d columns, polars %d", len(res.Columns), len(want.Schema))
			}
			var casts []string
			for i, c := range res.Columns {
				if c.Name != want.Schema[i][0] || c.Type.String() != want.Schema[i][1] {
					t.Errorf("column %d: %s:%s, polars %s:%s", i, c.Name, c.Type, want.Schema[i][0], want.Schema[i][1])
				}
				casts = append(casts, "CAST("+dialect.QuoteIdent(c.Name)+" AS VARCHAR)")
			}
			got, err := db.Query("SELECT " + strings.Join(casts, ", ") + " FROM (" + res.SQL + ") ORDER BY " + dialect.QuoteIdent(res.Columns[0].Name))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Close()
			bad, n, zeros := 0, 0, 0
			for ; got.Next(); n++ {
				vals := make([]sql.NullString, len(casts))
				ptrs := make([]any, len(vals))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := got.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				if n >= len(want.Rows) {
					continue
				}
				for i, v := range vals {
					w := strings.Trim(string(want.Rows[n][i]), `"`)
					if zeroSign && v.Valid && isZero(v.String) && isZero(w) && v.String != w {
						zeros++
						continue
					}
					if !sameText(v, w, res.Columns[i].Type) {
						if bad++; bad <= 5 {
							t.Errorf("row %d (%s): %s %v, polars %s", n, vals[0].String, res.Columns[i].Name, v.String, w)
						}
					}
				}
			}
			if err := got.Err(); err != nil {
				t.Fatal(err)
			}
			if n != len(want.Rows) {
				t.Errorf("%d rows, polars %d", n, len(want.Rows))
			}
			if bad > 0 {
				t.Errorf("%d values differ", bad)
			}
			t.Logf("%d rows, %d differ, %d zeros of the other sign", n, bad, zeros)
		})
	}
}

func isZero(s string) bool { return s == "0.0" || s == "-0.0" }

// TestRandomMinMax: Polars SQL's MIN and MAX of Float64 and Float32, per
// group and over a window, give polars 1.32.0's values over 200 random
// groups (testdata/random/minmax.json, by scripts/polars/random_minmax.py
// through Laktory's DataFrameExpr): polars skips NaN unless the group
// holds no other value (NULLs skipped too), where DuckDB's min and max
// take NaN for the greatest value. A zero's sign may differ (a group of
// -0.0 and 0.0).
func TestRandomMinMax(t *testing.T) { randomQueries(t, "testdata/random/minmax.json", true) }
