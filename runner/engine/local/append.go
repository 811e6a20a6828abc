package local

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/runner/engine"
)

// AppendJSONRows creates the table memory.main.tbl (one VARCHAR column j)
// in db, the local engine's database, and appends to it with DuckDB's
// appender each row rows returns (engine.Rows: one JSON object a row),
// until its end or until ctx is done: how the rows another engine
// returns come into the local database (the ForEach sinks' partitions
// read them there). The caller closes rows and drops the table.
func AppendJSONRows(ctx context.Context, db *sql.DB, tbl string, rows engine.Rows) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE TABLE memory.main."+quoteIdent(tbl)+" (j VARCHAR)"); err != nil {
		return err
	}
	return conn.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), "memory", "main", tbl)
		if err != nil {
			return err
		}
		for n := 0; ; n++ {
			if n%4096 == 0 && ctx.Err() != nil {
				err = ctx.Err()
				break
			}
			var row []byte
			if row, err = rows.Next(); err != nil {
				break
			}
			if err = a.AppendRow(string(row)); err != nil {
				break
			}
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
		return errors.Join(err, a.Close())
	})
}
