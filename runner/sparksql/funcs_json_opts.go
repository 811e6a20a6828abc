package sparksql

import (
	"maps"
	"slices"
	"strings"
)

// jsonOptions reads the options argument i of from_json or to_json: a
// map(...) of string literals (Spark requires a constant map; a column
// is refused here). Keys are matched as Spark's CaseInsensitiveMap does.
func (c *fcall) jsonOptions(i int) (map[string]string, error) {
	call, ok := c.node.Args[i].(*Call)
	if !ok || !strings.EqualFold(call.Name.Name, "map") || len(call.Args)%2 != 0 {
		return nil, unsupported(c.argPos(i), "write the options as map('key', 'value', ...)", "%s with options that are not a map of string literals", c.def.name)
	}
	out := map[string]string{}
	for _, a := range call.Args {
		if l, ok := a.(*Literal); !ok || l.Kind != LitString {
			return nil, unsupported(c.argPos(i), "write the options as map('key', 'value', ...)", "%s with options that are not a map of string literals", c.def.name)
		}
	}
	for k := 0; k < len(call.Args); k += 2 {
		out[strings.ToLower(call.Args[k].(*Literal).Value)] = call.Args[k+1].(*Literal).Value
	}
	return out, nil
}

// jsonWrite are to_json's options: datetime patterns (empty: Spark's
// defaults) and whether NULL struct fields are written.
type jsonWrite struct {
	tsFormat, dateFormat string // strftime formats
	keepNulls            bool
	pretty               bool // Jackson's DefaultPrettyPrinter
}

// toJSONWriteOptions reads to_json's options: timestampFormat,
// dateFormat, ignoreNullFields and pretty; any other option is refused (it
// may change the text: timeZone, timestampNTZFormat, ...).
func (c *fcall) toJSONWriteOptions(i int) (*jsonWrite, error) {
	opts, err := c.jsonOptions(i)
	if err != nil {
		return nil, err
	}
	w := &jsonWrite{}
	for _, k := range slices.Sorted(maps.Keys(opts)) { // the same first refusal on every run
		v := opts[k]
		switch k {
		case "timestampformat", "dateformat":
			sf, _, err := javaDateFormat(v)
			if err != nil {
				return nil, unsupported(c.argPos(i), "", "the datetime pattern '%s' (%v) in to_json's %s", v, err, k)
			}
			if k == "dateformat" {
				if timeDirective(sf) {
					return nil, unsupported(c.argPos(i), "", "a dateFormat with time fields ('%s') in to_json", v)
				}
				w.dateFormat = sf
			} else {
				w.tsFormat = sf
			}
		case "ignorenullfields":
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "true":
				w.keepNulls = false
			case "false":
				w.keepNulls = true
			default:
				return nil, unsupported(c.argPos(i), "", "ignoreNullFields '%s' in to_json", v)
			}
		case "pretty":
			b, err := c.jsonBool(i, k, v)
			if err != nil {
				return nil, err
			}
			w.pretty = b
		default:
			return nil, unsupported(c.argPos(i), "", "the option '%s' of to_json (only timestampFormat, dateFormat, ignoreNullFields and pretty are translated)", k)
		}
	}
	return w, nil
}

// timeDirective: the strftime format has a time-of-day directive.
func timeDirective(sf string) bool {
	for i := 0; i+1 < len(sf); i++ {
		if sf[i] == '%' {
			if strings.IndexByte("HIMSpfgzZ", sf[i+1]) >= 0 {
				return true
			}
			i++
		}
	}
	return false
}

// jsonRead are from_json's options: the mode and datetime patterns.
type jsonRead struct {
	failFast, dropMalformed bool
	tsPattern, datePattern  string // Spark patterns; empty: the defaults
	// Jackson's features: allowComments, allowUnquotedFieldNames,
	// allowSingleQuotes false.
	comments, unquoted, noSingleQuotes bool
	corrupt                            *string // columnNameOfCorruptRecord
}

// jsonBool reads a boolean option as Scala's toBoolean does (true or
// false, any case); another text fails in Spark with Java's
// IllegalArgumentException, refused here.
func (c *fcall) jsonBool(i int, k, v string) (bool, error) {
	switch {
	case strings.EqualFold(v, "true"):
		return true, nil
	case strings.EqualFold(v, "false"):
		return false, nil
	}
	return false, unsupported(c.argPos(i), "write 'true' or 'false'", "the value '%s' of the option %s of %s (Spark fails: For input string)", v, k, c.def.name)
}

// fromJSONReadOptions reads from_json's options: mode (PERMISSIVE,
// FAILFAST; DROPMALFORMED fails as in Spark; another word is PERMISSIVE,
// as Spark's ParseMode reads it), timestampFormat, dateFormat, the
// reader's features allowSingleQuotes, allowComments and
// allowUnquotedFieldNames, columnNameOfCorruptRecord, and pretty (which
// does not change reading); any other option is refused.
func (c *fcall) fromJSONReadOptions(i int) (*jsonRead, error) {
	opts, err := c.jsonOptions(i)
	if err != nil {
		return nil, err
	}
	o := &jsonRead{}
	// In key order: the first option refused is the same on every run.
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		v := opts[k]
		switch k {
		case "mode":
			switch strings.ToUpper(v) {
			case "FAILFAST":
				o.failFast = true
			case "DROPMALFORMED":
				o.dropMalformed = true
			}
		case "timestampformat":
			o.tsPattern = v
		case "dateformat":
			o.datePattern = v
		case "allowsinglequotes", "allowcomments", "allowunquotedfieldnames", "pretty":
			b, err := c.jsonBool(i, k, v)
			if err != nil {
				return nil, err
			}
			switch k {
			case "allowsinglequotes":
				o.noSingleQuotes = !b
			case "allowcomments":
				o.comments = b
			case "allowunquotedfieldnames":
				o.unquoted = b
			} // pretty: a writing option, ignored when reading
		case "columnnameofcorruptrecord":
			v := v
			o.corrupt = &v
		default:
			return nil, unsupported(c.argPos(i), "", "the option '%s' of from_json (only mode, timestampFormat, dateFormat, allowSingleQuotes, allowComments, allowUnquotedFieldNames, columnNameOfCorruptRecord and pretty are translated)", k)
		}
	}
	return o, nil
}

// patternParse is the wall-clock TIMESTAMP Spark's datetime pattern f
// reads from the text s, NULL where s does not match it.
func (r *resolver) patternParse(s, f string, pos int) (string, error) {
	pt, err := sparkPattern(f)
	if err != nil {
		return "", unsupported(pos, "", "the datetime pattern '%s' (%v)", f, err)
	}
	if pt.parseErr != "" {
		return "", unsupported(pos, "", "the datetime pattern '%s' (%s)", f, pt.parseErr)
	}
	var b strings.Builder
	b.WriteString("CASE")
	for _, a := range pt.alts {
		b.WriteString(" WHEN regexp_full_match(" + s + ", " + duckString(a.re) + ") THEN try_strptime(" + s + ", " + duckString(a.strptime) + ")")
	}
	b.WriteString(" END")
	parsed := b.String()
	if pt.twoDigitY {
		v := r.alias()
		parsed = "list_transform([" + parsed + "], " + v + " -> CASE WHEN year(" + v + ") < 2000 THEN " + v + " + INTERVAL 100 YEAR ELSE " + v + " END)[1]"
	}
	return parsed, nil
}
