package runner

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"

	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// GatherFacts reads what validate's deep rules need from the tables that
// shared sinks write: whether each exists, its columns, and its row count
// per writer id (for writers owning rows through a writer column). A table
// that cannot be read gets its error in TableFacts.Err; GatherFacts itself
// fails only when ctx is done or DuckDB cannot start. It reads through a
// database of its own, opened on first need: a program with a Runner
// reads through the runner's instead (Runner.GatherFacts).
func GatherFacts(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]validate.TableFacts, error) {
	r := lake.Open()
	defer r.Close()
	return r.Facts(ctx, snap)
}

// GatherFacts is GatherFacts over the runner's database (no database is
// opened per call).
func (r *Runner) GatherFacts(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]validate.TableFacts, error) {
	return r.Tables().Facts(ctx, snap)
}

// tableFacts reads the facts of one table through *db, the runner's
// database (Plan's deep warnings).
func tableFacts(ctx context.Context, db **sql.DB, path, column string) (validate.TableFacts, error) {
	return lake.New(*db, nil).TableFacts(ctx, path, column)
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
func EmptyOrMissing(path string) bool { return lake.EmptyOrMissing(path) }
