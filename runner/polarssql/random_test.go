package polarssql

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/dialect"
)

// TestRandomArith: float remainders, float powers and wrapping integer
// powers of Laktory's SQL parser over 1,000 random rows give polars
// 1.32.0's values bit for bit (testdata/random/arith.json, by
// scripts/polars/random_arith.py through Laktory's sql_expr): a division
// by a column, a scalar's reciprocal, Float32 rounding at each step,
// polars' special exponents, Rust's wrapping_pow.
func TestRandomArith(t *testing.T) {
	raw, err := os.ReadFile("testdata/random/arith.json")
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Schema  [][2]string                  `json:"schema"`
		Columns map[string][]json.RawMessage `json:"columns"`
		Results map[string]struct {
			Name   string            `json:"name"`
			DType  string            `json:"dtype"`
			Values []json.RawMessage `json:"values"`
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
	n := len(data.Columns[names[0]])
	var rows []string
	for i := range n {
		var vals []string
		for j, c := range names {
			v := strings.Trim(string(data.Columns[c][i]), `"`)
			vals = append(vals, "CAST('"+v+"' AS "+cols[j].Type.DuckDB()+")")
		}
		rows = append(rows, "("+strconv.Itoa(i)+", "+strings.Join(vals, ", ")+")")
	}
	if _, err := db.Exec("CREATE TABLE r (row_id INTEGER, " + strings.Join(defs, ", ") + ")"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO r VALUES " + strings.Join(rows, ", ")); err != nil {
		t.Fatal(err)
	}
	for text, want := range data.Results {
		t.Run(text, func(t *testing.T) {
			x, err := TranslateLaktoryExpr(text, "", cols)
			if err != nil {
				t.Fatal(err)
			}
			if x.Name != want.Name || x.Type.String() != want.DType {
				t.Errorf("%s:%s, polars %s:%s", x.Name, x.Type, want.Name, want.DType)
			}
			got, err := db.Query("SELECT CAST(" + x.SQL + " AS VARCHAR) FROM r ORDER BY row_id")
			if err != nil {
				t.Fatal(err)
			}
			defer got.Close()
			bad := 0
			for i := 0; got.Next(); i++ {
				var s sql.NullString
				if err := got.Scan(&s); err != nil {
					t.Fatal(err)
				}
				w := strings.Trim(string(want.Values[i]), `"`)
				if !sameText(s, w, x.Type) {
					if bad++; bad <= 3 {
						t.Errorf("row %d: %v, polars %s", i, s.String, w)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d rows differ", bad, n)
			}
		})
	}
}

// sameText compares a DuckDB value printed as text with polars' (Python's
// repr of a float, an integer's digits, null).
func sameText(got sql.NullString, want string, ty *Type) bool {
	if !got.Valid || want == "null" {
		return !got.Valid && want == "null"
	}
	if !ty.isFloat() {
		return got.String == want
	}
	g, err1 := strconv.ParseFloat(got.String, 64)
	if strings.HasSuffix(got.String, "nan") { // DuckDB prints -nan
		g, err1 = math.NaN(), nil
	}
	w, err2 := strconv.ParseFloat(want, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	if ty.Kind == Float32 {
		return math.Float32bits(float32(g)) == math.Float32bits(float32(w)) || math.IsNaN(g) && math.IsNaN(w)
	}
	return math.Float64bits(g) == math.Float64bits(w) || math.IsNaN(g) && math.IsNaN(w) || fmt.Sprint(g) == fmt.Sprint(w)
}
