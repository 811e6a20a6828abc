package sparksql

import (
	"fmt"
	"sort"
	"strings"
)

// Spark 4.2 maps case with ICU (full mappings: ß upper is SS, İ lower is
// i̇, ǆ initcap is ǅ, a final Σ lowers to ς); DuckDB's upper and lower map
// one character to one. The macros below use DuckDB's mapping except for
// the characters of casemap_gen.go, whose Spark mapping differs, and for
// the final sigma.

// caseMacros are spark_upper, spark_lower and spark_initcap.
var caseMacros = []macro{
	// ASCII text (as many bytes as characters) has no character of
	// casemap_gen.go: DuckDB's upper, without the regular expression.
	{"spark_upper", "s", "CASE WHEN strlen(s) = length(s) THEN upper(s) WHEN regexp_matches(s, " + caseClass(caseUpper) + ") THEN array_to_string(list_transform(string_split(s, ''), m_upper_c -> coalesce(map_extract_value(" + caseMap(caseUpper) + ", m_upper_c), upper(m_upper_c))), '') ELSE upper(s) END"},
	{"spark_lower_chars", "s", "CASE WHEN regexp_matches(s, " + caseClass(caseLower) + ") THEN array_to_string(list_transform(string_split(s, ''), m_lower_c -> coalesce(map_extract_value(" + caseMap(caseLower) + ", m_lower_c), lower(m_lower_c))), '') ELSE lower(s) END"},
	// A capital sigma preceded by a cased letter (case-ignorable
	// characters between) and not followed by one is final: ς.
	{"spark_final_sigma", "s", "CASE WHEN contains(s, 'Σ') THEN regexp_replace(s, " + duckString(finalSigma) + ", '\\1ς\\2', 'g') ELSE s END"},
	{"spark_lower", "s", "spark_lower_chars(spark_final_sigma(s))"},
	// initcap: each word (split at spaces) is its first character's
	// title case followed by the rest in lower case.
	{"spark_initcap", "s", "CASE WHEN regexp_matches(s, '[^\\x00-\\x7F]') THEN array_to_string(list_transform(string_split(spark_final_sigma(s), ' '), m_initcap_w -> CASE WHEN m_initcap_w = '' THEN '' ELSE coalesce(map_extract_value(" + caseMap(caseTitle) + ", m_initcap_w[1]), upper(m_initcap_w[1])) || spark_lower_chars(m_initcap_w[2:]) END), ' ') ELSE array_to_string(list_transform(string_split(lower(s), ' '), m_initcap_w -> upper(left(m_initcap_w, 1)) || substr(m_initcap_w, 2)), ' ') END"},
}

// caseIgnorableChars are Unicode's case-ignorable characters (marks,
// format characters, modifier letters and symbols, and the word-internal
// punctuation ' . : · ’) as the inside of an RE2 class.
const caseIgnorableChars = `\p{Mn}\p{Me}\p{Cf}\p{Lm}\p{Sk}'.:\x{B7}\x{2019}`

const caseIgnorable = "[" + caseIgnorableChars + "]"

// finalSigma matches a final capital sigma: \1 before it, \2 after it.
const finalSigma = `([\p{Lu}\p{Ll}\p{Lt}]` + caseIgnorable + `*)Σ(` + caseIgnorable + `*(?:[^\p{Lu}\p{Ll}\p{Lt}` + caseIgnorableChars + `]|$))`

// caseClass is a DuckDB string literal of an RE2 class of m's keys.
func caseClass(m map[string]string) string {
	var b strings.Builder
	b.WriteString("[")
	for _, k := range sortedKeys(m) {
		for _, r := range k {
			fmt.Fprintf(&b, `\x{%X}`, r)
		}
	}
	b.WriteString("]")
	return duckString(b.String())
}

// caseMap is a DuckDB MAP literal of m.
func caseMap(m map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, duckString(k)+": "+duckString(m[k]))
	}
	return "MAP {" + strings.Join(parts, ", ") + "}"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
