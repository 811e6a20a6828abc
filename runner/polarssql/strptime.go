package polarssql

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/laktory/workbench/runner/sqlfront"
)

// Polars SQL's STRPTIME(x, format) (a Datetime(us)), TIMESTAMP(x, format)
// and DATETIME(x, format) (the same), DATE(x, format) (a Date: the
// parsed value's day): polars' strict str.strptime with chrono's format
// language, as measured on polars 1.32.0 (testdata/random/strptime.json):
//   - a number may be preceded by whitespace (Unicode's, as Rust's
//     char::is_whitespace), %m %d %H %M %S %y take one or two digits, %Y
//     one to four, or a sign and any number of digits (a year outside
//     1-9999 fails the query here: the local engine does not compute it);
//     %y is 2000-2069 for 0-69, 1970-1999 for 70-99;
//   - a space in the format takes any whitespace, none included; any other
//     character must be there as it is (case counts); %% is a %; %F is
//     %Y-%m-%d, %T %H:%M:%S;
//   - %.f is an optional dot and at least one digit (the digits past the
//     microsecond dropped);
//   - the whole text must be taken; the day must exist, an hour be 0-23, a
//     minute 0-59, a second 0-60 (60 is a leap second: the next minute);
//   - %b (%h) is a month's first three letters, %B the same or the whole
//     name (taken where it follows), %a and %A a weekday's, in any ASCII
//     letter case and never after whitespace; the weekday must be the
//     date's;
//   - %I is an hour of 1-12 and %p AM or PM in any case (12 AM is 0);
//   - %z and %:z read alike: whitespace, a sign (+, -, U+2212), two digits
//     of hours, any colons and whitespace, two digits of minutes (0-59),
//     below a day; the result is a Datetime(us, UTC), the local time less
//     the offset;
//   - %f is one to nine digits of whole nanoseconds (".5" is 5 ns),
//     truncated to microseconds; %j a day of the year (1-366) of %Y;
//   - any other text fails the query (polars' InvalidOperationError); NULL
//     stays NULL.
//
// polars checks the format before it reads a value (polarsFormatCheck):
// an hour without minutes (or minutes without an hour), seconds without
// an hour, %I without %p and %p without %I (%p with %H) fail the query
// with its ComputeError, whatever the rows. An offset may be anywhere in
// the format (chrono reads it where it is, then the items after it).
//
// Other format items (%U, %s, %Z, ...), a format without a year, a month
// and a day (or a day of the year), a long name before letters, and DATE
// with an offset are refused.

// pws is a run of Unicode whitespace in RE2.
const pws = `[\t\n\x0b\f\r \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]*`

// strpItem is an item of a chrono format: a number (field, at most
// width digits, or a sign and any digits for signed), a space, a literal
// or %.f.
type strpItem struct {
	field  string // Y, y, m, d, H, M, S, I, j, N (%f); "f" for %.f
	width  int
	signed bool
	space  bool
	lit    string
	name   string // b, B (month names), a, A (weekday names), p (AM/PM), z (%z, %:z)
}

// asciiFold is a regular expression matching word in any ASCII letter
// case, as chrono compares names (byte | 32); RE2's (?i) would also fold
// the Kelvin sign and the long s.
func asciiFold(word string) string {
	var b strings.Builder
	for _, c := range word {
		b.WriteString("[" + strings.ToUpper(string(c)) + string(c) + "]")
	}
	return b.String()
}

var (
	monthNames   = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	monthSuffix  = []string{"uary", "ruary", "ch", "il", "", "e", "y", "ust", "tember", "ober", "ember", "ember"}
	weekdayNames = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
	weekdaySuff  = []string{"day", "sday", "nesday", "rsday", "day", "urday", "day"}
)

// nameRE is the regular expression of a chrono name item: the first three
// letters of a name, and for the long forms (%B, %A) the rest of it where
// it follows (chrono takes it then, and never backtracks: a long name is
// refused before letters).
func nameRE(kind string) string {
	names, suff := monthNames, monthSuffix
	if kind == "a" || kind == "A" {
		names, suff = weekdayNames, weekdaySuff
	}
	var alts []string
	for i, n := range names {
		a := asciiFold(n)
		if (kind == "B" || kind == "A") && suff[i] != "" {
			a += "(?:" + asciiFold(suff[i]) + ")?"
		}
		alts = append(alts, a)
	}
	return "(" + strings.Join(alts, "|") + ")"
}

// strpFormat compiles a chrono format into a regular expression and, for
// each field, the groups whose text (one of them matches) is its digits.
// chrono reads a number greedily (as many digits as it may take) and
// never backtracks: a number followed by another (through spaces, which
// may be none) takes all its digits, or fewer only where whitespace
// follows; a regular expression would find another split instead.
func strpFormat(f string) (re string, groups map[string][]string, order []string, why string) {
	var items []strpItem
	seen := map[string]bool{}
	add := func(c byte) string {
		name := string(c)
		if seen[name] {
			return "%" + name + " twice"
		}
		seen[name] = true
		it := strpItem{field: name, width: 2}
		if c == 'Y' {
			it.width, it.signed = 4, true
		}
		items = append(items, it)
		return ""
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == ' ':
			items = append(items, strpItem{space: true})
		case c >= '0' && c <= '9':
			return "", nil, nil, "a digit in the format"
		case c != '%':
			items = append(items, strpItem{lit: string(c)})
		case i+1 == len(f):
			return "", nil, nil, "a format ending in %"
		default:
			i++
			c = f[i]
			var w string
			switch c {
			case 'Y', 'y', 'm', 'd', 'H', 'M', 'S':
				w = add(c)
			case 'I', 'j', 'f':
				// %I the hour on a 12-hour clock (1-12), %j the day of the
				// year (1-366), %f whole nanoseconds (up to 9 digits).
				key := map[byte]string{'I': "H", 'j': "j", 'f': "f"}[c]
				if seen[key] {
					return "", nil, nil, "%" + string(c) + " with another item of its field"
				}
				seen[key] = true
				field := map[byte]string{'I': "I", 'j': "j", 'f': "N"}[c]
				items = append(items, strpItem{field: field, width: map[byte]int{'I': 2, 'j': 3, 'f': 9}[c]})
				if c == 'I' {
					seen["I"] = true
				}
			case 'b', 'h', 'B', 'a', 'A', 'p', 'z', ':':
				kind := string(c)
				if c == 'h' {
					kind = "b"
				}
				if c == ':' {
					if i+1 >= len(f) || f[i+1] != 'z' {
						w = "%:" + f[i+1:min(i+2, len(f))]
						break
					}
					i++
					kind = "z"
				}
				key := map[string]string{"b": "m", "B": "m", "a": "w", "A": "w", "p": "p", "z": "z"}[kind]
				if seen[key] {
					return "", nil, nil, "%" + kind + " with another item of its field"
				}
				seen[key] = true
				items = append(items, strpItem{name: kind})
			case 'F', 'T':
				fs, sep := "Ymd", "-"
				if c == 'T' {
					fs, sep = "HMS", ":"
				}
				for k := 0; k < 3 && w == ""; k++ {
					if k > 0 {
						items = append(items, strpItem{lit: sep})
					}
					w = add(fs[k])
				}
			case '%':
				items = append(items, strpItem{lit: "%"})
			case '.':
				if i+1 < len(f) && f[i+1] == 'f' && !seen["f"] {
					i++
					seen["f"] = true
					items = append(items, strpItem{field: "f"})
					continue
				}
				w = "%." + f[i+1:min(i+2, len(f))]
			default:
				w = "%" + string(c)
			}
			if w != "" {
				return "", nil, nil, w
			}
		}
	}
	switch {
	case !(seen["Y"] || seen["y"]) || (!seen["j"] && (!seen["m"] || !seen["d"])):
		return "", nil, nil, "a format without a year, a month and a day"
	case seen["j"] && (seen["m"] || seen["d"]):
		return "", nil, nil, "%j with a month or a day"
	case seen["Y"] && seen["y"]:
		return "", nil, nil, "%Y with %y"
	case seen["H"] != seen["M"], seen["S"] && !seen["M"], seen["f"] && !seen["S"]:
		return "", nil, nil, "a time without hours and minutes"
	case seen["I"] != seen["p"]:
		return "", nil, nil, "%p without %I, or %I without %p"
	case seen["z"] && !seen["H"]:
		return "", nil, nil, "an offset without a time"
	}
	for i, it := range items {
		if (it.name == "B" || it.name == "A") && i+1 < len(items) {
			nx := items[i+1]
			if nx.name != "" || (nx.lit != "" && unicode.IsLetter(rune(nx.lit[0]))) {
				return "", nil, nil, "a letter after a long name"
			}
		}
	}
	// group names: DuckDB's are case-insensitive.
	names := map[string]string{"Y": "yyyy", "y": "yy", "m": "mon", "d": "dd", "H": "hh", "M": "mi", "S": "ss", "f": "frac",
		"I": "hh12", "j": "doy", "N": "nanos"}
	groups = map[string][]string{}
	var b strings.Builder
	b.WriteString("^")
	for i, it := range items {
		switch {
		case it.space:
			b.WriteString(pws)
		case it.lit != "":
			b.WriteString(regexp.QuoteMeta(it.lit))
		case it.name == "p":
			b.WriteString("([AaPp][Mm])")
			groups["p"] = []string{"ampm"}
			order = append(order, "ampm")
		case it.name == "z":
			// chrono's offset (%z and %:z alike): whitespace, a sign (or
			// U+2212), two digits of hours, any colons and whitespace, two
			// of minutes (0-59).
			b.WriteString(pws + `([+\-\x{2212}])([0-9]{2})[:\t\n\x0b\f\r \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]*([0-5][0-9])`)
			groups["zs"], groups["zh"], groups["zm"] = []string{"tzsign"}, []string{"tzh"}, []string{"tzm"}
			order = append(order, "tzsign", "tzh", "tzm")
		case it.name != "":
			g := map[string]string{"b": "monname", "B": "monname", "a": "wdname", "A": "wdname"}[it.name]
			b.WriteString(nameRE(it.name))
			groups[map[string]string{"b": "mn", "B": "mn", "a": "wd", "A": "wd"}[it.name]] = []string{g}
			order = append(order, g)
		case it.field == "f":
			b.WriteString(`(?:\.([0-9]+))?`)
			groups["f"] = []string{"frac"}
			order = append(order, "frac")
		default:
			next := false // another number follows, through spaces only
			for _, j := range items[i+1:] {
				if !j.space {
					next = j.lit == "" && j.name == "" && j.field != "f"
					break
				}
			}
			g := names[it.field]
			b.WriteString(pws)
			switch {
			case !next && it.signed:
				b.WriteString("([+-][0-9]+|[0-9]{1," + strconv.Itoa(it.width) + "})")
				groups[it.field] = []string{g}
				order = append(order, g)
			case !next:
				b.WriteString("([0-9]{1," + strconv.Itoa(it.width) + "})")
				groups[it.field] = []string{g}
				order = append(order, g)
			default:
				// all its digits, or fewer (or a sign and digits) before
				// whitespace.
				full, short := "[0-9]{"+strconv.Itoa(it.width)+"}", "[0-9]{1,"+strconv.Itoa(it.width-1)+"}"
				switch {
				case it.signed && fastParser(f):
					// polars' own parser reads -2024 then the next number,
					// not +2024.
					full, short = "-?"+full, "[+-][0-9]+|"+short
				case it.signed:
					// chrono reads a sign and every digit as the year.
					short = "[+-][0-9]+|" + short
				}
				b.WriteString("(?:(" + full + ")|(" + short + ")" + pws1 + ")")
				groups[it.field] = []string{g, g + "2"}
				order = append(order, g, g+"2")
			}
		}
	}
	b.WriteString("$")
	return b.String(), groups, order, ""
}

// fastParser reports whether polars reads a format with its own parser
// (polars-time's fast_parser_supported: %Y %y %d %m %b %B %H %M %S only,
// after %F and %T are expanded) rather than chrono's.
func fastParser(f string) bool {
	f = strings.NewReplacer("%F", "%Y-%m-%d", "%T", "%H:%M:%S").Replace(f)
	for i := 0; i < len(f); i++ {
		if f[i] == '%' {
			if i+1 == len(f) || !strings.ContainsRune("YydmbBHMS", rune(f[i+1])) {
				return false
			}
			i++
		}
	}
	return true
}

// pws1 is one whitespace character.
const pws1 = `[\t\n\x0b\f\r \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

// strptime translates STRPTIME, TIMESTAMP, DATETIME and DATE with a
// format; ok is false for another call.
func (r *resolver) strptime(n *sqlfront.Call, name string, args []*rx, grouped bool) (_ *rx, ok bool, _ error) {
	switch name {
	case "strptime":
		if len(args) != 2 {
			return nil, true, rejected(n.P, "SQLSyntaxError", "STRPTIME expects 2 arguments (found %d)", len(args))
		}
	case "date", "timestamp", "datetime":
		if len(args) != 2 {
			if len(args) == 1 && name == "date" && args[0].constant && args[0].t.Kind == String {
				if lit, ok := n.Args[0].(*sqlfront.Literal); ok && isoDate.MatchString(lit.Value) {
					// polars infers %Y-%m-%d from the text.
					return &rx{t: &Type{Kind: Date}, sql: "CAST(" + args[0].sql + " AS DATE)", name: args[0].name, constant: true}, true, nil
				}
			}
			if len(args) == 1 && name == "date" && args[0].t.Kind == String && !grouped && !args[0].agg && !args[0].constant {
				return dateInfer(args[0]), true, nil
			}
			return nil, true, unsupported(n.P, "", "%s without a format (polars infers one from the values) in Polars SQL", strings.ToUpper(name))
		}
	default:
		return nil, false, nil
	}
	x := args[0]
	if x.t.Kind != String {
		if rn, ok := rustIntName[x.t.Kind]; ok && x.col != nil {
			return nil, true, rejected(n.P, "SchemaError", "invalid series dtype: expected `String`, got `%s` for series with name `%s`", rn, x.name)
		}
		return nil, true, unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), x.t)
	}
	lit, isLit := n.Args[1].(*sqlfront.Literal)
	if !isLit || lit.Kind != sqlfront.LitString {
		return nil, true, unsupported(n.Args[1].Pos(), "", "%s with a format that is not a constant string in Polars SQL", strings.ToUpper(name))
	}
	if msg := polarsFormatCheck(lit.Value); msg != "" {
		return nil, true, rejected(n.Args[1].Pos(), "ComputeError", "Invalid format string: %s", msg)
	}
	re, groups, order, why := strpFormat(lit.Value)
	if why != "" {
		return nil, true, unsupported(n.Args[1].Pos(), "", "%s with the format '%s' (%s) in Polars SQL", strings.ToUpper(name), lit.Value, why)
	}
	t, to := &Type{Kind: Datetime, Unit: "us"}, "datetime[μs]"
	if strpZoned(groups) {
		if name == "date" {
			return nil, true, unsupported(n.Args[1].Pos(), "", "DATE with the format '%s' (an offset) in Polars SQL", lit.Value)
		}
		t, to = &Type{Kind: Datetime, Unit: "us", Zone: "UTC"}, "datetime[μs, UTC]"
	}
	if name == "date" {
		t, to = &Type{Kind: Date}, "date"
	}
	valid, year, value := strpParse(x.sql, re, groups, order, name == "date")
	fail := "error('[InvalidOperationError] conversion from `str` to `" + to + "` failed in column ''" + strings.ReplaceAll(x.name, "'", "''") + "'' for the value \"' || " + x.sql + " || '\"')"
	// chrono reads years before 1 and after 9999 (with a sign), which
	// the local engine does not compute.
	far := "error('[ComputeError] the year of ' || " + x.sql + " || ' (before 1 or after 9999) is not supported locally')"
	sql := "CASE WHEN " + x.sql + " IS NULL THEN NULL WHEN NOT (" + valid + ") THEN " + fail + " WHEN " + year + " NOT BETWEEN 1 AND 9999 THEN " + far + " ELSE " + value + " END"
	if glob, duck, ok := strpCanonical(lit.Value); ok {
		// Text in the format's zero-padded form (its usual form) takes
		// DuckDB's strptime, which reads such text as chrono does and is
		// NULL where a field is out of range; other text, or a year 0,
		// takes the checks above (3.5 us a row against 0.02).
		try := "try_strptime(" + x.sql + ", '" + strings.ReplaceAll(duck, "'", "''") + "')"
		if name == "date" {
			try = "CAST(" + try + " AS DATE)"
		}
		sql = "CASE WHEN " + x.sql + " GLOB '" + strings.ReplaceAll(glob, "'", "''") + "' AND year(" + try + ") >= 1 THEN " + try + " ELSE " + sql + " END"
	}
	return &rx{t: t, sql: sql, name: x.name, constant: x.constant}, true, nil
}

// polars' checks of a format before it reads a value (polars-time's
// compile_fmt, 1.32.0): regular expressions over the format as written
// (%T and %F not expanded yet), so they fail the query whatever the rows,
// none included.
var (
	fmtHour     = regexp.MustCompile(`%[_-]?[HkIl]`)
	fmtMinute   = regexp.MustCompile(`%[_-]?M`)
	fmtSecond   = regexp.MustCompile(`%[_-]?S`)
	fmtTwelve   = regexp.MustCompile(`%[_-]?[Il]`)
	fmtMeridiem = regexp.MustCompile(`%[_-]?[pP]`)
)

// polarsFormatCheck is polars' ComputeError for a format (after "Invalid
// format string: "), or "": an hour without minutes or minutes without an
// hour, seconds without an hour, a 12-hour clock without a meridiem or a
// meridiem without one (%p with %H).
func polarsFormatCheck(f string) string {
	switch {
	case fmtHour.MatchString(f) != fmtMinute.MatchString(f):
		return "Please either specify both hour and minute, or neither."
	case fmtSecond.MatchString(f) && !fmtHour.MatchString(f):
		return "Found seconds directive, but no hours directive."
	case fmtTwelve.MatchString(f) != fmtMeridiem.MatchString(f):
		return "Please either specify both 12-hour directive and meridiem directive, or neither."
	}
	return ""
}

// strpCanonical is a GLOB matching the zero-padded text of a format of
// %Y %m %d %H %M %S (and %F, %T) with literal separators (one space for a
// space), and DuckDB's strptime format for it; ok is false for other
// formats.
func strpCanonical(f string) (glob, duck string, ok bool) {
	f = strings.NewReplacer("%F", "%Y-%m-%d", "%T", "%H:%M:%S").Replace(f)
	var g strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '%' && i+1 < len(f):
			i++
			switch f[i] {
			case 'Y':
				g.WriteString("[0-9][0-9][0-9][0-9]")
			case 'm', 'd', 'H', 'M', 'S':
				g.WriteString("[0-9][0-9]")
			default:
				return "", "", false
			}
		case c == '*' || c == '?' || c == '[' || c == ']' || c == '%' || c == '\\':
			return "", "", false
		default:
			g.WriteByte(c)
		}
	}
	return g.String(), f, true
}

// strpParse is the SQL of text x parsed with a compiled format: valid,
// whether it parses (or has a year outside 1-9999), year, the year read,
// and value, the Date (date) or Datetime(us) it gives.
func strpParse(x, re string, groups map[string][]string, order []string, date bool) (valid, year, value string) {
	q := "'" + strings.ReplaceAll(re, "'", "''") + "'"
	// regexp_extract names the groups in order.
	var all []string
	for _, g := range order {
		all = append(all, "'"+g+"'")
	}
	parts := "regexp_extract(" + x + ", " + q + ", [" + strings.Join(all, ", ") + "])"
	text := func(f string) string {
		var ps []string
		for _, g := range groups[f] {
			ps = append(ps, parts+"."+g)
		}
		return strings.Join(ps, " || ")
	}
	num := func(f string) string {
		if len(groups[f]) == 0 {
			return "0"
		}
		return "TRY_CAST(" + text(f) + " AS INTEGER)"
	}
	year = num("Y")
	if year == "0" {
		y := num("y")
		year = "(CASE WHEN " + y + " < 70 THEN 2000 + " + y + " ELSE 1900 + " + y + " END)"
	}
	month, day := num("m"), num("d")
	// a month name: its first three letters, lower cased.
	nameIndex := func(f string, names []string) string {
		return "list_position(['" + strings.Join(names, "', '") + "'], lower(left(" + text(f) + ", 3)))"
	}
	if len(groups["mn"]) > 0 {
		month = nameIndex("mn", monthNames)
	}
	hour, minute, second := num("H"), num("M"), num("S")
	hourOK := hour + " <= 23"
	if len(groups["I"]) > 0 {
		// chrono's hour_mod_12 and AM/PM: 12 AM is 0, 12 PM is 12.
		h12 := num("I")
		hourOK = h12 + " BETWEEN 1 AND 12"
		hour = "(" + h12 + " % 12 + CASE WHEN lower(" + text("p") + ") = 'pm' THEN 12 ELSE 0 END)"
	}
	// The fields are checked for any year (the proleptic Gregorian
	// calendar's leap years, as chrono's), before make_date, which fails
	// out of range; a year outside 1-9999 with valid fields is refused.
	leap := "((" + year + ") % 4 = 0 AND (" + year + ") % 100 <> 0 OR (" + year + ") % 400 = 0)"
	dayOK := month + " BETWEEN 1 AND 12 AND " + day + " BETWEEN 1 AND CASE WHEN " + month + " = 2 THEN 28 + CAST(" + leap + " AS INTEGER) ELSE [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][" + month + "] END"
	day0 := "make_date(" + year + ", " + month + ", " + day + ")"
	if len(groups["j"]) > 0 {
		// the day of the year: 1 to 365, or 366 in a leap year.
		doy := num("j")
		dayOK = doy + " BETWEEN 1 AND 365 + CAST(" + leap + " AS INTEGER)"
		day0 = "(make_date(" + year + ", 1, 1) + CAST(" + doy + " - 1 AS INTEGER))"
	}
	fieldsOK := dayOK + " AND " + hourOK + " AND " + minute + " <= 59 AND " + second + " <= 60"
	if len(groups["zs"]) > 0 {
		// FixedOffset takes offsets below a day.
		fieldsOK += " AND " + num("zh") + " * 60 + " + num("zm") + " < 1440"
	}
	inRange := "true"
	if len(groups["wd"]) > 0 {
		// a weekday name must be the date's (chrono's verification); the
		// date is taken only where its fields are in range.
		inRange = "CASE WHEN " + fieldsOK + " AND " + year + " BETWEEN 1 AND 9999 THEN isodow(" + day0 + ") = " + nameIndex("wd", weekdayNames) + " ELSE false END"
	}
	valid = "regexp_full_match(" + x + ", " + q + ") AND " + fieldsOK + " AND (" + year + " NOT BETWEEN 1 AND 9999 OR " + inRange + ")"
	value = day0
	if !date {
		micros := "((" + hour + " * 60 + " + minute + ") * 60 + " + second + ") * CAST(1000000 AS BIGINT)"
		if len(groups["f"]) > 0 {
			micros += " + COALESCE(CAST(NULLIF(rpad(left(" + text("f") + ", 6), 6, '0'), '000000') AS BIGINT), 0)"
		}
		if len(groups["N"]) > 0 {
			// %f: whole nanoseconds, truncated to microseconds.
			micros += " + CAST(" + text("N") + " AS BIGINT) // 1000"
		}
		if len(groups["zs"]) > 0 {
			// the offset's local time less the offset is UTC's.
			off := "((" + num("zh") + " * 60 + " + num("zm") + ") * CAST(60000000 AS BIGINT))"
			micros += " - CASE WHEN " + text("zs") + " = '+' THEN " + off + " ELSE -" + off + " END"
			value = "timezone('UTC', CAST(" + day0 + " AS TIMESTAMP) + to_microseconds(" + micros + "))"
			return valid, year, value
		}
		value = "CAST(" + day0 + " AS TIMESTAMP) + to_microseconds(" + micros + ")"
	}
	return valid, year, value
}

// strpZoned reports whether a compiled format reads an offset (the
// result is a Datetime in UTC).
func strpZoned(groups map[string][]string) bool { return len(groups["zs"]) > 0 }

// The date formats polars infers, day-month-year first.
var (
	dmyFormats = []string{"%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y"}
	ymdFormats = []string{"%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d"}
)

// dateInfer is DATE(x) without a format: polars takes the formats of the
// first value that is a date, day-month-year (tried first) or
// year-month-day, and parses every value with them, strictly. Which value
// is first depends on the rows' order, which the local engine does not
// keep, so the formats are taken where that cannot matter: every value
// is a day-month-year date, or every value a year-month-day date and none
// a day-month-year one. Where no value is a date the query fails as in
// polars; a value of neither kind fails with polars' conversion error;
// values of both kinds fail the query as not supported locally (polars'
// answer depends on their order).
func dateInfer(x *rx) *rx {
	parse := func(fmts []string) (match, value, far string) {
		var ms, vs, fs []string
		for _, f := range fmts {
			re, groups, order, _ := strpFormat(f)
			valid, year, v := strpParse(x.sql, re, groups, order, true)
			ms = append(ms, "("+valid+")")
			vs = append(vs, "WHEN "+valid+" THEN "+v)
			fs = append(fs, "WHEN "+valid+" THEN "+year+" NOT BETWEEN 1 AND 9999")
		}
		return "(" + strings.Join(ms, " OR ") + ")", "CASE " + strings.Join(vs, " ") + " END", "CASE " + strings.Join(fs, " ") + " END"
	}
	mD, vD, farD := parse(dmyFormats)
	mY, vY, farY := parse(ymdFormats)
	n := "count(" + x.sql + ") OVER ()"
	cD := "count(*) FILTER (WHERE " + mD + ") OVER ()"
	cY := "count(*) FILTER (WHERE " + mY + ") OVER ()"
	name := "''" + strings.ReplaceAll(x.name, "'", "''") + "''"
	far := "error('[ComputeError] the year of ' || " + x.sql + " || ' (before 1 or after 9999) is not supported locally')"
	sql := "CASE WHEN " + x.sql + " IS NULL THEN NULL" +
		" WHEN " + cD + " = " + n + " THEN CASE WHEN " + farD + " THEN " + far + " ELSE " + vD + " END" +
		" WHEN " + cY + " = " + n + " AND " + cD + " = 0 THEN CASE WHEN " + farY + " THEN " + far + " ELSE " + vY + " END" +
		" WHEN " + cD + " = 0 AND " + cY + " = 0 THEN error('[ComputeError] could not find an appropriate format to parse dates, please define a format')" +
		" WHEN NOT " + mD + " AND NOT " + mY + " THEN error('[InvalidOperationError] conversion from `str` to `date` failed in column " + name + " for the value \"' || " + x.sql + " || '\"')" +
		" ELSE error('[ComputeError] DATE of values in more than one date format (day-month-year and year-month-day, which polars chooses between by their order) is not supported locally') END"
	return &rx{t: &Type{Kind: Date}, sql: sql, name: x.name}
}

var isoDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
