package polarssql

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"
)

// TestCastAndUpperFastPaths: CAST(text AS TIMESTAMP) of YYYY-MM-DDTHH:MM:SS
// text (cast without the regular expressions), CAST of text to a number
// that is DuckDB's rendering of it (canonicalFirst) and polars_upper of
// ASCII text (DuckDB's upper) give what the general paths give: the same
// values, NULL for NULL, and polars' error for bad text.
func TestCastAndUpperFastPaths(t *testing.T) {
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
	str, err := ParseType("String")
	if err != nil {
		t.Fatal(err)
	}
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{"s", str}}}}
	run := func(query, text string) (string, error) {
		res, err := Translate(query, in)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.SQL, "GLOB") && strings.Contains(query, "TIMESTAMP") || !strings.Contains(res.SQL, "TRY_CAST") && strings.Contains(query, "CAST") {
			t.Fatalf("no fast path in %s", res.SQL)
		}
		var got sql.NullString
		err = db.QueryRowContext(ctx, "WITH t AS (SELECT "+text+"::VARCHAR AS s) SELECT CAST(x AS VARCHAR) FROM ("+res.SQL+") q(x)").Scan(&got)
		return got.String, err
	}
	for _, c := range []struct{ text, want, err string }{
		{"'2026-01-02T03:04:05'", "2026-01-02 03:04:05", ""},
		{"'2026-01-02T03:04:05.5'", "2026-01-02 03:04:05.5", ""},
		{"'2026-1-2T03:04'", "2026-01-02 03:04:00", ""},
		{"'2026-01-02T03:04:05Z'", "2026-01-02 03:04:05", ""},
		{"NULL", "", ""},
		{"'2026-13-02T03:04:05'", "", "Conversion Error"},
		{"'2026-01-02 03:04:05'", "", "conversion from `str` to `datetime[μs]` failed for the value 2026-01-02 03:04:05"},
	} {
		got, err := run("SELECT CAST(s AS TIMESTAMP) AS ts FROM {df}", c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("CAST(%s AS TIMESTAMP): %q %v, want an error with %q", c.text, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("CAST(%s AS TIMESTAMP) = %q %v, want %q", c.text, got, err, c.want)
		}
	}
	for _, c := range []struct{ query, text, want, err string }{
		{"BIGINT", "'123'", "123", ""}, {"BIGINT", "'-5'", "-5", ""}, {"BIGINT", "'+5'", "5", ""}, {"BIGINT", "'007'", "7", ""},
		{"BIGINT", "NULL", "", ""}, {"BIGINT", "' 5'", "", "conversion from `str` to `i64` failed"},
		{"BIGINT", "'1e3'", "", "conversion from `str` to `i64` failed"}, {"TINYINT", "'200'", "", "Conversion Error"},
		{"DOUBLE", "'179.19'", "179.19", ""}, {"DOUBLE", "'1e3'", "1000.0", ""}, {"DOUBLE", "'nan'", "nan", ""},
		{"DOUBLE", "'-0.0'", "-0.0", ""}, {"DOUBLE", "'x'", "", "conversion from `str` to `f64` failed"},
	} {
		got, err := run("SELECT CAST(s AS "+c.query+") AS n FROM {df}", c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("CAST(%s AS %s): %q %v, want an error with %q", c.text, c.query, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("CAST(%s AS %s) = %q %v, want %q", c.text, c.query, got, err, c.want)
		}
	}
	for _, c := range []struct{ text, want, err string }{
		{"'abc-Z1'", "ABC-Z1", ""}, {"''", "", ""}, {"NULL", "", ""}, {"'straße'", "STRASSE", ""}, {"'éa'", "ÉA", ""},
		{"'ŉ'", "", "special case mappings"},
	} {
		got, err := run("SELECT upper(s) AS u FROM {df}", c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("upper(%s): %q %v, want an error with %q", c.text, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("upper(%s) = %q %v, want %q", c.text, got, err, c.want)
		}
	}
}

// TestRoundEvenFastPath: ROUND of a float is polars_round_even, which
// gives the bits of DuckDB's round_even (its fmod test replaced) on ties,
// near-ties, values past 2^53, signed zeros, NaN, infinities and NULL, at
// 0 to 400 digits; and polars 1.32.0's own results (Series.round) on a few
// ties through the translation.
func TestRoundEvenFastPath(t *testing.T) {
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
	f64, err := ParseType("Float64")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Translate("SELECT round(x, 2) AS r, round(x) AS r0 FROM {df}", []Input{{Ref: "df", SQL: "t", Schema: []Column{{"x", f64}}}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(res.SQL, "polars_round_even(") != 2 {
		t.Fatalf("ROUND is not polars_round_even: %s", res.SQL)
	}
	values := `SELECT unnest([i / 1000, -i / 1000, i / 8, i / 16, i / 10000, i / 3, i * 1e12, i * 1e15 + 0.5, i * 1e-7, i * 1e300, i * 9007199254740992.0 + 5]) AS x FROM range(5000) r(i)
		UNION ALL SELECT unnest(['nan'::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, -0.0, NULL, 0.005, 0.015, 2.675, 1.005, 4503599627370497.5, 900719925474099.5, 1.7976931348623157e308, 5e-324])`
	for _, n := range []int{0, 1, 2, 3, 6, 15, 300, 400} {
		var differ, ties int
		q := "SELECT count(*) FILTER (WHERE polars_round_even(x, " + strconv.Itoa(n) + ") IS DISTINCT FROM round_even(x, " + strconv.Itoa(n) + ")), " +
			"count(*) FILTER (WHERE (abs(x) * power(10, " + strconv.Itoa(n+1) + ")) % 10 = 5) FROM (" + values + ")"
		if err := db.QueryRowContext(ctx, q).Scan(&differ, &ties); err != nil {
			t.Fatal(err)
		}
		if differ != 0 {
			t.Errorf("%d digits: polars_round_even differs from round_even on %d values", n, differ)
		}
		if n <= 3 && ties == 0 {
			t.Errorf("%d digits: no ties among the values", n)
		}
	}
	// polars 1.32.0: pl.Series([2.675, 0.125, 0.375, 1.005, -2.5, 2.5]).round(2) and .round(0).
	for _, c := range []struct{ x, r, r0 string }{
		{"2.675", "2.68", "3.0"}, {"0.125", "0.12", "0.0"}, {"0.375", "0.38", "0.0"}, {"1.005", "1.0", "1.0"},
		{"-2.5", "-2.5", "-2.0"}, {"2.5", "2.5", "2.0"}, {"3.5", "3.5", "4.0"},
	} {
		var r, r0 string
		if err := db.QueryRowContext(ctx, "WITH t AS (SELECT "+c.x+"::DOUBLE AS x) SELECT CAST(r AS VARCHAR), CAST(r0 AS VARCHAR) FROM ("+res.SQL+")").Scan(&r, &r0); err != nil {
			t.Fatal(err)
		}
		if r != c.r || r0 != c.r0 {
			t.Errorf("round(%s, 2), round(%s) = %s, %s, want polars' %s, %s", c.x, c.x, r, r0, c.r, c.r0)
		}
	}
}
