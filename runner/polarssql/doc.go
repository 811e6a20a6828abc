// Package polarssql is the Polars SQL dialect of local runs: POLARS
// pipelines' `expr` steps compute what Laktory's Polars backend (polars'
// SQLContext) computes, with Polars' output names and dtypes, and the
// Delta types delta-rs writes for them.
//
// This first part holds Polars' dtypes (Type: their DuckDB holders and
// the Delta types delta-rs writes) and the differential corpus
// (testdata/corpus, expectations by scripts/polars/corpus.sh), whose
// test measures today's evaluation of POLARS steps against polars 1.32.0.
package polarssql
