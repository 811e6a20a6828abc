// Package sqlfront is the shared core of the SQL front ends of local runs.
//
// The layers, bottom up:
//
//   - One parser for the dialects a Laktory pipeline is written in (Spark
//     SQL on PYSPARK, Polars SQL on POLARS) and its syntax tree. A
//     dialect's lexical and grammatical differences are a Syntax (what
//     "..." means, backslash escapes, number suffixes, type names, the
//     class of syntax errors); the grammar is shared.
//   - The Dialect contract: a dialect resolves a tree against the columns
//     of its input with its own function table, type rules (its Type
//     system: Spark's types, Polars' dtypes), name rules (the name an
//     unaliased expression gets) and messages (Error, with the engine's
//     class), into a Value: the typed form, holding the DuckDB SQL that
//     computes what the dialect's engine computes. runner/sparksql is
//     Spark's dialect.
//   - The Builder: front ends that have no SQL text (the frame-expression
//     front end's narwhals, Polars and PySpark expressions) build the same
//     trees call by call (columns, literals, calls by function name,
//     operators, casts, CASE, IN, aggregates, windows) and get each step's
//     Value from the dialect, so a built expression means exactly what the
//     same SQL means.
//
// Errors are *Error: a byte offset, the construct, the engine's class, and
// whether the engine rejects the text (ErrRejected) or only the local
// translation lacks it (ErrUnsupported).
//
// The package imports no other package of the product but the literal
// rules of workspace/sparklit.
package sqlfront
