package runner

import (
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/polarssql"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/workspace"
)

// Dialect is the translator of a node's SQL: the one place that picks it,
// for runs (the compiler) and for validation (the schema flow). PYSPARK
// nodes (Laktory's default backend) write Spark SQL, translated with
// Spark's semantics (runner/sparksql); POLARS nodes write Polars SQL,
// translated with polars 1.32.0's (runner/polarssql). On both, the
// expressions Laktory evaluates with its own SQL parser
// (dialect.LaktoryExpression) accept what that parser accepts.
func Dialect(n *workspace.Node) dialect.Translator {
	if n.DataframeBackend == "POLARS" {
		return polarssql.Translator{}
	}
	return sparkDialect{opts: sparkOptions(n)}
}

// statements is the number of SQL statements of an `expr` as the node's
// dialect reads it (Spark's strings take backslash escapes).
func statements(n *workspace.Node, text string) int {
	if n.DataframeBackend == "POLARS" {
		return len(splitStatements(text))
	}
	return sparksql.Statements(text)
}
