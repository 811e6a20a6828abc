package sparksql

import (
	"github.com/laktory/workbench/runner/sqlfront"

	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	goDateRe = regexp.MustCompile(`^` + reDate + `$`)
	goTSRe   = regexp.MustCompile(`^(` + reTSLocal + `)\s*(` + reTSZone + `)?$`)
	goLocal  = regexp.MustCompile(`^([+-]?[0-9]{4,7})(?:-([0-9]{1,2})(?:-([0-9]{1,2})(?:[ T]([0-9]{1,2})(?::([0-9]{1,2})(?::([0-9]{1,2})(?:\.([0-9]{0,9}))?)?)?)?)?)?$`)
	goOffset = regexp.MustCompile(`^(?:UTC|GMT|UT)?([+-])([0-9]{1,2})(?::?([0-9]{2}))?(?::?([0-9]{2}))?$`)
)

// parseSparkDate parses a date as Spark's stringToDate does (2024, 2024-1,
// 2024-01-14, 2024-01-14 anything, 2024-01-14T...): "YYYY-MM-DD".
func parseSparkDate(s string) (string, bool) {
	m := goDateRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", false
	}
	return validDate(m[1], m[2], m[3])
}

func validDate(ys, ms, ds string) (string, bool) {
	y, err := strconv.Atoi(ys)
	if err != nil {
		return "", false
	}
	mo, d := 1, 1
	if ms != "" {
		mo, _ = strconv.Atoi(ms)
	}
	if ds != "" {
		d, _ = strconv.Atoi(ds)
	}
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if mo < 1 || mo > 12 || t.Day() != d {
		return "", false
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, mo, d), true
}

// sparkTS is a parsed timestamp literal.
type sparkTS struct {
	local  string // YYYY-MM-DD HH:MM:SS.ffffff
	frac   string // the fraction digits (up to 6)
	zone   string // "" (session zone), an offset +hh:mm, or a region
	offset bool
}

// display is the literal's text as Spark prints it.
func (t sparkTS) display() string {
	out := t.local[:19]
	if f := strings.TrimRight(t.frac, "0"); f != "" {
		out += "." + f
	}
	return out
}

func parseSparkTimestamp(s string) (sparkTS, bool) {
	m := goTSRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return sparkTS{}, false
	}
	l := goLocal.FindStringSubmatch(m[1])
	if l == nil {
		return sparkTS{}, false
	}
	date, ok := validDate(l[1], l[2], l[3])
	if !ok {
		return sparkTS{}, false
	}
	num := func(s string) int {
		n, _ := strconv.Atoi(s)
		return n
	}
	h, mi, sec := num(l[4]), num(l[5]), num(l[6])
	if h > 23 || mi > 59 || sec > 59 {
		return sparkTS{}, false
	}
	frac := l[7]
	if len(frac) > 6 {
		frac = frac[:6]
	}
	frac += strings.Repeat("0", 6-len(frac))
	out := sparkTS{local: fmt.Sprintf("%s %02d:%02d:%02d.%s", date, h, mi, sec, frac), frac: frac}
	z := m[2]
	switch {
	case z == "":
	case strings.EqualFold(z, "Z"), strings.EqualFold(z, "UTC"), strings.EqualFold(z, "GMT"), strings.EqualFold(z, "UT"):
		out.zone, out.offset = "+00:00", true
	default:
		if o := goOffset.FindStringSubmatch(z); o != nil {
			oh, om := num(o[2]), num(o[3])
			if oh > 18 || om > 59 {
				return sparkTS{}, false
			}
			out.zone, out.offset = fmt.Sprintf("%s%02d:%02d", o[1], oh, om), true
		} else {
			out.zone = z
		}
	}
	return out, true
}

// ------------------------------------------------------------ intervals

var intervalRank = map[string]int{"YEAR": 0, "MONTH": 1, "WEEK": 2, "DAY": 2, "HOUR": 3, "MINUTE": 4, "SECOND": 5, "MILLISECOND": 5, "MICROSECOND": 5}

// microsPer is the length of a day-time unit in microseconds.
var microsPer = map[string]int64{"WEEK": 7 * 86400e6, "DAY": 86400e6, "HOUR": 3600e6, "MINUTE": 60e6, "SECOND": 1e6, "MILLISECOND": 1e3, "MICROSECOND": 1}

var unitField = map[string]string{"WEEK": "DAY", "MILLISECOND": "SECOND", "MICROSECOND": "SECOND"}

func field(unit string) string {
	if f, ok := unitField[unit]; ok {
		return f
	}
	return unit
}

// interval resolves an interval literal to Spark's ANSI interval types.
func (r *resolver) interval(n *Interval) (*rx, error) {
	var months int64
	micros := new(big.Rat)
	from, to := "", ""
	ym, dt := false, false
	note := func(unit string) {
		f := field(unit)
		if from == "" || intervalRank[f] < intervalRank[from] {
			from = f
		}
		if to == "" || intervalRank[f] > intervalRank[to] {
			to = f
		}
		if f == "YEAR" || f == "MONTH" {
			ym = true
		} else {
			dt = true
		}
	}
	bad := func() error {
		return sparkErr(n.P, "INVALID_INTERVAL_FORMAT.INPUT_IS_NULL", "Error parsing '%s' to interval: the value is not a valid interval.", FormatExpr(n))
	}
	addUnit := func(v string, unit string) error {
		q, ok := new(big.Rat).SetString(strings.TrimSpace(v))
		if !ok {
			return bad()
		}
		note(unit)
		switch unit {
		case "YEAR", "MONTH":
			if !q.IsInt() {
				return bad()
			}
			k := q.Num().Int64()
			if unit == "YEAR" {
				k *= 12
			}
			months += k
		default:
			micros.Add(micros, new(big.Rat).Mul(q, new(big.Rat).SetInt64(microsPer[unit])))
		}
		return nil
	}
	for _, p := range n.Parts {
		switch {
		case p.Unit == "":
			// INTERVAL '1 day 2 hours': number unit pairs.
			fs := strings.Fields(p.Value)
			if len(fs) == 0 || len(fs)%2 != 0 {
				return nil, bad()
			}
			for i := 0; i < len(fs); i += 2 {
				unit, ok := sqlfront.IntervalUnits[strings.ToUpper(fs[i+1])]
				if !ok {
					return nil, bad()
				}
				if err := addUnit(fs[i], unit); err != nil {
					return nil, err
				}
			}
		case p.To != "":
			if err := r.intervalRange(p, &months, micros, note); err != nil {
				return nil, err
			}
		default:
			if _, ok := new(big.Rat).SetString(strings.TrimSpace(p.Value)); !ok {
				// INTERVAL 'abc' HOUR: Spark's parser refuses the value.
				return nil, sparkErr(n.P, "_LEGACY_ERROR_TEMP_0026", "Can only use numbers in the interval value part for multiple unit value pairs interval form, but got invalid value: %s.", p.Value)
			}
			if err := addUnit(p.Value, p.Unit); err != nil {
				return nil, err
			}
		}
	}
	if ym && dt {
		return nil, unsupported(n.P, "write separate intervals for months and for days or hours", "an interval mixing months with days or time (%s)", FormatExpr(n))
	}
	if ym {
		t := &Type{Kind: KIntervalYM, From: from, To: to}
		return litRx(t, fmt.Sprintf("to_months(CAST(%d AS INTEGER))", months), ymName(months, from, to), &Literal{P: n.P}), nil
	}
	if !micros.IsInt() {
		return nil, unsupported(n.P, "", "an interval finer than a microsecond")
	}
	us := micros.Num().Int64()
	t := &Type{Kind: KIntervalDT, From: from, To: to}
	x := litRx(t, fmt.Sprintf("to_microseconds(CAST(%d AS BIGINT))", us), dtName(us, from, to), &Literal{P: n.P})
	x.ivMicros = &us
	return x, nil
}

// intervalRange parses '1-2' YEAR TO MONTH and '1 02:03:04' DAY TO SECOND.
func (r *resolver) intervalRange(p IntervalPart, months *int64, micros *big.Rat, note func(string)) error {
	v := strings.TrimSpace(p.Value)
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	sign := int64(1)
	if neg {
		sign = -1
	}
	note(p.Unit)
	note(p.To)
	if p.Unit == "YEAR" && p.To == "MONTH" {
		y, m, ok := strings.Cut(v, "-")
		yi, e1 := strconv.ParseInt(y, 10, 64)
		mi, e2 := strconv.ParseInt(m, 10, 64)
		if !ok || e1 != nil || e2 != nil || mi > 11 {
			return sparkErr(0, "INVALID_INTERVAL_FORMAT", "Interval string does not match year-month format of 'y-m': %s", p.Value)
		}
		*months += sign * (yi*12 + mi)
		return nil
	}
	// Day-time: [d ][h[:m[:s[.f]]]] from Unit to To.
	units := []string{"DAY", "HOUR", "MINUTE", "SECOND"}
	start := map[string]int{"DAY": 0, "HOUR": 1, "MINUTE": 2, "SECOND": 3}
	s, e := start[p.Unit], start[p.To]
	if s >= e {
		return sparkErr(0, "INVALID_INTERVAL_FORMAT", "Interval %s TO %s is not valid", p.Unit, p.To)
	}
	var fields []string
	rest := v
	if p.Unit == "DAY" {
		d, tail, ok := strings.Cut(rest, " ")
		if !ok {
			return sparkErr(0, "INVALID_INTERVAL_FORMAT", "Interval string does not match day-time format: %s", p.Value)
		}
		fields = append(fields, d)
		rest = tail
	}
	fields = append(fields, strings.Split(rest, ":")...)
	if len(fields) != e-s+1 {
		return sparkErr(0, "INVALID_INTERVAL_FORMAT", "Interval string does not match day-time format: %s", p.Value)
	}
	total := new(big.Rat)
	for i, f := range fields {
		q, ok := new(big.Rat).SetString(f)
		if !ok {
			return sparkErr(0, "INVALID_INTERVAL_FORMAT", "Interval string does not match day-time format: %s", p.Value)
		}
		total.Add(total, new(big.Rat).Mul(q, new(big.Rat).SetInt64(microsPer[units[s+i]])))
	}
	micros.Add(micros, total.Mul(total, new(big.Rat).SetInt64(sign)))
	return nil
}

// dtName is Spark's text of a day-time interval: INTERVAL '1 02' DAY TO HOUR.
func dtName(us int64, from, to string) string {
	sign := ""
	if us < 0 {
		sign, us = "-", -us
	}
	days := us / 86400e6
	rem := us % 86400e6
	hours, minutes := rem/3600e6, rem%3600e6/60e6
	secs := rem % 60e6
	var parts []string
	startDone := false
	add := func(f string, v int64, width int) {
		if !startDone {
			parts = append(parts, strconv.FormatInt(v, 10))
			if width > 0 && len(parts[0]) < width {
				parts[0] = strings.Repeat("0", width-len(parts[0])) + parts[0]
			}
			startDone = true
			return
		}
		parts = append(parts, fmt.Sprintf("%0*d", width, v))
	}
	secText := func(total int64) string {
		s := fmt.Sprintf("%02d", total/1e6)
		if f := total % 1e6; f != 0 {
			s += "." + strings.TrimRight(fmt.Sprintf("%06d", f), "0")
		}
		return s
	}
	switch from {
	case "DAY":
		add("DAY", days, 0)
	case "HOUR":
		add("HOUR", days*24+hours, 2)
	case "MINUTE":
		add("MINUTE", (days*24+hours)*60+minutes, 2)
	case "SECOND":
		parts = append(parts, secText(us))
	}
	if from == "DAY" && intervalRank[to] >= intervalRank["HOUR"] {
		parts = append(parts, " "+fmt.Sprintf("%02d", hours))
	}
	if intervalRank[from] <= intervalRank["HOUR"] && intervalRank[to] >= intervalRank["MINUTE"] {
		parts = append(parts, ":"+fmt.Sprintf("%02d", minutes))
	}
	if from != "SECOND" && to == "SECOND" {
		parts = append(parts, ":"+secText(secs))
	}
	unit := from
	if to != from {
		unit += " TO " + to
	}
	return "INTERVAL '" + sign + strings.Join(parts, "") + "' " + unit
}

func ymName(months int64, from, to string) string {
	sign := ""
	if months < 0 {
		sign, months = "-", -months
	}
	switch {
	case from == "YEAR" && to == "MONTH":
		return fmt.Sprintf("INTERVAL '%s%d-%d' YEAR TO MONTH", sign, months/12, months%12)
	case from == "YEAR":
		return fmt.Sprintf("INTERVAL '%s%d' YEAR", sign, months/12)
	}
	return fmt.Sprintf("INTERVAL '%s%d' MONTH", sign, months)
}

// datetimeArith resolves + and - with dates, timestamps and intervals.
func (r *resolver) datetimeArith(op string, l, rr *rx, pos int) (*rx, error) {
	lt, rt := l.t, rr.t
	name := "(" + l.name + " " + op + " " + rr.name + ")"
	fail := func() (*rx, error) {
		if lt.Kind == KCalendar || rt.Kind == KCalendar {
			// Spark adds, subtracts and scales CalendarIntervals; not
			// translated.
			return nil, unsupported(pos, "add each interval to the date or timestamp", "%s with make_interval's CalendarInterval", name)
		}
		return nil, sparkErr(pos, "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: the left and right operands of the binary operator have incompatible types (%q and %q).", quoteSparkSQL(name), strings.ToUpper(lt.String()), strings.ToUpper(rt.String()))
	}
	isDays := func(t *Type) bool {
		return t.Kind == KInt || t.Kind == KShort || t.Kind == KByte
	}
	switch {
	case op == "+" && lt.Kind == KDate && isDays(rt), op == "+" && isDays(lt) && rt.Kind == KDate:
		d, n := l, rr
		if lt.Kind != KDate {
			d, n = rr, l
		}
		return mk(tDate, "("+d.sql+" + "+n.sql+")", "date_add("+d.name+", "+n.name+")", l, rr), nil
	case op == "-" && lt.Kind == KDate && isDays(rt):
		return mk(tDate, "("+l.sql+" - "+rr.sql+")", "date_sub("+l.name+", "+rr.name+")", l, rr), nil
	case (op == "+" || op == "-") && lt.Kind == KDate && (rt.isIntegral() || rt.Kind == KDecimal || rt.isFractional()):
		return nil, sparkErr(pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve \"date_add(%s, %s)\" due to data type mismatch: The second parameter requires the (\"INT\" or \"SMALLINT\" or \"TINYINT\") type, however %s has the type %q.", l.name, rr.name, quoteSparkSQL(rr.name), strings.ToUpper(rt.String()))
	case op == "-" && lt.isDatetime() && rt.isDatetime():
		if lt.Kind == KDate && rt.Kind == KDate {
			return mk(&Type{Kind: KIntervalDT, From: "DAY", To: "DAY"}, "to_microseconds((("+l.sql+") - ("+rr.sql+")) * 86400000000)", name, l, rr), nil
		}
		t := widerType(lt, rt)
		a, err := r.cast(l, t, castImplicit)
		if err != nil {
			return nil, err
		}
		b, err := r.cast(rr, t, castImplicit)
		if err != nil {
			return nil, err
		}
		return mk(tDaySec, "to_microseconds(epoch_us("+a.sql+") - epoch_us("+b.sql+"))", name, l, rr), nil
	case (op == "+" || op == "-") && lt.isDatetime() && rt.Kind == KCalendar,
		op == "+" && lt.Kind == KCalendar && rt.isDatetime():
		return r.calendarArith(op, l, rr, name)
	case (op == "+" || op == "-") && lt.isDatetime() && (rt.Kind == KIntervalDT || rt.Kind == KIntervalYM),
		op == "+" && (lt.Kind == KIntervalDT || lt.Kind == KIntervalYM) && rt.isDatetime():
		d, iv := l, rr
		if !lt.isDatetime() {
			d, iv = rr, l
		}
		ivsql := iv.sql
		if op == "-" {
			ivsql = "(- " + iv.sql + ")"
		}
		name = d.name + " " + op + " " + iv.name
		if iv.t.Kind == KIntervalYM {
			switch d.t.Kind {
			case KDate:
				return mk(tDate, "CAST("+d.sql+" + "+ivsql+" AS DATE)", name, l, rr), nil
			case KTimestampNTZ:
				return mk(tTSNTZ, "("+d.sql+" + "+ivsql+")", name, l, rr), nil
			}
			return mk(tTS, r.instant("("+r.wallClock(d.sql)+" + "+ivsql+")"), name, l, rr), nil
		}
		switch d.t.Kind {
		case KDate:
			if iv.t.From == "DAY" && iv.t.To == "DAY" {
				return mk(tDate, "CAST(CAST("+d.sql+" AS TIMESTAMP) + "+ivsql+" AS DATE)", name, l, rr), nil
			}
			ts, err := r.cast(d, tTS, castImplicit)
			if err != nil {
				return nil, err
			}
			return mk(tTS, "("+ts.sql+" + "+ivsql+")", name, l, rr), nil
		case KTimestampNTZ:
			return mk(tTSNTZ, "("+d.sql+" + "+ivsql+")", name, l, rr), nil
		}
		// Spark adds the interval's days to the session-local date and
		// time (DST-aware), then the rest exactly.
		if r.tz == "UTC" {
			return mk(tTS, "("+d.sql+" + "+ivsql+")", name, l, rr), nil
		}
		if iv.ivMicros == nil {
			return nil, unsupported(pos, "add an interval literal, or use the UTC session time zone", "adding a computed day-time interval to a timestamp in the %s session time zone", r.tz)
		}
		us := *iv.ivMicros
		if op == "-" {
			us = -us
		}
		days, rest := us/86400e6, us%86400e6
		sql := d.sql
		if days != 0 {
			sql = r.instant(fmt.Sprintf("(%s + INTERVAL %d DAY)", r.wallClock(d.sql), days))
		}
		if rest != 0 {
			sql = fmt.Sprintf("(%s + to_microseconds(CAST(%d AS BIGINT)))", sql, rest)
		}
		return mk(tTS, sql, name, l, rr), nil
	case (op == "*" || op == "/") && lt.Kind == KIntervalDT && (rt.isIntegral() || rt.Kind == KVoid),
		op == "*" && (lt.isIntegral() || lt.Kind == KVoid) && rt.Kind == KIntervalDT:
		return r.intervalTimes(op, l, rr, name, pos)
	case lt.Kind == rt.Kind && (lt.Kind == KIntervalDT || lt.Kind == KIntervalYM) && (op == "+" || op == "-"):
		t := widerType(lt, rt)
		if t == nil {
			t = lt
		}
		return mk(t, "("+l.sql+" "+op+" "+rr.sql+")", name, l, rr), nil
	}
	return fail()
}

// intervalTimes is a day-time interval literal multiplied or divided by
// an integral number (Spark's MultiplyDTInterval, DivideDTInterval): a
// DAY TO SECOND interval of the exact product (Math.multiplyExact's
// ArithmeticException beyond 64 bits of microseconds), or of the quotient rounded half up
// (INTERVAL_DIVIDED_BY_ZERO for 0). A computed interval is not
// translated.
func (r *resolver) intervalTimes(op string, l, rr *rx, name string, pos int) (*rx, error) {
	iv, n := l, rr
	if l.t.Kind != KIntervalDT {
		iv, n = rr, l
	}
	if iv.ivMicros == nil {
		return nil, unsupported(pos, "multiply or divide an interval literal", "%s of a computed interval by a number", map[string]string{"*": "a product", "/": "a quotient"}[op])
	}
	us := fmt.Sprintf("CAST(%d AS HUGEINT)", *iv.ivMicros)
	k := "CAST(" + n.sql + " AS HUGEINT)"
	var sql string
	if op == "*" {
		sql = fmt.Sprintf("CASE WHEN abs(%s * %s) > 9223372036854775807 THEN error(%s) ELSE to_microseconds(CAST(%s * %s AS BIGINT)) END",
			us, k, sqlq("[ArithmeticException] long overflow"), us, k)
	} else {
		sql = fmt.Sprintf("CASE WHEN %s = 0 THEN error(%s) ELSE to_microseconds(CAST(sign(%s) * sign(%s) * ((abs(%s) * 2 + abs(%s)) // (2 * abs(%s))) AS BIGINT)) END",
			k, sqlq("[INTERVAL_DIVIDED_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead."), us, k, us, k, k)
	}
	return mk(tDaySec, sql, name, l, rr), nil
}

// dtPattern is a Spark datetime pattern compiled for DuckDB: a strftime
// format for formatting and, for parsing, alternatives each of a regular
// expression the whole text must match and the strptime format reading it.
type dtPattern struct {
	format    string
	formatErr error   // why the pattern cannot format (it can still parse)
	alts      []dtAlt // parse alternatives, tried in order
	twoDigitY bool    // yy: Spark's base year 2000 (2000-2099)
	parseErr  string  // a letter Spark only formats with (E): it fails to parse
}

type dtAlt struct{ re, strptime string }

// dtToken is a pattern element: a field or literal text, or an optional
// section [...] of elements.
type dtToken struct {
	spec, re string // strptime directive (or literal text) and its regex
	fmtSpec  string // the strftime directive when it differs from spec
	noFormat string // the letters, when strftime cannot print them
	opt      []dtToken
}

// maxPatternAlts bounds the expansion of optional sections.
const maxPatternAlts = 16

// javaDateFormat translates a Spark datetime pattern used to format to a
// strftime format, and returns the regular expression of the text it
// parses without optional sections.
func javaDateFormat(p string) (string, string, error) {
	pt, err := sparkPattern(p)
	if err != nil {
		return "", "", err
	}
	if pt.formatErr != nil {
		return "", "", pt.formatErr
	}
	return pt.format, pt.alts[0].re, nil
}

// sparkPattern compiles a pattern of Spark's datetime pattern language
// (DateTimeFormatterBuilder as Spark 4.2 configures it): letters are
// fields, '...' quotes text, [...] is an optional section (parsing tries
// the section, then goes on without it); for parsing, S...S (up to 6) reads
// 1 to that many fraction digits and yy reads 2000 to 2099.
func sparkPattern(p string) (*dtPattern, error) {
	rs := []rune(p)
	pos := 0
	pt := &dtPattern{}
	var seq func(depth int) ([]dtToken, error)
	seq = func(depth int) ([]dtToken, error) {
		var out []dtToken
		for pos < len(rs) {
			c := rs[pos]
			switch c {
			case '[':
				pos++
				inner, err := seq(depth + 1)
				if err != nil {
					return nil, err
				}
				out = append(out, dtToken{opt: inner})
				if pt.formatErr == nil {
					pt.formatErr = fmt.Errorf("an optional section [...] when formatting")
				}
				continue
			case ']':
				if depth == 0 {
					return nil, fmt.Errorf("a ] without its [")
				}
				pos++
				return out, nil
			}
			j := pos
			for j < len(rs) && rs[j] == c {
				j++
			}
			n := j - pos
			if c == '\'' {
				// 'literal' ('' is a quote).
				k := pos + 1
				var lit strings.Builder
				for k < len(rs) {
					if rs[k] == '\'' {
						if k+1 < len(rs) && rs[k+1] == '\'' {
							lit.WriteRune('\'')
							k += 2
							continue
						}
						break
					}
					lit.WriteRune(rs[k])
					k++
				}
				if k >= len(rs) && n == 1 {
					return nil, fmt.Errorf("an unclosed quote")
				}
				if n == 2 && j == pos+2 {
					lit.Reset()
					lit.WriteRune('\'')
					k = pos + 1
				}
				out = append(out, dtToken{spec: strings.ReplaceAll(lit.String(), "%", "%%"), re: regexQuote(lit.String())})
				pos = k + 1
				continue
			}
			tok := dtToken{}
			switch {
			case c == 'y' && n == 4, c == 'y' && n == 1:
				tok.spec, tok.re = "%Y", "[0-9]{4}"
			case c == 'y' && n == 2:
				tok.spec, tok.re = "%y", "[0-9]{2}"
				pt.twoDigitY = true
			case (c == 'M' || c == 'L') && n == 2:
				tok.spec, tok.re = "%m", "[0-9]{2}"
			case (c == 'M' || c == 'L') && n == 1:
				tok.spec, tok.re = "%-m", "[0-9]{1,2}"
			case (c == 'M' || c == 'L') && n == 3:
				tok.spec, tok.re = "%b", "[A-Za-z]{3}"
			case (c == 'M' || c == 'L') && n == 4:
				tok.spec, tok.re = "%B", "[A-Za-z]+"
			case c == 'd' && n == 2:
				tok.spec, tok.re = "%d", "[0-9]{2}"
			case c == 'd' && n == 1:
				tok.spec, tok.re = "%-d", "[0-9]{1,2}"
			case c == 'D' && n == 3:
				tok.spec, tok.re = "%j", "[0-9]{3}"
			case c == 'D' && n == 1:
				tok.spec, tok.re = "%-j", "[0-9]{1,3}"
			case c == 'H' && n == 2:
				tok.spec, tok.re = "%H", "[0-9]{2}"
			case c == 'H' && n == 1:
				tok.spec, tok.re = "%-H", "[0-9]{1,2}"
			case c == 'h' && n == 2:
				tok.spec, tok.re = "%I", "[0-9]{2}"
			case c == 'h' && n == 1:
				tok.spec, tok.re = "%-I", "[0-9]{1,2}"
			case c == 'm' && n == 2:
				tok.spec, tok.re = "%M", "[0-9]{2}"
			case c == 'm' && n == 1:
				tok.spec, tok.re = "%-M", "[0-9]{1,2}"
			case c == 's' && n == 2:
				tok.spec, tok.re = "%S", "[0-9]{2}"
			case c == 's' && n == 1:
				tok.spec, tok.re = "%-S", "[0-9]{1,2}"
			case c == 'S' && n <= 6:
				// strptime's %f reads 1 to 6 digits as a fraction.
				tok.spec, tok.re = "%f", fmt.Sprintf("[0-9]{1,%d}", n)
				if n != 3 && n != 6 {
					tok.noFormat = string(rs[pos:j])
				}
			case c == 'a' && n == 1:
				tok.spec, tok.re = "%p", "(AM|PM|am|pm)"
			case c == 'E' && n <= 4 && pt.parseErr == "":
				pt.parseErr = string(rs[pos:j])
				fallthrough
			case c == 'E' && n <= 4:
				tok.spec, tok.re = "%a", "[A-Za-z]{3}"
				if n == 4 {
					tok.spec, tok.re = "%A", "[A-Za-z]+"
				}
			case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
				return nil, fmt.Errorf("the pattern letter%s %s", plural(n), string(rs[pos:j]))
			default:
				lit := string(rs[pos:j])
				tok.spec, tok.re = strings.ReplaceAll(lit, "%", "%%"), regexQuote(lit)
			}
			if c == 'S' && n == 3 {
				tok.fmtSpec = "%g"
			}
			out = append(out, tok)
			pos = j
		}
		if depth > 0 {
			return nil, fmt.Errorf("an optional section [ without its ]")
		}
		return out, nil
	}
	toks, err := seq(0)
	if err != nil {
		return nil, err
	}
	// Formatting: the tokens outside optional sections.
	var f strings.Builder
	for _, t := range toks {
		switch {
		case t.opt != nil:
		case t.noFormat != "":
			if pt.formatErr == nil {
				pt.formatErr = fmt.Errorf("the pattern letters %s when formatting", t.noFormat)
			}
		case t.fmtSpec != "":
			f.WriteString(t.fmtSpec)
		default:
			f.WriteString(t.spec)
		}
	}
	pt.format = f.String()
	// Parsing: every choice of optional sections, present ones first.
	var expand func(ts []dtToken) []dtAlt
	expand = func(ts []dtToken) []dtAlt {
		alts := []dtAlt{{}}
		for _, t := range ts {
			var tails []dtAlt
			if t.opt != nil {
				tails = append(expand(t.opt), dtAlt{})
			} else {
				tails = []dtAlt{{re: t.re, strptime: t.spec}}
			}
			var next []dtAlt
			for _, a := range alts {
				for _, tl := range tails {
					next = append(next, dtAlt{re: a.re + tl.re, strptime: a.strptime + tl.strptime})
				}
			}
			if len(next) > maxPatternAlts {
				next = next[:maxPatternAlts]
			}
			alts = next
		}
		return alts
	}
	pt.alts = expand(toks)
	if countAlts(toks) > maxPatternAlts {
		return nil, fmt.Errorf("more than %d combinations of optional sections", maxPatternAlts)
	}
	return pt, nil
}

func countAlts(ts []dtToken) int {
	n := 1
	for _, t := range ts {
		if t.opt != nil {
			n *= countAlts(t.opt) + 1
			if n > maxPatternAlts {
				return n
			}
		}
	}
	return n
}

func plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

// calendarArith is a date or timestamp plus or minus a CalendarInterval
// (make_interval): Spark's DateAddInterval under ANSI for a date (the
// months, then the days; INVALID_INTERVAL_WITH_MICROSECONDS_ADDITION when
// the interval has microseconds) and timestampAddInterval for a timestamp
// (the months, then the days to the session-local date and time, then
// the microseconds to the instant); minus adds the negated interval.
func (r *resolver) calendarArith(op string, l, rr *rx, name string) (*rx, error) {
	d, iv := l, rr
	if !l.t.isDatetime() {
		d, iv = rr, l
	}
	ivsql := iv.sql
	if op == "-" {
		ivsql = "(- " + iv.sql + ")"
	}
	months, days, micros := calendarParts(ivsql)
	switch d.t.Kind {
	case KDate:
		sql := "CASE WHEN " + micros + " <> 0 THEN error('[INVALID_INTERVAL_WITH_MICROSECONDS_ADDITION] Cannot add an interval to a date because its microseconds part is not 0. To resolve this, cast the input date to a timestamp, which supports the addition of intervals with non-zero microseconds.') ELSE CAST(" + d.sql + " + " + ivsql + " AS DATE) END"
		return mk(tDate, sql, name, l, rr), nil
	case KTimestampNTZ:
		return mk(tTSNTZ, "("+d.sql+" + "+ivsql+")", name, l, rr), nil
	}
	if r.tz == "UTC" {
		return mk(tTS, r.instant("("+r.wallClock(d.sql)+" + "+ivsql+")"), name, l, rr), nil
	}
	md := "(to_months(CAST(" + months + " AS INTEGER)) + to_days(CAST(" + days + " AS INTEGER)))"
	return mk(tTS, "("+r.instant("("+r.wallClock(d.sql)+" + "+md+")")+" + to_microseconds(CAST("+micros+" AS BIGINT)))", name, l, rr), nil
}
