package sparksql

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
)

// Java's regular expressions (Spark's) and RE2 (DuckDB's) agree on most
// syntax. javaToRE2 rewrites the constructs whose meaning differs (., \s,
// \uXXXX, POSIX \p{...} classes, named groups) and rejects the ones RE2
// lacks (backreferences, lookaround, possessive quantifiers, class
// intersections) so that a pattern either means the same or is refused.

// lineTerminators are Java's line terminators (what . does not match).
const lineTerminators = `\n\r\x{85}\x{2028}\x{2029}`

var posixClasses = map[string]string{
	"Lower": `a-z`, "Upper": `A-Z`, "ASCII": `\x00-\x7F`, "Alpha": `a-zA-Z`, "Digit": `0-9`, "Alnum": `a-zA-Z0-9`,
	"Punct": `!-/:-@\[-` + "`" + `{-~`, "Graph": `!-~`, "Print": ` -~`, "Blank": ` \t`, "Cntrl": `\x00-\x1F\x7F`,
	"XDigit": `0-9a-fA-F`, "Space": ` \t\n\x0B\f\r`,
}

// javaRegex is a translated pattern.
type javaRegex struct {
	re2    string
	dollar bool // uses $ (Java: end of input, or before a final line terminator)
}

func javaToRE2(p string) (*javaRegex, error) {
	var b strings.Builder
	out := &javaRegex{}
	rs := []rune(p)
	inClass := 0
	dotAll := strings.Contains(p, "(?s")
	multiline := strings.Contains(p, "(?m")
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\':
			if i+1 >= len(rs) {
				return nil, fmt.Errorf("the pattern ends with a lone backslash")
			}
			i++
			e := rs[i]
			switch e {
			case 's':
				if inClass > 0 {
					b.WriteString(` \t\n\x0B\f\r`)
				} else {
					b.WriteString(`[ \t\n\x0B\f\r]`)
				}
			case 'S':
				if inClass > 0 {
					return nil, fmt.Errorf(`\S inside [...]`)
				}
				b.WriteString(`[^ \t\n\x0B\f\r]`)
			case 'p', 'P':
				j := i + 1
				if j < len(rs) && rs[j] == '{' {
					k := j
					for k < len(rs) && rs[k] != '}' {
						k++
					}
					if k >= len(rs) {
						return nil, fmt.Errorf(`unclosed \p{`)
					}
					name := string(rs[j+1 : k])
					i = k
					if cls, ok := posixClasses[name]; ok {
						neg := ""
						if e == 'P' {
							neg = "^"
						}
						if inClass > 0 {
							if neg != "" {
								return nil, fmt.Errorf(`\P{%s} inside [...]`, name)
							}
							b.WriteString(cls)
						} else {
							b.WriteString("[" + neg + cls + "]")
						}
						continue
					}
					if len(name) <= 2 {
						b.WriteString(`\` + string(e) + "{" + name + "}")
						continue
					}
					return nil, fmt.Errorf(`the class \%c{%s}`, e, name)
				}
				b.WriteString(`\` + string(e))
			case 'u':
				if i+4 < len(rs) && isHex(string(rs[i+1:i+5])) {
					b.WriteString(`\x{` + string(rs[i+1:i+5]) + "}")
					i += 4
					continue
				}
				return nil, fmt.Errorf(`a malformed \u escape`)
			case '0':
				j := i + 1
				for j < len(rs) && j < i+4 && rs[j] >= '0' && rs[j] <= '7' {
					j++
				}
				v, err := strconv.ParseUint(string(rs[i+1:j]), 8, 32)
				if err != nil {
					return nil, fmt.Errorf(`a malformed octal escape`)
				}
				b.WriteString(fmt.Sprintf(`\x{%x}`, v))
				i = j - 1
			case 'e':
				b.WriteString(`\x1B`)
			case 'Q':
				end := strings.Index(string(rs[i+1:]), `\E`)
				lit := string(rs[i+1:])
				if end >= 0 {
					lit = string(rs[i+1 : i+1+len([]rune(lit[:end]))])
					i += len([]rune(lit)) + 2
				} else {
					i = len(rs)
				}
				b.WriteString(regexQuote(lit))
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				return nil, fmt.Errorf("a backreference \\%c", e)
			case 'k':
				return nil, fmt.Errorf(`a named backreference \k`)
			case 'h', 'H', 'v', 'V', 'R', 'X', 'G', 'Z', 'c', 'N':
				return nil, fmt.Errorf(`the escape \%c`, e)
			default:
				b.WriteString(`\` + string(e))
			}
		case inClass > 0 && c == '[':
			if i+1 < len(rs) && rs[i+1] == ':' {
				return nil, fmt.Errorf("a POSIX class [:...:]")
			}
			return nil, fmt.Errorf("a nested character class")
		case inClass > 0 && c == '&' && i+1 < len(rs) && rs[i+1] == '&':
			return nil, fmt.Errorf("a class intersection &&")
		case c == '[':
			inClass++
			b.WriteRune(c)
			if i+1 < len(rs) && rs[i+1] == '^' {
				b.WriteRune('^')
				i++
			}
			if i+1 < len(rs) && rs[i+1] == ']' {
				b.WriteString(`\]`)
				i++
			}
		case c == ']' && inClass > 0:
			inClass--
			b.WriteRune(c)
		case inClass > 0:
			b.WriteRune(c)
		case c == '.':
			if dotAll {
				b.WriteRune('.')
			} else {
				b.WriteString("[^" + lineTerminators + "]")
			}
		case c == '$':
			if multiline {
				return nil, fmt.Errorf("$ with the multiline flag (?m)")
			}
			out.dollar = true
			b.WriteRune('$')
		case c == '(' && i+2 < len(rs) && rs[i+1] == '?':
			switch n := rs[i+2]; {
			case n == '=' || n == '!' || n == '>':
				return nil, fmt.Errorf("a lookahead or atomic group (?%c", n)
			case n == '<' && i+3 < len(rs) && (rs[i+3] == '=' || rs[i+3] == '!'):
				return nil, fmt.Errorf("a lookbehind (?<%c", rs[i+3])
			case n == '<':
				b.WriteString("(?P<")
				i += 2
			case n == 'x' || n == 'u' || n == 'd' || n == 'U':
				return nil, fmt.Errorf("the flag (?%c", n)
			default:
				b.WriteRune(c)
			}
		case (c == '+' || c == '*' || c == '?' || c == '}') && i+1 < len(rs) && rs[i+1] == '+':
			return nil, fmt.Errorf("a possessive quantifier %c+", c)
		case c == '{':
			j := i + 1
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == ',') {
				j++
			}
			if j == i+1 || j >= len(rs) || rs[j] != '}' {
				return nil, fmt.Errorf("a { that is not a repetition {n,m} (Java rejects it)")
			}
			b.WriteString(string(rs[i : j+1]))
			i = j
		default:
			b.WriteRune(c)
		}
	}
	out.re2 = b.String()
	if _, err := syntax.Parse(out.re2, syntax.Perl); err != nil {
		return nil, fmt.Errorf("%v", err)
	}
	return out, nil
}

func regexQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// regexLit translates the literal pattern p (an *Error otherwise).
func (r *resolver) regexLit(p *rx, pos int) (*javaRegex, error) {
	if p.lit == nil || p.lit.Kind != LitString {
		return nil, unsupported(pos, "write the pattern as a string literal", "a regular expression that is not a literal")
	}
	re, err := javaToRE2(p.lit.Value)
	if err != nil {
		return nil, unsupported(pos, "", "the regular expression '%s' (%v)", p.lit.Value, err)
	}
	return re, nil
}

// regex is the DuckDB pattern for extract, replace and split.
func (r *resolver) regex(p *rx, pos int) (string, error) {
	re, err := r.regexLit(p, pos)
	if err != nil {
		return "", err
	}
	return duckString(re.re2), nil
}

// regexFind is the DuckDB pattern for a match test (RLIKE): Java's $ also
// matches before a final line terminator.
func (r *resolver) regexFind(p *rx, pos int) (string, error) {
	re, err := r.regexLit(p, pos)
	if err != nil {
		return "", err
	}
	if !re.dollar {
		return duckString(re.re2), nil
	}
	fixed, err := javaToRE2(strings.ReplaceAll(p.lit.Value, "$", `\E`))
	if err != nil || fixed == nil {
		// Rewrite each unescaped $ as "optional final terminator, then end".
	}
	return duckString(dollarAsJava(re.re2)), nil
}

// dollarAsJava replaces the $ anchors (outside classes, unescaped) of an
// RE2 pattern with Java's: optionally a final line terminator, then the end.
func dollarAsJava(re string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			b.WriteByte(c)
			b.WriteByte(re[i+1])
			i++
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == ']':
			inClass = false
			b.WriteByte(c)
		case c == '$' && !inClass:
			b.WriteString(`(?:\r\n|[` + lineTerminators + `])?\z`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// regexGuard wraps an extract, replace or split whose pattern uses $:
// Java's $ also matches before a final line terminator, which RE2's does
// not, so such subjects fail loudly instead of giving another result.
func (r *resolver) regexGuard(p *rx, subject string, pos int) (func(string) string, error) {
	re, err := r.regexLit(p, pos)
	if err != nil {
		return nil, err
	}
	if !re.dollar {
		return func(s string) string { return s }, nil
	}
	return func(s string) string {
		return "CASE WHEN regexp_matches(" + subject + ", '[" + lineTerminators + "]\\z') THEN error(" +
			sqlq("the regular expression "+p.lit.Value+" uses $ on a value ending with a line break: Spark's $ matches before it, the local engine's does not") + ") ELSE " + s + " END"
	}, nil
}

// javaReplacement converts a Java replacement string ($1, \$) to RE2's
// (\1, \\).
func javaReplacement(rep string, groups, pos int) (string, error) {
	var b strings.Builder
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		switch {
		case c == '\\':
			if i+1 >= len(rep) {
				return "", sparkErr(pos, "INVALID_PARAMETER_VALUE.PATTERN", "character to be escaped is missing in the replacement '%s'", rep)
			}
			i++
			if rep[i] == '\\' {
				b.WriteString(`\\`)
			} else {
				b.WriteByte(rep[i])
			}
		case c == '$':
			j := i + 1
			for j < len(rep) && rep[j] >= '0' && rep[j] <= '9' {
				j++
			}
			if j == i+1 {
				if j < len(rep) && rep[j] == '{' {
					return "", unsupported(pos, "refer to groups by number ($1)", "a named group reference in a replacement")
				}
				return "", sparkErr(pos, "INVALID_PARAMETER_VALUE.PATTERN", "Illegal group reference in the replacement '%s'", rep)
			}
			// Java takes as many digits as form an existing group.
			n, _ := strconv.Atoi(rep[i+1 : i+2])
			k := i + 2
			for k < j {
				m, _ := strconv.Atoi(rep[i+1 : k+1])
				if groups >= 0 && m > groups {
					break
				}
				n, k = m, k+1
			}
			if groups >= 0 && n > groups {
				return "", sparkErr(pos, "INVALID_PARAMETER_VALUE.PATTERN", "No group %d in the replacement '%s'", n, rep)
			}
			if n > 9 {
				return "", unsupported(pos, "", "a reference to group %d in a replacement", n)
			}
			b.WriteString(`\` + strconv.Itoa(n))
			i = k - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// emptyAfterMatch reports whether the RE2 pattern can match both the
// empty string and a non-empty one: then Java's find loop (replaceAll,
// Spark's regexp_extract_all) also takes an empty match right after a
// non-empty one, which RE2's global matching skips ('a b' with ' *':
// Java '_a__b_', RE2 '_a_b_'). Assertions count as empty.
func emptyAfterMatch(re2 string) bool {
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return true
	}
	nullable, nonEmpty := regexWidths(re)
	return nullable && nonEmpty
}

// regexWidths: whether re can match the empty string, and a non-empty one.
func regexWidths(re *syntax.Regexp) (nullable, nonEmpty bool) {
	switch re.Op {
	case syntax.OpNoMatch:
		return false, false
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true, false
	case syntax.OpLiteral:
		return len(re.Rune) == 0, len(re.Rune) > 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false, true
	case syntax.OpCapture:
		return regexWidths(re.Sub[0])
	case syntax.OpStar, syntax.OpQuest:
		_, ne := regexWidths(re.Sub[0])
		return true, ne
	case syntax.OpPlus:
		return regexWidths(re.Sub[0])
	case syntax.OpRepeat:
		n, ne := regexWidths(re.Sub[0])
		return re.Min == 0 || n, ne && re.Max != 0
	case syntax.OpConcat:
		nullable = true
		for _, s := range re.Sub {
			n, ne := regexWidths(s)
			nullable = nullable && n
			nonEmpty = nonEmpty || ne
		}
		return nullable, nonEmpty
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			n, ne := regexWidths(s)
			nullable = nullable || n
			nonEmpty = nonEmpty || ne
		}
		return nullable, nonEmpty
	}
	return true, true
}
