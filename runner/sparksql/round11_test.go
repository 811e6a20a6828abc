package sparksql

import (
	"strings"
	"testing"
)

// TestLuhnDigits: luhn_check is Spark's isLuhnNumber over ASCII digits;
// any other char Java's Character.isDigit rejects is false (a digit
// beyond U+FFFF is two surrogate chars), and a BMP digit beyond ASCII,
// whose value Java reads, stops the run naming it.
func TestLuhnDigits(t *testing.T) {
	db := openTestDB(t)
	for _, c := range []struct{ in, want string }{
		{"79927398713", "true"}, {"79927398710", "false"}, {"", "false"}, {"0", "true"},
		{"4111111111111111", "true"}, {"4111-1111-1111-1111", "false"}, {" 1", "false"},
		{"\U0001D7CE", "false"}, {"1\U0001D7CE", "false"}, {"٣x", "false"},
		{"٣", "error"}, {"7992739871٣", "error"},
	} {
		r, err := Translate("SELECT luhn_check("+sqlq(c.in)+") AS v", nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got bool
		err = db.QueryRow(r.SQL).Scan(&got)
		switch {
		case c.want == "error":
			if err == nil || !strings.Contains(err.Error(), "LOCALLY_UNSUPPORTED.LUHN_DIGITS") {
				t.Errorf("luhn_check(%q) = %v, %v; want LOCALLY_UNSUPPORTED.LUHN_DIGITS", c.in, got, err)
			}
		case err != nil:
			t.Errorf("luhn_check(%q): %v", c.in, err)
		case (got && c.want != "true") || (!got && c.want != "false"):
			t.Errorf("luhn_check(%q) = %v, want %s", c.in, got, c.want)
		}
	}
}

// TestCalendarIntervalRefusals: a CalendarInterval (make_interval) is
// refused as a result column, nested or not, in a query and an
// expression, in a comparison (DuckDB's INTERVAL = normalises 30 days to a
// month), as an argument of functions other than NULL tests and
// coalesce (no implicit cast to STRING: Spark has none), and in interval
// arithmetic (which Spark has: not a Spark error); cast to STRING and
// added to a timestamp it translates.
func TestCalendarIntervalRefusals(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want string // "" translates
	}{
		{"SELECT make_interval(0, 1) AS iv", "of type INTERVAL"},
		{"SELECT array(make_interval(0, 1)) AS a", "array of make_interval"},
		{"SELECT x FROM (SELECT make_interval(0, 1) AS x) AS t", "of type INTERVAL"},
		{"SELECT make_interval(0, 1) = make_interval(0, 0, 0, 30) AS eq", "a comparison of make_interval"},
		{"SELECT concat('a', make_interval(0, 1)) AS s", "concat of make_interval's CalendarInterval"},
		{"SELECT count(DISTINCT make_interval(0, 1)) AS n", "count of make_interval's CalendarInterval"},
		{"SELECT CAST(max(make_interval(0, 1)) AS STRING) AS m", "max of make_interval's CalendarInterval"},
		{"SELECT CAST(- make_interval(0, 1) AS STRING) AS s", "- of make_interval's CalendarInterval"},
		{"SELECT CAST(make_interval(0, 1) + make_interval(0, 2) AS STRING) AS s", "with make_interval's CalendarInterval"},
		{"SELECT CAST(coalesce(make_interval(0, 1), NULL) AS STRING) AS s", ""},
		{"SELECT x FROM (SELECT make_interval(0, 1) AS i, 1 AS x) AS t ORDER BY i", "INVALID_ORDERING_TYPE"},
		{"SELECT CAST(make_interval(0, 1) AS STRING) AS s", ""},
		{"SELECT TIMESTAMP'2024-01-31 00:00:00' + make_interval(0, 1) AS t", ""},
	} {
		_, err := Translate(c.sql, nil, Options{})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.sql, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error naming %q", c.sql, err, c.want)
		}
	}
	if _, err := TranslateExpr("make_interval(0, 1)", ExprInput{}, Options{}, false); err == nil || !strings.Contains(err.Error(), "of type INTERVAL") {
		t.Errorf("expression: %v, want the INTERVAL refusal", err)
	}
}

// TestRegexpReplaceJavaErrors: a replacement naming a group the pattern
// lacks fails as Java's appendReplacement does, at the first match only
// (INVALID_REGEXP_REPLACE), so a value without a match is kept; a pattern
// matching both empty and non-empty text is refused with a non-empty
// replacement (Java also replaces the empty match after a match), not
// with an empty one.
func TestRegexpReplaceJavaErrors(t *testing.T) {
	db := openTestDB(t)
	for _, c := range []struct{ sql, want string }{
		{"SELECT regexp_replace('xyz', '(b)', '$2') AS v", "xyz"},
		{"SELECT regexp_replace('abc', '(b)', '$2') AS v", "error INVALID_REGEXP_REPLACE"},
		{"SELECT regexp_replace('a b', ' *', '') AS v", "ab"},
		{"SELECT regexp_replace('a b', ' *', '_') AS v", "refused"},
		{"SELECT regexp_replace('abc', '', '-') AS v", "-a-b-c-"},
		{"SELECT regexp_replace('a  b', ' +', '_') AS v", "a_b"},
		{"SELECT regexp_replace('ab', '(a|)', 'x') AS v", "refused"},
		{"SELECT regexp_replace('ab', 'a{0,2}', 'x') AS v", "refused"},
		{"SELECT regexp_replace('ab', '^', 'x') AS v", "xab"},
	} {
		r, err := Translate(c.sql, nil, Options{})
		if c.want == "refused" {
			if err == nil || !strings.Contains(err.Error(), "matching both empty and non-empty") {
				t.Errorf("%s: %v, want the empty-match refusal", c.sql, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var got string
		err = db.QueryRow(r.SQL).Scan(&got)
		switch {
		case strings.HasPrefix(c.want, "error "):
			if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(c.want, "error ")) {
				t.Errorf("%s = %q, %v; want %s", c.sql, got, err, c.want)
			}
		case err != nil || got != c.want:
			t.Errorf("%s = %q, %v; want %q", c.sql, got, err, c.want)
		}
	}
}

// TestRegexpReplacePosition: regexp_replace from a position replaces in
// Spark's matcher region (^ anchors at its start), keeps the text before
// it, and keeps the value whole from beyond its end.
func TestRegexpReplacePosition(t *testing.T) {
	db := openTestDB(t)
	for _, c := range []struct{ sql, want string }{
		{"SELECT regexp_replace('aaa', 'a', 'b', 2) AS v", "abb"},
		{"SELECT regexp_replace('abcabc', '^a', 'X', 4) AS v", "abcXbc"},
		{"SELECT regexp_replace('abc', 'c', 'Z', 3) AS v", "abZ"},
		{"SELECT regexp_replace('abc', 'c', 'Z', 4) AS v", "abc"},
		{"SELECT regexp_replace('été', 'é', 'e', 2) AS v", "éte"},
		{"SELECT regexp_replace('x😀a', 'a', 'b', 2) AS v", "error LOCALLY_UNSUPPORTED.REGEXP_REPLACE_POSITION"},
	} {
		r, err := Translate(c.sql, nil, Options{})
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var got string
		err = db.QueryRow(r.SQL).Scan(&got)
		switch {
		case strings.HasPrefix(c.want, "error "):
			if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(c.want, "error ")) {
				t.Errorf("%s = %q, %v; want %s", c.sql, got, err, c.want)
			}
		case err != nil || got != c.want:
			t.Errorf("%s = %q, %v; want %q", c.sql, got, err, c.want)
		}
	}
}

// TestMakeTimestampUTC: make_timestamp's zone 'UTC' (no region name) is
// the wall clock read in UTC, in any session time zone.
func TestMakeTimestampUTC(t *testing.T) {
	db := openTestDB(t)
	if _, err := db.Exec("SET TimeZone = 'America/St_Johns'"); err != nil {
		t.Fatal(err)
	}
	for _, tz := range []string{"UTC", "Europe/Paris"} {
		r, err := Translate("SELECT CAST(make_timestamp(2024, 3, 10, 12, 0, 0, 'UTC') AS STRING) AS a, try_make_timestamp(2024, 2, 30, 0, 0, 0, 'UTC') AS b", nil, Options{TimeZone: tz})
		if err != nil {
			t.Fatal(err)
		}
		var a string
		var b any
		if err := db.QueryRow(r.SQL).Scan(&a, &b); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"UTC": "2024-03-10 12:00:00", "Europe/Paris": "2024-03-10 13:00:00"}[tz]
		if a != want || b != nil {
			t.Errorf("session %s: %q, %v; want %q, NULL", tz, a, b, want)
		}
	}
}
