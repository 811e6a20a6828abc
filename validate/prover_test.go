package validate

import (
	"errors"
	"testing"
)

func TestProve(t *testing.T) {
	tests := []struct {
		name, a, b  string
		disjoint    bool
		witness     string // when they overlap
		unsupported bool
		sameColumns bool
		exact       bool // the columns are of an exact type (BIGINT, DECIMAL)
	}{
		{name: "distinct values", a: "client_id = 1", b: "client_id = 2", disjoint: true, sameColumns: true},
		{name: "same value", a: "client_id = 23", b: "client_id IN (22, 23)", witness: "client_id = 23", sameColumns: true},
		{name: "constant on the left", a: "23 < client_id", b: "client_id <= 23", disjoint: true, sameColumns: true},
		{name: "ranges touching", a: "x < 5", b: "x >= 5", disjoint: true, sameColumns: true},
		{name: "ranges overlapping", a: "x < 5", b: "x > 2", witness: "x = 3", sameColumns: true},
		{name: "open interval between decimals", a: "x > 1.5", b: "x < 1.7", witness: "x = 1.6", sameColumns: true},
		{name: "between", a: "x BETWEEN 1 AND 10", b: "x BETWEEN 11 AND 20", disjoint: true, sameColumns: true},
		{name: "not between", a: "x NOT BETWEEN 1 AND 10", b: "x = 5", disjoint: true, sameColumns: true},
		{name: "not in", a: "region NOT IN ('eu', 'us')", b: "region IN ('eu')", disjoint: true, sameColumns: true},
		{name: "not equal", a: "region <> 'eu'", b: "region = 'us'", witness: "region = 'us'", sameColumns: true},
		{name: "not of or", a: "NOT (a = 1 OR a = 2)", b: "a IN (1, 2)", disjoint: true, sameColumns: true},
		{name: "and over two columns", a: "a = 1 AND b = 'x'", b: "a = 1 AND b = 'y'", disjoint: true, sameColumns: true},
		{name: "or branches", a: "a = 1 OR (a = 2 AND b > 3)", b: "a = 2 AND b <= 3", disjoint: true, sameColumns: true},
		{name: "or overlap", a: "a = 1 OR (a = 2 AND b > 3)", b: "a = 2 AND b < 5", witness: "a = 2 AND b = 4", sameColumns: true},
		{name: "strings", a: "feed = 'a'", b: "feed = 'b'", disjoint: true, sameColumns: true},
		{name: "quotes and case", a: `"Feed" = 'it''s'`, b: "feed = 'it''s'", witness: "feed = 'it''s'", sameColumns: true},
		{name: "spark backticks", a: "`feed` = 'a'", b: "feed = 'a'", witness: "feed = 'a'", sameColumns: true},
		{name: "dates", a: "d >= DATE '2024-01-01'", b: "d < DATE '2024-01-01'", disjoint: true, sameColumns: true},
		{name: "booleans", a: "active", b: "NOT active", disjoint: true, sameColumns: true},
		{name: "boolean literal", a: "flag = true", b: "flag = false", disjoint: true, sameColumns: true},
		{name: "different columns", a: "a = 1", b: "b = 2", witness: "a = 1 AND b = 2"},
		{name: "or true owns every row", a: "client_id = 1 OR true", b: "client_id = 2", witness: "client_id = 2", sameColumns: true},
		{name: "true alone owns every row", a: "true", b: "region = 'eu'", witness: "region = 'eu'", sameColumns: true},
		{name: "and false owns no row", a: "client_id = 1 AND false", b: "client_id = 1", disjoint: true},
		{name: "like", a: "feed LIKE 'a%'", b: "feed = 'b'", unsupported: true},
		{name: "functions", a: "lower(feed) = 'a'", b: "feed = 'b'", unsupported: true},
		{name: "mixed types", a: "x = 1", b: "x = '1'", unsupported: true},
		{name: "is null", a: "x IS NULL", b: "x = 1", unsupported: true},
		{name: "big integers on an exact column", a: "x = 12345678901234567890", b: "x = 12345678901234567891", disjoint: true, sameColumns: true, exact: true},
		// Issue 24 item 2: pairs the engine treats as equal are never
		// proven disjoint.
		{name: "big integers, type not known", a: "x = 12345678901234567890", b: "x = 12345678901234567891", unsupported: true},
		{name: "int and string", a: "id = 1", b: "id = '01'", unsupported: true},
		{name: "string and int", a: "c = '1'", b: "c = 1", unsupported: true},
		{name: "1e16 and 10000000000000001", a: "d = 1e16", b: "d = 10000000000000001", unsupported: true},
		{name: "2 and 1.99999999999999999", a: "d >= 2", b: "d <= 1.99999999999999999", unsupported: true},
		{name: "distinct doubles", a: "d >= 2", b: "d <= 1.9999", disjoint: true, sameColumns: true},
		{name: "an instant at another offset", a: "ts = TIMESTAMP '2024-01-01 01:00:00+01:00'", b: "ts = TIMESTAMP '2024-01-01 00:00:00Z'",
			sameColumns: true}, // either literal is the witness
		{name: "instants apart", a: "ts < TIMESTAMP '2024-01-01 01:00:00+01:00'", b: "ts >= TIMESTAMP '2024-01-01 00:00:00+00:00'", disjoint: true, sameColumns: true},
		{name: "sub-microsecond timestamps", a: "ts = TIMESTAMP '2024-01-01 00:00:00.0000001'", b: "ts = TIMESTAMP '2024-01-01 00:00:00.0000002'",
			sameColumns: true}, // either literal is the witness
		{name: "timestamps by value, not text", a: "ts < TIMESTAMP '2024-1-2'", b: "ts > TIMESTAMP '2024-01-01 12:00:00'", witness: "ts > TIMESTAMP '2024-01-01 12:00:00' AND ts < TIMESTAMP '2024-1-2'", sameColumns: true},
		{name: "zoned and wall clock", a: "ts = TIMESTAMP '2024-01-01 00:00:00Z'", b: "ts = TIMESTAMP '2024-01-01 00:00:00'", unsupported: true},
		{name: "dates by value", a: "d = DATE '2024-1-2'", b: "d = DATE '2024-01-02'", sameColumns: true}, // either literal is the witness
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pa, pb := parser.parse(tt.a), parser.parse(tt.b)
			if pa.expr == nil || pb.expr == nil {
				t.Fatalf("parse: %q %q", pa.err, pb.err)
			}
			for _, order := range [][2]*predicate{{pa, pb}, {pb, pa}} {
				res, err := prove(order[0], order[1], func(string) bool { return tt.exact })
				if tt.unsupported {
					if !errors.Is(err, errUnsupported) {
						t.Fatalf("want unsupported, got %+v %v", res, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.disjoint != tt.disjoint || res.sameColumns != tt.sameColumns || (!tt.disjoint && tt.witness != "" && res.witness != tt.witness) || (!tt.disjoint && res.witness == "") {
					t.Fatalf("got %+v, want disjoint=%v witness=%q same=%v", res, tt.disjoint, tt.witness, tt.sameColumns)
				}
			}
		})
	}
}

// TestParseErrors: a predicate is exactly one expression over the row, on
// its own; anything else is an error with its code and offset.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		where  string
		code   string
		offset int
	}{
		{"client_id = ", CodeWhereSyntax, 12},
		{"(a = 1", CodeWhereSyntax, 6},
		{"client_id = 1) OR (true", CodeWhereSyntax, 13},
		{"a = 1) OR (1 = 1", CodeWhereSyntax, 5},
		{"a = 1 ORDER BY a", CodeWhereShape, 0},
		{"a = 1; DROP TABLE t", CodeWhereShape, 0},
		{"a = 1; SELECT 1", CodeWhereShape, 0},
		{"a = 1, b = 2", CodeWhereShape, 0},
		{"a = 1 FROM t", CodeWhereShape, 0},
		{"a = 1 WHERE true", CodeWhereShape, 0},
		{"a = 1 LIMIT 0", CodeWhereShape, 0},
		{"a = 1 AS owned", CodeWhereShape, 0},
		{"a = 1 mine", CodeWhereShape, 0},
		{"a = 1 UNION SELECT true", CodeWhereShape, 0},
		{"a = ?", CodeWhereShape, 0},
		{"a = $1", CodeWhereShape, 0},
		{"a IN (SELECT 1)", CodeWhereReads, 2},
		{"EXISTS (SELECT 1)", CodeWhereReads, 0},
		{"(SELECT count(*) FROM read_csv('/etc/passwd')) > 0", CodeWhereReads, 0},
		{"read_text('/etc/passwd') IS NOT NULL", CodeWhereReads, 0},
		{"length(read_blob('/etc/shadow')) > 0", CodeWhereReads, 7},
		{"random() < 0.5", CodeWhereReads, 0},
		{"ts < now()", CodeWhereReads, 5},
		{"CASE WHEN a THEN uuid() = b END", CodeWhereReads, 17},
		{"count(a) > 1", CodeWhereReads, 0},
		{"nextval('s') > 0", CodeWhereReads, 0},
		{"main.lower(a) = 'x'", CodeWhereReads, 0},
		{"COLUMNS(*) = 1", CodeWhereReads, 0},
		{"sum(a) OVER () > 1", CodeWhereReads, 0},
	}
	for _, tt := range tests {
		t.Run(tt.where, func(t *testing.T) {
			p := parser.parse(tt.where)
			if p.err == "" || p.expr != nil || p.sql != "" {
				t.Fatalf("no error for %q", tt.where)
			}
			if p.code != tt.code || p.errOffset != tt.offset {
				t.Fatalf("%s at %d, want %s at %d (%s)", p.code, p.errOffset, tt.code, tt.offset, p.err)
			}
			if _, err := Predicate(testSQL, tt.where); !errors.Is(err, ErrPredicate) {
				t.Fatalf("Predicate: %v", err)
			}
		})
	}
}

// TestPredicate: a valid predicate is embedded as DuckDB renders its parse
// tree, in parentheses; comments and Spark quotes cannot escape.
func TestPredicate(t *testing.T) {
	for where, want := range map[string]string{
		"client_id = 1":                                   "((client_id = 1))",
		"region IN ('eu', 'us') -- owned":                 "((region IN ('eu', 'us')))",
		"`my col` = 'a'":                                  `(("my col" = 'a'))`,
		"lower(s) LIKE 'a%' AND x IS NOT NULL":            "(((lower(s) ~~ 'a%') AND (x IS NOT NULL)))",
		"x BETWEEN 1 AND 2 /* ) OR (true */":              "((x BETWEEN 1 AND 2))",
		"s.f = 1 AND CAST(d AS DATE) = DATE '2026-01-01'": "(((s.f = 1) AND (CAST(d AS DATE) = CAST('2026-01-01' AS DATE))))",
	} {
		got, err := Predicate(testSQL, where)
		if err != nil || got != want {
			t.Errorf("Predicate(%q) = %q, %v; want %q", where, got, err, want)
		}
	}
}

// TestParseAll: predicates parsed in one batch give the same results as
// one by one.
func TestParseAll(t *testing.T) {
	batch := []string{"batch_a = 1", "batch_b = = 2", "batch_a = 1", "`batch_c` IN (1, 2)"}
	parser.parseAll(batch)
	for _, w := range batch {
		parser.mu.Lock()
		got, ok := parser.cache[w]
		parser.mu.Unlock()
		if !ok {
			t.Fatalf("%q not parsed by the batch", w)
		}
		want := newSQLParser(testSQL).parse(w)
		if (got.expr == nil) != (want.expr == nil) || got.err != want.err || got.errOffset != want.errOffset {
			t.Errorf("%q: batch %+v, single %+v", w, got, want)
		}
	}
}
