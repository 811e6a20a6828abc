package sparksql

import "github.com/laktory/workbench/runner/sqlfront"

// ErrUnsupported marks a construct Spark accepts that the local
// translation does not handle; ErrSpark marks SQL that Spark itself
// rejects (a syntax or analysis error). Both come wrapped in *Error.
var (
	ErrUnsupported = sqlfront.ErrUnsupported
	ErrSpark       = sqlfront.ErrRejected
)

// Error is a problem at a byte offset of a SQL text (sqlfront.Error): its
// Class is Spark's error class when Spark raises the same error
// (UNRESOLVED_COLUMN.WITH_SUGGESTION, PARSE_SYNTAX_ERROR, ...), "" for
// constructs Spark accepts but the local translation does not.
type Error = sqlfront.Error

// LineCol converts a byte offset of text to a 1-based line and column
// (in bytes, as the rest of the product counts columns).
func LineCol(text string, pos int) (line, col int) { return sqlfront.LineCol(text, pos) }

// errAt is a Spark syntax error at pos.
func errAt(pos int, msg string) *Error {
	return &Error{Pos: pos, Msg: msg, Class: "PARSE_SYNTAX_ERROR", Kind: ErrSpark}
}

// sparkErr is an analysis error Spark raises with class.
func sparkErr(pos int, class, format string, args ...any) *Error {
	return sqlfront.Rejected(pos, class, format, args...)
}

// unsupported is a construct the translation does not handle.
func unsupported(pos int, hint, format string, args ...any) *Error {
	return sqlfront.Unsupported(pos, hint, format, args...)
}
