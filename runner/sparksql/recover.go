package sparksql

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInternal marks a step the translator failed on through a bug of its
// own (a panic caught at an entry point). It comes wrapped in *Error with
// ErrUnsupported, so callers that refuse unsupported constructs refuse it
// too: one step's SQL never takes down validate or a run.
var ErrInternal = errors.New("internal error of the Spark SQL translation")

// internalKind is the kind of the *Error a caught panic becomes: both
// ErrUnsupported and ErrInternal.
var internalKind = fmt.Errorf("%w: %w", ErrUnsupported, ErrInternal)

// recoverTranslation turns a panic of the translation of text into a
// diagnostic in *err. at is the resolver's stack of constructs being
// resolved (nil when the parser panicked). It must be deferred directly.
func recoverTranslation(text string, r **resolver, err *error) {
	v := recover()
	if v == nil {
		return
	}
	var at []Node
	if r != nil && *r != nil {
		at = (*r).at
	}
	*err = panicError(text, at, v)
}

// panicError is the diagnostic of a panic v raised while the resolver was
// inside the constructs at (outermost first).
func panicError(text string, at []Node, v any) error {
	pos, what := 0, "this SQL"
	if n := len(at); n > 0 {
		node := at[n-1]
		pos = node.Pos()
		what = constructName(text, node)
	}
	return &Error{
		Pos:  pos,
		Msg:  fmt.Sprintf("the local translation failed on %s (internal error: %v); this is a bug of the workbench, not of the step, and the step is not supported locally until it is fixed", what, v),
		Hint: "rewrite the construct (for example compute it in a CTE), run the pipeline on the Spark engine, and report the SQL",
		Kind: internalKind,
	}
}

// constructName names a node for a message: an expression as SQL, a query
// by its first words.
func constructName(text string, n Node) (name string) {
	defer func() {
		if recover() != nil { // the formatter failed on the same tree
			name = "this SQL"
		}
	}()
	var s string
	switch x := n.(type) {
	case Expr:
		s = FormatExpr(x)
	case *Query:
		s = strings.Join(strings.Fields(text[min(max(x.Pos(), 0), len(text)):]), " ")
	}
	if s == "" {
		return "this SQL"
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return "`" + s + "`"
}
