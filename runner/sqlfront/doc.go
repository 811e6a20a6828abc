// Package sqlfront is the shared core of the SQL front ends of local runs:
// one parser for the SQL dialects a Laktory pipeline is written in (Spark
// SQL on PYSPARK, Polars SQL on POLARS), its syntax tree, and the error
// type every front end reports with (a byte offset, the construct, the
// engine's error class, and whether the engine rejects the text or only
// the local translation lacks it).
//
// A dialect's lexical and grammatical differences are a Syntax (what "..."
// means, backslash escapes, number suffixes, type names, the class of
// syntax errors); the grammar itself is shared. The dialects resolve the
// tree against the inputs' schemas with their own function table, type
// rules, name rules and messages (runner/sparksql for Spark).
//
// The package imports no other package of the product but the literal
// rules of workspace/sparklit.
package sqlfront
