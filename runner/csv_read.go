package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/workspace"
)

// csvReadDefaults are has_header and infer_schema of a CSV source as
// Laktory 0.13.1 reads it when the source sets neither: its own defaults
// (a header row, no inference: every column a string) for `format: CSV`;
// for a format written in another case (`csv`, WrittenFormat) it applies
// none of its options, so the backend's reader's defaults: Spark reads no
// header and infers nothing, polars' scan_csv reads a header and infers
// the types.
func csvReadDefaults(src *workspace.Source) (header, infer bool) {
	switch {
	case src == nil || src.WrittenFormat == "":
		return true, false
	case src.Backend == "POLARS":
		return true, true
	}
	return false, false
}

// csvInferCandidates are the types DuckDB's sniffer may give a column when
// the backend infers CSV types: Spark's inferSchema gives int when every
// value fits and timestamps with a time zone (Spark's TIMESTAMP); polars'
// scan_csv gives Int64, Float64, Boolean or String (dates stay strings
// without try_parse_dates).
func csvInferCandidates(src *workspace.Source) string {
	if src != nil && src.Backend == "POLARS" {
		return "auto_type_candidates = ['BOOLEAN', 'BIGINT', 'DOUBLE', 'VARCHAR']"
	}
	return "auto_type_candidates = ['BOOLEAN', 'INTEGER', 'BIGINT', 'DOUBLE', 'DATE', 'TIMESTAMPTZ', 'VARCHAR']"
}

// csvHeaderless names the columns of CSV files read without a header
// (sql, DuckDB's column0, column1, ...) as the backend's reader does:
// Spark's _c0, _c1, ..., polars' column_1, column_2, ....
func csvHeaderless(ctx context.Context, q local.Querier, sql string, src *workspace.Source) (string, error) {
	cols, err := describe(ctx, q, sql)
	if err != nil {
		return "", err
	}
	sel := make([]string, len(cols))
	for i, c := range cols {
		name := fmt.Sprintf("_c%d", i)
		if src != nil && src.Backend == "POLARS" {
			name = fmt.Sprintf("column_%d", i+1)
		}
		sel[i] = quoteIdent(c.Name) + " AS " + quoteIdent(name)
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM (" + sql + ")", nil
}

// csvHeader reports whether a CSV source is read with a header row, as
// fileListSQL reads it.
func csvHeader(src *workspace.Source) bool {
	header, _ := csvReadDefaults(src)
	if src != nil && src.HasHeader != nil {
		header = *src.HasHeader
	}
	if v, ok := readerOpt(src, "header"); ok {
		header = truthy(v)
	}
	return header
}
