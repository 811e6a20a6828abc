package delta

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

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
