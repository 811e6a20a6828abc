// Package runner plans and executes refreshes of a workspace against the local lake, emits events, and keeps the run history in SQLite.
package runner
