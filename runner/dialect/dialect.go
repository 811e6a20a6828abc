// Package dialect is the seam between a step's SQL as the YAML writes it
// and the DuckDB SQL the local engine runs: a Translator turns one piece of
// a node's SQL (an `expr` step, or one expression of a filter,
// with_columns, select, aggregate or expectation) written in a dialect into
// DuckDB SQL, given the schemas of the relations it reads, or says where
// and why it cannot.
//
// The runner's compiler and the schema flow (runner/schemaflow) call the
// same Translator for a node, so what validation binds is what a run
// executes. DuckDB is the pass-through translator; a dialect front end
// (Spark SQL for PYSPARK pipelines) implements Translator and is chosen per
// node by the runner (runner.Dialect).
package dialect

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// Kind tells what a piece of SQL is.
type Kind uint8

// Kinds of text.
const (
	// Query is an `expr` step: statements separated by semicolons, the
	// last one a query whose rows are the step's output. Placeholders
	// ({df}, {sources.x}, {nodes.x}) name its Inputs.
	Query Kind = iota + 1
	// Expression is one SQL expression over the columns of Inputs[0]: a
	// filter predicate, a with_columns or select expression, an aggregate,
	// an expectation.
	Expression
	// LaktoryExpression is one expression Laktory evaluates with its own
	// SQL parser (laktory/sqlparser.py, which builds a narwhals
	// expression) over the columns of Inputs[0]: a source's filter and
	// selects, an expectation. It accepts much less than the backend's
	// SQL and computes with the backend's semantics.
	LaktoryExpression
	// Predicate is one boolean condition over the columns of Inputs[0]
	// that the backend evaluates row by row wherever it stands: a
	// `where` ownership predicate (the check of the rows written, a FULL
	// refresh's DELETE, a plan's count) or a merge's delete_where. It
	// is the backend's SQL, like an Expression, but it must be boolean and
	// hold no subquery, aggregate, window, generator or non-deterministic
	// function, as Spark's DELETE ... WHERE and MERGE conditions require.
	Predicate
)

// Column is a column of a relation; Type is DuckDB's type name as DESCRIBE
// prints it (BIGINT, DECIMAL(10,2), STRUCT(a INTEGER), ...).
type Column struct {
	Name string
	Type string
}

// Input is a relation the text reads.
type Input struct {
	// Ref is the placeholder naming it, without braces or blanks: "df",
	// "sources.x" or "nodes.x" (for an Expression, the relation it is
	// evaluated over may have Ref "df").
	Ref string
	// Relation is the DuckDB relation (a view or table name, unquoted)
	// the translated SQL reads in its place.
	Relation string
	// Columns are its columns in order; nil when not known.
	Columns []Column
}

// Step is one piece of SQL to translate.
type Step struct {
	Kind   Kind
	Text   string
	Inputs []Input
}

// Input returns the input of a placeholder reference, or false.
func (s Step) Input(ref string) (Input, bool) {
	for _, in := range s.Inputs {
		if in.Ref == ref {
			return in, true
		}
	}
	return Input{}, false
}

// Span says that SQL[Out:Out+Len] was copied from Text[In:In+Len].
type Span struct {
	Out, In, Len int
}

// Diagnostic is a problem with the text, at a byte offset of Step.Text.
type Diagnostic struct {
	// Offset is the byte offset in Step.Text (-1: the text as a whole).
	Offset   int
	Severity workspace.Severity
	Message  string
	Hint     string
	// Rejected: the dialect's own engine rejects the text as well (an
	// unknown column, a type error), as opposed to a construct only the
	// translation lacks. Validation reports it as SQL that does not bind.
	Rejected bool
}

// Result is a translated step.
type Result struct {
	// SQL is the DuckDB SQL: a query (or statements) for a Query, an
	// expression for an Expression. Empty when an error diagnostic says why
	// the text cannot be translated.
	SQL string
	// Name is the column name the dialect gives an expression ("": it
	// does not say, or a Query).
	Name string
	// Check is, for a LaktoryExpression, the expression as Laktory's
	// expectation check evaluates it when that differs from SQL ("": the
	// same): on PYSPARK Laktory counts a ROW expectation's failures, and
	// computes an AGGREGATE one, on a pandas copy of the frame
	// (DataQualityExpectation._check_df), where a comparison with a
	// missing value is false (!= true) instead of NULL. The output and
	// quarantine filters keep SQL's semantics (they run on Spark).
	Check string
	// Spans map SQL back to Text, sorted by Out; they need not cover SQL.
	Spans []Span
	// Diagnostics are the problems found (errors stop the step; warnings
	// say where the local result may differ from the dialect's engine).
	Diagnostics []Diagnostic
}

// Source maps a byte offset of SQL to the offset of Text it came from:
// inside a span exactly, elsewhere the end of the closest span before it
// (0 without one).
func (r Result) Source(off int) int {
	i := sort.Search(len(r.Spans), func(i int) bool { return r.Spans[i].Out > off }) - 1
	if i < 0 {
		return 0
	}
	s := r.Spans[i]
	if off < s.Out+s.Len {
		return s.In + off - s.Out
	}
	return s.In + s.Len
}

// Failed reports whether an error diagnostic stops the step.
func (r Result) Failed() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == workspace.SeverityError {
			return true
		}
	}
	return false
}

// Translator translates one step's SQL to DuckDB SQL. Problems with the
// text are Result.Diagnostics; the error is for failures to translate at
// all (ctx done). It must be safe for concurrent use.
type Translator interface {
	Translate(ctx context.Context, st Step) (Result, error)
}

// Chooser picks the translator of a node's SQL.
type Chooser func(n *workspace.Node) Translator

// Ref is a placeholder found in a text.
type Ref struct {
	// Name is "df", "sources.x" or "nodes.x".
	Name string
	// Off and Len locate the placeholder, braces included.
	Off, Len int
}

var placeholder = regexp.MustCompile(`\{\s*(df|sources\.[^{}\s]+|nodes\.[^{}\s]+)\s*\}`)

// Placeholders returns the {df}, {sources.x} and {nodes.x} references of a
// text, in order.
func Placeholders(text string) []Ref {
	var out []Ref
	for _, m := range placeholder.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, Ref{Name: text[m[2]:m[3]], Off: m[0], Len: m[1] - m[0]})
	}
	return out
}

// DuckDB is the pass-through translator: the text is DuckDB SQL; its
// placeholders become the quoted names of their inputs.
type DuckDB struct{}

// Translate implements Translator.
func (DuckDB) Translate(ctx context.Context, st Step) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	var res Result
	var b strings.Builder
	copyText := func(from, to int) {
		if to > from {
			res.Spans = append(res.Spans, Span{Out: b.Len(), In: from, Len: to - from})
			b.WriteString(st.Text[from:to])
		}
	}
	at := 0
	for _, r := range Placeholders(st.Text) {
		in, ok := st.Input(r.Name)
		if !ok {
			res.Diagnostics = append(res.Diagnostics, Diagnostic{Offset: r.Off, Severity: workspace.SeverityError,
				Message: "{" + r.Name + "} names no input of the step",
				Hint:    "use {df}, {sources.<name>} with a source's `name`, or {nodes.<name>} with a node of the pipeline"})
			continue
		}
		copyText(at, r.Off)
		b.WriteString(QuoteIdent(in.Relation))
		at = r.Off + r.Len
	}
	copyText(at, len(st.Text))
	if res.Failed() {
		return Result{Diagnostics: res.Diagnostics}, nil
	}
	res.SQL = b.String()
	return res, nil
}

// QuoteIdent quotes a DuckDB identifier.
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
