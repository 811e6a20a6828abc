package polarssql

import (
	"fmt"
	"strings"
)

// Polars matches regular expressions with Rust's regex crate (str.contains
// for ~, ~*, !~, !~*, RLIKE, REGEXP and REGEXP_LIKE), DuckDB with RE2.
// Their syntax is close, their classes are not: Rust's \d, \s and \w are
// Unicode's, RE2's ASCII. rustRegex rewrites a Rust pattern into an RE2
// pattern that matches the same strings, and refuses what it cannot
// rewrite exactly.

// whiteSpace is Unicode's White_Space property (Rust's \s and
// char::is_whitespace) as the body of an RE2 class.
const whiteSpace = `\t\n\x0B\f\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}`

// wordChars is Rust's \w (Alphabetic, marks, decimal digits, connector
// punctuation, Join_Control) as the body of an RE2 class: the letters,
// letter numbers, marks and the enclosed letters of Other_Alphabetic.
const wordChars = `\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\x{200C}\x{200D}\x{24B6}-\x{24E9}\x{1F130}-\x{1F149}\x{1F150}-\x{1F169}\x{1F170}-\x{1F189}`

// whiteSpaceChars is the same set as characters, for DuckDB's trim.
const whiteSpaceChars = "\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"

// regexCategories are the Unicode general categories \p{..} may name
// (RE2 and Rust agree on them).
var regexCategories = setOf(`L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Co Cs
	Greek Latin Cyrillic Han Arabic Hebrew Hiragana Katakana Hangul Thai Devanagari Armenian Georgian`)

// rustRegex translates a Rust regex pattern into RE2; ascii reports
// that the translation equals Rust's only on ASCII text (\b and \B are
// Unicode-aware in Rust, ASCII in RE2), so the caller refuses other text
// at run time. The error names what is not translated.
func rustRegex(p string) (re2 string, ascii bool, err error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", false, fmt.Errorf("a pattern ending with a backslash")
			}
			e := p[i+1]
			i += 2
			switch e {
			case 'd':
				b.WriteString(`\p{Nd}`)
			case 'D':
				b.WriteString(`\P{Nd}`)
			case 's':
				if inClass {
					b.WriteString(whiteSpace)
				} else {
					b.WriteString("[" + whiteSpace + "]")
				}
			case 'S', 'W':
				if inClass {
					return "", false, fmt.Errorf(`\%c inside a class`, e)
				}
				if e == 'S' {
					b.WriteString("[^" + whiteSpace + "]")
				} else {
					b.WriteString("[^" + wordChars + "]")
				}
			case 'w':
				if inClass {
					b.WriteString(wordChars)
				} else {
					b.WriteString("[" + wordChars + "]")
				}
			case 'b', 'B', 'A', 'z':
				if inClass {
					return "", false, fmt.Errorf(`\%c inside a class`, e)
				}
				ascii = ascii || e == 'b' || e == 'B'
				b.WriteString(`\` + string(e))
			case 'p', 'P':
				name := ""
				switch {
				case i < len(p) && p[i] == '{':
					end := strings.IndexByte(p[i:], '}')
					if end < 0 {
						return "", false, fmt.Errorf(`an unclosed \%c{`, e)
					}
					name = p[i+1 : i+end]
					i += end + 1
				case i < len(p):
					name = p[i : i+1]
					i++
				}
				if !regexCategories[name] {
					return "", false, fmt.Errorf(`the class \%c{%s}`, e, name)
				}
				b.WriteString(`\` + string(e) + "{" + name + "}")
			case 'x':
				j := i
				if j < len(p) && p[j] == '{' {
					end := strings.IndexByte(p[j:], '}')
					if end < 0 {
						return "", false, fmt.Errorf(`an unclosed \x{`)
					}
					j += end + 1
				} else {
					j += 2
				}
				if j > len(p) {
					return "", false, fmt.Errorf(`a short \x escape`)
				}
				b.WriteString(`\x` + p[i:j])
				i = j
			case 'n', 't', 'r', 'f', 'v', 'a':
				b.WriteString(`\` + string(e))
			default:
				if !strings.ContainsRune(`\.+*?()|[]{}^$#&-~ /'"`, rune(e)) {
					return "", false, fmt.Errorf(`the escape \%c`, e)
				}
				b.WriteString(`\` + string(e))
			}
			continue
		case inClass && c == '[':
			if strings.HasPrefix(p[i:], "[:") {
				end := strings.Index(p[i:], ":]")
				if end < 0 {
					return "", false, fmt.Errorf("an unclosed [: class")
				}
				b.WriteString(p[i : i+end+2])
				i += end + 2
				continue
			}
			return "", false, fmt.Errorf("a nested class")
		case inClass && (strings.HasPrefix(p[i:], "&&") || strings.HasPrefix(p[i:], "--") || strings.HasPrefix(p[i:], "~~")):
			return "", false, fmt.Errorf("the class operation %s", p[i:i+2])
		case inClass && c == ']':
			inClass = false
		case c == '[':
			inClass = true
			b.WriteByte('[')
			i++
			if i < len(p) && p[i] == '^' {
				b.WriteByte('^')
				i++
			}
			if i < len(p) && p[i] == ']' {
				b.WriteString(`\]`)
				i++
			}
			continue
		case c == '(' && strings.HasPrefix(p[i:], "(?"):
			j := i + 2
			switch {
			case strings.HasPrefix(p[j:], "P<"):
				b.WriteString("(?P<")
				i = j + 2
				continue
			case strings.HasPrefix(p[j:], "<"):
				b.WriteString("(?P<")
				i = j + 1
				continue
			}
			k := j
			for k < len(p) && p[k] != ')' && p[k] != ':' {
				if !strings.ContainsRune("imsU-", rune(p[k])) {
					return "", false, fmt.Errorf("the group flag %q", p[k])
				}
				k++
			}
			if k >= len(p) {
				return "", false, fmt.Errorf("an unclosed group")
			}
			b.WriteString(p[i : k+1])
			i = k + 1
			continue
		}
		b.WriteByte(c)
		i++
	}
	if inClass {
		return "", false, fmt.Errorf("an unclosed class")
	}
	return b.String(), ascii, nil
}

// regexMatch is x matching the constant pattern pat (Rust's syntax) as
// polars' str.contains: NULL for a NULL x or pattern.
func regexMatch(pos int, x, pat *rx, prefix string, not bool, what string) (*rx, error) {
	if x.t.Kind != String {
		return nil, unsupported(pos, "", "%s on %s in Polars SQL", what, x.t)
	}
	if pat.t.Kind == Null {
		return derive(x, tBool, "CAST(NULL AS BOOLEAN)"), nil
	}
	if pat.col != nil {
		return nil, rejected(pos, "SQLSyntaxError", "invalid pattern for '%s' operator: col(%q)", what, pat.name)
	}
	lit, ok := stringLiteral(pat)
	if !ok {
		return nil, unsupported(pos, "", "%s with a computed pattern in Polars SQL", what)
	}
	re, ascii, err := rustRegex(prefix + lit)
	if err != nil {
		return nil, unsupported(pos, "write the pattern without it", "%s with %v in its pattern in Polars SQL", what, err)
	}
	sql := "regexp_matches(" + x.sql + ", " + quote(re) + ")"
	if ascii {
		// RE2's \b is ASCII, Rust's Unicode: the same on ASCII text.
		sql = "CASE WHEN regexp_matches(" + x.sql + ", '[^\\x00-\\x7F]') THEN error('[ComputeError] matching ' || " + x.sql + " || ' with \\b or \\B, which are Unicode-aware in polars, is not supported locally') ELSE " + sql + " END"
	}
	if not {
		sql = "(NOT " + sql + ")"
	}
	return derive(x, tBool, sql), nil
}

// stringLiteral is the value of a constant string expression (a literal).
func stringLiteral(x *rx) (string, bool) {
	if !x.constant || x.t.Kind != String || !strings.HasPrefix(x.sql, "'") || !strings.HasSuffix(x.sql, "'") || len(x.sql) < 2 {
		return "", false
	}
	return strings.ReplaceAll(x.sql[1:len(x.sql)-1], "''", "'"), true
}

// quote is s as a DuckDB string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
