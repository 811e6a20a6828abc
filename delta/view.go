package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// A view of the lake's local catalog: a VIEW sink (`table_type: VIEW`)
// holds no rows, only its SQL, which readers evaluate over the tables it
// reads when they read it, as a Spark catalog's view is. It takes the
// folder its name maps to, as a table would (lake/<catalog>/<schema>/<view>),
// with one file, ViewFileName, so that a view and a table of one name
// cannot both exist and every tool that lists the lake's folders sees it
// (docs/delta-tables.md, "Views").

// ViewFileName is the file of a view in its folder.
const ViewFileName = "_laktory_view.json"

// ViewFormat is the version of the view file's format this package writes
// and reads.
const ViewFormat = 1

// viewTmpName is the file a view is written to before it is renamed into
// place.
const viewTmpName = "." + ViewFileName + ".tmp"

// ErrNotView: a folder holds something else than a view (a Delta table,
// other files), which a view is not written over.
var ErrNotView = errors.New("not a view")

// View is the content of a view file.
type View struct {
	// Format is ViewFormat.
	Format int `json:"format"`
	// Name is the view's full name (catalog.schema.view, as Laktory names
	// the sink).
	Name string `json:"name"`
	// SQL is the statement Laktory 0.13.1 runs on Spark for the sink:
	// CREATE OR REPLACE VIEW <name> AS <the node's SQL, its {df},
	// {sources.x} and {nodes.x} replaced by the full names of the tables
	// they read>.
	SQL string `json:"sql"`
	// Dialect is the SQL's dialect (the node's dataframe_backend: PYSPARK).
	Dialect string `json:"dialect"`
	// Query is the view's SELECT as readers evaluate it: the node's SQL
	// with each table it reads as {sources.<ref>} of Inputs.
	Query  string      `json:"query"`
	Inputs []ViewInput `json:"inputs"`
	// SparkConf holds the node's Spark settings the SQL depends on
	// (spark.sql.session.timeZone).
	SparkConf map[string]string `json:"spark_conf,omitempty"`
	// Columns are the view's columns when it was created.
	Columns []ViewColumn `json:"columns"`
	// Pipeline and Node wrote the view; CreatedAt is when.
	Pipeline  string    `json:"pipeline"`
	Node      string    `json:"node"`
	CreatedAt time.Time `json:"created_at"`
}

// ViewInput is a table a view reads.
type ViewInput struct {
	// Ref is its name in Query ({sources.<ref>}).
	Ref string `json:"ref"`
	// Table is the table's full name as the SQL names it.
	Table string `json:"table"`
	// Path is the table's folder, relative to the view's folder.
	Path string `json:"path"`
}

// ViewColumn is a column of a view.
type ViewColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// ReadView reads the view at folder dir: nil (and no error) when dir holds
// no view file.
func ReadView(dir string) (*View, error) {
	b, err := os.ReadFile(filepath.Join(dir, ViewFileName))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("view %s: %w", dir, err)
	}
	var v View
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("view %s: %s is not a view file: %w", dir, ViewFileName, err)
	}
	if v.Format != ViewFormat {
		return nil, fmt.Errorf("view %s: format %d of %s is not %d, the one this version reads", dir, v.Format, ViewFileName, ViewFormat)
	}
	return &v, nil
}

// InputPath is the absolute folder of input in of the view at dir.
func (v *View) InputPath(dir string, in ViewInput) string {
	if filepath.IsAbs(in.Path) {
		return in.Path
	}
	return filepath.Clean(filepath.Join(dir, in.Path))
}

// WriteView creates or replaces the view at dir (CREATE OR REPLACE VIEW):
// the file is written beside, then renamed over the old one, so a reader
// sees the old view or the new one. It refuses a folder holding a Delta
// table or any other file (ErrNotView), as Spark refuses to replace a
// table by a view, and a folder the guard does not allow.
func WriteView(ctx context.Context, dir string, v *View, g Guard) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if IsRemoteLocation(dir) {
		return fmt.Errorf("%w: cannot create view %s at %s: views live in a local lake only", ErrNotView, v.Name, dir)
	}
	real, err := g.Check(dir)
	if err != nil {
		return fmt.Errorf("create view %s: %w", dir, err)
	}
	entries, err := os.ReadDir(real)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("create view %s: %w", dir, err)
	}
	tmp := filepath.Join(real, viewTmpName)
	for _, e := range entries {
		if e.Name() == viewTmpName {
			// What a write that crashed before its rename left: its own.
			if err := RemoveFile(tmp); err != nil {
				return fmt.Errorf("create view %s: %w", dir, err)
			}
			continue
		}
		if e.Name() == LogDirName {
			return fmt.Errorf("%w: cannot create view %s: a Delta table is at %s; drop it first (a RESET with reset_mode DROP of its writer)", ErrNotView, v.Name, real)
		}
		if e.Name() != ViewFileName {
			return fmt.Errorf("%w: cannot create view %s: %s holds %s, which no view wrote", ErrNotView, v.Name, real, e.Name())
		}
	}
	v.Format = ViewFormat
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(real, 0o755); err != nil {
		return fmt.Errorf("create view %s: %w", dir, err)
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("create view %s: %w", dir, err)
	}
	_, werr := f.Write(append(b, '\n'))
	FailPoint(FailViewWritten)
	if err := f.Sync(); werr == nil {
		werr = err
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr == nil {
		werr = os.Rename(tmp, filepath.Join(real, ViewFileName))
	}
	if werr != nil {
		_ = RemoveFile(tmp)
		return fmt.Errorf("create view %s: %w", dir, werr)
	}
	return syncDir(real)
}

// DropView removes the view at dir (DROP VIEW IF EXISTS): its file, then
// its folder when nothing else is left in it. A folder holding a Delta
// table is refused (ErrNotView); no view is no error.
func DropView(ctx context.Context, dir string, g Guard) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if IsRemoteLocation(dir) {
		return nil // no view is written there (WriteView)
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	real, err := g.Check(dir)
	if err != nil {
		return fmt.Errorf("drop view %s: %w", dir, err)
	}
	if st, err := os.Stat(filepath.Join(real, LogDirName)); err == nil && st.IsDir() {
		return fmt.Errorf("%w: refusing to drop %s as a view: it is a Delta table", ErrNotView, real)
	}
	for _, name := range []string{ViewFileName, viewTmpName} {
		if err := RemoveFile(filepath.Join(real, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("drop view %s: %w", dir, err)
		}
	}
	if entries, err := os.ReadDir(real); err == nil && len(entries) == 0 {
		if err := RemoveEmptyDir(real); err != nil {
			return fmt.Errorf("drop view %s: %w", dir, err)
		}
		return syncDir(filepath.Dir(real))
	}
	return nil
}

// IsView reports whether dir holds a view file.
func IsView(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, ViewFileName))
	return err == nil && st.Mode().IsRegular()
}
