package runner

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

// writeSink writes the rows of relation rel to a sink and returns the
// number of rows written.
func (x *taskExec) writeSink(ctx context.Context, sp *sinkPlan, rel string, b microBatch) (int64, error) {
	if sp.sink.Kind == workspace.SinkForEach {
		return x.writeForEach(ctx, sp, rel, b)
	}
	if sp.sink.IsMerge() {
		return x.writeMerge(ctx, sp, rel, b)
	}
	if sp.sink.IsDelta() {
		return x.writeDelta(ctx, sp, rel, b)
	}
	return x.writeFiles(ctx, sp, rel)
}

// resetSink resets a sink before (or instead of) writing it.
func (x *taskExec) resetSink(ctx context.Context, sp *sinkPlan) error {
	if !sp.sink.IsDelta() {
		return x.dropFiles(sp)
	}
	return x.resetDelta(ctx, sp)
}

// sinkMode is a sink's effective mode: "" is APPEND for Delta sinks and
// OVERWRITE for other formats (a Polars file write replaces the file).
func sinkMode(sk *workspace.Sink) string {
	m := strings.ToUpper(sk.Mode)
	if m == "" {
		if sk.IsDelta() {
			return workspace.ModeAppend
		}
		return workspace.ModeOverwrite
	}
	if m == modeErrorIfExists {
		return modeError
	}
	return m
}

// fileExt maps a sink format to the extension of its files.
func fileExt(format string) string {
	switch format {
	case "PARQUET":
		return ".parquet"
	case "CSV":
		return ".csv"
	default:
		return ".json"
	}
}

// writeFiles writes a PARQUET, CSV or JSON (lines) file sink. A path
// ending with the format's extension is one file, replaced as a whole;
// otherwise the path is a folder of part files (partitioned by
// writer_methods partitionBy): APPEND adds files, OVERWRITE replaces the
// folder. Files are written to a hidden staging folder first, then moved
// into place, so readers never see a half-written file.
func (x *taskExec) writeFiles(ctx context.Context, sp *sinkPlan, rel string) (int64, error) {
	sk := sp.sink
	path, format, mode := sk.ResolvedPath, sk.EffectiveFormat(), sinkMode(sk)
	if format == "JSONL" || format == "NDJSON" {
		format = "JSON"
	}
	label := sk.Describe()
	if _, err := x.run.guard.Check(path); err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	exists := pathExists(path)
	switch {
	case mode == modeError && exists:
		return 0, fmt.Errorf("%w: node '%s': sink %s already exists and its mode is %s (use APPEND or OVERWRITE)", ErrSink, x.tp.node.Name, label, sk.Mode)
	case mode == modeIgnore && exists:
		x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "write", Message: fmt.Sprintf("sink %s exists and its mode is IGNORE: not written", label)})
		return 0, nil
	}
	start := time.Now()
	parent := filepath.Dir(path)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	stage := filepath.Join(parent, ".laktory-staging-"+uuid.NewString())
	defer x.run.guard.RemoveAll(stage) //nolint:errcheck // best effort: a hidden leftover
	single := strings.EqualFold(filepath.Ext(path), fileExt(format))
	target := stage
	if single {
		if err := os.MkdirAll(stage, 0o755); err != nil {
			return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
		}
		target = filepath.Join(stage, filepath.Base(path))
	}
	rows, err := x.s.e.WriteFiles(ctx, target, "SELECT * FROM "+quoteIdent(rel), engine.FileWrite{Format: format, Single: single, PartitionBy: sk.PartitionBy()})
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	files, err := publishFiles(x.run.guard, stage, path, single, mode == workspace.ModeAppend && !single)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	x.operation(history.Operation{Table: label, Path: path, Operation: "WRITE", Detail: mode + " " + format,
		RowsAdded: rows, FilesAdded: int64(files), Duration: time.Since(start)})
	return rows, nil
}

// publishFiles moves the staged output into place: one file replaces
// path; part files are added to the folder (appendMode) or the staged
// folder replaces it (the old folder is removed through g).
func publishFiles(g delta.Guard, stage, path string, single, appendMode bool) (int, error) {
	if single {
		return 1, os.Rename(filepath.Join(stage, filepath.Base(path)), path)
	}
	var files []string
	err := filepath.WalkDir(stage, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	if !appendMode {
		old := filepath.Join(filepath.Dir(path), ".laktory-old-"+uuid.NewString())
		if pathExists(path) {
			if err := os.Rename(path, old); err != nil {
				return 0, err
			}
			defer g.RemoveAll(old) //nolint:errcheck // best effort: a hidden leftover
		}
		return len(files), os.Rename(stage, path)
	}
	slices.Sort(files)
	for _, f := range files {
		rel, _ := filepath.Rel(stage, f)
		dst := filepath.Join(path, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return 0, err
		}
		if err := os.Rename(f, dst); err != nil {
			return 0, err
		}
	}
	return len(files), nil
}

// dropFiles removes a file sink (its file or folder) through the run's
// guard.
func (x *taskExec) dropFiles(sp *sinkPlan) error {
	path := sp.sink.ResolvedPath
	if _, err := x.run.guard.Check(path); err != nil {
		return fmt.Errorf("%w: drop %s: %w", ErrSink, sp.sink.Describe(), err)
	}
	if !pathExists(path) {
		return nil
	}
	start := time.Now()
	if err := x.run.guard.RemoveAll(path); err != nil {
		return fmt.Errorf("%w: drop %s: %w", ErrSink, sp.sink.Describe(), err)
	}
	x.operation(history.Operation{Table: sp.sink.Describe(), Path: path, Operation: "DROP", Detail: "reset", Duration: time.Since(start)})
	return nil
}
