package polarssql

import (
	"context"
	"database/sql"
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
