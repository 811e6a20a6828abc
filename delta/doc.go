// Package delta implements the Delta Lake protocol on the local filesystem:
// log replay into snapshots, scans through DuckDB, transactions with conflict
// checks, and checkpoints. It imports no other package of this project.
package delta
