package runner

import (
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/workspace"
)

// Dialect is the translator of a node's SQL: the one place that picks it,
// for runs (the compiler) and for validation (the schema flow). Today every
// node's SQL is DuckDB SQL (dialect.DuckDB passes it through).
func Dialect(n *workspace.Node) dialect.Translator { return dialect.DuckDB{} }
