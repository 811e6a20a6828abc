package sparksql

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/sparksql/jackson"
)

// Spark's JSON functions read text with Jackson: the first JSON value of
// the text (what follows it is not read), NULL when that value is
// malformed. DuckDB reads whole texts: for one it cannot read that starts
// as an object or an array, the shortest prefix ending at a } or ] that
// is JSON is that first value. Jackson also takes raw control characters
// in strings, which DuckDB does not: such text stops the run instead.
const msgJSONUnreadable = "[LOCALLY_UNSUPPORTED.JSON_TEXT] a JSON document with raw control characters the local engine cannot read (Spark's parser reads them in strings): "

var jsonDocMacros = []macro{
	{"spark_json_text", "v", "CASE WHEN v IS NULL OR json_valid(v) THEN v WHEN NOT regexp_matches(v, '^\\s*[\\[{]') THEN NULL " +
		"WHEN regexp_matches(v, '[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]') OR regexp_matches(v, '\"[^\"]*[\\t\\n\\r][^\"]*\"') THEN error(" + sqlq(msgJSONUnreadable) + " || left(v, 60)) " +
		"ELSE list_filter(list_transform(range(1, length(v) + 1), m_i -> CASE WHEN substr(v, m_i, 1) IN ('}', ']') AND json_valid(left(v, m_i)) THEN left(v, m_i) END), m_x -> m_x IS NOT NULL)[1] END"},
}

// jsonDoc binds the JSON text s (SQL of a VARCHAR) to v in body, as
// Jackson reads it (NULL when s is NULL or not JSON).
func jsonDoc(s, body string) string {
	return fmt.Sprintf("list_transform([spark_json_text(%[1]s)], v -> CASE WHEN v IS NULL THEN NULL ELSE %[2]s END)[1]", s, body)
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

var jsonMacros = append(jsonDocMacros, []macro{
	{"spark_json_subtree", "t", "CASE WHEN regexp_matches(t, '[0-9]{8,}\\.[0-9]|(^|[^0-9.])0\\.000|[0-9][eE][-+]?[0-9]') THEN error(" +
		sqlq("[LOCALLY_UNSUPPORTED.JSON_NUMBER] a JSON object or array with a number Spark prints in Java's notation (1.0E20, 1.0E-4): get the number itself, or cast it") + ") ELSE t END"},
	// Java's BigDecimal.toString of the unscaled u at scale s: an
	// exponent when the adjusted exponent is below -6.
	{"spark_bigdecimal_string", "u, s", "list_transform([CAST(abs(u) AS VARCHAR)], m_d -> CASE WHEN length(m_d) - 1 - s >= -6 THEN NULL ELSE " +
		"CASE WHEN u < 0 THEN '-' ELSE '' END || left(m_d, 1) || CASE WHEN length(m_d) > 1 THEN '.' || substr(m_d, 2) ELSE '' END || 'E' || CAST(length(m_d) - 1 - s AS VARCHAR) END)[1]"},
}...)

func jsonFuncs() []*fnDef {
	return []*fnDef{
		toJSON, fromJSON, schemaOfJSON,
		// get_json_object reads the text with Jackson and evaluates the
		// path as Spark's GetJsonObjectEvaluator does (package jackson,
		// run by the local engine's spark_get_json_object): wildcards,
		// Hive's single-match unwrapping, numbers as Java prints them.
		fn("get_json_object", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			p, err := c.str(1)
			if err != nil {
				return nil, err
			}
			if l := c.args[1].lit; l != nil && l.Kind == LitString {
				if _, ok, err := jackson.ParsePath(l.Value); err != nil {
					return nil, unsupported(c.argPos(1), "", "the JSON path %q (%v)", l.Value, err)
				} else if !ok {
					return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
				}
			}
			return c.out(tString, "spark_get_json_object("+s.sql+", "+p.sql+")"), nil
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
		// BigDecimal.toString writes an exponent below 1e-6 (1.0E-7, 0E-8).
		return "coalesce(spark_bigdecimal_string(" + unscaled(x, t.S, t.S) + ", " + fmt.Sprint(t.S) + "), CAST(" + x + " AS VARCHAR))", nil
	case KFloat, KDouble:
		s, err := r.toStringSQL(x, t, castImplicit)
		if err != nil {
			return "", err
		}
		return "CASE WHEN isnan(" + x + ") OR isinf(" + x + ") THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_NAN] to_json of NaN or an infinity") + ") ELSE " + s + " END", nil
	case KDate:
		if w := r.jsonW; w != nil && w.dateFormat != "" {
			return "to_json(strftime(CAST(" + x + " AS TIMESTAMP), " + duckString(w.dateFormat) + "))::VARCHAR", nil
		}
		return "'\"' || CAST(" + x + " AS VARCHAR) || '\"'", nil
	case KTimestamp:
		wall := r.wallClock(x)
		if w := r.jsonW; w != nil && w.tsFormat != "" {
			return "to_json(strftime(" + wall + ", " + duckString(w.tsFormat) + "))::VARCHAR", nil
		}
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
			if r.jsonW != nil && r.jsonW.keepNulls {
				s = "coalesce(" + s + ", 'null')"
			}
			parts = append(parts, duckString(jackson.Quote(f.Name)+":")+" || "+s)
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
	pretty := false
	if len(c.args) == 2 {
		w, err := c.toJSONWriteOptions(1)
		if err != nil {
			return nil, err
		}
		c.r.jsonW = w
		pretty = w.pretty
		defer func() { c.r.jsonW = nil }()
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
	if pretty {
		// The compact text re-written as Jackson's DefaultPrettyPrinter
		// writes it (the local engine's spark_json_pretty).
		s = "spark_json_pretty(" + s + ")"
	}
	return c.out(tString, s), nil
})

// jsonSchema parses from_json's schema: a DDL list of fields
// ('a INT, b STRING') or a type (STRUCT<...>, ARRAY<...>, MAP<...>).
func jsonSchema(s string, pos int) (*Type, error) {
	up := strings.ToUpper(strings.TrimSpace(s))
	text := s
	if !strings.HasPrefix(up, "STRUCT") && !strings.HasPrefix(up, "ARRAY") && !strings.HasPrefix(up, "MAP") {
		text = "STRUCT<" + s + ">"
	}
	t, err := ParseType(text)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && errors.Is(err, ErrUnsupported) {
			e.Pos = pos
			return nil, e
		}
		return nil, sparkErr(pos, "PARSE_SYNTAX_ERROR", "Syntax error in the schema '%s' (%v).", s, err)
	}
	return t, nil
}

// jsonConv is the SQL converting the DuckDB JSON value v (NULL when
// missing) to t as Spark's JacksonParser does in PERMISSIVE mode with
// partial results: hard is "v is there but of another kind" (its
// converter fails: the enclosing struct field is NULL, an enclosing
// array fails too), soft "a struct below failed partially" (its fields
// are NULL, the rest kept). Numbers are not read from strings (but
// decimals, dates, timestamps and NaN/Infinity doubles are), strings take
// any value's JSON text. Partial failures inside arrays and maps, which
// Spark keeps in ways not reproduced here, stop the run.
func (r *resolver) jsonConv(v string, t *Type, pos int) (val, hard, soft string, err error) {
	jt := "json_type(" + v + ")"
	isNull := "(" + v + " IS NULL OR " + jt + " = 'NULL')"
	there := "NOT " + isNull
	switch t.Kind {
	case KString:
		return "CASE WHEN " + isNull + " THEN NULL ELSE " + jsonValueText(v) + " END", "false", "false", nil
	case KByte, KShort, KInt, KLong:
		return "TRY_CAST(CAST(" + v + " AS VARCHAR) AS " + t.DuckDB() + ")",
			"(" + there + " AND (" + jt + " NOT IN ('BIGINT', 'UBIGINT') OR TRY_CAST(CAST(" + v + " AS VARCHAR) AS " + t.DuckDB() + ") IS NULL))", "false", nil
	case KFloat, KDouble:
		special := "CASE json_extract_string(" + v + ", '$') WHEN 'NaN' THEN 'NaN' WHEN '+NaN' THEN 'NaN' WHEN '-NaN' THEN 'NaN' WHEN 'Infinity' THEN 'Infinity' WHEN '+Infinity' THEN 'Infinity' WHEN 'INF' THEN 'Infinity' WHEN '+INF' THEN 'Infinity' WHEN 'Inf' THEN 'Infinity' WHEN '+Inf' THEN 'Infinity' WHEN '-Infinity' THEN '-Infinity' WHEN '-INF' THEN '-Infinity' WHEN '-Inf' THEN '-Infinity' END"
		return "CASE WHEN " + jt + " = 'VARCHAR' THEN CAST(" + special + " AS " + t.DuckDB() + ") ELSE CAST(" + v + " AS " + t.DuckDB() + ") END",
			"(" + there + " AND " + jt + " NOT IN ('BIGINT', 'UBIGINT', 'DOUBLE') AND NOT (" + jt + " = 'VARCHAR' AND " + special + " IS NOT NULL))", "false", nil
	case KBool:
		return "CAST(" + v + " AS BOOLEAN)", "(" + there + " AND " + jt + " <> 'BOOLEAN')", "false", nil
	case KDecimal:
		// From the number's text (DuckDB's shortest double text for
		// non-integers) or a string, half up, NULL beyond the precision.
		num := "TRY_CAST(CASE WHEN " + jt + " = 'VARCHAR' THEN json_extract_string(" + v + ", '$') ELSE CAST(" + v + " AS VARCHAR) END AS " + t.DuckDB() + ")"
		guard := "CASE WHEN " + jt + " = 'DOUBLE' AND length(regexp_replace(CAST(" + v + " AS VARCHAR), '[^0-9]', '', 'g')) > 15 THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_NUMBER] a JSON number of more than 15 digits read as a decimal: the local engine reads it as a double") + ") ELSE " + num + " END"
		return guard, "(" + there + " AND (" + jt + " NOT IN ('BIGINT', 'UBIGINT', 'DOUBLE', 'VARCHAR') OR " + num + " IS NULL))", "false", nil
	case KDate:
		c, err := r.castSQL("json_extract_string("+v+", '$')", tString, t, castTry, "")
		if err != nil {
			return "", "", "", err
		}
		if o := r.jsonR; o != nil && o.datePattern != "" {
			p, err := r.patternParse("json_extract_string("+v+", '$')", o.datePattern, pos)
			if err != nil {
				return "", "", "", err
			}
			c = "CAST(" + p + " AS DATE)"
		}
		return c, "(" + there + " AND (" + jt + " <> 'VARCHAR' OR " + c + " IS NULL))", "false", nil
	case KTimestamp:
		// Strings parsed, integers as seconds since the epoch.
		c, err := r.castSQL("json_extract_string("+v+", '$')", tString, t, castTry, "")
		if err != nil {
			return "", "", "", err
		}
		if o := r.jsonR; o != nil && o.tsPattern != "" {
			p, err := r.patternParse("json_extract_string("+v+", '$')", o.tsPattern, pos)
			if err != nil {
				return "", "", "", err
			}
			c = r.instant(p)
		}
		secs, err := r.castSQL("TRY_CAST(CAST("+v+" AS VARCHAR) AS BIGINT)", tLong, t, castTry, "")
		if err != nil {
			return "", "", "", err
		}
		return "CASE WHEN " + jt + " = 'VARCHAR' THEN " + c + " ELSE " + secs + " END",
			"(" + there + " AND NOT (" + jt + " = 'VARCHAR' AND " + c + " IS NOT NULL) AND NOT (" + jt + " IN ('BIGINT', 'UBIGINT') AND " + secs + " IS NOT NULL))", "false", nil
	case KArray:
		e := r.alias()
		ev, eh, es, err := r.jsonConv(e, t.Elem, pos)
		if err != nil {
			return "", "", "", err
		}
		elems := "json_extract(" + v + ", '$[*]')"
		val := "CASE WHEN " + isNull + " THEN NULL ELSE list_transform(" + elems + ", " + e + " -> " + ev + ") END"
		if es != "false" {
			val = "CASE WHEN " + isNull + " THEN NULL WHEN list_bool_or(list_transform(" + elems + ", " + e + " -> " + es + ")) THEN error(" + duckString(msgJSONPartial) + ") ELSE list_transform(" + elems + ", " + e + " -> " + ev + ") END"
		}
		return val, "(" + there + " AND (" + jt + " <> 'ARRAY' OR coalesce(list_bool_or(list_transform(" + elems + ", " + e + " -> " + eh + ")), false)))", "false", nil
	case KMap:
		if t.Key.Kind != KString {
			return "", "", "", unsupported(pos, "", "from_json into a map with %s keys", t.Key)
		}
		k := r.alias()
		vv, vh, vs, err := r.jsonConv("json_extract("+v+", '$.\"' || "+k+" || '\"')", t.Val, pos)
		if err != nil {
			return "", "", "", err
		}
		keys := "json_keys(" + v + ")"
		return "CASE WHEN " + isNull + " THEN NULL WHEN " + jt + " <> 'OBJECT' THEN NULL WHEN list_bool_or(list_transform(" + keys + ", " + k + " -> " + k + " LIKE '%\"%' OR " + k + " LIKE '%\\%' OR " + vh + " OR " + vs + ")) THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_MAP] from_json into a map of a value of another type, or of a key with a quote or a backslash") + ") ELSE map_from_entries(list_transform(" + keys + ", " + k + " -> struct_pack(key := " + k + ", value := " + vv + "))) END",
			"(" + there + " AND " + jt + " <> 'OBJECT')", "false", nil
	case KStruct:
		val, soft, err := r.jsonStruct(v, t, pos)
		if err != nil {
			return "", "", "", err
		}
		return "CASE WHEN " + isNull + " THEN NULL ELSE " + val + " END", "(" + there + " AND " + jt + " <> 'OBJECT')", "(" + there + " AND " + jt + " = 'OBJECT' AND (" + soft + "))", nil
	}
	return "", "", "", unsupported(pos, "", "from_json into a %s", t)
}

// jsonStruct converts the JSON object v to the struct t with partial
// results: a field whose converter fails is NULL.
func (r *resolver) jsonStruct(v string, t *Type, pos int) (val, soft string, err error) {
	var vals, softs []string
	for _, f := range t.Fields {
		if strings.ContainsAny(f.Name, "\"\\") {
			return "", "", unsupported(pos, "", "from_json of a field named %q", f.Name)
		}
		fj := "json_extract(" + v + ", " + duckString("$.\""+f.Name+"\"") + ")"
		fv, fh, fs, err := r.jsonConv(fj, f.Type, pos)
		if err != nil {
			return "", "", err
		}
		vals = append(vals, duckIdent(f.Name)+" := CASE WHEN "+fh+" THEN NULL ELSE "+fv+" END")
		softs = append(softs, fh, fs)
	}
	return "struct_pack(" + strings.Join(vals, ", ") + ")", strings.Join(softs, " OR "), nil
}

const msgJSONPartial = "[LOCALLY_UNSUPPORTED.JSON_PARTIAL] from_json of an array of structs with a field of another type: Spark keeps a partial result the local engine does not reproduce"

// fromJSONSQL: Spark's from_json. The text is read by Jackson with the
// options' features (spark_json_read: its first value as strict JSON,
// '!' where Jackson fails). PERMISSIVE with a struct schema: a top-level
// field of another type is NULL (Spark's partial result), a malformed
// record or a JSON array a struct of NULLs (a scalar is refused at run
// time); the schema's corrupt-record field (columnNameOfCorruptRecord,
// _corrupt_record by default) is not read from the JSON but holds the
// text of a record that is malformed, not an object or read partially.
// An array or map schema: NULL when an element is of another type or the
// record is malformed. NULL and blank text are NULL. Failures deeper down
// stop the run instead of guessing. FAILFAST raises where PERMISSIVE
// would give NULLs.
func (r *resolver) fromJSONSQL(s string, t *Type, pos int) (string, error) {
	failFast := r.jsonR != nil && r.jsonR.failFast
	raw, txt, d := r.alias(), r.alias(), r.alias()
	var body, notJSON string
	switch t.Kind {
	case KStruct:
		corrupt := "_corrupt_record"
		if r.jsonR != nil && r.jsonR.corrupt != nil {
			corrupt = *r.jsonR.corrupt
		}
		read := &Type{Kind: KStruct}
		ci := -1
		for i, f := range t.Fields {
			if f.Name == corrupt {
				if f.Type.Kind != KString {
					return "", sparkErr(pos, "INVALID_CORRUPT_RECORD_TYPE", "The column `%s` for corrupt records must have the nullable STRING type, but got \"%s\".", corrupt, strings.ToUpper(f.Type.String()))
				}
				ci = i
				continue
			}
			read.Fields = append(read.Fields, f)
		}
		val, soft, err := r.jsonStruct(d, read, pos)
		if err != nil {
			return "", err
		}
		if soft == "" {
			soft = "false"
		}
		var nulls []string
		for _, f := range read.Fields {
			nulls = append(nulls, duckIdent(f.Name)+" := CAST(NULL AS "+f.Type.DuckDB()+")")
		}
		nullStruct := "struct_pack(" + strings.Join(nulls, ", ") + ")"
		if len(read.Fields) == 0 {
			nullStruct = "NULL"
		}
		notJSON = nullStruct
		body = "CASE WHEN json_type(" + d + ") IN ('NULL', 'ARRAY') THEN " + nullStruct + " WHEN json_type(" + d + ") <> 'OBJECT' THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_TOP] from_json with a struct schema of a JSON scalar") + ") ELSE " + val + " END"
		if failFast {
			body = "CASE WHEN json_type(" + d + ") <> 'OBJECT' THEN error(" + duckString("[LOCALLY_UNSUPPORTED.JSON_TOP] from_json in FAILFAST mode of a JSON value that is not an object") + ") WHEN " + soft + " THEN error(" + duckString(msgMalformed) + ") ELSE " + val + " END"
			notJSON = "error(" + duckString(msgMalformed) + ")"
		}
		if ci >= 0 {
			// The struct read (v), then the schema's fields in order with
			// the corrupt record where the record is bad.
			v := r.alias()
			var outs []string
			for i, f := range t.Fields {
				if i == ci {
					outs = append(outs, duckIdent(f.Name)+" := %[1]s")
					continue
				}
				outs = append(outs, duckIdent(f.Name)+" := "+v+"."+duckIdent(f.Name))
			}
			if len(read.Fields) == 0 {
				v = "NULL"
			}
			wrap := func(x, bad string) string {
				return "list_transform([" + x + "], " + v + " -> struct_pack(" + fmt.Sprintf(strings.Join(outs, ", "), "CASE WHEN "+bad+" THEN "+raw+" END") + "))[1]"
			}
			if len(read.Fields) == 0 {
				wrap = func(x, bad string) string {
					return "struct_pack(" + fmt.Sprintf(strings.Join(outs, ", "), "CASE WHEN "+bad+" THEN "+raw+" END") + ")"
				}
			}
			body = wrap(body, "(json_type("+d+") <> 'OBJECT' OR "+soft+")")
			if !failFast {
				notJSON = wrap(notJSON, "true")
			}
		}
	default:
		top, hard, _, err := r.jsonConv(d, t, pos)
		if err != nil {
			return "", err
		}
		body = "CASE WHEN " + hard + " THEN NULL ELSE " + top + " END"
		notJSON = "NULL"
		if failFast {
			body = "CASE WHEN " + hard + " THEN error(" + duckString(msgMalformed) + ") ELSE " + top + " END"
			notJSON = "error(" + duckString(msgMalformed) + ")"
		}
	}
	feat := "q"
	if o := r.jsonR; o != nil {
		feat = ""
		if o.comments {
			feat += "c"
		}
		if o.unquoted {
			feat += "u"
		}
		if !o.noSingleQuotes {
			feat += "q"
		}
	}
	return fmt.Sprintf("list_transform([%[1]s], %[2]s -> list_transform([spark_json_read(%[2]s, %[7]s)], %[3]s -> CASE WHEN %[3]s IS NULL THEN NULL WHEN %[3]s = '!' THEN %[4]s ELSE list_transform([CAST(%[3]s AS JSON)], %[5]s -> %[6]s)[1] END)[1])[1]",
		s, raw, txt, notJSON, d, body, duckString(feat)), nil
}

const msgMalformed = "[MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION] Malformed records are detected in record parsing."

var fromJSON = fn("from_json", Rewritten, 2, 3, func(c *fcall) (*rx, error) {
	var opts *jsonRead
	if len(c.args) == 3 {
		o, err := c.fromJSONReadOptions(2)
		if err != nil {
			return nil, err
		}
		opts = o
	}
	s, err := c.str(0)
	if err != nil {
		return nil, err
	}
	text, null, err := c.litStr(1, "schema")
	if err != nil || null {
		return nil, unsupported(c.argPos(1), "write the schema as a literal", "from_json with a computed schema")
	}
	t, err := jsonSchema(text, c.argPos(1))
	if err != nil {
		return nil, err
	}
	switch t.Kind {
	case KStruct, KArray, KMap:
	default:
		return nil, sparkErr(c.argPos(1), "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA", "Input schema %q must be a struct, an array, a map or a variant.", strings.ToUpper(t.String()))
	}
	if opts != nil && opts.dropMalformed {
		return c.out(t, "CAST(CASE WHEN "+s.sql+" IS NULL THEN NULL ELSE error("+duckString("[PARSE_MODE_UNSUPPORTED] The function `from_json` doesn't support the DROPMALFORMED mode. Acceptable modes are PERMISSIVE and FAILFAST.")+") END AS "+t.DuckDB()+")"), nil
	}
	c.r.jsonR = opts
	defer func() { c.r.jsonR = nil }()
	sql, err := c.r.fromJSONSQL(s.sql, t, c.argPos(0))
	if err != nil {
		return nil, err
	}
	return c.out(t, sql), nil
})

// inferJSON is Spark's JsonInferSchema of one JSON value (nil: null).
func inferJSON(dec *json.Decoder) (*Type, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			st := &Type{Kind: KStruct}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				ft, err := inferJSON(dec)
				if err != nil {
					return nil, err
				}
				st.Fields = append(st.Fields, Field{Name: k.(string), Type: ft})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			if len(st.Fields) == 0 {
				return nil, fmt.Errorf("an empty object")
			}
			sort.SliceStable(st.Fields, func(i, j int) bool { return st.Fields[i].Name < st.Fields[j].Name })
			return st, nil
		case '[':
			var elem *Type
			for dec.More() {
				et, err := inferJSON(dec)
				if err != nil {
					return nil, err
				}
				if elem, err = compatibleJSON(elem, et); err != nil {
					return nil, err
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arrayOf(elem), nil
		}
	case string:
		return tString, nil
	case bool:
		return tBool, nil
	case nil:
		return nil, nil
	case json.Number:
		s := string(v)
		if !strings.ContainsAny(s, ".eE") {
			if _, err := strconv.ParseInt(s, 10, 64); err == nil {
				return tLong, nil
			}
			digits := len(strings.TrimLeft(s, "-"))
			if digits > 38 {
				return tDouble, nil
			}
			return decimalType(digits, 0), nil
		}
		return tDouble, nil
	}
	return nil, fmt.Errorf("unexpected %v", tok)
}

// compatibleJSON is JsonInferSchema.compatibleType (nil is NullType).
func compatibleJSON(a, b *Type) (*Type, error) {
	switch {
	case a == nil:
		return b, nil
	case b == nil:
		return a, nil
	case a.Equal(b):
		return a, nil
	case a.Kind == KStruct && b.Kind == KStruct:
		byName := map[string]*Type{}
		var names []string
		for _, f := range append(append([]Field{}, a.Fields...), b.Fields...) {
			t, seen := byName[f.Name]
			if !seen {
				names = append(names, f.Name)
			}
			m, err := compatibleJSON(t, f.Type)
			if err != nil {
				return nil, err
			}
			byName[f.Name] = m
		}
		sort.Strings(names)
		st := &Type{Kind: KStruct}
		for _, n := range names {
			st.Fields = append(st.Fields, Field{Name: n, Type: byName[n]})
		}
		return st, nil
	case a.Kind == KArray && b.Kind == KArray:
		e, err := compatibleJSON(a.Elem, b.Elem)
		if err != nil {
			return nil, err
		}
		return arrayOf(e), nil
	case a.isNumeric() && b.isNumeric():
		if a.Kind == KDecimal || b.Kind == KDecimal {
			return nil, fmt.Errorf("integers beyond 64 bits beside other numbers")
		}
		return tDouble, nil
	}
	return tString, nil
}

// jsonTypeSQL is a type as Spark's DataType.sql writes it.
func jsonTypeSQL(t *Type) string {
	if t == nil {
		return "STRING"
	}
	switch t.Kind {
	case KArray:
		return "ARRAY<" + jsonTypeSQL(t.Elem) + ">"
	case KStruct:
		var fs []string
		for _, f := range t.Fields {
			name := f.Name
			if !identRe.MatchString(name) {
				name = "`" + strings.ReplaceAll(name, "`", "``") + "`"
			}
			fs = append(fs, name+": "+jsonTypeSQL(f.Type))
		}
		return "STRUCT<" + strings.Join(fs, ", ") + ">"
	}
	return strings.ToUpper(t.String())
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var schemaOfJSON = fn("schema_of_json", Rewritten, 1, 2, func(c *fcall) (*rx, error) {
	if len(c.args) == 2 {
		return nil, unsupported(c.argPos(1), "", "schema_of_json with options")
	}
	if !c.args[0].foldable {
		// Spark's type check: the schema is computed at analysis.
		return nil, sparkErr(c.argPos(0), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "Cannot resolve \"%s\" due to data type mismatch: the input `json` should be a foldable \"STRING\" expression; however, got \"%s\".", c.name, c.args[0].name)
	}
	s, null, err := c.litStr(0, "json")
	if err != nil || null {
		return nil, unsupported(c.argPos(0), "", "schema_of_json of anything but a JSON literal")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	t, err := inferJSON(dec)
	if err == nil && dec.More() {
		err = fmt.Errorf("text after the value")
	}
	if err != nil {
		return nil, unsupported(c.argPos(0), "", "schema_of_json of this text (%v)", err)
	}
	ddl := jsonTypeSQL(t)
	return litRx(tString, duckString(ddl), c.name, &Literal{Kind: LitString, Value: ddl, P: c.node.P}), nil
})
