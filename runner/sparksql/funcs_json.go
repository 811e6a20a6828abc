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
