package tui

import (
	"context"
	"time"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Runner plans and starts refreshes. The runner package implements it
// (through a small adapter, as its Start returns its own run type).
type Runner interface {
	// Plan validates a request against a snapshot and returns what the run
	// will do, destructive effects included; an invalid request is an error.
	Plan(ctx context.Context, snap *workspace.Snapshot, req runner.Request) (*runner.Plan, error)
	// Start executes a plan in the background.
	Start(ctx context.Context, plan *runner.Plan) (RunHandle, error)
}

// RunHandle is a run in progress.
type RunHandle interface {
	// Events delivers the run's events in order and is closed when the run
	// has ended.
	Events() <-chan runner.Event
	// Cancel asks the run to stop; Events still delivers its last events.
	Cancel()
}

// Validator checks a workspace with what reading it takes: the schema flow
// binds every node's SQL against the schemas of its sources and tables, on
// top of validate's rules. LocalRunner implements it.
type Validator interface {
	Validate(ctx context.Context, snap *workspace.Snapshot, opts validate.Options) ([]workspace.Diagnostic, error)
}

// History reads the run history. *history.Store implements it.
type History interface {
	ListRuns(ctx context.Context, p history.Page, f history.Filter) (history.RunPage, error)
	RunDetail(ctx context.Context, id int64) (history.RunDetail, error)
	// LastTasks returns the latest task of each node ("" = all pipelines).
	LastTasks(ctx context.Context, pipeline string) ([]history.Task, error)
}

// Lake reads the tables of a workspace. DeltaLake implements it.
type Lake interface {
	// Stats reads what the graph and the deep validation rules need of
	// every table the workspace writes. A table that cannot be read has
	// its Facts.Err set; the error is for failures of the whole call.
	Stats(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]TableStats, error)
	// Table reads one table for the Table tab (its rows per writer come
	// from Stats).
	Table(ctx context.Context, snap *workspace.Snapshot, id workspace.TableID) (*TableInfo, error)
}

// The tables as the runner side reads them (package runner/lake).
type (
	// TableStats is what is known of a table on disk.
	TableStats = lake.TableStats
	// Preview is the first rows of a table, as text.
	Preview = lake.Preview
)

// TableInfo is one table as the Table tab shows it (lake.TableInfo).
type TableInfo struct {
	ID workspace.TableID
	// Stats holds the table's existence, version and row count (its facts
	// hold no rows per writer: those come from Lake.Stats).
	Stats     TableStats
	Timestamp time.Time
	Files     int
	SizeBytes int64
	// History is the table's commits, newest first (at most HistoryLimit).
	History    []lake.HistoryEntry
	Columns    []ColumnInfo
	Partitions []string
	Properties map[string]string
	Preview    Preview
	// View is set when the table's folder holds a view (a VIEW sink).
	View *ViewInfo
}

// ViewInfo is a view of the lake's local catalog (delta.View).
type ViewInfo struct {
	Name, SQL, Dialect string
	Pipeline, Node     string
	// Reads are the full names of the tables the view reads.
	Reads []string
}

// ColumnInfo is one column of a table's schema (lake.ColumnInfo).
type ColumnInfo struct {
	Name      string
	Type      string
	Nullable  bool
	Partition bool
}

// tableInfo is the Table tab's view of what the reader read.
func tableInfo(t *lake.TableInfo) *TableInfo {
	info := &TableInfo{ID: t.ID, Stats: t.Stats, Timestamp: t.Timestamp, Files: t.Files, SizeBytes: t.SizeBytes,
		History: t.History, Partitions: t.Partitions, Properties: t.Properties, Preview: t.Preview}
	for _, c := range t.Columns {
		info.Columns = append(info.Columns, ColumnInfo(c))
	}
	if v := t.View; v != nil {
		info.View = &ViewInfo{Name: v.Name, SQL: v.SQL, Dialect: v.Dialect, Pipeline: v.Pipeline, Node: v.Node}
		for _, in := range v.Inputs {
			info.View.Reads = append(info.View.Reads, in.Table)
		}
	}
	return info
}

// WatchDebounce is the quiet period the workbench asks of the watcher
// (workspace.WatchOptions): short, so a save is validated and shown well
// within 100 ms, yet long enough to see an editor's write-then-rename as one
// change.
const WatchDebounce = 40 * time.Millisecond

// Deps is what the workbench works on. Only Snapshot is required.
type Deps struct {
	// Context bounds every command; cancel it to stop the watcher and the
	// reads when the program ends (default: context.Background()).
	Context context.Context
	// Snapshot is the workspace as loaded.
	Snapshot *workspace.Snapshot
	// Diagnostics are the snapshot's validated diagnostics; nil runs
	// validate.Check once in New.
	Diagnostics []workspace.Diagnostic
	// Events are the watcher's reloads (workspace.Watch); nil: no live
	// validation.
	Events <-chan workspace.Event
	// Runner starts refreshes on the local engine; nil: the run keys say
	// runs need the runner.
	Runner Runner
	// Engines offers the Spark engine in the run dialog; nil: runs are
	// local and the dialog shows no engine choice.
	Engines *Engines
	// Validator validates each snapshot (in a command); nil: validate's
	// rules only.
	Validator Validator
	// SQL parses the SQL of validate's rules where the Validator does not
	// validate (the first validation in New, and without a Validator):
	// the runner's (runner.Runner.SQL). nil: `where` predicates are not
	// checked there.
	SQL validate.SQL
	// History lists past runs; nil: no history.
	History History
	// Lake reads tables; nil: no table facts, no Table tab data.
	Lake Lake
	// Editor is the command that opens files ($EDITOR); "" disables it.
	Editor string
	// NoColor draws without colours (NO_COLOR): reverse video and marks
	// carry the meaning.
	NoColor bool
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Tick is how often the elapsed times of a run in progress are
	// redrawn (default 1s; negative: never, for tests).
	Tick time.Duration
	// Parallel is the parallelism of the runs started (0: the runner's
	// default).
	Parallel int
	// Watch starts with watch mode on (w toggles it); Data reports the
	// changed files the sources read (nil: watch mode sees only saved
	// pipelines); WatchDebounce is the quiet time before a watch run
	// (default watch.DefaultDebounce).
	Watch         bool
	Data          DataWatcher
	WatchDebounce time.Duration
}
