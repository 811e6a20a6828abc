package tui

import "errors"

// Sentinel errors of the workbench.
var (
	// ErrNoRunner: a run was asked for but the workbench has no runner.
	ErrNoRunner = errors.New("runs need the runner, which this build does not have")

	// ErrEngineUnavailable: the run's engine cannot be used (the Spark
	// engine without a valid Spark Connect server).
	ErrEngineUnavailable = errors.New("the spark engine is unavailable")

	// ErrNoEditor: a file was to be opened but neither $EDITOR nor $VISUAL
	// is set.
	ErrNoEditor = errors.New("no editor: set $EDITOR (e.g. EDITOR=vim) to open files from the workbench")

	// ErrNoTable: the selection holds no table (a ForEach sink, a pipeline
	// writing nothing...).
	ErrNoTable = errors.New("the selection writes no table")
)
