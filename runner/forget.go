package runner

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
)

// WriterDeletion is the deletion of one writer id's rows from a shared
// table (laktory table forget-writer): the rows of a renamed or removed
// writer, which no FULL refresh deletes (LK202), and nothing else.
type WriterDeletion struct {
	// Table is the shared table, Column its writer column.
	Table  *workspace.Table `json:"-"`
	Path   string           `json:"path"`
	Label  string           `json:"table"`
	Column string           `json:"column"`
	// WriterID is the id whose rows go; Null: the rows whose writer column
	// is NULL instead (WriterID is then "").
	WriterID string `json:"writer_id"`
	Null     bool   `json:"null,omitempty"`
	// Predicate is the delete's SQL, Rows the rows it matches now.
	Predicate string `json:"predicate"`
	Rows      int64  `json:"rows"`
	// Version is the table version the rows were counted at.
	Version int64 `json:"version"`
}

// PlanWriterDeletion counts the rows of writer id (NULL when null) in the
// shared table tableName (as a table_name of the workspace names it, or
// its lake path): it changes nothing. An id a current writer of the table
// declares is refused (its FULL refresh or RESET deletes its rows, with
// its checkpoint and lock), as is a table that has no writer column.
func (r *Runner) PlanWriterDeletion(ctx context.Context, snap *workspace.Snapshot, tableName, id string, null bool) (*WriterDeletion, error) {
	t := findTable(snap, tableName)
	if t == nil {
		return nil, fmt.Errorf("%w: no table %q is written by the workspace's pipelines", ErrInvalidRun, tableName)
	}
	column := ""
	for _, w := range t.Writers {
		if w.Ownership != workspace.OwnerColumn {
			continue
		}
		column = w.Column
		if !null && w.WriterID == id {
			return nil, fmt.Errorf("%w: writer id '%s' is %s.%s's, a current writer of %s: refresh it instead (laktory run -p %s -s %s --refresh RESET deletes its rows and resets its checkpoint)",
				ErrInvalidRun, id, w.Pipeline, w.Node, t.Label(), w.Pipeline, w.Node)
		}
	}
	if column == "" {
		return nil, fmt.Errorf("%w: %s has no writer declaring `shared: true`: its rows carry no writer id", ErrInvalidRun, t.Label())
	}
	s, err := loadTable(ctx, t.Path)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("%w: table %s has not been written yet", ErrInvalidRun, t.Label())
	}
	if s.Schema().Field(column) == nil {
		return nil, fmt.Errorf("%w: table %s has no writer column %s", ErrLegacyTable, t.Label(), column)
	}
	d := &WriterDeletion{Table: t, Path: t.Path, Label: t.Label(), Column: column, WriterID: id, Null: null, Version: s.Version()}
	if null {
		d.WriterID, d.Predicate = "", quoteIdent(column)+" IS NULL"
	} else {
		d.Predicate = quoteIdent(column) + " = " + quoteString(id)
	}
	if d.Rows, err = r.countRows(ctx, s, d.Predicate); err != nil {
		return nil, err
	}
	return d, nil
}

// DeleteWriterRows commits the deletion d plans (retrying a commit that
// conflicts with a concurrent writer up to 5 times) and returns the rows
// deleted: the rows of that id at the time of the commit.
func (r *Runner) DeleteWriterRows(ctx context.Context, d *WriterDeletion) (int64, error) {
	if d == nil || d.Predicate == "" {
		return 0, fmt.Errorf("%w: no writer deletion planned", ErrInvalidRun)
	}
	var res *delta.CommitResult
	var err error
	for attempt := 1; ; attempt++ {
		res, err = delta.Delete(ctx, r.db, d.Path, d.Predicate, delta.WriteOptions{UserMetadata: "laktory table forget-writer"})
		if !delta.IsRetryable(err) || attempt == 5 {
			break
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
	if err != nil {
		return 0, fmt.Errorf("delete the rows of writer %s from %s: %w", d.Describe(), d.Label, err)
	}
	if !res.Committed {
		return 0, nil
	}
	return res.Metrics.DeletedRows, nil
}

// Describe names the writer id of d ('x', or NULL).
func (d *WriterDeletion) Describe() string {
	if d.Null {
		return "NULL"
	}
	return "'" + d.WriterID + "'"
}

// findTable finds a table of the workspace by its table_name (as written,
// or its last parts) or its lake path.
func findTable(snap *workspace.Snapshot, name string) *workspace.Table {
	for _, t := range snap.Tables {
		if string(t.ID) == name || t.Path == name || t.Label() == name || strings.HasSuffix(t.Label(), "."+name) {
			return t
		}
	}
	return nil
}
