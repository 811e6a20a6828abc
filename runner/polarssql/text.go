package polarssql

import (
	"strings"
	"unicode/utf8"

	"github.com/laktory/workbench/runner/sqlfront"
)

// textCall translates the string functions of this file (ok false for
// another function): TRIM in its forms, INITCAP, REVERSE, SPLIT_PART and
// REGEXP_LIKE, as polars 1.32.0's SQL computes them.
func textCall(n *sqlfront.Call, name string, args []*rx) (_ *rx, ok bool, _ error) {
	strArgs := func(k ...int) error {
		want := false
		for _, c := range k {
			want = want || len(args) == c
		}
		if !want {
			return unsupported(n.P, "", "%s with %d arguments in Polars SQL", strings.ToUpper(name), len(args))
		}
		for i, a := range args {
			switch {
			case a.t.Kind == Null && i == 0 && name == "initcap":
				return rejected(n.P, "SchemaError", "invalid series dtype: expected `String`, got `null` for series with name `literal`")
			case a.t.Kind != String:
				return unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), a.t)
			}
		}
		return nil
	}
	switch {
	case name == "trim" && n.Syntax == "":
		if len(args) > 1 {
			return nil, true, rejected(n.P, "SQLSyntaxError", "unsupported TRIM syntax (custom chars)")
		}
		fallthrough
	case name == "trim" || name == "ltrim" || name == "rtrim":
		if strings.HasPrefix(n.Syntax, "TRIM_") && len(args) == 1 {
			// sqlparser-rs (polars' parser) wants characters before FROM.
			return nil, true, rejected(n.Args[0].Pos(), "SQLInterfaceError", "sql parser error: Expected: ), found: %s", sqlfront.FormatExpr(n.Args[0]))
		}
		if err := strArgs(1, 2); err != nil {
			return nil, true, err
		}
		fn := map[string]string{"TRIM_LEADING": "ltrim", "TRIM_TRAILING": "rtrim", "ltrim": "ltrim", "rtrim": "rtrim"}[n.Syntax]
		if n.Syntax == "" {
			fn = map[string]string{"trim": "trim", "ltrim": "ltrim", "rtrim": "rtrim"}[name]
		}
		if fn == "" {
			fn = "trim"
		}
		// polars strips Unicode's whitespace (Rust's char::is_whitespace),
		// DuckDB's trim only spaces: name the characters.
		chars := quote(whiteSpaceChars)
		if len(args) == 2 {
			if _, lit := stringLiteral(args[1]); !lit {
				return nil, true, unsupported(n.P, "", "%s of computed characters in Polars SQL", strings.ToUpper(name))
			}
			chars = args[1].sql
		}
		return derive(args[0], tString, fn+"("+args[0].sql+", "+chars+")"), true, nil
	case name == "initcap":
		if err := strArgs(1); err != nil {
			return nil, true, err
		}
		return derive(args[0], tString, "polars_initcap("+args[0].sql+")"), true, nil
	case name == "reverse":
		if err := strArgs(1); err != nil {
			return nil, true, err
		}
		// Both reverse the grapheme clusters (a letter keeps its accents).
		return derive(args[0], tString, "reverse("+args[0].sql+")"), true, nil
	case name == "split_part":
		if len(args) != 3 || args[0].t.Kind != String || args[1].t.Kind != String {
			return nil, true, unsupported(n.P, "", "SPLIT_PART other than of a string, a delimiter and a part number in Polars SQL")
		}
		delim, ok := stringLiteral(args[1])
		lit, isLit := n.Args[2].(*sqlfront.Literal)
		if !ok || delim == "" || !isLit || lit.Kind != sqlfront.LitInt {
			return nil, true, unsupported(n.P, "", "SPLIT_PART with an empty or computed delimiter or part number in Polars SQL")
		}
		// Both count parts from 1, from the end when negative, and give ''
		// for part 0 or one past the last.
		return derive(args[0], tString, "split_part("+args[0].sql+", "+args[1].sql+", "+lit.Value+")"), true, nil
	case name == "regexp_like":
		if len(args) != 2 && len(args) != 3 {
			return nil, true, unsupported(n.P, "", "REGEXP_LIKE with %d arguments in Polars SQL", len(args))
		}
		prefix := ""
		if len(args) == 3 {
			flags, ok := stringLiteral(args[2])
			if !ok {
				return nil, true, unsupported(n.P, "", "REGEXP_LIKE with computed flags in Polars SQL")
			}
			for i, f := range flags {
				if !strings.ContainsRune("ims", f) {
					// polars prefixes the pattern with (?flags): the regex
					// crate refuses the flag when the query runs, its caret
					// under the flag.
					pat, _ := stringLiteral(args[1])
					caret := strings.Repeat(" ", 6+utf8.RuneCountInString(flags[:i])) + "^"
					return nil, true, rejected(n.P, "ComputeError", "regex error: regex parse error:\n    (?%s)%s\n%s\nerror: unrecognized flag", flags, pat, caret)
				}
			}
			if flags != "" {
				prefix = "(?" + flags + ")"
			}
		}
		x, err := regexMatch(n.P, args[0], args[1], prefix, false, "REGEXP_LIKE")
		return x, true, err
	}
	return nil, false, nil
}

// initcapMacro is polars' INITCAP (str.to_titlecase): the string lower
// cased, then each character that follows a character that is not
// alphanumeric (or starts the string) upper cased. Rust's alphanumeric
// characters are Unicode's letters and numbers and the marks and symbols
// with the Other_Alphabetic property, which RE2 cannot tell apart: a
// string holding a mark or an enclosed letter is refused at run time.
const initcapMacro = `CREATE OR REPLACE MACRO polars_initcap(s) AS CASE
	WHEN s IS NULL THEN NULL
	WHEN regexp_matches(s, '[\p{M}\x{24B6}-\x{24E9}\x{1F130}-\x{1F189}]') THEN error('[ComputeError] INITCAP of ' || s || ', which holds combining marks or enclosed letters, is not supported locally')
	ELSE array_to_string(list_transform(range(1, length(polars_lower(s)) + 1), i -> CASE
		WHEN i > 1 AND regexp_matches(substr(polars_lower(s), i - 1, 1), '^[\p{L}\p{N}]$') THEN substr(polars_lower(s), i, 1)
		ELSE polars_upper(substr(polars_lower(s), i, 1)) END), '')
	END`
