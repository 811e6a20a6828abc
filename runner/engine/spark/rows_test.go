package spark

import (
	"strings"
	"testing"

	"github.com/apache/spark-connect-go/spark/sql/types"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/enginetest"
)

// TestRowJSON: Spark's JSON of a row keeps null members, writes
// timestamps in UTC with microseconds and decimals as strings (the form of
// engine.Rows); a relation without columns is {}.
func TestRowJSON(t *testing.T) {
	got := rowJSON([]engine.Column{{Name: "k", Type: "Long"}, {Name: "it's", Type: "Decimal"}})
	want := `to_json(named_struct('k', "k", 'it\'s', CAST("it's" AS STRING)), map('ignoreNullFields', 'false', 'timeZone', 'UTC', ` +
		`'timestampFormat', 'yyyy-MM-dd\'T\'HH:mm:ss.SSSSSS\'Z\'', 'timestampNTZFormat', 'yyyy-MM-dd\'T\'HH:mm:ss.SSSSSS'))`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// Describe names a decimal with its precision (Decimal(6,2)): still
	// a string.
	if got := rowJSON([]engine.Column{{Name: "d", Type: "Decimal(6,2)"}}); !strings.Contains(got, `CAST("d" AS STRING)`) {
		t.Fatalf("Decimal(6,2) is not written as a string: %s", got)
	}
	if got := rowJSON(nil); got != "'{}'" {
		t.Fatalf("no columns: %s", got)
	}
}

// TestSparkRows: Spark returns a query's rows in the form the local
// engine does (enginetest.CheckRows: the same values, the same JSON).
func TestSparkRows(t *testing.T) {
	ctx := t.Context()
	e, err := Open(ctx, remote(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, err := e.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Rows(ctx, `SELECT k, CAST(k * 1.5 AS DECIMAL(6, 2)) AS d, TIMESTAMP '2024-01-02 03:04:05+01:00' AS ts,
		TIMESTAMP_NTZ '2024-01-02 03:04:05' AS ntz, DATE '2024-01-02' AS day, CAST('NaN' AS DOUBLE) AS x, k / 4 AS f, k = 1 AS b,
		X'0102' AS bin, CASE WHEN k = 2 THEN 'two "2"' END AS s FROM range(1, 3) AS t(k) ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckRows(t, rows)
}

// dupRow is a row whose FieldNames panics as the client's does when two
// columns share a name.
type dupRow struct{ types.Row }

func (dupRow) Len() int { return 3 }
func (dupRow) FieldNames() []string {
	names := make([]string, 2)
	names[2] = "x" // the client's index out of range
	return names
}

// TestFieldNamesDuplicate: a row whose columns share a name is an error
// of the session, not a panic of the task (the demo's expectations on
// Spark once died so: "index out of range [2] with length 2").
func TestFieldNamesDuplicate(t *testing.T) {
	names, err := fieldNames(dupRow{})
	if err == nil || names != nil || !strings.Contains(err.Error(), "distinct names") {
		t.Fatalf("fieldNames = %v, %v", names, err)
	}
}
