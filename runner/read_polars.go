package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/polarsread"
)

// polarsFiles reads the files of a POLARS CSV source as Laktory's Polars
// backend reads them (pl.scan_csv with the source's has_header,
// infer_schema and reader_kwargs; runner/polarsread); ok is false for
// other sources (and for a CSV source declaring its schema, which
// fileListSQL reads by position).
func polarsFiles(ctx context.Context, q local.Querier, files []string, format string, o readOptions) (string, bool, error) {
	src := o.src
	if src == nil || src.Backend != "POLARS" || o.polars != nil || schemaColumns(src) != "" {
		return "", false, nil
	}
	switch format {
	case "JSON", "JSONL", "NDJSON", "PARQUET":
		rows, err := polarsread.RowOptions(format, src.ReaderKwargs)
		if err != nil {
			return "", true, fmt.Errorf("%w: %w", ErrSource, err)
		}
		o.polars = &rows
		q, err := readFileList(ctx, q, files, format, o)
		if err != nil {
			return "", true, err
		}
		return polarsread.WrapRows(q, rows), true, nil
	case "IPC":
		rows, err := polarsread.RowOptions(format, src.ReaderKwargs)
		if err != nil {
			return "", true, fmt.Errorf("%w: %w", ErrSource, err)
		}
		parts := make([]string, len(files))
		for i, f := range files {
			rel, err := local.LoadIPC(ctx, q, f)
			if errors.Is(err, local.ErrIPCType) {
				err = fmt.Errorf("%w: %w", polarsread.ErrUnsupported, err)
			}
			if err != nil {
				return "", true, fmt.Errorf("%w: %w", ErrSource, err)
			}
			parts[i] = "SELECT * FROM " + rel
		}
		return polarsread.WrapRows(strings.Join(parts, " UNION ALL "), rows), true, nil
	case "CSV":
	default:
		return "", false, nil
	}
	infer := src.InferSchema
	if src.WrittenFormat != "" {
		// `format: csv`: Laktory applies none of its CSV options, so
		// scan_csv's defaults (a header, types inferred) hold.
		t := true
		infer = &t
	}
	opts, err := polarsread.CSV(src.HasHeader, infer, src.ReaderKwargs)
	if err != nil {
		return "", true, fmt.Errorf("%w: %w", ErrSource, err)
	}
	sql, _, err := polarsread.ReadCSV(ctx, files, opts, func(p string) (string, error) {
		d, err := landing.DuckPath(p)
		return quoteString(d), err
	})
	if err != nil {
		return "", true, fmt.Errorf("%w: %w", ErrSource, err)
	}
	return sql, true, nil
}
