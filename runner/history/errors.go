package history

import "errors"

var (
	// ErrNewerSchema means the database was written by a newer laktory, whose
	// schema this binary does not know. Nothing was changed: upgrade laktory.
	ErrNewerSchema = errors.New("run history written by a newer laktory")

	// ErrNotDatabase means the file is not a SQLite database (or is damaged).
	ErrNotDatabase = errors.New("run history file is not a SQLite database")

	// ErrNotFound means the run (or the task of a run) is not in the history.
	ErrNotFound = errors.New("not found in run history")

	// ErrInvalid means a value passed to a record method cannot be stored
	// (unknown status, empty task key, malformed JSON payload, ...).
	ErrInvalid = errors.New("invalid run history record")

	// ErrOutside means the history file (or its folder) is a symbolic link
	// leading outside the workspace that holds it: another application's
	// database would be migrated and written. Nothing was opened.
	ErrOutside = errors.New("run history file leads outside its workspace")

	// ErrLocked means another connection or process kept the database
	// locked for longer than a write waits (LockWait): the record was not
	// written.
	ErrLocked = errors.New("run history stayed locked")
)
