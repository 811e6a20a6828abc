// Package schemaflow checks a workspace's SQL before it runs: every node is
// bound by DuckDB against the schemas of what it reads, and the schema it
// produces feeds the nodes that read it and its sinks.
//
// Source schemas come from the files' headers and footers as the runner
// reads them (CSV sniffing, JSON sampling, parquet footers) or from a Delta
// table's log; a node read by node_name or {nodes.x}, or a table no run has
// written yet, has the schema its writers compute. Nothing else is read: a
// node is bound over empty relations of those schemas. Schemas are cached
// per file version (paths, sizes and modification times) and per Delta
// version, and a node's result per node and input schemas, so a warm check
// reads no file and binds only the nodes whose YAML or inputs changed.
//
// The Engine (package runner) knows how the local engine reads sources and
// compiles a node; the Flow orders nodes, keeps the caches and turns what
// the engine finds into diagnostics: SQL that does not bind at the YAML
// position of its text (with DuckDB's candidates as the hint), sink columns
// whose type a Delta append refuses or casts, and the columns of each
// table for validate's `where` rules (validate.Options.TableColumns).
package schemaflow

import (
	"context"
	"errors"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/workspace"
)

// Column is a column and its DuckDB type.
type Column = dialect.Column

// Engine reads source schemas and binds nodes as the local engine runs
// them. It must be safe for concurrent use.
type Engine interface {
	// FileVersion identifies what a file source reads now: its files'
	// paths, sizes and modification times, with the reader options. Two
	// calls give the same string only when FileSchema would give the same
	// columns. "" when no file has landed yet.
	FileVersion(src *workspace.Source) (string, error)
	// FileSchema infers the columns a file source's reader gives, reading
	// only what schema inference needs.
	FileSchema(ctx context.Context, src *workspace.Source) ([]Column, error)
	// Bind binds a node's SQL (sources' options, transformer, expectations,
	// sinks' `where` checks) over empty relations of its inputs' schemas and
	// returns its output columns and the problems found. It returns an
	// error wrapping ErrUnchecked for a node it cannot bind without running
	// something.
	Bind(ctx context.Context, in Input) (Output, error)
}

// ErrUnchecked marks a node the engine cannot bind: it is skipped, with its
// output unknown.
var ErrUnchecked = errors.New("node not checked")

// Input is a node to bind with the columns of what it reads.
type Input struct {
	Pipeline *workspace.Pipeline
	Node     *workspace.Node
	// Sources are the columns of each of Node.Sources, in order.
	Sources [][]Column
	// Nodes are the output columns of the nodes it reads with {nodes.x}.
	Nodes map[string][]Column
}

// Output is what binding a node found.
type Output struct {
	// Columns are the node's output (what its sinks are given); nil when a
	// problem stopped the binding.
	Columns []Column
	// Problems are in the order found; an error stops the transformer
	// (later steps depend on it), expectations and where checks are each
	// bound.
	Problems []Problem
}

// ProblemKind tells what a problem is.
type ProblemKind uint8

// Kinds of problems.
const (
	// Unbound: DuckDB refused the SQL (an unknown column or function, a
	// type mismatch, a syntax error); Message is DuckDB's error.
	Unbound ProblemKind = iota + 1
	// Untranslatable: the node's dialect translator cannot translate it.
	Untranslatable
	// DialectWarning: the translator says the local result may differ.
	DialectWarning
	// NotBoolean: an expectation is not a boolean expression; Message is
	// the type it has.
	NotBoolean
	// FrameFails: a func_name step Laktory fails on (runner/frame says
	// so with Laktory's or the backend's message).
	FrameFails
	// FrameUnsupported: a func_name step with a construct local runs do
	// not translate (runner/frame names it).
	FrameUnsupported
	// NullDropped: a DROP or QUARANTINE expectation that is NULL when the
	// columns it reads are: Laktory removes such rows silently; Message
	// says so, naming the columns.
	NullDropped
	// PandasUnmodelled: a narwhals expectation of a PYSPARK node whose
	// check Laktory computes on a pandas copy of the frame, where it may
	// count otherwise than the local check (a NULL or a NaN operand).
	PandasUnmodelled
)

// Problem is a problem with one text of a node's YAML.
type Problem struct {
	Kind ProblemKind
	// What names the text: "transformer step #2", "source #1 filter",
	// "expectation 'positive'", "shared.where"...
	What string
	// At is the position of the YAML value holding the text, Offset the
	// byte offset in it (-1: the value as a whole).
	At     workspace.Pos
	Offset int
	// Table is the table of a sink's `shared.where` check ("" otherwise).
	Table workspace.TableID
	// Message and Hint are the engine's or the translator's words.
	Message string
	Hint    string
}
