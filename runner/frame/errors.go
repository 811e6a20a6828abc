package frame

import (
	"errors"
	"fmt"
)

// ErrLaktory marks a step Laktory itself fails on (its own message, or
// the backend's: a missing column, a method the API does not have, a type
// error); ErrUnsupported marks one Laktory runs that local runs do not
// translate. Both come wrapped in *Error.
var (
	ErrLaktory     = errors.New("fails in Laktory")
	ErrUnsupported = errors.New("not supported locally")
)

// Error is a problem with a step, at a byte offset of one argument's text.
type Error struct {
	// Arg names the argument: "" for the step as a whole, "func_args[0]",
	// "func_kwargs.name" (set by Compile).
	Arg string
	// Pos is the byte offset in the argument's text (-1: the whole value).
	Pos  int
	Msg  string
	Hint string
	kind error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap lets errors.Is match ErrLaktory or ErrUnsupported.
func (e *Error) Unwrap() error { return e.kind }

// laktoryErr is an error Laktory raises at pos, with its message.
func laktoryErr(pos int, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), kind: ErrLaktory}
}

// unsupportedAt is a construct local runs do not translate.
func unsupportedAt(pos int, hint, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...) + " is not supported locally", Hint: hint, kind: ErrUnsupported}
}

// syntaxError is a Python SyntaxError: Laktory then keeps the argument as
// the plain string it is (DataFrameMethodArg.eval).
type syntaxError struct {
	pos int
	msg string
}

func (e *syntaxError) Error() string { return "SyntaxError: " + e.msg }

func syntaxErr(pos int, msg string) error { return &syntaxError{pos: pos, msg: msg} }
