package delta

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
)

// One-shot operations: each is a transaction of one operation on the
// table's latest version, committed at once. They do not retry: on a
// conflict they return the *ConflictError (IsRetryable) and the caller
// re-runs them.

// Create creates the table at root with def (def.Schema is required) as
// version 0. It fails with ErrTableExists when a table is already there,
// ErrInvalidSchema for a bad schema or partitioning, ErrUnsupportedFeature
// for a property asking for a feature this package does not write.
func Create(ctx context.Context, root string, def TableDefinition, opts WriteOptions) (*CommitResult, error) {
	if def.Schema == nil || len(def.Schema.Fields) == 0 {
		return nil, fmt.Errorf("%w: table %s: Create needs a schema with at least one column", ErrInvalidSchema, root)
	}
	tx, err := BeginCreate(root, def, opts)
	if err != nil {
		return nil, err
	}
	return tx.Commit(ctx)
}

// Append appends the rows of a DuckDB query (run on q) to the table at
// root (see Transaction.Append). The commit is a blind append.
func Append(ctx context.Context, q Querier, root, query string, opts WriteOptions) (*CommitResult, error) {
	return oneShot(ctx, root, opts, func(tx *Transaction) error {
		_, err := tx.Append(ctx, q, query)
		return err
	})
}

// Overwrite replaces every row of the table at root with the rows of a
// DuckDB query (see Transaction.Overwrite).
func Overwrite(ctx context.Context, q Querier, root, query string, opts WriteOptions) (*CommitResult, error) {
	return oneShot(ctx, root, opts, func(tx *Transaction) error {
		_, err := tx.Overwrite(ctx, q, query)
		return err
	})
}

// Delete deletes the rows of the table at root for which predicate is
// TRUE (see Transaction.Delete). When no row matches nothing is committed
// (CommitResult.Committed is false); CommitResult.Metrics holds the
// deleted and copied rows and the files removed and added.
func Delete(ctx context.Context, q Querier, root, predicate string, opts WriteOptions) (*CommitResult, error) {
	return oneShot(ctx, root, opts, func(tx *Transaction) error {
		_, err := tx.Delete(ctx, q, predicate)
		return err
	})
}

// Truncate removes every row of the table at root, keeping its schema,
// properties and id (see Transaction.Truncate).
func Truncate(ctx context.Context, root string, opts WriteOptions) (*CommitResult, error) {
	return oneShot(ctx, root, opts, func(tx *Transaction) error {
		_, err := tx.Truncate(ctx)
		return err
	})
}

func oneShot(ctx context.Context, root string, opts WriteOptions, op func(*Transaction) error) (*CommitResult, error) {
	abs, err := normalizeRoot(root)
	if err != nil {
		return nil, err
	}
	// Snapshot lists the log once and fails with ErrNotDeltaTable when
	// there is none.
	tx, err := (&Table{root: abs}).Begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := op(tx); err != nil {
		tx.Abort()
		return nil, err
	}
	return tx.Commit(ctx)
}

// DropTable removes the Delta table folder at root and everything in it.
// The folder, symbolic links resolved, must pass g.Check (strictly inside
// one of its roots, neither holding a root nor a protected path), else it
// fails with ErrOutsideRoots or ErrProtectedPath; a folder without a
// _delta_log folder fails with ErrNotDeltaTable, unless it is empty (a
// folder left by a failed create, removed as well). That real folder is
// removed. A missing folder is not an error. The folder is first renamed
// to a hidden name next to it, so readers never see a half-deleted table.
// A table in an object store (an s3:// root) is dropped object by object
// (see dropRemote); the guard's roots must then hold a location of it.
func DropTable(ctx context.Context, root string, g Guard) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if strings.TrimSpace(root) == "" {
		return fmt.Errorf("%w: drop: no table folder given", ErrProtectedPath)
	}
	if IsRemoteLocation(root) {
		return dropRemote(ctx, root, g)
	}
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	real, err := g.Check(root)
	if err != nil {
		return fmt.Errorf("drop %s: %w", root, err)
	}
	if st, err := os.Stat(filepath.Join(real, LogDirName)); err != nil || !st.IsDir() {
		if entries, err := os.ReadDir(real); err == nil && len(entries) == 0 {
			if err := RemoveEmptyDir(real); err != nil {
				return fmt.Errorf("drop %s: %w", real, err)
			}
			return syncDir(filepath.Dir(real))
		}
		return fmt.Errorf("%w: refusing to drop %s: it has no %s folder", ErrNotDeltaTable, real, LogDirName)
	}
	trash := filepath.Join(filepath.Dir(real), "."+filepath.Base(real)+".dropped-"+uuid.NewString()[:8])
	if err := os.Rename(real, trash); err != nil {
		return fmt.Errorf("drop %s: %w", real, err)
	}
	FailPoint(FailDropRenamed)
	if err := g.RemoveAll(trash); err != nil {
		return fmt.Errorf("drop %s: the table is gone but %s could not be removed: %w", real, trash, err)
	}
	return syncDir(filepath.Dir(real))
}
