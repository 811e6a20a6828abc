package sparksql

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsupported marks a construct Spark accepts that the local
// translation does not handle; ErrSpark marks SQL that Spark itself
// rejects (a syntax or analysis error). Both come wrapped in *Error.
var (
	ErrUnsupported = errors.New("not supported locally")
	ErrSpark       = errors.New("rejected by Spark")
)

// Error is a problem at a byte offset of a SQL text.
type Error struct {
	Pos  int    // byte offset in the text given to the translator
	Msg  string // what is wrong, naming the construct
	Hint string // how to fix it ("" when there is nothing to add)
	// Class is Spark's error class when Spark raises the same error
	// (UNRESOLVED_COLUMN.WITH_SUGGESTION, PARSE_SYNTAX_ERROR, ...), "" for
	// constructs Spark accepts but the local translation does not.
	Class string
	kind  error // ErrUnsupported or ErrSpark
}

func (e *Error) Error() string {
	msg := e.Msg
	if e.Class != "" && !strings.HasPrefix(msg, "[") {
		msg = "[" + e.Class + "] " + msg
	}
	return msg
}

// Unwrap lets errors.Is match ErrUnsupported or ErrSpark.
func (e *Error) Unwrap() error { return e.kind }

// LineCol converts a byte offset of text to a 1-based line and column
// (in bytes, as the rest of the product counts columns).
func LineCol(text string, pos int) (line, col int) {
	pos = min(max(pos, 0), len(text))
	line = 1 + strings.Count(text[:pos], "\n")
	col = pos - strings.LastIndexByte(text[:pos], '\n')
	return line, col
}

// errAt is a Spark syntax error at pos.
func errAt(pos int, msg string) *Error {
	return &Error{Pos: pos, Msg: msg, Class: "PARSE_SYNTAX_ERROR", kind: ErrSpark}
}

// sparkErr is an analysis error Spark raises with class.
func sparkErr(pos int, class, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Class: class, kind: ErrSpark}
}

// unsupported is a construct the translation does not handle.
func unsupported(pos int, hint, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...) + " is not supported locally", Hint: hint, kind: ErrUnsupported}
}
