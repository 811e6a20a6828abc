package sqlfront

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsupported marks a construct the dialect's engine accepts that the
// local translation does not handle; ErrRejected marks text the dialect's
// engine itself rejects (a syntax or analysis error). Both come wrapped in
// *Error. Dialects re-export them under their own names (sparksql.ErrSpark
// is ErrRejected).
var (
	ErrUnsupported = errors.New("not supported locally")
	ErrRejected    = errors.New("rejected by the dialect's engine")
)

// Error is a problem at a byte offset of a SQL text.
type Error struct {
	Pos  int    // byte offset in the text given to the translator
	Msg  string // what is wrong, naming the construct
	Hint string // how to fix it ("" when there is nothing to add)
	// Class is the engine's error class when the engine raises the same
	// error (Spark's UNRESOLVED_COLUMN.WITH_SUGGESTION, Polars'
	// ColumnNotFoundError, ...), "" for constructs the engine accepts but
	// the local translation does not.
	Class string
	// Kind is ErrUnsupported or ErrRejected.
	Kind error
}

func (e *Error) Error() string {
	msg := e.Msg
	if e.Class != "" && !strings.HasPrefix(msg, "[") {
		msg = "[" + e.Class + "] " + msg
	}
	return msg
}

// Unwrap lets errors.Is match ErrUnsupported or ErrRejected.
func (e *Error) Unwrap() error { return e.Kind }

// LineCol converts a byte offset of text to a 1-based line and column
// (in bytes, as the rest of the product counts columns).
func LineCol(text string, pos int) (line, col int) {
	pos = min(max(pos, 0), len(text))
	line = 1 + strings.Count(text[:pos], "\n")
	col = pos - strings.LastIndexByte(text[:pos], '\n')
	return line, col
}

// Rejected is an error the dialect's engine raises, with its class.
func Rejected(pos int, class, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Class: class, Kind: ErrRejected}
}

// Unsupported is a construct the translation does not handle.
func Unsupported(pos int, hint, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...) + " is not supported locally", Hint: hint, Kind: ErrUnsupported}
}

// errAt is a syntax error at pos, with the dialect's class.
func (s *Syntax) errAt(pos int, msg string) *Error {
	return &Error{Pos: pos, Msg: msg, Class: s.SyntaxErrorClass, Kind: ErrRejected}
}

func unsupported(pos int, hint, format string, args ...any) *Error {
	return Unsupported(pos, hint, format, args...)
}
