package sparksql

import (
	"errors"
	"strings"
	"testing"
)

// parseQueries are Spark SQL queries the parser must accept (each one is
// also accepted by Spark 4.2).
var parseQueries = []string{
	`SELECT 1`,
	`SELECT a, b AS c, d e, f AS ` + "`g h`" + ` FROM {df}`,
	`SELECT * FROM {df} WHERE a > 1 AND NOT b OR c IS NULL`,
	`SELECT t.*, * EXCEPT (a, b) FROM {df} t`,
	`WITH x AS (SELECT 1 AS a), y (b) AS (SELECT 2) SELECT * FROM x JOIN y ON x.a = y.b`,
	`SELECT a FROM {df} l LEFT SEMI JOIN {nodes.n1} r ON l.a = r.a`,
	`SELECT a FROM {df} l ANTI JOIN {sources.s} r USING (a)`,
	`SELECT * FROM {df} NATURAL FULL OUTER JOIN {sources.s}`,
	`SELECT a, x FROM {df} LATERAL VIEW OUTER explode(xs) t AS x`,
	`SELECT a, p, x FROM {df} LATERAL VIEW posexplode(xs) t AS p, x LATERAL VIEW explode(ys) u`,
	`SELECT a, sum(b) FROM {df} GROUP BY ALL`,
	`SELECT a, sum(b) FROM {df} GROUP BY a HAVING sum(b) > 1 ORDER BY a DESC NULLS LAST LIMIT 10`,
	`SELECT a, b, count(*) FROM {df} GROUP BY ROLLUP (a, b)`,
	`SELECT a, b, count(*) FROM {df} GROUP BY GROUPING SETS ((a, b), (a), ())`,
	`SELECT a, b, count(*) FROM {df} GROUP BY a, b WITH CUBE`,
	"SELECT `a``b`, `select` FROM {df}",
	`SELECT a <=> b, a == b, a != b, a <> b, NOT a, !a FROM {df}`,
	`SELECT s RLIKE '^a', s REGEXP 'b', s LIKE 'a\_%' ESCAPE '\\', s NOT ILIKE 'x', s LIKE ANY ('a%', 'b%') FROM {df}`,
	`SELECT 7 DIV 2, 7 div 2, 7 % 2, 2 ^ 3, 1 & 3, 1 | 2, ~1, 'a' || 'b', -a, +a, - 5 FROM {df}`,
	`SELECT 100L, 1S, 1Y, 1.5, .5, 5., 1e3, 1.5E-3, 1.5D, 1.5F, 1.5BD, 99999999999999999999 FROM {df}`,
	`SELECT 'it''s', '\'s', "dq", 'a' 'b' "c", r'\d+', X'0A', '\u0041\101\n\t\\' FROM {df}`,
	`SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP_NTZ '2024-01-01', TIMESTAMP_LTZ '2024-01-01'`,
	`SELECT INTERVAL '1' DAY, INTERVAL 2 HOURS, INTERVAL 1 DAY 2 HOURS 3 MINUTES, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1 day', INTERVAL -1 DAY`,
	`SELECT CAST(a AS DECIMAL(10, 2)), TRY_CAST(a AS INT), a::string, CAST(x AS ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<INT>>>>) FROM {df}`,
	`SELECT CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' ELSE 'z' END, CASE a WHEN 1 THEN 2 END FROM {df}`,
	`SELECT a BETWEEN 1 AND 2, a NOT BETWEEN 1 AND 2, a IN (1, 2), a NOT IN (SELECT b FROM {nodes.n}), EXISTS (SELECT 1) FROM {df}`,
	`SELECT a IS NOT NULL, a IS TRUE, a IS NOT FALSE, a IS UNKNOWN, a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b FROM {df}`,
	`SELECT xs[0], m['k'], s.f, s.f.g, t.s.f, get_json_object(j, '$.a').x, xs[0].f FROM {df} t`,
	`SELECT count(*), count(DISTINCT a), sum(a) FILTER (WHERE a > 0), first(a) IGNORE NULLS, first(a IGNORE NULLS) FROM {df}`,
	`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FROM {df}`,
	`SELECT row_number() OVER (PARTITION BY a ORDER BY b DESC), sum(b) OVER (ORDER BY c ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM {df}`,
	`SELECT sum(b) OVER (ORDER BY c RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), lag(a, 1, 0) OVER w FROM {df} WINDOW w AS (PARTITION BY a ORDER BY b)`,
	`SELECT a FROM {df} QUALIFY row_number() OVER (PARTITION BY a ORDER BY b) = 1`,
	`SELECT transform(xs, x -> x + 1), filter(xs, (x, i) -> i > 0), aggregate(xs, 0, (acc, x) -> acc + x) FROM {df}`,
	`SELECT struct(a, b AS c), named_struct('x', a), array(1, 2), map('k', 1) FROM {df}`,
	`SELECT TRIM(BOTH 'x' FROM s), TRIM(LEADING FROM s), TRIM(s), SUBSTRING(s FROM 2 FOR 3), SUBSTR(s, 1, 2), POSITION('a' IN s), EXTRACT(YEAR FROM d), OVERLAY(s PLACING 'x' FROM 2 FOR 1) FROM {df}`,
	`SELECT current_date, current_timestamp(), now() FROM {df}`,
	`SELECT a FROM {df} UNION ALL SELECT a FROM {nodes.x} UNION SELECT 1 EXCEPT SELECT 2 INTERSECT SELECT 3 MINUS SELECT 4`,
	`(SELECT a FROM {df} ORDER BY a LIMIT 1) UNION ALL (SELECT 2)`,
	`SELECT * FROM ((SELECT a FROM {df}) AS l JOIN {nodes.x} r ON l.a = r.a)`,
	`SELECT * FROM (((SELECT a FROM {df})) l LEFT JOIN (SELECT a FROM {nodes.x}) r USING (a))`,
	`SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(id, name)`,
	`SELECT * FROM (VALUES (1), (2)) t(a)`,
	`VALUES (1, 2), (3, 4)`,
	`SELECT * FROM range(10)`,
	`SELECT * FROM (SELECT a FROM {df}) sub, LATERAL (SELECT sub.a + 1 AS b) l`,
	`SELECT /*+ BROADCAST(r) */ a -- comment
	FROM {df} /* a /* nested */ comment */ r;`,
	`SELECT date, timestamp, year, order, value, key FROM {df}`,
	"SELECT j:order.id, doc:['name'], j:a[0][*].b::string, j:`k x`, j:order FROM {df} WHERE j:k = 'v'",
	`SELECT (a, b) IN (SELECT 1, 2), (a + b) * c, ((a)) FROM {df}`,
	`SELECT a, FROM {df}`,
	`SELECT a FROM {df} LIMIT ALL OFFSET 5`,
	`SELECT a FROM {df} ORDER BY 1, a ASC NULLS FIRST`,
	`SELECT a FROM {df} WHERE a IN (SELECT b FROM {nodes.x} WHERE b > 0) AND (SELECT max(c) FROM {nodes.y}) > 1`,
}

func TestParseRoundTrip(t *testing.T) {
	for _, sql := range parseQueries {
		q, err := ParseQuery(sql)
		if err != nil {
			t.Errorf("ParseQuery(%q): %v", sql, err)
			continue
		}
		checkRoundTrip(t, sql, FormatQuery(q), func(s string) (string, error) {
			q, err := ParseQuery(s)
			if err != nil {
				return "", err
			}
			return FormatQuery(q), nil
		})
	}
}

// checkRoundTrip: the formatted text parses, and formats to itself.
func checkRoundTrip(t *testing.T, orig, formatted string, reformat func(string) (string, error)) {
	t.Helper()
	again, err := reformat(formatted)
	if err != nil {
		t.Errorf("%q formats as %q, which does not parse: %v", orig, formatted, err)
		return
	}
	if again != formatted {
		t.Errorf("%q: formatting is not stable:\n first  %s\n second %s", orig, formatted, again)
	}
}

func TestParseExprForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a + b * c", "(a + (b * c))"},
		{"a = 1 IS TRUE", "((a = 1) IS TRUE)"},
		{"NOT a = b AND c", "((NOT (a = b)) AND c)"},
		{"a || b + c", "((a || b) + c)"},
		{"-2147483648", "(- 2147483648)"},
		{"- a", "(- a)"},
		{"x::int + 1", "((x::INT) + 1)"},
		{"a.b.c[0].d", "a.b.c[0].d"},
		{"'a' 'b'", "'ab'"},
		{`'\d+'`, "'d+'"},
		{`'\\d+'`, `'\\d+'`},
		{`'a\%'`, `'a\\%'`},
		{"array<int>", "array<int>"},
		{"1 < 2 = true", "((1 < 2) = true)"},
		{"a LIKE 'x' ESCAPE '!'", "(a LIKE 'x' ESCAPE '!')"},
		{"interval 1 day", "INTERVAL 1 DAY"},
		{"`date` + date", "(`date` + `date`)"},
	} {
		e, err := ParseExpr(tc.in)
		if tc.in == "array<int>" {
			if err == nil {
				t.Errorf("ParseExpr(%q) accepted a type as an expression", tc.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tc.in, err)
			continue
		}
		if got := FormatExpr(e); got != tc.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		pos  int
		want string
		kind error
	}{
		{"SELECT a FROM", 13, "Syntax error at or near end of input", ErrSpark},
		{"SELECT a FROM {df} WHERE", 24, "end of input", ErrSpark},
		{"SELECT 'abc", 7, "unclosed string literal", ErrSpark},
		{"SELECT a FROM {dff}", 14, "{dff} is not a placeholder", ErrSpark},
		{"SELECT (a", 9, "expected ')'", ErrSpark},
		{"SELECT a FROM {df} SORT BY a", 19, "SORT BY is not supported locally", ErrUnsupported},
		{"SELECT 1; SELECT 2", 8, "more than one statement", ErrUnsupported},
		{"SELECT CAST(a AS foo) FROM {df}", 17, `Unsupported data type "FOO"`, ErrSpark},
		{"SELECT 1 /* open", 9, "unclosed comment", ErrSpark},
		{"SELECT 128abc", 7, "neither a number nor a name", ErrSpark},
		{"SELECT * FROM {df} PIVOT (sum(a) FOR (b, c) IN ((1, 2)))", 37, "PIVOT over several columns is not supported locally", ErrUnsupported},
		{"SELECT a FROM {df} TABLESAMPLE (10 PERCENT)", 19, "TABLESAMPLE", ErrUnsupported},
		{"WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r", 5, "WITH RECURSIVE", ErrUnsupported},
		{"SELECT a + FROM {df}", 11, "'FROM'", ErrSpark},
		{"SELECT 1.5L", 7, "Syntax error", ErrSpark},
	} {
		_, err := ParseQuery(tc.sql)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("ParseQuery(%q) = %v, want an *Error", tc.sql, err)
			continue
		}
		if pe.Pos != tc.pos || !strings.Contains(pe.Error(), tc.want) || !errors.Is(err, tc.kind) {
			t.Errorf("ParseQuery(%q) = %q at %d (%v), want %q at %d (%v)", tc.sql, pe.Error(), pe.Pos, errors.Is(err, ErrSpark), tc.want, tc.pos, tc.kind)
		}
	}
}

func TestParseDepthBounded(t *testing.T) {
	deep := strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000)
	if _, err := ParseExpr(deep); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Fatalf("ParseExpr(10000 brackets) = %v, want the nesting error", err)
	}
	long := "1" + strings.Repeat(" + 1", 5000)
	if _, err := ParseExpr(long); err != nil {
		t.Fatalf("a long flat sum: %v", err)
	}
}

func TestLineCol(t *testing.T) {
	text := "SELECT a,\n  b FROM x"
	for _, tc := range []struct{ pos, line, col int }{{0, 1, 1}, {7, 1, 8}, {12, 2, 3}, {100, 2, 11}} {
		if l, c := LineCol(text, tc.pos); l != tc.line || c != tc.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tc.pos, l, c, tc.line, tc.col)
		}
	}
}

// FuzzParse: the parser never panics, and what it accepts formats to SQL
// that parses back to the same text.
func FuzzParse(f *testing.F) {
	for _, q := range parseQueries {
		f.Add(q)
	}
	f.Add("a + b")
	f.Add("CASE WHEN x THEN 1 END")
	f.Fuzz(func(t *testing.T, sql string) {
		if q, err := ParseQuery(sql); err == nil {
			checkRoundTrip(t, sql, FormatQuery(q), func(s string) (string, error) {
				q, err := ParseQuery(s)
				if err != nil {
					return "", err
				}
				return FormatQuery(q), nil
			})
		}
		if e, err := ParseExpr(sql); err == nil {
			checkRoundTrip(t, sql, FormatExpr(e), func(s string) (string, error) {
				e, err := ParseExpr(s)
				if err != nil {
					return "", err
				}
				return FormatExpr(e), nil
			})
		}
	})
}

func TestStatements(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want int
	}{
		{"SELECT 1", 1},
		{"SELECT 1;", 1},
		{"SELECT 'a;b', \"c;d\", `e;f` -- ;\n", 1},
		{"SELECT 'it\\'s; not the end'", 1},
		{"SET x = 1; SELECT 2", 2},
		{"SELECT 1;; SELECT 2; /* ; */", 2},
		{"", 0},
	} {
		if got := Statements(c.sql); got != c.want {
			t.Errorf("Statements(%q) = %d, want %d", c.sql, got, c.want)
		}
	}
}
