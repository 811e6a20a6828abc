// Package polarssql is the Polars SQL dialect of local runs: POLARS
// pipelines' `expr` steps compute what Laktory's Polars backend computes
// (Laktory 0.13.1 runs an `expr` with polars 1.32.0's SQLContext, its
// inputs registered as __df__, __nodes_x___, __sources_x___), with Polars'
// output names and dtypes, and the Delta types delta-rs writes for them.
//
// The layers:
//
//   - Polars' dtypes (Type): their DuckDB holders and the Delta types
//     delta-rs writes (unsigned integers as the signed type of their
//     width; Null, Duration and Time cannot be written).
//   - The dialect: Polars SQL parsed by the one parser (runner/sqlfront)
//     with Polars' Syntax ("x" is a name, strings double their quotes),
//     resolved with polars' rules: names match exactly (case-sensitive);
//     an unaliased expression is named after its leftmost input (a
//     column's name, "literal" for a constant, "len" for COUNT(*)), two
//     columns of one name are polars' DuplicateError, SELECT * over a join
//     suffixes the right side's duplicates with ":alias"; dynamic integer
//     and float literals take the other operand's dtype, widened as
//     polars' get_supertype widens it where the value does not fit
//     (Int8 + 1000 is Int16, UInt32 + -1 is Int64, a UInt64 beyond Int64
//     then NULL); UInt64 with a signed integer is Float64, in comparisons
//     too (values beyond 2^53 rounded), and so are CASE, COALESCE and
//     GREATEST over them, but a join of integer keys of other widths or
//     signs matches their values exactly; x BETWEEN a AND b is x >= a AND x <= b, each
//     with its supertype; casts to the unsigned types (UBIGINT, UINT,
//     UINT8, ...) are strict as polars' are; a string among the values
//     of a CASE or COALESCE makes them all strings, cast as polars writes
//     them; integer
//     arithmetic wraps around, integer division and modulo floor (NULL by
//     zero), float division is IEEE's; SUM of no rows is 0; ORDER BY puts
//     NULLs last ascending and first descending.
//   - Strings, decimals and dates as polars computes them: TRIM strips
//     Unicode's whitespace, INITCAP lower cases then capitalises after
//     each non-alphanumeric character, regular expressions (~, ~*, !~,
//     RLIKE, REGEXP_LIKE) are Rust's rewritten for RE2 with Rust's Unicode
//     classes; decimals meet in their supertype with polars' scales (*
//     2S, / S+4 floored, literals truncated from their binary value);
//     string casts accept only the text polars parses, floats print as
//     Rust's ryu; INTERVAL strings offset dates and datetimes by months
//     then by the clock, date differences are Durations; a float column
//     divided by a scalar is multiplied by its reciprocal, as polars does;
//     STRPTIME, DATE(x, format) and TIMESTAMP(x, format) read chrono's
//     format language (strptime.go), DATE(x) infers day-month-year or
//     year-month-day where the rows' order cannot decide it.
//   - Aggregates as polars computes them: STDDEV and VARIANCE by Welford's
//     update, guarded where DuckDB's var_samp would fail (variance.go);
//     MEDIAN and QUANTILE_CONT with polars' interpolation, QUANTILE_DISC
//     equiprobable; AVG and MEDIAN of a Float32 rounded to Float32. The
//     C library's single-precision functions polars calls for Float32
//     arguments (logf, expf, sinf, ...) are not the double ones rounded,
//     so LN, EXP, SIN, POWER, ... of a Float32 are refused.
//   - What polars 1.32.0 silently does other than the SQL says (HAVING
//     and QUALIFY ignored, a window's ORDER BY ignored, QUANTILE_CONT over a
//     window computed over the whole frame) and every construct
//     not translated yet is refused with the construct named
//     (ErrUnsupported); what polars refuses is ErrPolars with polars'
//     exception class and message.
//
// Laktory's own SQL parser (laktory/sqlparser.py, on sqlglot), which
// Laktory uses for a source's filter and selects and for expectations on
// the NARWHALS dataframe_api, is TranslateLaktoryExpr: it accepts what
// that parser accepts, computes what the narwhals expression it builds
// computes on Polars, and refuses the rest with Laktory's exception.
//
// The differential corpus (testdata/corpus, expectations by
// scripts/polars/corpus.sh through Laktory's own code paths) measures the
// translation, and the evaluation POLARS steps had before it, against
// Laktory.
package polarssql
