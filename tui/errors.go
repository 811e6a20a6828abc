package tui

import "errors"

// Sentinel errors of the workbench.
var (
	// ErrNoRunner: a run was asked for but the workbench has no runner.
	ErrNoRunner = errors.New("runs need the runner, which this build does not have")

	// ErrNoEditor: a file was to be opened but neither $EDITOR nor $VISUAL
	// is set.
	ErrNoEditor = errors.New("no editor: set $EDITOR (e.g. EDITOR=vim) to open files from the workbench")

	// ErrNoTable: the selection holds no table (a ForEach sink, a pipeline
	// writing nothing...).
	ErrNoTable = errors.New("the selection writes no table")
)
