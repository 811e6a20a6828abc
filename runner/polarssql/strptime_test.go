package polarssql

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestStrptimeCases: Polars SQL's STRPTIME, TIMESTAMP(x, format) and
// DATE(x, format) parse what polars 1.32.0 parses, to the same value, and
// fail the query where polars does, over 13 chrono formats and 763 texts
// (valid ones and their mutations: unpadded fields, whitespace, signs,
// fields out of range, leap days and seconds, digits added or removed;
// testdata/random/strptime.json by scripts/polars/strptime_cases.py
// through Laktory's DataFrameExpr). A year outside 1-9999, which chrono
// reads and the local engine does not compute, fails here with another
// message and is counted apart.
func TestStrptimeCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/random/strptime.json")
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Cases []struct {
			Func   string  `json:"func"`
			Format string  `json:"format"`
			Text   string  `json:"text"`
			Polars *string `json:"polars"`
		} `json:"cases"`
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
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	bad, far, parsed := 0, 0, 0
	for _, c := range data.Cases {
		q := "SELECT " + c.Func + "(v, " + quote(c.Format) + ") AS t FROM {df}"
		res, err := Translate(q, []Input{{Ref: "df", SQL: "(SELECT CAST(" + quote(c.Text) + " AS VARCHAR) AS v)", Schema: []Column{{Name: "v", Type: tString}}}})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		format := "%Y-%m-%d %H:%M:%S.%f"
		if res.Columns[0].Type.Kind == Date {
			format = "%Y-%m-%d"
		}
		var got sql.NullString
		v := "t"
		if res.Columns[0].Type.Zone != "" {
			v = "t AT TIME ZONE 'UTC'"
		}
		err = db.QueryRow("SELECT strftime(" + v + ", '" + format + "') FROM (" + res.SQL + ")").Scan(&got)
		switch {
		case err != nil && strings.Contains(err.Error(), "is not supported locally"):
			far++
			if c.Polars == nil {
				t.Errorf("%s %q: %v, polars fails", q, c.Text, err)
			}
		case err != nil:
			if !strings.Contains(err.Error(), "[InvalidOperationError] conversion from `str` to") {
				t.Errorf("%s %q: %v", q, c.Text, err)
			}
			if c.Polars != nil {
				if bad++; bad <= 10 {
					t.Errorf("%s %q: fails, polars %s", q, c.Text, *c.Polars)
				}
			}
		case c.Polars == nil:
			if bad++; bad <= 10 {
				t.Errorf("%s %q: %s, polars fails", q, c.Text, got.String)
			}
		case got.String != *c.Polars:
			if bad++; bad <= 10 {
				t.Errorf("%s %q: %s, polars %s", q, c.Text, got.String, *c.Polars)
			}
		default:
			parsed++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d texts differ", bad, len(data.Cases))
	}
	t.Logf("%d texts: %d parsed as polars parses them, %d fail as in polars, %d years outside 1-9999 refused at run time, %d differ",
		len(data.Cases), parsed, len(data.Cases)-parsed-far-bad, far, bad)
}
