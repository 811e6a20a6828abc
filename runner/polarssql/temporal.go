package polarssql

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/sqlfront"
)

// Polars 1.32.0's date arithmetic, as measured: INTERVAL '...' is a
// string of <number><unit> pairs (no minus signs, no fractions); a date
// or datetime plus or minus an interval is offset_by: the months first
// (clamped to the month's last day), then the days and the clock; a date
// stays a date (the result's day, 2024-01-31 - 3 hours is 2024-01-30).
// A date minus a date is a Duration(ms), a datetime minus a datetime (or
// a date) a Duration(us), compared with fixed intervals; Duration columns
// cannot be written to Delta.

// interval is a parsed INTERVAL literal.
type interval struct {
	text   string
	months int64
	nanos  int64 // weeks, days and the clock
}

var intervalPair = regexp.MustCompile(`^([0-9]+)\s*([a-zA-Z]+)`)

// intervalUnits are the units polars' SQL reads, in nanoseconds (months
// for the calendar units).
var intervalUnits = map[string]struct {
	months int64
	nanos  int64
}{
	"year": {12, 0}, "years": {12, 0}, "quarter": {3, 0}, "quarters": {3, 0}, "month": {1, 0}, "months": {1, 0}, "mon": {1, 0},
	"week": {0, 7 * 86400e9}, "weeks": {0, 7 * 86400e9}, "day": {0, 86400e9}, "days": {0, 86400e9}, "d": {0, 86400e9},
	"hour": {0, 3600e9}, "hours": {0, 3600e9}, "h": {0, 3600e9}, "minute": {0, 60e9}, "minutes": {0, 60e9}, "min": {0, 60e9},
	"mins": {0, 60e9}, "second": {0, 1e9}, "seconds": {0, 1e9}, "millisecond": {0, 1e6}, "milliseconds": {0, 1e6},
	"microsecond": {0, 1e3}, "microseconds": {0, 1e3}, "us": {0, 1e3}, "ns": {0, 1},
}

func parseInterval(n *sqlfront.Interval) (*interval, error) {
	if len(n.Parts) != 1 || n.Parts[0].Unit != "" || !n.Parts[0].Str {
		return nil, rejected(n.P, "SQLSyntaxError", "unsupported interval syntax ('%s')", sqlfront.FormatExpr(n))
	}
	text := n.Parts[0].Value
	s := strings.TrimSpace(text)
	if strings.Contains(s, "-") {
		return nil, rejected(n.P, "SQLInterfaceError", "minus signs are not yet supported in interval strings; found '%s'", text)
	}
	iv := &interval{text: text}
	for s != "" {
		m := intervalPair.FindStringSubmatch(s)
		if m == nil {
			if regexp.MustCompile(`^[0-9]+\.`).MatchString(s) {
				// polars unwraps the parse's error: the panic says so.
				return nil, rejected(n.P, "PanicException", "called `Result::unwrap()` on an `Err` value: InvalidOperation(ErrString(%s))", strconv.Quote("expected a unit to follow integer in the interval string '"+text+"'"))
			}
			return nil, unsupported(n.P, "", "the interval '%s' in Polars SQL", text)
		}
		u, ok := intervalUnits[strings.ToLower(m[2])]
		if !ok {
			return nil, unsupported(n.P, "write the unit as years, months, weeks, days, hours, minutes, seconds, milliseconds or microseconds", "the interval unit %s in Polars SQL", m[2])
		}
		v, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil || v > 1e9 {
			return nil, unsupported(n.P, "", "the interval '%s' in Polars SQL", text)
		}
		iv.months += v * u.months
		iv.nanos += v * u.nanos
		s = strings.TrimLeft(s[len(m[0]):], " \t,")
	}
	return iv, nil
}

// duckdb is the interval as DuckDB's (microseconds: polars' us datetimes
// drop the nanoseconds).
func (iv *interval) duckdb(neg bool) string {
	m, us := iv.months, iv.nanos/1000
	if neg {
		m, us = -m, -us
	}
	return fmt.Sprintf("(to_months(%d) + to_microseconds(CAST(%d AS BIGINT)))", m, us)
}

// intervalLiteral is an INTERVAL as a value: a Duration(ns) (polars gives
// the calendar units no fixed length: months are kept for arithmetic).
func intervalLiteral(n *sqlfront.Interval) (*rx, error) {
	iv, err := parseInterval(n)
	if err != nil {
		return nil, err
	}
	return &rx{t: &Type{Kind: Duration, Unit: "ns"}, sql: iv.duckdb(false), name: "literal", constant: true, iv: iv}, nil
}

// temporalArith is date and datetime arithmetic (handled false when
// neither side is a date, a datetime or a duration).
func temporalArith(n *sqlfront.Binary, l, r *rx, out func(*Type, string) *rx) (_ *rx, handled bool, _ error) {
	temporal := func(t *Type) bool { return t.Kind == Date || t.Kind == Datetime || t.Kind == Duration }
	if !temporal(l.t) && !temporal(r.t) {
		return nil, false, nil
	}
	if n.Op == "+" && l.iv != nil && r.t.Kind != Duration {
		l, r = r, l // INTERVAL '1 day' + ts
	}
	switch {
	case (n.Op == "+" || n.Op == "-") && r.iv != nil && (l.t.Kind == Date || l.t.Kind == Datetime):
		if l.t.Kind == Datetime && (l.t.Unit != "us" || (l.t.Zone != "" && l.t.Zone != "UTC")) {
			return nil, true, unsupported(n.P, "", "interval arithmetic on %s in Polars SQL", l.t)
		}
		iv := r.iv.duckdb(n.Op == "-")
		switch {
		case l.t.Kind == Date:
			return out(l.t, "CAST(CAST("+l.sql+" AS TIMESTAMP) + "+iv+" AS DATE)"), true, nil
		case l.t.Zone != "":
			// The calendar of the zone (UTC), not the session's.
			return out(l.t, "(("+l.sql+" AT TIME ZONE 'UTC') + "+iv+") AT TIME ZONE 'UTC'"), true, nil
		}
		return out(l.t, "CAST("+l.sql+" + "+iv+" AS TIMESTAMP)"), true, nil
	case n.Op == "-" && l.t.Kind == Date && r.t.Kind == Date:
		return out(&Type{Kind: Duration, Unit: "ms"}, "to_days(CAST("+l.sql+" - "+r.sql+" AS INTEGER))"), true, nil
	case n.Op == "-" && (l.t.Kind == Datetime || l.t.Kind == Date) && (r.t.Kind == Datetime || r.t.Kind == Date) && naiveUS(l.t) && naiveUS(r.t):
		return out(&Type{Kind: Duration, Unit: "us"}, "(CAST("+l.sql+" AS TIMESTAMP) - CAST("+r.sql+" AS TIMESTAMP))"), true, nil
	case (l.t.Kind == Date || l.t.Kind == Datetime) && r.t.isNumeric() || (r.t.Kind == Date || r.t.Kind == Datetime) && l.t.isNumeric():
		what := map[Kind]string{Date: "date", Datetime: "datetime"}
		a, b := what[l.t.Kind], what[r.t.Kind]
		if a == "" {
			a = numberWord(l)
		}
		if b == "" {
			b = numberWord(r)
		}
		return nil, true, rejected(n.P, "InvalidOperationError", "%s not allowed on %s and %s", n.Op, a, b)
	}
	return nil, true, unsupported(n.P, "", "%s on %s and %s in Polars SQL", n.Op, l.t, r.t)
}

func naiveUS(t *Type) bool {
	return t.Kind == Date || (t.Kind == Datetime && t.Zone == "" && t.Unit == "us")
}

func numberWord(x *rx) string {
	switch {
	case x.dyn && x.t.isInt():
		return "dyn int"
	case x.dyn:
		return "dyn float"
	}
	return strings.ToLower(x.t.String())
}

// durationCompare compares a duration with a fixed interval or another
// duration; handled false when neither side is a duration.
func durationCompare(pos int, op string, l, r *rx, out func(*Type, string) *rx) (_ *rx, handled bool, _ error) {
	if l.t.Kind != Duration && r.t.Kind != Duration {
		return nil, false, nil
	}
	for _, x := range []*rx{l, r} {
		if x.iv != nil && x.iv.months != 0 {
			return nil, true, rejected(pos, "SQLSyntaxError", "fixed-duration interval cannot contain years, quarters, or months; found %s", x.iv.text)
		}
		if x.t.Kind != Duration {
			return nil, true, unsupported(pos, "", "comparing %s with %s in Polars SQL", l.t, r.t)
		}
	}
	return out(tBool, "("+l.sql+" "+op+" "+r.sql+")"), true, nil
}
