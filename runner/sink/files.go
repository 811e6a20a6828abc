package sink

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

// FailFilesMoved is the fail point after each file of an appended batch is
// moved into place (delta.FailPoint): a crash there leaves part of the
// batch, or all of it, in the sink before the flow records it as written.
const FailFilesMoved = "sink.files.moved"

// FailFilesRecorded is the fail point after the names of an appended
// batch's files are recorded (Batch.Publishing), before the first is
// moved into place.
const FailFilesRecorded = "sink.files.recorded"

// Files is a PARQUET, CSV or JSON (lines) file sink of a task.
type Files struct {
	Task Task
	Sink *workspace.Sink
	// Path is the sink's file or folder as the task's path check resolved
	// it (links resolved then): the write and the reset use it, never the
	// declared path.
	Path string
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

// Write implements Sink. A path ending with the format's extension is one
// file, replaced as a whole; otherwise the path is a folder of part files
// (partitioned by writer_methods partitionBy): APPEND adds files,
// OVERWRITE replaces the folder. A POLARS sink is laid out as polars'
// writers lay it out (polarsLayout), a CSV's values rendered as
// write_csv renders them (polarsCSVQuery). The engine writes the files to a hidden
// staging folder first, then they are moved into place, so readers never
// see a half-written file.
func (f *Files) Write(ctx context.Context, b Batch) (int64, error) {
	sk, t := f.Sink, f.Task
	path, format, mode := f.Path, sk.EffectiveFormat(), Mode(sk)
	if format == "JSONL" || format == "NDJSON" {
		format = "JSON"
	}
	label := sk.Describe()
	g := t.Guard()
	if _, err := g.Check(path); err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	exists := pathExists(path)
	switch {
	case mode == ModeError && exists:
		_, node := t.Names()
		return 0, fmt.Errorf("%w: node '%s': sink %s already exists and its mode is %s (use APPEND or OVERWRITE)", ErrSink, node, label, sk.Mode)
	case mode == ModeIgnore && exists:
		t.Note("write", fmt.Sprintf("sink %s exists and its mode is IGNORE: not written", label))
		return 0, nil
	}
	start := time.Now()
	parent := filepath.Dir(path)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	stage := filepath.Join(parent, ".laktory-staging-"+uuid.NewString())
	defer g.RemoveAll(stage) //nolint:errcheck // best effort: a hidden leftover
	single := strings.EqualFold(filepath.Ext(path), fileExt(format))
	var polarsParts bool
	if sk.Backend == "POLARS" {
		single, polarsParts = polarsLayout(sk, format)
	}
	query, csv := "SELECT * FROM "+quoteIdent(b.Rel), polarsCSV(sk)
	jsonArray := sk.Backend == "POLARS" && sk.EffectiveFormat() == "JSON"
	var err error
	switch {
	case csv != nil:
		query, err = polarsCSVQuery(ctx, t, b.Rel, csv)
	case sk.Backend == "POLARS" && format == "JSON":
		query, err = polarsJSONQuery(ctx, t, b.Rel)
	}
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	target := stage
	if single {
		if err := os.MkdirAll(stage, 0o755); err != nil {
			return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
		}
		target = filepath.Join(stage, filepath.Base(path))
	}
	rows, err := t.Session().WriteFiles(ctx, target, query, engine.FileWrite{Format: format, Single: single, PartitionBy: sk.PartitionBy(), PolarsParts: polarsParts, JSONArray: jsonArray, CSV: csv})
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	// polars' partitions replace their files and leave the others.
	files, err := publishFiles(g, stage, path, single, (mode == workspace.ModeAppend || polarsParts) && !single, b.Publishing)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, label, err)
	}
	t.Operation(history.Operation{Table: label, Path: path, Operation: "WRITE", Detail: mode + " " + format,
		RowsAdded: rows, FilesAdded: int64(files), Duration: time.Since(start)})
	return rows, nil
}

// publishFiles moves the staged output into place: one file replaces
// path; part files are added to the folder (appendMode) or the staged
// folder replaces it (the old folder is removed through g). Before the
// first part file is added, publishing (when set) gets their names
// relative to path.
func publishFiles(g delta.Guard, stage, path string, single, appendMode bool, publishing func([]string) error) (int, error) {
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
	rels := make([]string, len(files))
	for i, f := range files {
		rels[i], _ = filepath.Rel(stage, f)
	}
	if publishing != nil {
		if err := publishing(rels); err != nil {
			return 0, err
		}
		delta.FailPoint(FailFilesRecorded)
	}
	for i, f := range files {
		dst := filepath.Join(path, rels[i])
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return 0, err
		}
		if err := os.Rename(f, dst); err != nil {
			return 0, err
		}
		delta.FailPoint(FailFilesMoved)
	}
	return len(files), nil
}

// Reset implements Sink: the file or folder removed through the run's
// guard.
func (f *Files) Reset(context.Context) error {
	sk, g := f.Sink, f.Task.Guard()
	path := f.Path
	if _, err := g.Check(path); err != nil {
		return fmt.Errorf("%w: drop %s: %w", ErrSink, sk.Describe(), err)
	}
	if !pathExists(path) {
		return nil
	}
	start := time.Now()
	if err := g.RemoveAll(path); err != nil {
		return fmt.Errorf("%w: drop %s: %w", ErrSink, sk.Describe(), err)
	}
	f.Task.Operation(history.Operation{Table: sk.Describe(), Path: path, Operation: "DROP", Detail: "reset", Duration: time.Since(start)})
	return nil
}

// pathExists reports whether a file or folder exists.
func pathExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
