package validate

import (
	"errors"
	"fmt"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/sparklit"
)

// ErrPredicate: a `where` ownership predicate is not exactly one
// expression on its own, over the row's columns, with deterministic
// functions only.
var ErrPredicate = errors.New("invalid ownership predicate")

// Predicate checks a `where` ownership predicate as validation does
// (codes LK110, LK401, LK402) and returns it as it must be embedded in
// SQL: rendered by DuckDB from its parse tree, in parentheses, so that no
// text can change the statement around it. The text is DuckDB SQL (a
// POLARS writer's; Spark's `quoted` identifiers are accepted); a PYSPARK
// writer's Spark SQL is translated by the runner's front end instead. Results are cached per text; it
// reads no file and is safe for concurrent use. sql parses it (the
// runner's parser, as for Options.SQL).
func Predicate(sql SQL, where string) (string, error) {
	p := parserOf(sql).parse(where)
	switch {
	case p.unavailable:
		return "", fmt.Errorf("%w: `%s` cannot be parsed: no SQL parser, or DuckDB could not start", ErrPredicate, where)
	case p.err != "":
		return "", fmt.Errorf("%w: `%s`: %s", ErrPredicate, where, p.err)
	}
	return p.sql, nil
}

// writerWhere is a writer's predicate as the rules read it (DuckDB's
// parser): a PYSPARK writer's (Laktory's default) is Spark SQL, whose
// "..." is a string and whose strings take backslash escapes
// (sparklit.ToDuckDB); a POLARS writer's is DuckDB SQL already.
func writerWhere(w *workspace.Writer) string {
	if w.Backend == "POLARS" {
		return w.Where
	}
	return sparklit.ToDuckDB(w.Where)
}
