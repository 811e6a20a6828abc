package delta

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// duckDBConfig is applied when the database is created: no extension is
// ever downloaded or auto-loaded (the bundled parquet, json, icu and
// core_functions are built in), and queries need not keep insertion order,
// which lets DuckDB stream large scans and COPYs in much less memory.
const duckDBConfig = "?autoinstall_known_extensions=false&autoload_known_extensions=false&preserve_insertion_order=false"

// OpenDuckDB opens an in-memory DuckDB database configured for this
// product: extensions are never installed or auto-loaded,
// preserve_insertion_order is off, and every connection runs with
// TimeZone 'UTC' (scans cast timestamps stored without a zone, such as
// INT96, to TIMESTAMPTZ, which uses the session time zone). Close the
// returned *sql.DB when done. Temporary views and tables live per
// connection: take a *sql.Conn (db.Conn) to use CreateView.
func OpenDuckDB(ctx context.Context) (*sql.DB, error) {
	c, err := duckdb.NewConnector(duckDBConfig, func(e driver.ExecerContext) error {
		// Connections outlive ctx: initialise them without it.
		_, err := e.ExecContext(context.Background(), "SET TimeZone = 'UTC'", nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("open DuckDB: %w", err)
	}
	db := sql.OpenDB(c)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open DuckDB: %w", err)
	}
	return db, nil
}

// Querier runs a query: *sql.DB, *sql.Conn and *sql.Tx all satisfy it.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Confinement is what SQL run on a confined database may touch: DuckDB's
// own sandbox (enable_external_access off, allowed_directories and
// allowed_paths), for SQL a pipeline file brings (transformers,
// expectations, filters), so that it reads and writes only there.
type Confinement struct {
	// Dirs are the folders SQL may read and write, with what they hold.
	Dirs []string
	// Files are single files SQL may read.
	Files []string
	// TempDir is where DuckDB spills what does not fit in memory; it must
	// lie inside one of Dirs.
	TempDir string
	// Threads, when above 0, is DuckDB's threads setting, set before the
	// configuration is locked (0: DuckDB's default, one per core).
	Threads int
}

// OpenConfinedDuckDB opens a database as OpenDuckDB does whose SQL may
// read and write only what c allows: reading or writing elsewhere (COPY,
// read_csv, glob, ATTACH of a file...) fails with DuckDB's "Permission
// Error"; INSTALL and LOAD fail; the configuration is locked, so SQL
// cannot widen it (SET fails).
func OpenConfinedDuckDB(ctx context.Context, c Confinement) (*sql.DB, error) {
	conn, err := duckdb.NewConnector(duckDBConfig, nil)
	if err != nil {
		return nil, fmt.Errorf("open DuckDB: %w", err)
	}
	db := sql.OpenDB(conn)
	str := func(p string) string { return "'" + strings.ReplaceAll(p, "'", "''") + "'" }
	list := func(ps []string) string {
		q := make([]string, len(ps))
		for i, p := range ps {
			q[i] = str(p)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	setup := []string{
		"SET GLOBAL TimeZone = 'UTC'", // every connection, as OpenDuckDB does per connection
		"SET allowed_directories = " + list(c.Dirs),
		"SET allowed_paths = " + list(c.Files),
	}
	if c.TempDir != "" {
		setup = append(setup, "SET temp_directory = "+str(c.TempDir))
	}
	if c.Threads > 0 {
		setup = append(setup, fmt.Sprintf("SET threads = %d", c.Threads))
	}
	setup = append(setup, "SET enable_external_access = false", "SET lock_configuration = true")
	for _, s := range setup {
		if _, err := db.ExecContext(ctx, s); err != nil {
			db.Close()
			return nil, fmt.Errorf("open DuckDB: %s: %w", s, err)
		}
	}
	return db, nil
}
