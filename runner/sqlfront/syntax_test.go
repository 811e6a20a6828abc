package sqlfront

import (
	"errors"
	"testing"
)

var standard = &Syntax{
	Name:                    "standard SQL",
	SyntaxErrorClass:        "SQLSyntaxError",
	DoubleQuotedIdentifiers: true,
	TypeNames:               map[string]string{"int": "int", "varchar": "string"},
	UnknownType: func(pos int, name string) *Error {
		return Rejected(pos, "SQLInterfaceError", "unsupported SQL type %s", name)
	},
}

var regex = &Syntax{Name: "Polars-like SQL", SyntaxErrorClass: "SQLSyntaxError", DoubleQuotedIdentifiers: true, RegexOperators: true}

var sqlglot = &Syntax{Name: "sqlglot", SyntaxErrorClass: "ParseError", DoubleQuotedIdentifiers: true, Sqlglot: true}

var spark = &Syntax{Name: "Spark SQL", SyntaxErrorClass: "PARSE_SYNTAX_ERROR", BackslashEscapes: true, NumberSuffixes: true,
	TypeNames: map[string]string{"int": "int"}}

// The Syntax switches: "..." as a name or a string, escapes, suffixes.
func TestSyntaxVariants(t *testing.T) {
	for _, tc := range []struct {
		syn  *Syntax
		sql  string
		want string // FormatExpr of the tree, or "error CLASS"
	}{
		{standard, `"a b" + 1`, "(`a b` + 1)"},
		{spark, `"a b"`, "'a b'"},
		{standard, `'it''s'`, `'it\'s'`},
		{spark, `'it\'s'`, `'it\'s'`},
		{standard, `'a\n'`, `'a\\n'`},
		{spark, `1L`, "1L"},
		{standard, `1L`, "error SQLSyntaxError"},
		{standard, `"a""b"`, "`a\"b`"},
		{standard, `CAST(x AS int)`, "CAST(x AS INT)"},
		{standard, `CAST(x AS money)`, "error SQLInterfaceError"},
		{standard, `"unclosed`, "error SQLSyntaxError"},
		{regex, `s ~ 'a+' AND t !~* 'B' OR NOT u ~* 'c' AND v !~ 'd'`, "(((s ~ 'a+') AND (t !~* 'B')) OR ((NOT (u ~* 'c')) AND (v !~ 'd')))"},
		{regex, `s~'a'||'b'`, "(s ~ ('a' || 'b'))"},
		{regex, `~1 + 2`, "((~ 1) + 2)"},
		{standard, `s ~ 'a'`, "error SQLSyntaxError"},
		{standard, `s !~ 'a'`, "error SQLSyntaxError"},
		{spark, `~1`, "(~ 1)"},
		// sqlglot's grammar: IS of any operand, IS/IN/BETWEEN/LIKE over
		// < > over = (FormatExpr drops Paren nodes).
		{sqlglot, `x IS 5`, "(x IS 5)"},
		{sqlglot, `x IS NOT y + 1`, "(x IS NOT (y + 1))"},
		{sqlglot, `x IS UNKNOWN`, "(x IS NULL)"},
		{sqlglot, `a = b IS NULL`, "(a = (b IS NULL))"},
		{sqlglot, `a = b > 1`, "(a = (b > 1))"},
		{sqlglot, `a < b = c`, "((a < b) = c)"},
		{sqlglot, `a = b IN (1)`, "(a = (b IN (1)))"},
		{sqlglot, `a + 1 IS NULL AND NOT b`, "(((a + 1) IS NULL) AND (NOT b))"},
		{standard, `x IS 5`, "error SQLSyntaxError"},
		{standard, `a = b IS NULL`, "((a = b) IS NULL)"},
		{standard, `a = b > 1`, "((a = b) > 1)"},
	} {
		e, err := tc.syn.ParseExpr(tc.sql)
		got := ""
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || !errors.Is(err, ErrRejected) {
				t.Errorf("%s: %v is not a rejection", tc.sql, err)
				continue
			}
			got = "error " + fe.Class
		} else {
			got = FormatExpr(e)
		}
		if got != tc.want {
			t.Errorf("%s (%s): got %s, want %s", tc.sql, tc.syn.Name, got, tc.want)
		}
	}
}
