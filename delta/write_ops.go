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
	abs, err := filepath.Abs(root)
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

// Drop removes the table folder at root and everything in it. root must
// be strictly inside lakeRoot (symbolic links resolved), else it fails
// with ErrOutsideLakeRoot; otherwise it is DropTable with
// DropOptions{LakeRoot: lakeRoot}.
func Drop(ctx context.Context, root, lakeRoot string) error {
	if strings.TrimSpace(lakeRoot) == "" {
		return fmt.Errorf("%w: drop %s: no lake root given", ErrOutsideLakeRoot, root)
	}
	return DropTable(ctx, root, DropOptions{LakeRoot: lakeRoot})
}

// DropOptions are the safety rules of DropTable beyond the ones it always
// applies.
type DropOptions struct {
	// LakeRoot, when set, is the folder the table must be strictly inside
	// (ErrOutsideLakeRoot): a table of the lake's catalog.
	LakeRoot string
	// Protected are folders that must survive (the workspace folder, the
	// lake root, a state folder...): the table may be neither one of them
	// nor a folder holding one (ErrProtectedPath).
	Protected []string
}

// DropTable removes the Delta table folder at root and everything in it:
// a table at a path the workspace declares, inside the lake or not. It
// refuses, with ErrProtectedPath, the filesystem root, the home folder,
// the current folder, the folders of opts.Protected and any folder holding
// one of them; with ErrOutsideLakeRoot a folder not strictly inside
// opts.LakeRoot (when set); with ErrNotDeltaTable a folder without a
// _delta_log folder, unless it is empty (a folder left by a failed create,
// removed as well). The checks apply to the path with symbolic links
// resolved, and that real folder is removed. A missing folder is not an
// error. The folder is first renamed to a hidden name next to it, so
// readers never see a half-deleted table.
func DropTable(ctx context.Context, root string, opts DropOptions) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if strings.TrimSpace(root) == "" {
		return fmt.Errorf("%w: drop: no table folder given", ErrProtectedPath)
	}
	lake := ""
	if strings.TrimSpace(opts.LakeRoot) != "" {
		var err error
		if lake, err = realPath(opts.LakeRoot); err != nil {
			return fmt.Errorf("drop %s: lake root %s: %w", root, opts.LakeRoot, err)
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	real, err := realPath(abs)
	if err != nil {
		return fmt.Errorf("drop %s: %w", root, err)
	}
	if lake != "" && !strictlyInside(real, lake) {
		return fmt.Errorf("%w: refusing to drop %s: it is not inside the lake root %s", ErrOutsideLakeRoot, real, lake)
	}
	if err := checkDroppable(real, opts.Protected); err != nil {
		return err
	}
	if st, err := os.Stat(filepath.Join(real, LogDirName)); err != nil || !st.IsDir() {
		if entries, err := os.ReadDir(real); err == nil && len(entries) == 0 {
			if err := os.Remove(real); err != nil {
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
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("drop %s: the table is gone but %s could not be removed: %w", real, trash, err)
	}
	return syncDir(filepath.Dir(real))
}

// checkDroppable refuses a real folder that is the filesystem root, or is
// or holds the home folder, the current folder or a protected folder.
func checkDroppable(real string, protected []string) error {
	if filepath.Dir(real) == real {
		return fmt.Errorf("%w: refusing to drop %s: it is the filesystem root", ErrProtectedPath, real)
	}
	type keep struct{ what, path string }
	var keeps []keep
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		keeps = append(keeps, keep{"the home folder", home})
	}
	if wd, err := os.Getwd(); err == nil {
		keeps = append(keeps, keep{"the current folder", wd})
	}
	for _, p := range protected {
		if strings.TrimSpace(p) != "" {
			keeps = append(keeps, keep{"the protected folder", p})
		}
	}
	for _, k := range keeps {
		p, err := realPath(k.path)
		if err != nil {
			if p, err = filepath.Abs(k.path); err != nil {
				continue
			}
		}
		if p == real || strictlyInside(p, real) {
			what := "is"
			if p != real {
				what = "holds"
			}
			return fmt.Errorf("%w: refusing to drop %s: it %s %s %s", ErrProtectedPath, real, what, k.what, p)
		}
	}
	return nil
}

// strictlyInside reports whether path lies below dir (both absolute and
// clean).
func strictlyInside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// realPath is the absolute path with symbolic links resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
