// Package sparksql is the Spark SQL front end of local runs: it parses a
// transformer step written in Spark SQL (a query, or an expression for
// filter, with_columns, expectations and where predicates), resolves it
// against the schemas of the step's inputs with Spark's type rules, and
// emits DuckDB SQL that computes what Spark computes (ANSI mode on).
// Anything it cannot translate exactly is an *Error naming the construct
// and its byte offset in the SQL, never a silent difference.
//
// The package imports no other package of the product but its own numfmt
// (Spark's number format language), javauri (java.net.URI's parser) and
// jackson (Jackson's JSON reading, get_json_object's paths), which the
// local engine runs too;
// callers pass the inputs' schemas and map offsets to file positions.
package sparksql
