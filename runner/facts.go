package runner

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// GatherFacts reads what validate's deep rules need from the tables that
// shared sinks write: whether each exists, its columns, and its row count
// per writer id (for writers owning rows through a writer column). A table
// that cannot be read gets its error in TableFacts.Err; GatherFacts itself
// fails only when ctx is done or DuckDB cannot start.
func GatherFacts(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]validate.TableFacts, error) {
	facts := map[workspace.TableID]validate.TableFacts{}
	var db *sql.DB
	defer func() {
		if db != nil {
			db.Close()
		}
	}()
	for _, t := range snap.Tables {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !t.Shared() {
			continue
		}
		column := ""
		for _, w := range t.Writers {
			if w.Ownership == workspace.OwnerColumn {
				column = w.Column
				break
			}
		}
		f, err := tableFacts(ctx, &db, t.Path, column)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			f = validate.TableFacts{Err: err.Error()}
		}
		facts[t.ID] = f
	}
	return facts, nil
}

// tableFacts reads one table; *db is opened on first need.
func tableFacts(ctx context.Context, db **sql.DB, path, column string) (validate.TableFacts, error) {
	s, err := delta.LoadSnapshot(ctx, path)
	if err != nil {
		if errors.Is(err, delta.ErrNotDeltaTable) && EmptyOrMissing(path) {
			return validate.TableFacts{}, nil
		}
		return validate.TableFacts{}, err
	}
	f := validate.TableFacts{Exists: true, Columns: s.Schema().FieldNames()}
	if column == "" || !slices.Contains(f.Columns, column) {
		return f, nil
	}
	if *db == nil {
		if *db, err = delta.OpenDuckDB(ctx); err != nil {
			return f, fmt.Errorf("facts of %s: %w", path, err)
		}
	}
	scan, err := s.ScanSQL(ctx, delta.ScanOptions{Columns: []string{column}})
	if err != nil {
		return f, err
	}
	quoted := `"` + strings.ReplaceAll(column, `"`, `""`) + `"`
	rows, err := (*db).QueryContext(ctx, fmt.Sprintf(`SELECT CAST(%s AS VARCHAR), count(*) FROM (%s) GROUP BY 1`, quoted, scan))
	if err != nil {
		return f, fmt.Errorf("count the rows per writer of %s: %w", path, err)
	}
	defer rows.Close()
	f.WriterColumn, f.WriterRows = column, map[string]int64{}
	for rows.Next() {
		var id sql.NullString
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			return f, err
		}
		f.WriterRows[id.String] += n
	}
	return f, rows.Err()
}

// PathFacts tells, for each of validate.SourcePaths(snap), whether it
// exists (for validate.Options.Paths: a missing source path is LK205).
func PathFacts(snap *workspace.Snapshot) map[string]bool {
	out := map[string]bool{}
	for _, p := range validate.SourcePaths(snap) {
		_, err := os.Stat(p)
		out[p] = !errors.Is(err, fs.ErrNotExist)
	}
	return out
}

// EmptyOrMissing reports whether the table folder at path holds nothing
// yet (no folder, an empty one, or only an empty _delta_log folder): the
// table has not been written. A folder that cannot be read is not empty.
func EmptyOrMissing(path string) bool {
	entries, err := os.ReadDir(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != delta.LogDirName || !e.IsDir() {
			return false
		}
		if logs, _ := os.ReadDir(filepath.Join(path, e.Name())); len(logs) > 0 {
			return false
		}
	}
	return true
}
