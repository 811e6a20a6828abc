package local

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
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
		// Statements over views bound over their shapes (withShapes): a
		// long chain, views that have rows, literals' types through a
		// view, a column of NULLs, and what shapes would answer otherwise.
		{"long chain", append(chain[:5:5],
			checkStep{view: "c6_a", q: `SELECT "order_id", "amount" + 1 AS "amount", "s" FROM "c3_step"`},
			checkStep{view: "c7_b", q: `SELECT a."order_id", a."amount", b."s" FROM "c6_a" AS a JOIN "c3_step" AS b USING ("order_id")`},
			checkStep{view: "c8_c", q: `SELECT *, "amount" * 2 AS "twice" FROM "c7_b" WHERE "amount" > 0`},
			checkStep{q: `SELECT * FROM "c8_c"`},
			checkStep{q: `SELECT (("twice" > "amount")) FROM "c8_c"`},
			checkStep{q: `SELECT "c8_c"."s" || 'x' FROM "c8_c"`},
			checkStep{q: `SELECT "c8_c"."nope" FROM "c8_c"`}), true},
		{"literals through views", []checkStep{
			{view: "l1", q: `SELECT 41 AS "x", 'a' AS "s", 2.5 AS "d", NULL AS "n", 3000000000 AS "big"`},
			{view: "l2", q: `SELECT "x" + 1 AS "y", "s" || "s" AS "t", "d" * 2 AS "e", "n" AS "n", "big" * 2 AS "b2" FROM "l1"`},
			{q: `SELECT * FROM "l2"`},
			{q: `SELECT "y" + 2147483647, "n" + 1, coalesce("n", 'z') FROM "l2"`},
			{row: true, q: `SELECT count(*) = 1 FROM "l2"`},
		}, false},
		{"literals' types from a view", []checkStep{
			{view: "l1", q: `SELECT 41 AS "x", 'a' AS "s", 2.5 AS "d", 3000000000 AS "big"`},
			{q: `SELECT "x" + 2147483647, "d" + 1, "big" + 1, "s" || 'b' FROM "l1"`},
			{view: "l2", q: `SELECT CASE WHEN "x" > 0 THEN NULL END AS "c", "x" IS NULL AS "b" FROM "l1"`},
			{q: `SELECT coalesce("c", 'z'), "b" FROM "l2"`},
		}, false},
		{"a string literal through a view", []checkStep{
			{view: "l1", q: `SELECT 'a' AS "s"`},
			{q: `SELECT "s" + 1 FROM "l1"`},
		}, true},
		{"pivot reads the rows", []checkStep{
			{view: "p1", q: `SELECT 'a' AS "k", 1 AS "v" UNION ALL SELECT 'b', 2`},
			{q: `SELECT * FROM (PIVOT "p1" ON "k" USING sum("v"))`},
			{view: "p2", q: `SELECT * FROM (PIVOT "p1" ON "k" USING sum("v"))`},
			{q: `SELECT "a" + "b" FROM "p2"`},
		}, true},
		{"query() reads the rows", []checkStep{
			{view: "q1", q: `SELECT 'SELECT 1 AS one' AS "q"`},
			{q: `SELECT * FROM query_table(['q1'])`},
		}, false},
		{"collations", []checkStep{
			{view: "k1", q: `SELECT 'a' COLLATE nocase AS "x", 'b' AS "y"`},
			{view: "k2", q: `SELECT "x" AS "x", "y" FROM "k1"`},
			{q: `SELECT "x" = 'A' FROM "k2"`},
			{q: `SELECT "x" COLLATE noaccent = "y" COLLATE nocase FROM "k2"`},
		}, true},
		{"two collations", []checkStep{
			{view: "k1", q: `SELECT 'a' COLLATE nocase AS "x", 'b' COLLATE noaccent AS "y"`},
			{view: "k2", q: `SELECT * FROM "k1"`},
			{q: `SELECT "x" = "y", "x" || "y" FROM "k2"`},
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			plain, err := e.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer plain.(*Session).Discard()
			want := runSteps(ctx, plain.(*Session), c.steps)
			// Twice over one CheckBinds: the second session's statements
			// are answered from the first's where they prepared.
			bctx, _ := WithCheckBinds(ctx)
			var cs *Session
			for run := range 2 {
				es, err := e.OpenCheck(bctx)
				if err != nil {
					t.Fatal(err)
				}
				cs = es.(*Session)
				defer cs.Discard()
				got := runSteps(bctx, cs, c.steps)
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("run %d, call %d (%+v):\ncheck session: %s\nsession:       %s", run+1, i+1, c.steps[i], got[i], want[i])
					}
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

// TestCheckBinds: the check sessions of one check share the columns of the
// statements they prepared, over views of other names (bindKey); a
// statement that did not prepare is prepared again, its error DuckDB's;
// a view's name in a string literal is not a key.
func TestCheckBinds(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := New(db, nil)
	ctx, binds := WithCheckBinds(t.Context())
	node := func(p string) []checkStep {
		return []checkStep{
			{view: p + "_1_src", q: `SELECT CAST(NULL AS BIGINT) AS "order_id", CAST(NULL AS DOUBLE) AS "amount" LIMIT 0`},
			{view: p + "_2_f", q: `SELECT * FROM "` + p + `_1_src" WHERE (("amount" > 0))`},
			{view: p + "_3_step", q: `SELECT "order_id", "amount" * 2 AS "amount", 1 AS "client_id" FROM "` + p + `_2_f"`},
			{q: `SELECT (("amount" > 0)) FROM "` + p + `_3_step"`},
			{q: `SELECT (("amout" > 0)) FROM "` + p + `_3_step"`},
		}
	}
	run := func(s *Session, steps []checkStep) []string {
		out := runSteps(ctx, s, steps)
		for i := range out {
			out[i] = strings.ReplaceAll(out[i], steps[0].view[:3], "lkN")
		}
		return out
	}
	open := func() *Session {
		es, err := e.OpenCheck(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { es.(*Session).Discard() })
		return es.(*Session)
	}
	first := run(open(), node("lk1"))
	if h := binds.Hits(); h != 0 {
		t.Fatalf("%d hits in the first session", h)
	}
	second := run(open(), node("lk2"))
	if !slices.Equal(first, second) {
		t.Errorf("second session:\n%s\nfirst:\n%s", strings.Join(second, "\n"), strings.Join(first, "\n"))
	}
	// The source, the filter, the step and the expectation; not the
	// statement that did not prepare (which made the session give up).
	if h := binds.Hits(); h != 4 {
		t.Errorf("%d hits, want 4", h)
	}
	if !strings.Contains(second[4], "amout") {
		t.Errorf("the unknown column's error: %s", second[4])
	}
	// A session with a view more before them: the views a statement
	// reads are numbered by their places in it, not in the session.
	third := open()
	if err := third.CreateView(ctx, "lk4_0_other", `SELECT 1 AS "one"`); err != nil {
		t.Fatal(err)
	}
	if got := run(third, node("lk4")); !slices.Equal(got, first) {
		t.Errorf("third session:\n%s\nfirst:\n%s", strings.Join(got, "\n"), strings.Join(first, "\n"))
	}
	if h := binds.Hits(); h != 8 {
		t.Errorf("%d hits after the third session, want 8", h)
	}

	s := open()
	runSteps(ctx, s, node("lk3")[:1])
	for stmt, want := range map[string]bool{
		`SELECT * FROM "lk3_1_src"`:                      true,
		`SELECT 'it''s', "lk3_1_src".x FROM "lk3_1_src"`: true,
		`SELECT 'lk3_1_src' FROM "lk3_1_src"`:            false,
		`SELECT 'a "lk3_1_src" b' FROM "lk3_1_src"`:      false,
		`SELECT * FROM lk3_1_src`:                        false,
		"SELECT '\x00' FROM \"lk3_1_src\"":               false,
	} {
		if _, ok := s.bindKey(stmt); ok != want {
			t.Errorf("bindKey(%s): %v, want %v", stmt, ok, want)
		}
	}
	if k, _ := s.bindKey(`SELECT "lk3_1_src".x FROM "lk3_1_src"`); k != "SELECT \"\x000\".x FROM \"\x000\"" {
		t.Errorf("key %q", k)
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
