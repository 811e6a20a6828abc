package sparksql

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

var predicateSchema = []Column{
	{"client_id", tInt}, {"s", tString}, {"d", tDate}, {"x", decimalType(10, 2)}, {"f", tDouble}, {"ts", tTS},
}

// Predicates compare columns with plain DuckDB literals where that compares
// the same, so that file pruning (delta's reader of column-literal
// comparisons) applies to Spark predicates.
func TestPredicatePlainLiterals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"client_id = 1", `("client_id" = 1)`},
		{"client_id IN (1, 2)", `("client_id" IN (1, 2))`},
		{"client_id BETWEEN 1 AND 3", `(("client_id" >= 1) AND ("client_id" <= 3))`},
		{"s = \"q\"", `("s" = 'q')`},
		{"d >= '2024-01-01'", `("d" >= DATE '2024-01-01')`},
		{"d = '2024-1-5'", `("d" = DATE '2024-01-05')`},
		{"x > 1.5", `("x" > 1.5)`},
		{"x > -0.25", `("x" > -0.25)`},
		{"f < 2", `("f" < 2)`},
		// Not plain: the column is cast, or the string is not a date
		// (Spark fails on it at run time).
		{"x > 1.555", `(CAST("x" AS DECIMAL(11,3)) > 1.555)`},
		{"x = 123456789.5", `(CAST("x" AS DECIMAL(11,2)) = 123456789.5)`},
		{"d = 'soon'", `("d" = spark_cast_invalid(spark_try_str_to_date('soon'), 'soon', 'DATE'))`},
	} {
		r, err := TranslatePredicate(c.in, ExprInput{Schema: predicateSchema}, Options{})
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if r.SQL != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, r.SQL, c.want)
		}
	}
}

// A predicate is one deterministic boolean expression over the row.
func TestPredicateShape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"client_id", `Filter expression "client_id" of type "INT" is not a boolean`},
		{"client_id IN (SELECT 1)", "a subquery in a predicate"},
		{"EXISTS (SELECT 1)", "a subquery in a predicate"},
		{"client_id = (SELECT max(1))", "a subquery in a predicate"},
		{"sum(client_id) > 1", "aggregate"},
		{"rand() > 0.5", "non-deterministic"},
		{"client_id = 1; DROP TABLE t", "Syntax error"},
		{"client_id = 1 OR", "Syntax error"},
		{"nope = 1", "UNRESOLVED_COLUMN"},
	} {
		_, err := TranslatePredicate(c.in, ExprInput{Schema: predicateSchema}, Options{})
		var e *Error
		if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an *Error with %q", c.in, err, c.want)
		}
	}
}

func TestTranslateRejectsDuplicateNames(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: predicateSchema}}
	_, err := Translate("SELECT s, s FROM {df}", in, Options{})
	if err == nil || !strings.Contains(err.Error(), "two columns named `s`") {
		t.Fatalf("got %v", err)
	}
}

func TestTranslateBadTimeZone(t *testing.T) {
	_, err := Translate("SELECT 1", nil, Options{TimeZone: "Mars/Olympus"})
	if err == nil || !strings.Contains(err.Error(), "Mars/Olympus") {
		t.Fatalf("got %v", err)
	}
}

// DuckDB substitutes a macro's arguments into its body, so a lambda
// parameter of one macro would capture a same-named variable of an
// argument coming from another macro: each macro names its own.
func TestMacroLambdasDistinct(t *testing.T) {
	re := regexp.MustCompile(`\(([a-z_0-9]+(?:, [a-z_0-9]+)+)\) ->|\b([a-z_0-9]+) ->`)
	owner := map[string]string{}
	for _, m := range allMacros() {
		for _, g := range re.FindAllStringSubmatch(m.body, -1) {
			for _, v := range strings.Split(g[1]+g[2], ", ") {
				if !strings.HasPrefix(v, "m_") {
					t.Errorf("macro %s: lambda parameter %s does not start with m_", m.name, v)
				}
				if o, ok := owner[v]; ok && o != m.name {
					t.Errorf("lambda parameter %s in both %s and %s", v, o, m.name)
				}
				owner[v] = m.name
			}
		}
	}
}

// date_trunc of a TIMESTAMP_NTZ is a TIMESTAMP in Spark 4.2: the wall
// clock is read in the session zone, then truncated (pyspark 4.2:
// date_trunc('DAY', timestamp_ntz'2024-01-01 23:30:00') is
// timestamp '2024-01-01 00:00:00' in America/New_York).
func TestDateTruncNTZ(t *testing.T) {
	in := ExprInput{Schema: []Column{{"t", tTSNTZ}}}
	for _, tz := range []string{"", "America/New_York"} {
		r, err := TranslateExpr("date_trunc('DAY', t)", in, Options{TimeZone: tz}, false)
		if err != nil {
			t.Fatal(err)
		}
		if r.Type.Kind != KTimestamp {
			t.Errorf("%s: date_trunc of timestamp_ntz is %s, want timestamp", tz, r.Type)
		}
	}
}

// Spark's datetime pattern language as a parser of its own: optional
// sections expand into alternatives (present first), S...S reads 1 to
// that many digits, yy is 2000-2099, E fails to parse (Spark 3+), and
// what strftime cannot print is refused for formatting only.
func TestSparkPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern   string
		alts      []string // regexes, in order
		formatErr bool
		yy        bool
		parseErr  bool
	}{
		{"yyyy-MM-dd HH:mm:ss.SSS", []string{`[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{1,3}`}, false, false, false},
		{"HH:mm:ss[.SSSSSS]", []string{`[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{1,6}`, `[0-9]{2}:[0-9]{2}:[0-9]{2}`}, true, false, false},
		{"ss[.S[S]]", []string{`[0-9]{2}\.[0-9]{1,1}[0-9]{1,1}`, `[0-9]{2}\.[0-9]{1,1}`, `[0-9]{2}`}, true, false, false},
		{"dd/MM/yy", []string{`[0-9]{2}/[0-9]{2}/[0-9]{2}`}, false, true, false},
		{"ss.SS", []string{`[0-9]{2}\.[0-9]{1,2}`}, true, false, false},
		{"EEEE d MMMM yyyy", []string{`[A-Za-z]+ [0-9]{1,2} [A-Za-z]+ [0-9]{4}`}, false, false, true},
		{"'['yyyy']'", []string{`\[[0-9]{4}\]`}, false, false, false},
	} {
		pt, err := sparkPattern(tc.pattern)
		if err != nil {
			t.Errorf("%s: %v", tc.pattern, err)
			continue
		}
		var got []string
		for _, a := range pt.alts {
			got = append(got, a.re)
		}
		if strings.Join(got, " | ") != strings.Join(tc.alts, " | ") {
			t.Errorf("%s: alternatives %q, want %q", tc.pattern, got, tc.alts)
		}
		if (pt.formatErr != nil) != tc.formatErr || pt.twoDigitY != tc.yy || (pt.parseErr != "") != tc.parseErr {
			t.Errorf("%s: formatErr %v, yy %v, parseErr %q", tc.pattern, pt.formatErr, pt.twoDigitY, pt.parseErr)
		}
	}
	for _, bad := range []string{"yyyy[-MM", "yyyy]", "[HH][mm][ss][SSS][a]"} {
		if _, err := sparkPattern(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestWithinGroup: WITHIN GROUP is translated for mode, percentile_cont
// and percentile_disc (either direction); after any other function it is
// Spark's syntax error, never dropped.
func TestWithinGroup(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{Name: "x", Type: tInt}, {Name: "y", Type: tInt}}}}
	for _, q := range []string{
		"SELECT sum(x) WITHIN GROUP (ORDER BY y) AS s FROM {df}",
		"SELECT median(x) WITHIN GROUP (ORDER BY y) AS s FROM {df}",
		"SELECT sum(x) WITHIN GROUP (ORDER BY y) OVER () AS s FROM {df}",
	} {
		if _, err := Translate(q, in, Options{}); err == nil || !strings.Contains(err.Error(), "FUNCTION_WITH_UNSUPPORTED_SYNTAX") {
			t.Errorf("%s: %v, want Spark's FUNCTION_WITH_UNSUPPORTED_SYNTAX", q, err)
		}
	}
	for _, q := range []string{
		"SELECT mode() WITHIN GROUP (ORDER BY y DESC) AS m FROM {df}",
		"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY y DESC) AS s FROM {df}",
		"SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY y) AS s FROM {df}",
	} {
		if _, err := Translate(q, in, Options{}); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}
