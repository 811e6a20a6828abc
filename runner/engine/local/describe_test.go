package local

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/laktory/workbench/runner/engine"
)

// describeRowsOf is what DuckDB's DESCRIBE of query gives, run as a query.
func describeRowsOf(t *testing.T, db *sql.DB, query string) ([]engine.Column, error) {
	t.Helper()
	return describeRows(t.Context(), db, query)
}

// TestDescribeTypeNames: the columns read from a prepared statement are
// DESCRIBE's, name and type, for every type preparedColumns renders; for
// the others (nested, enums, JSON) it gives up and Describe runs the
// DESCRIBE, with the same result.
func TestDescribeTypeNames(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("CREATE TYPE mood AS ENUM ('sad', 'ok')"); err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	for _, c := range []struct {
		expr     string
		prepared bool // read from the prepared statement
	}{
		{"true", true}, {"1::TINYINT", true}, {"1::SMALLINT", true}, {"1", true}, {"1::BIGINT", true},
		{"1::UTINYINT", true}, {"1::USMALLINT", true}, {"1::UINTEGER", true}, {"1::UBIGINT", true},
		{"1::HUGEINT", true}, {"1::UHUGEINT", true}, {"1::FLOAT", true}, {"1::DOUBLE", true}, {"1.5", true},
		{"1.5::DECIMAL(18,2)", true}, {"1::DECIMAL(38,6)", true}, {"1::DECIMAL(4,0)", true}, {"'x'", true},
		{"'x'::BLOB", true}, {"DATE '2024-01-02'", true}, {"TIME '01:02:03'", true},
		{"'01:02:03+01'::TIMETZ", true}, {"INTERVAL 1 DAY", true}, {"TIMESTAMP '2024-01-02 03:04:05'", true},
		{"'2024-01-02'::TIMESTAMP_S", true}, {"'2024-01-02'::TIMESTAMP_MS", true},
		{"'2024-01-02'::TIMESTAMP_NS", true}, {"TIMESTAMPTZ '2024-01-02 03:04:05+01'", true},
		{"gen_random_uuid()", true}, {"NULL", true}, {"NULL::INTEGER", true},
		{"[1]", false}, {"[1]::INTEGER[2]", false}, {"{'f': 1, 'g h': 'x'}", false}, {"MAP {'a': 1}", false},
		{"'sad'::mood", false}, {"'{}'::JSON", false}, {"union_value(a := 1)", false}, {"'101'::BIT", false},
	} {
		t.Run(c.expr, func(t *testing.T) {
			query := fmt.Sprintf("SELECT %s AS \"a b\", 1 AS k", c.expr)
			want, err := describeRowsOf(t, db, query)
			if err != nil {
				t.Fatal(err)
			}
			var got []engine.Column
			var ok bool
			if err := conn.Raw(func(dc any) error { got, ok = preparedColumns(dc, query); return nil }); err != nil {
				t.Fatal(err)
			}
			if ok != c.prepared {
				t.Fatalf("read from the prepared statement: %v, want %v (%v; DESCRIBE: %v)", ok, c.prepared, got, want)
			}
			if ok && fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("prepared statement: %v, DESCRIBE: %v", got, want)
			}
			cols, err := Describe(t.Context(), conn, query)
			if err != nil || fmt.Sprint(cols) != fmt.Sprint(want) {
				t.Fatalf("Describe: %v %v, DESCRIBE: %v", cols, err, want)
			}
		})
	}
}

// TestDescribeErrorIsDescribes: a query that does not bind fails with
// DESCRIBE's error, whose excerpt of the statement (LINE 1: DESCRIBE ...)
// the schema check places in the YAML; a query with parameters is
// described by DESCRIBE.
func TestDescribeErrorIsDescribes(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	for _, q := range []string{"SELECT nope FROM range(3)", "SELECT 1 AS a FROM range(3) WHERE lower(range, 2) > 1"} {
		_, want := describeRowsOf(t, db, q)
		_, err := Describe(t.Context(), conn, q)
		if want == nil || err == nil || err.Error() != want.Error() {
			t.Fatalf("%s: error %v, DESCRIBE's %v", q, err, want)
		}
	}
	var ok bool
	if err := conn.Raw(func(dc any) error { _, ok = preparedColumns(dc, "SELECT ? AS a"); return nil }); err != nil || ok {
		t.Fatalf("a query with a parameter read from its prepared statement (%v)", err)
	}
}
