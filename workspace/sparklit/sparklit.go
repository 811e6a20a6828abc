// Package sparklit reads Spark SQL's string literals: '...' and "..." (a
// double-quoted text is a string in Spark, not an identifier), with
// Spark's backslash escapes. The Spark SQL front end (runner/sparksql)
// lexes with it, and validation reads `where` predicates of PYSPARK
// writers with it (DuckDB), so both read a literal the same way.
package sparklit

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Unquote reads the string literal starting at the quote sql[i] (' or ")
// and returns the offset after it and its value; ok is false when it is
// not closed. Spark unescapes backslash sequences (unless raw): \n \t \b
// \r \Z \0, octal \ooo, \uXXXX, \% and \_ kept with their backslash; any
// other \c is c. A doubled quote stands for one.
func Unquote(sql string, i int, raw bool) (end int, value string, ok bool) {
	q := sql[i]
	var b strings.Builder
	j := i + 1
	for {
		if j >= len(sql) {
			return 0, "", false
		}
		c := sql[j]
		switch {
		case c == q:
			if j+1 < len(sql) && sql[j+1] == q {
				b.WriteByte(q)
				j += 2
				continue
			}
			return j + 1, b.String(), true
		case c == '\\' && j+1 < len(sql):
			if raw {
				b.WriteByte(c)
				b.WriteByte(sql[j+1])
				j += 2
				continue
			}
			n := sql[j+1]
			switch {
			case n == 'u' && j+6 <= len(sql) && isHex(sql[j+2:j+6]):
				v, _ := strconv.ParseUint(sql[j+2:j+6], 16, 32)
				b.WriteRune(rune(v))
				j += 6
				continue
			case n >= '0' && n <= '3' && j+4 <= len(sql) && isOctal(sql[j+2]) && isOctal(sql[j+3]):
				v, _ := strconv.ParseUint(sql[j+1:j+4], 8, 32)
				b.WriteRune(rune(v))
				j += 4
				continue
			}
			switch n {
			case '0':
				b.WriteByte(0)
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'Z':
				b.WriteByte(0x1A)
			case '%', '_':
				b.WriteByte('\\')
				b.WriteByte(n)
			default:
				_, size := utf8.DecodeRuneInString(sql[j+1:])
				b.WriteString(sql[j+1 : j+1+size])
				j += 1 + size
				continue
			}
			j += 2
		default:
			b.WriteByte(c)
			j++
		}
	}
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// ToDuckDB rewrites the string literals of a Spark SQL text as DuckDB
// reads them ('...' with a quote doubled) and leaves the rest as written
// (backquoted identifiers, comments). A text without a double quote or a
// backslash is returned as it is; otherwise offsets after a rewritten
// literal may shift by the escapes it held. An unclosed literal is left
// for DuckDB to report.
func ToDuckDB(sql string) string {
	if !strings.ContainsAny(sql, "\"\\") {
		return sql
	}
	var b strings.Builder
	for i := 0; i < len(sql); {
		n := 1 // bytes copied as written
		switch c := sql[i]; {
		case c == '`':
			n = through(sql, i, 1, "`")
		case strings.HasPrefix(sql[i:], "--"):
			n = through(sql, i, 2, "\n")
		case strings.HasPrefix(sql[i:], "/*"):
			n = through(sql, i, 2, "*/")
		case c == '\'' || c == '"':
			end, v, ok := Unquote(sql, i, false)
			if !ok {
				return b.String() + sql[i:]
			}
			b.WriteString("'" + strings.ReplaceAll(v, "'", "''") + "'")
			i = end
			continue
		}
		b.WriteString(sql[i : i+n])
		i += n
	}
	return b.String()
}

// through is the length of sql[i:] to the end of the first end in
// sql[i+from:] (the rest of the text when there is none).
func through(sql string, i, from int, end string) int {
	k := strings.Index(sql[i+from:], end)
	if k < 0 {
		return len(sql) - i
	}
	return from + k + len(end)
}
