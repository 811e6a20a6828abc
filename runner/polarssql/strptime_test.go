package polarssql

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/sqlfront"
)

// TestStrptimeCases: Polars SQL's STRPTIME, TIMESTAMP(x, format) and
// DATE(x, format) parse what polars 1.32.0 parses, to the same value, and
// fail the query where polars does, over chrono formats and their texts
// (valid ones and their mutations: unpadded fields, whitespace, signs,
// fields out of range, leap days and seconds, digits added or removed;
// testdata/random/strptime.json by scripts/polars/strptime_cases.py
// through Laktory's DataFrameExpr, and its held-out part
// strptime_heldout.json, computed before the code it tests). A format
// polars refuses before reading a value (its ComputeError: %p with %H, %I
// without %p, an hour without minutes) is refused here with polars'
// message. A year outside 1-9999, which chrono reads and the local engine
// does not compute, fails here with another message and is counted apart.
func TestStrptimeCases(t *testing.T) {
	for _, part := range []struct{ name, file string }{{"development", "strptime.json"}, {"held out", "strptime_heldout.json"}} {
		t.Run(part.name, func(t *testing.T) { strptimeCases(t, part.name, "testdata/random/"+part.file) })
	}
}

func strptimeCases(t *testing.T, part, file string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Cases []struct {
			Func   string  `json:"func"`
			Format string  `json:"format"`
			Text   string  `json:"text"`
			Polars *string `json:"polars"`
			Error  string  `json:"error"`
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
	bad, far, parsed, formatErr := 0, 0, 0, 0
	for _, c := range data.Cases {
		q := "SELECT " + c.Func + "(v, " + quote(c.Format) + ") AS t FROM {df}"
		res, err := Translate(q, []Input{{Ref: "df", SQL: "(SELECT CAST(" + quote(c.Text) + " AS VARCHAR) AS v)", Schema: []Column{{Name: "v", Type: tString}}}})
		var se *sqlfront.Error
		switch {
		case err != nil && c.Error != "" && errors.As(err, &se) && se.Class+": "+se.Msg == c.Error:
			formatErr++
			continue
		case err != nil:
			t.Fatalf("%s: %v (polars: %q)", q, err, c.Error)
		case c.Error != "":
			if bad++; bad <= 10 {
				t.Errorf("%s %q: translated, polars fails: %s", q, c.Text, c.Error)
			}
			continue
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
	t.Logf("%s: %d texts: %d parsed as polars parses them, %d fail as in polars, %d refused as polars refuses their format, %d years outside 1-9999 refused at run time, %d differ",
		part, len(data.Cases), parsed, len(data.Cases)-parsed-far-bad-formatErr, formatErr, far, bad)
}
