package sparksql

import (
	"fmt"
	"strconv"
	"strings"
)

// Spark's JSON functions read text with Jackson: a value that is not JSON
// is NULL. DuckDB's JSON reader is stricter where Jackson reads a prefix
// (a document cut short, trailing text), so text starting as an object or
// an array that DuckDB cannot read stops the run instead of guessing.
const msgJSONUnreadable = "[LOCALLY_UNSUPPORTED.JSON_TEXT] a JSON document the local engine cannot read (Spark's parser may read a prefix of it): "

// jsonDoc binds the JSON text s (SQL of a VARCHAR) to v in body, NULL when
// s is NULL or is not JSON.
func jsonDoc(s, body string) string {
	return fmt.Sprintf("list_transform([%[1]s], v -> CASE WHEN v IS NULL THEN NULL WHEN NOT json_valid(v) THEN CASE WHEN regexp_matches(v, '^\\s*[\\[{]') THEN error(%[3]s || left(v, 60)) END ELSE %[2]s END)[1]",
		s, body, duckString(msgJSONUnreadable))
}

// sparkJSONPath compiles a get_json_object path ($.a.b, $['a'], $[0])
// into DuckDB's JSON path; ok is false for a path Spark reads as no path
// (the result is NULL), wildcard for [*] (not translated).
func sparkJSONPath(p string) (duck string, ok, wildcard bool) {
	if !strings.HasPrefix(p, "$") {
		return "", false, false
	}
	var b strings.Builder
	b.WriteString("$")
	key := func(k string) bool {
		if k == "" || strings.ContainsAny(k, "\"\\") {
			return false
		}
		b.WriteString(".\"" + k + "\"")
		return true
	}
	for i := 1; i < len(p); {
		switch p[i] {
		case '.':
			j := i + 1
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			if p[i+1:j] == "*" {
				return "", false, true
			}
			if !key(p[i+1 : j]) {
				return "", false, false
			}
			i = j
		case '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return "", false, false
			}
			in := p[i+1 : i+end]
			switch {
			case in == "*":
				return "", false, true
			case len(in) >= 2 && in[0] == '\'' && in[len(in)-1] == '\'':
				if !key(in[1 : len(in)-1]) {
					return "", false, false
				}
			default:
				n, err := strconv.Atoi(in)
				if err != nil || n < 0 || strings.HasPrefix(in, "+") {
					return "", false, false
				}
				fmt.Fprintf(&b, "[%d]", n)
			}
			i += end + 1
		default:
			return "", false, false
		}
	}
	return b.String(), true, false
}

// jsonValueText is Spark's text of a JSON value v (DuckDB JSON): strings
// unquoted, numbers and booleans as Jackson writes them, null as NULL,
// objects and arrays minified. DuckDB reads every non-integral number as a
// double (and integers beyond 64 bits too): where Java's printing differs
// from DuckDB's (exponents, 8 or more integer digits, below 0.001) the run
// stops instead.
func jsonValueText(v string) string {
	return "CASE json_type(" + v + ") WHEN 'NULL' THEN NULL WHEN 'VARCHAR' THEN json_extract_string(" + v + ", '$') " +
		"WHEN 'DOUBLE' THEN CASE WHEN abs(CAST(" + v + " AS DOUBLE)) >= 9.2e18 THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_NUMBER] a JSON number beyond 64-bit integers: Spark keeps its digits, the local engine reads a double") + ") ELSE spark_fp_to_string(CAST(" + v + " AS DOUBLE)) END " +
		"WHEN 'OBJECT' THEN spark_json_subtree(CAST(" + v + " AS VARCHAR)) WHEN 'ARRAY' THEN spark_json_subtree(CAST(" + v + " AS VARCHAR)) " +
		"ELSE CAST(" + v + " AS VARCHAR) END"
}

var jsonMacros = []macro{
	{"spark_json_subtree", "t", "CASE WHEN regexp_matches(t, '[0-9]{8,}\\.[0-9]|(^|[^0-9.])0\\.000|[0-9][eE][-+]?[0-9]') THEN error(" +
		sqlq("[LOCALLY_UNSUPPORTED.JSON_NUMBER] a JSON object or array with a number Spark prints in Java's notation (1.0E20, 1.0E-4): get the number itself, or cast it") + ") ELSE t END"},
}

func jsonFuncs() []*fnDef {
	return []*fnDef{
		toJSON,
		fn("get_json_object", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			p, null, err := c.litStr(1, "path")
			if err != nil {
				return nil, unsupported(c.argPos(1), "write the path as a literal", "get_json_object with a computed path")
			}
			if null {
				return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
			}
			path, ok, wild := sparkJSONPath(p)
			if wild {
				return nil, unsupported(c.argPos(1), "name the elements ($.a[0], $.a[1])", "the wildcard [*] in a JSON path (Spark unwraps a single match and wraps several in an array)")
			}
			if !ok {
				return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
			}
			return c.out(tString, jsonDoc(s.sql, "list_transform([json_extract(v, "+duckString(path)+")], e -> "+jsonValueText("e")+")[1]")), nil
		}),
		fn("json_array_length", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			return c.out(tInt, jsonDoc(s.sql, "CASE WHEN json_type(v) = 'ARRAY' THEN CAST(json_array_length(v) AS INTEGER) END")), nil
		}),
		fn("json_object_keys", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			return c.out(arrayOf(tString), jsonDoc(s.sql, "CASE WHEN json_type(v) = 'OBJECT' THEN json_keys(v) END")), nil
		}),
	}
}

// jsonQuote is s as a JSON string, escaped as Jackson escapes it.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// toJSONSQL is the DuckDB SQL of Spark's to_json text of the value x of
// type t (NULL fields of structs are left out, NULL elements and map
// values are null), with the default options: dates yyyy-MM-dd,
// timestamps yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session zone.
func (r *resolver) toJSONSQL(x string, t *Type, pos int) (string, error) {
	switch t.Kind {
	case KString:
		return "CAST(to_json(" + x + ") AS VARCHAR)", nil
	case KBool, KByte, KShort, KInt, KLong:
		return "CAST(" + x + " AS VARCHAR)", nil
	case KDecimal:
		if t.S <= 6 {
			return "CAST(" + x + " AS VARCHAR)", nil
		}
		// BigDecimal.toString writes an exponent below 1e-6 (0E-10).
		return "CASE WHEN abs(" + x + ") < 0.000001 THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_DECIMAL] to_json of a decimal below 1E-6: Java writes it with an exponent") + ") ELSE CAST(" + x + " AS VARCHAR) END", nil
	case KFloat, KDouble:
		s, err := r.toStringSQL(x, t, castImplicit)
		if err != nil {
			return "", err
		}
		return "CASE WHEN isnan(" + x + ") OR isinf(" + x + ") THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_NAN] to_json of NaN or an infinity") + ") ELSE " + s + " END", nil
	case KDate:
		return "'\"' || CAST(" + x + " AS VARCHAR) || '\"'", nil
	case KTimestamp:
		wall := r.wallClock(x)
		off := "'Z'"
		if r.tz != "UTC" {
			d := "CAST((epoch_us(" + wall + ") - epoch_us(" + x + ")) // 60000000 AS BIGINT)"
			off = "CASE WHEN " + d + " = 0 THEN 'Z' ELSE CASE WHEN " + d + " < 0 THEN '-' ELSE '+' END || lpad(CAST(abs(" + d + ") // 60 AS VARCHAR), 2, '0') || ':' || lpad(CAST(abs(" + d + ") % 60 AS VARCHAR), 2, '0') END"
		}
		return "'\"' || strftime(" + wall + ", '%Y-%m-%dT%H:%M:%S.%g') || " + off + " || '\"'", nil
	case KArray:
		v := r.alias()
		e, err := r.toJSONSQL(v, t.Elem, pos)
		if err != nil {
			return "", err
		}
		return nullIf(x, "'[' || array_to_string(list_transform("+x+", "+v+" -> coalesce("+e+", 'null')), ',') || ']'"), nil
	case KMap:
		if t.Key.Kind != KString {
			return "", unsupported(pos, "", "to_json of a map with %s keys", t.Key)
		}
		v := r.alias()
		val, err := r.toJSONSQL(v+".value", t.Val, pos)
		if err != nil {
			return "", err
		}
		return nullIf(x, "'{' || array_to_string(list_transform(map_entries("+x+"), "+v+" -> CAST(to_json("+v+".key) AS VARCHAR) || ':' || coalesce("+val+", 'null')), ',') || '}'"), nil
	case KStruct:
		var parts []string
		for _, f := range t.Fields {
			fx := "struct_extract(" + x + ", " + duckString(f.Name) + ")"
			s, err := r.toJSONSQL(fx, f.Type, pos)
			if err != nil {
				return "", err
			}
			parts = append(parts, duckString(jsonQuote(f.Name)+":")+" || "+s)
		}
		if len(parts) == 0 {
			return nullIf(x, "'{}'"), nil
		}
		return nullIf(x, "'{' || concat_ws(',', "+strings.Join(parts, ", ")+") || '}'"), nil
	}
	return "", unsupported(pos, "", "to_json of a %s", t)
}

// nullIf: s, NULL where x is NULL (a NULL struct is left out, not {}).
func nullIf(x, s string) string { return "CASE WHEN " + x + " IS NULL THEN NULL ELSE " + s + " END" }

var toJSON = fn("to_json", Rewritten, 1, 2, func(c *fcall) (*rx, error) {
	if len(c.args) == 2 {
		return nil, unsupported(c.argPos(1), "format the values with date_format and the like first", "to_json with options")
	}
	x := c.args[0]
	switch x.t.Kind {
	case KStruct, KArray, KMap:
	default:
		return nil, unsupported(c.argPos(0), "", "to_json of a %s", x.t)
	}
	s, err := c.r.toJSONSQL(x.sql, x.t, c.argPos(0))
	if err != nil {
		return nil, err
	}
	return c.out(tString, s), nil
})
