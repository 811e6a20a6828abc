package local

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// checkStep is a call a schema check makes on its session.
type checkStep struct {
	view  string // CreateView(view, q) when set
	q     string // else Describe(q), or QueryRow(q) into a *bool when row
	row   bool
	lower bool // the error compared case-insensitively (no)
}

// runSteps runs steps on s and records what each gave (columns, value or
// the error's text).
func runSteps(ctx context.Context, s *Session, steps []checkStep) []string {
	var out []string
	for _, st := range steps {
		switch {
		case st.view != "":
			out = append(out, fmt.Sprint(s.CreateView(ctx, st.view, st.q)))
		case st.row:
			var v *bool
			err := s.QueryRow(ctx, st.q, &v)
			if v != nil {
				out = append(out, fmt.Sprint(*v, err))
			} else {
				out = append(out, fmt.Sprint(nil, err))
			}
		default:
			cols, err := s.Describe(ctx, st.q)
			out = append(out, fmt.Sprint(cols, err))
		}
	}
	return out
}

// TestCheckSession: a schema check's session gives, call for call, what a
// session that creates its views gives (columns, values, DuckDB's errors
// with their excerpt of the statement), over chains of views, a view
// that does not bind, texts the check form does not take (comments, a
// semicolon, unbalanced brackets, an escape string, two columns of one
// name, nested types), and the NULL probe of an expectation; it creates
// nothing in DuckDB unless it gave up (materialized).
func TestCheckSession(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := New(db, nil)
	empty := `SELECT CAST(NULL AS BIGINT) AS "order_id", CAST(NULL AS DOUBLE) AS "amount", CAST(NULL AS DECIMAL(18,2)) AS "price" LIMIT 0`
	chain := []checkStep{
		{view: "c1_src", q: empty},
		{view: "c2_f", q: `SELECT * FROM "c1_src" WHERE (("amount" > 0))`},
		{q: `SELECT * FROM "c2_f"`},
		{view: "c3_step", q: `SELECT t1."order_id" AS "order_id", t1."amount" * 2 AS "amount", 'it''s' AS "s" FROM "c2_f" AS t1`},
		{q: `SELECT * FROM "c3_step"`},
		{q: `SELECT (("amount" > 0)) FROM "c3_step"`},
		{row: true, q: `WITH "c3_step" AS (SELECT NULL::BIGINT AS "order_id", NULL::DOUBLE AS "amount", NULL::VARCHAR AS "s") SELECT (("amount" > 0)) IS NULL FROM "c3_step"`},
		{row: true, q: `SELECT count(*) = 0 FROM "c3_step"`},
		{q: `SELECT count(*) FILTER (WHERE (("order_id" = 1)) IS NOT TRUE) FROM "c3_step"`},
	}
	for _, c := range []struct {
		name        string
		steps       []checkStep
		materialize bool // the check session gives up
	}{
		{"chain", chain, false},
		{"join", append(chain[:2:2],
			checkStep{view: "c4_other", q: empty},
			checkStep{view: "c5_join", q: `SELECT a."order_id", b."price" FROM "c2_f" AS a INNER JOIN "c4_other" AS b ON (a."order_id" = b."order_id")`},
			checkStep{q: `SELECT * FROM "c5_join"`}), false},
		{"unknown column", append(chain[:2:2],
			checkStep{view: "c3_bad", q: `SELECT "amout" FROM "c2_f"`},
			checkStep{q: `SELECT * FROM "c2_f"`}), true},
		{"bad expectation", append(chain[:5:5], checkStep{q: `SELECT (("amount" + 'x' > nope)) FROM "c3_step"`}), true},
		{"not boolean", append(chain[:5:5], checkStep{q: `SELECT ("amount") FROM "c3_step"`}), false},
		{"comment", append(chain[:2:2], checkStep{view: "c3_c", q: `SELECT * FROM "c2_f" -- a comment`}, checkStep{q: `SELECT * FROM "c3_c"`}), true},
		{"block comment", append(chain[:2:2], checkStep{view: "c3_c", q: `SELECT /* x */ * FROM "c2_f"`}, checkStep{q: `SELECT * FROM "c3_c"`}), true},
		{"semicolon", append(chain[:2:2], checkStep{view: "c3_s", q: `SELECT * FROM "c2_f"; SELECT 1`}), true},
		{"closes a bracket it did not open", append(chain[:2:2],
			checkStep{view: "c3_b", q: `SELECT * FROM "c2_f") , "c9" AS (SELECT 2`},
			checkStep{q: `SELECT * FROM "c3_b"`}), true},
		{"escape string", append(chain[:2:2], checkStep{view: "c3_e", q: `SELECT E'a\'b' AS s FROM "c2_f"`}, checkStep{q: `SELECT * FROM "c3_e"`}), true},
		{"two columns of one name", append(chain[:2:2],
			checkStep{view: "c3_d", q: `SELECT "amount", "amount" AS "AMOUNT" FROM "c2_f"`},
			checkStep{q: `SELECT * FROM "c3_d"`}), true},
		{"nested type", append(chain[:2:2],
			checkStep{view: "c3_n", q: `SELECT [amount] AS l, {'f': order_id} AS st FROM "c2_f"`},
			checkStep{q: `SELECT * FROM "c3_n"`}), true},
		{"a type DESCRIBE names", append(chain[:2:2], checkStep{q: `SELECT [amount] AS l FROM "c2_f"`}), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			plain, err := e.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer plain.(*Session).Discard()
			want := runSteps(ctx, plain.(*Session), c.steps)
			es, err := e.OpenCheck(ctx)
			if err != nil {
				t.Fatal(err)
			}
			cs := es.(*Session)
			defer cs.Discard()
			got := runSteps(ctx, cs, c.steps)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("call %d (%+v):\ncheck session: %s\nsession:       %s", i+1, c.steps[i], got[i], want[i])
				}
			}
			if cs.Materialized() != c.materialize {
				t.Errorf("materialized %v, want %v", cs.Materialized(), c.materialize)
			}
			var views int
			if err := cs.Conn.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_views() WHERE temporary AND NOT internal").Scan(&views); err != nil {
				t.Fatal(err)
			}
			if !c.materialize && views != 0 {
				t.Errorf("the check session created %d views in DuckDB", views)
			}
			if c.materialize && views == 0 {
				t.Error("the check session gave up but created no view")
			}
		})
	}
}

// TestCheckSessionOtherCalls: any other call of a check session creates
// its views first, so what it runs reads them as on any session.
func TestCheckSessionOtherCalls(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := t.Context()
	es, err := New(db, nil).OpenCheck(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := es.(*Session)
	defer s.Discard()
	if err := s.CreateView(ctx, "v1", "SELECT 41 AS x"); err != nil {
		t.Fatal(err)
	}
	if s.Materialized() {
		t.Fatal("materialized by a view")
	}
	if err := s.CreateTable(ctx, "t1", `SELECT x + 1 AS y FROM "v1"`); err != nil {
		t.Fatal(err)
	}
	if !s.Materialized() {
		t.Fatal("a table created over the kept view without creating it")
	}
	var y int64
	if err := s.QueryRow(ctx, `SELECT y FROM "t1"`, &y); err != nil || y != 42 {
		t.Fatalf("got %d %v", y, err)
	}
}

// TestCheckQueryText: the texts the check form holds unchanged.
func TestCheckQueryText(t *testing.T) {
	for text, want := range map[string]bool{
		`SELECT 1`:                         true,
		`SELECT 'a)' AS "b(", f((1)) AS c`: true,
		`SELECT 'it''s'`:                   true,
		`SELECT x - -1, a / b FROM t`:      true,
		`SELECT fe'x' FROM t`:              true,
		`SELECT (1`:                        false,
		`SELECT 1)`:                        false,
		`SELECT 1) UNION (SELECT 2`:        false,
		`SELECT 'open`:                     false,
		`SELECT 1 -- c`:                    false,
		`SELECT /* c */ 1`:                 false,
		`SELECT 1; SELECT 2`:               false,
		`SELECT $$x$$`:                     false,
		`SELECT E'\n'`:                     false,
		`SELECT e'x'`:                      false,
		`SELECT '\'`:                       true, // a backslash is text in DuckDB's strings
	} {
		if got := checkQueryText(text); got != want {
			t.Errorf("%s: %v, want %v", text, got, want)
		}
	}
}
