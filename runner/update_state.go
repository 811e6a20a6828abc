package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// updatedRows is the SQL of an update flow's rows to send: those of the
// aggregation (rel, computed over all the input so far) that are new or
// changed since the previous batch's output. The output is kept in the
// checkpoint's state of this batch.
func (x *taskExec) updatedRows(ctx context.Context, rel string, b microBatch) (string, error) {
	q, err := x.saveState(ctx, b, "output.parquet", "SELECT * FROM "+quoteIdent(rel))
	if err != nil {
		return "", err
	}
	if prev := filepath.Join(b.cp.StateDir(b.version-1), "output.parquet"); b.version > 0 && pathExists(prev) {
		p, err := x.readState(ctx, prev)
		if err != nil {
			return "", fmt.Errorf("%w: read the state of flow %s: %w", ErrCheckpoint, b.flow.name, err)
		}
		q = "SELECT * FROM (" + q + ") EXCEPT SELECT * FROM (" + p + ")"
	}
	return q, nil
}

// updateInput is the SQL of an update flow's input from streaming source
// i: everything read so far (the previous batch's state) and this batch's
// rows, by column name, kept in this batch's state.
func (x *taskExec) updateInput(ctx context.Context, b microBatch, i int, batchSQL string) (string, error) {
	name := fmt.Sprintf("input_%d.parquet", i)
	q := batchSQL
	if prev := filepath.Join(b.cp.StateDir(b.version-1), name); b.version > 0 && pathExists(prev) {
		p, err := x.readState(ctx, prev)
		if err != nil {
			return "", fmt.Errorf("%w: read the input of flow %s: %w", ErrCheckpoint, b.flow.name, err)
		}
		if q, err = x.unionByName(ctx, p, batchSQL); err != nil {
			return "", err
		}
	}
	return x.saveState(ctx, b, name, q)
}

// unionByName is the SQL of the rows of a, then b, matched by column
// name (DuckDB's UNION ALL BY NAME, which Spark SQL does not parse): a's
// columns, then those only b has; a column one side lacks is NULL there.
func (x *taskExec) unionByName(ctx context.Context, a, b string) (string, error) {
	ac, err := x.s.describe(ctx, a)
	if err != nil {
		return "", err
	}
	bc, err := x.s.describe(ctx, b)
	if err != nil {
		return "", err
	}
	names := columnNames(ac)
	for _, n := range columnNames(bc) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	side := func(cols []column) string {
		have := columnNames(cols)
		exprs := make([]string, len(names))
		for i, n := range names {
			exprs[i] = quoteIdent(n)
			if !slices.Contains(have, n) {
				exprs[i] = "NULL AS " + quoteIdent(n)
			}
		}
		return strings.Join(exprs, ", ")
	}
	return fmt.Sprintf("SELECT %s FROM (%s) UNION ALL SELECT %s FROM (%s)", side(ac), a, side(bc), b), nil
}

// saveState keeps the rows of query as the state name of batch b (a
// folder of Parquet files the session's engine writes, replacing what a
// crashed attempt of the batch left) and returns the SQL reading it back.
func (x *taskExec) saveState(ctx context.Context, b microBatch, name, query string) (string, error) {
	dir := b.cp.StateDir(b.version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	path := filepath.Join(dir, name)
	if err := x.run.guard.RemoveAll(path); err != nil {
		return "", fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	if err := x.s.e.SaveParquet(ctx, path, query); err != nil {
		return "", fmt.Errorf("%w: keep the state of flow %s: %w", ErrCheckpoint, b.flow.name, err)
	}
	q, err := x.readState(ctx, path)
	if err != nil {
		return "", fmt.Errorf("%w: read the state of flow %s: %w", ErrCheckpoint, b.flow.name, err)
	}
	return q, nil
}

// readState returns the SQL reading the state at path on the session's
// engine: the Parquet files of its folder, whichever engine wrote them, or
// the one file an earlier version of the runner wrote there.
func (x *taskExec) readState(ctx context.Context, path string) (string, error) {
	files := []string{path}
	if st, err := os.Stat(path); err != nil {
		return "", err
	} else if st.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return "", err
		}
		files = nil
		for _, e := range entries {
			if n := e.Name(); strings.HasPrefix(n, "part-") && strings.HasSuffix(n, ".parquet") {
				files = append(files, filepath.Join(path, n))
			}
		}
		if len(files) == 0 {
			return "", fmt.Errorf("no Parquet file in %s", path)
		}
	}
	return x.s.e.ReadFiles(ctx, files, "PARQUET", nil)
}
