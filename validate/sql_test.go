package validate

import (
	"slices"
	"testing"

	"github.com/laktory/workbench/runner/engine/local"
)

// validate parses SQL through the SQL interface only (it links no
// DuckDB). Its tests parse with the parser programs use, the local
// engine's (docs/development.md allows this one test import from
// runner): testSQL serves every Check and Predicate of the tests that
// pass no parser, and parser is its predicate cache.
var (
	testSQL SQL = local.OpenParser()
	parser      = parserOf(testSQL)
)

func init() { fallbackSQL = testSQL }

// TestNoSQL: without a parser, predicates are neither checked nor proven,
// and Predicate says why it cannot embed one.
func TestNoSQL(t *testing.T) {
	p := newSQLParser(nil)
	if got := p.parse("a = 1"); !got.unavailable || got.err != "" {
		t.Fatalf("no parser: %+v", got)
	}
	if n := p.statementCount("SELECT 1; SELECT 2"); n != -1 {
		t.Fatalf("no parser: %d statements", n)
	}
	if _, err := Predicate(noSQL{}, "a = 1"); err == nil {
		t.Fatal("Predicate with a parser that cannot run: no error")
	}
}

// noSQL is a parser that cannot run (DuckDB did not start).
type noSQL struct{}

func (noSQL) Serialize([]string) ([]string, []string, error) { return nil, nil, errNoSQL }
func (noSQL) Deterministic() ([]string, error)               { return nil, errNoSQL }

// TestParserPerSQL: each SQL implementation has its own cache, so a
// parser's results never serve another's.
func TestParserPerSQL(t *testing.T) {
	if parserOf(testSQL) != parser || parserOf(nil) != parser {
		t.Fatal("the tests' parser is not cached")
	}
	other := local.OpenParser()
	defer other.Close()
	if parserOf(other) == parser {
		t.Fatal("two implementations share a cache")
	}
	if got := parserOf(other).parse("b = 2"); got.expr == nil || got.sql != "((b = 2))" {
		t.Fatalf("parse: %+v", got)
	}
}

// TestDeterministic: the functions a predicate may call are the
// deterministic built-in scalars, whichever database the parser uses.
func TestDeterministic(t *testing.T) {
	names, err := testSQL.Deterministic()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lower", "abs", "upper"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s is not listed", want)
		}
	}
	for _, bad := range []string{"random", "now", "read_csv", "sum"} {
		if slices.Contains(names, bad) {
			t.Errorf("%s is listed", bad)
		}
	}
}
