// Package delta implements the Delta Lake protocol on the local filesystem:
// log replay into snapshots, scans through DuckDB, transactions with conflict
// checks, and checkpoints. It imports no other package of this project.
//
// Reading a table:
//
//	t, err := delta.Open(ctx, "/lake/main/default/prices") // ErrNotDeltaTable if it is not one
//	s, err := t.Snapshot(ctx)                               // latest version
//	s, err = t.Snapshot(ctx, delta.AtVersion(3))            // time travel
//	s, err = t.Snapshot(ctx, delta.AtTimestamp(ts))
//
// A *Snapshot is immutable: protocol, metadata, schema, partition columns,
// live files (add actions keyed by path and deletion vector), tombstones,
// application transactions (txn) and domain metadata at one version.
//
// The log's JSON actions are the Go types of actions.go (Action, Add,
// Remove, Metadata, Protocol, CommitInfo, ...); they marshal to the JSON
// that Spark and delta-rs write, so writers build commits with them
// (MarshalCommit) and readers parse commits with ParseCommit. The schema
// (schemaString) is a *StructType; DuckDBType and ParseDuckDBType map Delta
// types to DuckDB types and back.
//
// Reading rows goes through DuckDB (OpenDuckDB gives a configured
// in-memory database to share). s.ScanSQL(ctx, ScanOptions{...}) returns one
// SELECT over read_parquet of the live files: partition values typed from
// the log, column mapping and deletion vectors applied, columns missing from
// older files as NULL, a projection, and a WHERE whose simple conditions
// also skip files by partition values and min/max stats. It references no
// temporary object: wrap it, create a view on it (CreateView), or run it for
// Go rows (Query; JSONValue and TextValue render the values).
//
// Table facts: Snapshot (schema, properties, files, NumRecords,
// AppTransactionVersion...), Table.History (commitInfo per version), and
// Snapshot.ChangesSince plus VersionChange.StreamFiles for streaming
// readers, with the rules of Spark's Delta source.
//
// Writing: Create, Append, Overwrite, Delete and Truncate are one-shot
// operations on a table folder; DropTable removes a table folder that a
// Guard allows (strictly inside the workspace's roots). Guard is the one
// check every folder removal of the product goes through.
// A *Transaction (Snapshot.Begin, Table.Begin, BeginCreate) composes
// operations into one commit, e.g. the full refresh of one writer of a
// shared table:
//
//	tx, err := snap.Begin(delta.WriteOptions{})
//	_, err = tx.Delete(ctx, conn, "writer = 'a'")
//	_, err = tx.Append(ctx, conn, "SELECT 'a' AS writer, * FROM staged")
//	res, err := tx.Commit(ctx)
//	if delta.IsRetryable(err) { /* back off, re-plan on a new snapshot, retry */ }
//
// DuckDB writes the data files (COPY ... RETURN_STATS, with Delta stats);
// a commit is put-if-absent (a temporary file os.Link-ed to the version's
// name); a lost race is checked against the winning commits with Spark's
// rules (Serializable) and rebased when they do not conflict; a classic
// checkpoint follows every delta.checkpointInterval (10) commits.
//
// Errors wrap the sentinels of errors.go (test them with errors.Is); their
// messages name the table, the version and the file.
package delta
