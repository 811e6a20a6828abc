package sparksql

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
)

// A panic anywhere in translation is a diagnostic naming the construct,
// never a crash of validate or a run.
func TestTranslatePanicIsDiagnostic(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{Name: "k", Type: tInt}, {Name: "x", Type: tInt}}}}
	// A lambda over an aggregate in a grouped SELECT reached a nil
	// pointer in the grouped-query check.
	_, err := Translate("SELECT k, transform(collect_list(x), s -> s + 1) AS xs FROM {df} GROUP BY k", in, Options{})
	if err == nil {
		return // translated
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want an *Error", err)
	}
	if !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrSpark) {
		t.Fatalf("%v: neither unsupported nor a Spark error", err)
	}
	if errors.Is(err, ErrInternal) && !strings.Contains(pe.Msg, "`SELECT k, transform(") {
		t.Errorf("the diagnostic does not name the construct: %s", pe.Msg)
	}
}

func TestPanicErrorNamesConstruct(t *testing.T) {
	text := "a + nope(b)"
	e, err := ParseExpr(text)
	if err != nil {
		t.Fatal(err)
	}
	call := e.(*Binary).R
	err = panicError(text, []Node{e, call}, "boom")
	var pe *Error
	if !errors.As(err, &pe) || !errors.Is(err, ErrInternal) || !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrSpark) {
		t.Fatalf("%v: want an *Error that is ErrInternal and ErrUnsupported", err)
	}
	if pe.Pos != 4 || !strings.Contains(pe.Msg, "`nope(b)`") || !strings.Contains(pe.Msg, "boom") {
		t.Errorf("got pos %d, %q", pe.Pos, pe.Msg)
	}
	// The parser's panics are caught too (no resolver yet).
	err = func() (err error) {
		defer recoverTranslation("x", nil, &err)
		panic("parser bug")
	}()
	if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "this SQL") {
		t.Errorf("parser panic: %v", err)
	}
}

// DuckDB's statistical aggregates fail on results that are not finite;
// Spark gives NaN for NaN or infinite inputs and Infinity or NaN when
// squares overflow: the local run says so instead of DuckDB's error.
func TestStatisticOverflowSaysSo(t *testing.T) {
	db := openTestDB(t)
	r, err := Translate("SELECT variance(x) AS v FROM VALUES (1e300D), (0D), (-1e300D) AS t(x)", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var v any
	err = db.QueryRow(r.SQL).Scan(&v)
	var re *RunError
	if !errors.As(RuntimeError(err), &re) || re.Class != "LOCALLY_UNSUPPORTED.STATISTIC_OVERFLOW" {
		t.Fatalf("got %v (%v), want LOCALLY_UNSUPPORTED.STATISTIC_OVERFLOW", err, v)
	}
}

// openTestDB is an in-memory DuckDB with the translation's macros.
func openTestDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if err := installTest(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}
