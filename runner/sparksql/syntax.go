package sparksql

import (
	"strings"

	"github.com/laktory/workbench/runner/sqlfront"
)

// sparkSyntax is Spark SQL's variant of the one parser: "..." is a string,
// strings take backslash escapes, numbers take type suffixes.
var sparkSyntax = &sqlfront.Syntax{
	Name:             "Spark SQL",
	SyntaxErrorClass: "PARSE_SYNTAX_ERROR",
	BackslashEscapes: true,
	NumberSuffixes:   true,
	ColonPaths:       true,
	Pivot:            true,
	// {df}.x: Laktory puts a view's name in place of {df}, and Spark
	// takes the name of an unaliased table as a qualifier.
	PlaceholderQualifiers: true,
	TypeNames: map[string]string{
		"boolean": "boolean", "bool": "boolean", "tinyint": "tinyint", "byte": "tinyint", "smallint": "smallint",
		"short": "smallint", "int": "int", "integer": "int", "bigint": "bigint", "long": "bigint", "float": "float",
		"real": "float", "double": "double", "decimal": "decimal", "dec": "decimal", "numeric": "decimal",
		"string": "string", "varchar": "varchar", "char": "char", "character": "char", "binary": "binary",
		"date": "date", "timestamp": "timestamp", "timestamp_ltz": "timestamp", "timestamp_ntz": "timestamp_ntz",
		"array": "array", "map": "map", "struct": "struct", "void": "void", "interval": "interval", "variant": "variant",
	},
	UnknownType: func(pos int, name string) *sqlfront.Error {
		return sparkErr(pos, "UNSUPPORTED_DATATYPE", "Unsupported data type \"%s\"", strings.ToUpper(name))
	},
}

// Statements is the number of statements of sql separated by semicolons
// as Spark's lexer reads it (quotes, backslash escapes, comments); 1 when
// it does not lex, so that parsing reports the problem.
func Statements(sql string) int { return sparkSyntax.Statements(sql) }

// ParseQuery parses one Spark SQL query (a trailing semicolon is allowed).
func ParseQuery(sql string) (_ *Query, err error) {
	defer recoverTranslation(sql, nil, &err)
	return sparkSyntax.ParseQuery(sql)
}

// ParseExpr parses one Spark SQL expression (filter, with_columns,
// expectations, where predicates).
func ParseExpr(sql string) (_ Expr, err error) {
	defer recoverTranslation(sql, nil, &err)
	return sparkSyntax.ParseExpr(sql)
}

// FormatQuery prints a query as Spark SQL that parses back to the same
// tree (binary operators fully bracketed).
func FormatQuery(q *Query) string { return sqlfront.FormatQuery(q) }

// FormatExpr prints an expression as Spark SQL that parses back to the
// same tree.
func FormatExpr(e Expr) string { return sqlfront.FormatExpr(e) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isDigit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
