package sparksql

import (
	"context"
	"database/sql"

	"github.com/laktory/workbench/runner/engine/local"
)

// installTest prepares db, a database a test opened itself, as the
// runner's is: the local engine's Go functions (spark_sha2) and the
// front end's macros.
func installTest(ctx context.Context, db *sql.DB) error {
	if err := local.RegisterFunctions(ctx, db); err != nil {
		return err
	}
	return Install(ctx, func(ctx context.Context, s string) error { _, err := db.ExecContext(ctx, s); return err })
}
