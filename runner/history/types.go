package history

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Status is the state of a run or a task.
type Status string

// Statuses of runs and tasks. Skipped applies to tasks only (an upstream task
// failed); Interrupted marks a run (and its open tasks) whose process ended
// without finishing it, as found by MarkInterrupted.
const (
	StatusQueued      Status = "queued"
	StatusRunning     Status = "running"
	StatusSucceeded   Status = "succeeded"
	StatusFailed      Status = "failed"
	StatusCancelled   Status = "cancelled"
	StatusSkipped     Status = "skipped"
	StatusInterrupted Status = "interrupted"
)

// Done reports whether s is final (the run or task has ended).
func (s Status) Done() bool {
	switch s {
	case StatusSucceeded, StatusFailed, StatusCancelled, StatusSkipped, StatusInterrupted:
		return true
	}
	return false
}

func (s Status) check(allowed ...Status) error {
	for _, a := range allowed {
		if s == a {
			return nil
		}
	}
	return fmt.Errorf("%w: status %q (want one of %v)", ErrInvalid, s, allowed)
}

// Refresh is the kind of refresh a run does.
type Refresh string

// Refresh kinds, as Laktory spells them.
const (
	RefreshIncremental Refresh = "INCREMENTAL"
	RefreshFull        Refresh = "FULL"
	RefreshReset       Refresh = "RESET"
)

// ResetMode overrides how a sink is reset; empty means no override.
type ResetMode string

// Reset modes.
const (
	ResetDrop     ResetMode = "DROP"
	ResetTruncate ResetMode = "TRUNCATE"
)

// Severity grades a message.
type Severity string

// Severities of messages.
const (
	SeverityInfo    Severity = "info"
	SeverityWarning Severity = "warning"
	SeverityError   Severity = "error"
)

// RunStart describes a run as it starts (StartRun).
type RunStart struct {
	Workspace   string    // workspace folder
	Env         string    // stack environment, if any
	Refresh     Refresh   // default INCREMENTAL
	ResetMode   ResetMode // "" when not overridden
	Pipelines   []string  // selected pipelines (empty: all)
	Selectors   []string  // node selectors (name, *name, name*, tags)
	Parallelism int
	Status      Status // StatusRunning (default) or StatusQueued
	// Engine is the engine executing the run ("": the local one) and
	// Remote its address (a Spark Connect sc://host:port).
	Engine, Remote string
	// StartedAt is when the run started, as its caller measured it (and
	// prints it); zero: the store's clock now.
	StartedAt time.Time
}

// RunEnd is how a run ended (FinishRun).
type RunEnd struct {
	Status Status // succeeded, failed or cancelled
	Error  string // why it failed, if it did
	// EndedAt is when the run ended, as its caller measured it; zero: the
	// store's clock now.
	EndedAt time.Time
}

// Run is one run as stored, with its summary. The counters are kept by the
// store as tasks, operations, retries and messages are recorded, so they
// are current while the run is still going: RowsWritten and RowsDeleted sum
// the operations' rows added and deleted, RowsRead the tasks' rows read.
type Run struct {
	ID          int64     `json:"id"`
	Status      Status    `json:"status"`
	StartedAt   time.Time `json:"started_at"`
	EndedAt     time.Time `json:"ended_at,omitzero"`
	Workspace   string    `json:"workspace"`
	Env         string    `json:"env,omitempty"`
	Refresh     Refresh   `json:"refresh"`
	ResetMode   ResetMode `json:"reset_mode,omitempty"`
	Pipelines   []string  `json:"pipelines"`
	Selectors   []string  `json:"selectors"`
	Parallelism int       `json:"parallelism"`
	Engine      string    `json:"engine,omitempty"` // "": the local engine
	Remote      string    `json:"remote,omitempty"`
	Tasks       int64     `json:"tasks"`
	TasksFailed int64     `json:"tasks_failed"`
	RowsRead    int64     `json:"rows_read"`
	RowsWritten int64     `json:"rows_written"`
	RowsDeleted int64     `json:"rows_deleted"`
	Retries     int64     `json:"retries"`
	Warnings    int64     `json:"warnings"`
	Errors      int64     `json:"errors"`
	Error       string    `json:"error,omitempty"`
	Host        string    `json:"host"` // the process that ran it
	PID         int       `json:"pid"`
}

// Duration is how long the run took, or 0 while it has not ended.
func (r Run) Duration() time.Duration { return span(r.StartedAt, r.EndedAt) }

// EngineLabel names the engine of the run and where it ran, as lists show
// it: "local", or "spark sc://127.0.0.1:15002".
func (r Run) EngineLabel() string {
	if r.Engine == "" {
		return "local"
	}
	return strings.TrimSpace(r.Engine + " " + r.Remote)
}

func span(from, to time.Time) time.Duration {
	if from.IsZero() || to.IsZero() {
		return 0
	}
	return to.Sub(from)
}

// TaskStart names a task as it is queued or starts (StartTask).
type TaskStart struct {
	Key      string // default "pipeline.node"
	Pipeline string
	Node     string
	Status   Status // StatusRunning (default) or StatusQueued
	// StartedAt is when a running task started, as its caller measured
	// it; zero: the store's clock now.
	StartedAt time.Time
}

// TaskEnd is how a task ended (FinishTask).
type TaskEnd struct {
	Status   Status // succeeded, failed, cancelled or skipped
	RowsRead int64
	Error    string
	// EndedAt is when the task ended, as its caller measured it; zero:
	// the store's clock now.
	EndedAt time.Time
}

// Task is one node of a run. RowsWritten, RowsDeleted and Retries come from
// the operations and retries recorded for it.
type Task struct {
	RunID       int64     `json:"run_id"`
	Key         string    `json:"key"`
	Pipeline    string    `json:"pipeline"`
	Node        string    `json:"node"`
	Status      Status    `json:"status"`
	StartedAt   time.Time `json:"started_at,omitzero"`
	EndedAt     time.Time `json:"ended_at,omitzero"`
	RowsRead    int64     `json:"rows_read"`
	RowsWritten int64     `json:"rows_written"`
	RowsDeleted int64     `json:"rows_deleted"`
	Retries     int64     `json:"retries"`
	Error       string    `json:"error,omitempty"`
}

// Duration is how long the task took, or 0 while it has not ended.
func (t Task) Duration() time.Duration { return span(t.StartedAt, t.EndedAt) }

// Operation is one change a run made to a table: a Delta commit (WRITE,
// DELETE, TRUNCATE, CREATE TABLE, ...), a DROP, or a file sink write.
// ID, RunID and At are set by the store.
type Operation struct {
	ID          int64  `json:"id"`
	RunID       int64  `json:"run_id"`
	Task        string `json:"task,omitempty"` // task key; empty for the run itself
	Table       string `json:"table"`
	Path        string `json:"path,omitempty"`
	Version     *int64 `json:"version"` // Delta version committed; nil when none
	Operation   string `json:"operation"`
	Detail      string `json:"detail,omitempty"` // e.g. mode or predicate
	RowsAdded   int64  `json:"rows_added"`
	RowsDeleted int64  `json:"rows_deleted"`
	// RowsUpdated are the rows a MERGE updated in place (its inserted
	// rows are RowsAdded, its deleted ones RowsDeleted).
	RowsUpdated  int64         `json:"rows_updated"`
	FilesAdded   int64         `json:"files_added"`
	FilesRemoved int64         `json:"files_removed"`
	Duration     time.Duration `json:"-"` // as duration_ms in JSON
	At           time.Time     `json:"at"`
}

// MarshalJSON writes Duration as whole milliseconds (duration_ms).
func (o Operation) MarshalJSON() ([]byte, error) {
	type plain Operation
	return json.Marshal(struct {
		plain
		DurationMS int64 `json:"duration_ms"`
	}{plain(o), o.Duration.Milliseconds()})
}

// Retry is one retry of a commit after a conflict. ID, RunID and At are set
// by the store.
type Retry struct {
	ID      int64         `json:"id"`
	RunID   int64         `json:"run_id"`
	Task    string        `json:"task,omitempty"`
	Table   string        `json:"table,omitempty"`
	Attempt int           `json:"attempt"` // 1 for the first retry
	Delay   time.Duration `json:"-"`       // as delay_ms in JSON
	Error   string        `json:"error"`   // the conflict that caused it
	At      time.Time     `json:"at"`
}

// MarshalJSON writes Delay as whole milliseconds (delay_ms).
func (r Retry) MarshalJSON() ([]byte, error) {
	type plain Retry
	return json.Marshal(struct {
		plain
		DelayMS int64 `json:"delay_ms"`
	}{plain(r), r.Delay.Milliseconds()})
}

// Deletion is the rows deleted from a shared table for one writer, named by
// its writer id or by its predicate. ID, RunID and At are set by the store.
// The run's RowsDeleted counter comes from operations, not from deletions:
// record the DELETE commit as an Operation too.
type Deletion struct {
	ID        int64     `json:"id"`
	RunID     int64     `json:"run_id"`
	Task      string    `json:"task,omitempty"`
	Table     string    `json:"table"`
	Writer    string    `json:"writer,omitempty"`
	Predicate string    `json:"predicate,omitempty"`
	Rows      int64     `json:"rows_deleted"`
	Version   *int64    `json:"version"` // the Delta version of the delete, if known
	At        time.Time `json:"at"`
}

// Message is a warning, error or note shown to the user. ID, RunID and At
// are set by the store.
type Message struct {
	ID       int64     `json:"id"`
	RunID    int64     `json:"run_id"`
	Task     string    `json:"task,omitempty"`
	Severity Severity  `json:"severity"`
	Code     string    `json:"code,omitempty"`
	Text     string    `json:"text"`
	At       time.Time `json:"at"`
}

// Event is an entry of a run's structured event log, for everything without
// a table of its own (ForEach sink definitions, flow progress, ...). Seq
// numbers a run's events from 1; RunID, Seq and At are set by the store.
type Event struct {
	RunID   int64           `json:"run_id"`
	Seq     int64           `json:"seq"`
	At      time.Time       `json:"at"`
	Kind    string          `json:"kind"`
	Task    string          `json:"task,omitempty"`
	Payload json.RawMessage `json:"payload"` // a JSON value; empty means {}
}

// Flow is an append flow of a table of a declarative pipeline, as last seen
// by a run. RecordFlows sets the runs and times.
type Flow struct {
	Table     string    `json:"table"`
	Pipeline  string    `json:"pipeline"`
	Name      string    `json:"name"`
	FirstRun  int64     `json:"first_run"`
	LastRun   int64     `json:"last_run"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
}

// Checkpoint is a streaming checkpoint a flow committed batches through.
type Checkpoint struct {
	// Path is the checkpoint's folder, relative to the workspace.
	Path    string    `json:"path"`
	Flow    string    `json:"flow"`
	QueryID string    `json:"query_id"`
	RunID   int64     `json:"run_id"`
	At      time.Time `json:"at"`
}

// RunDetail is a run with everything recorded about it, each list in the
// order it was recorded (tasks by start).
type RunDetail struct {
	Run        Run         `json:"run"`
	Tasks      []Task      `json:"tasks"`
	Operations []Operation `json:"operations"`
	Retries    []Retry     `json:"retries"`
	Deletions  []Deletion  `json:"deletions"`
	Messages   []Message   `json:"messages"`
	Events     []Event     `json:"events"`
}

// Page selects one page of runs, newest first. Set Before to the ID of the
// last run of a page to get the next (older) page, or After to the ID of the
// first run to get the previous (newer) one; with neither, the newest runs.
type Page struct {
	Limit  int   // default 20, at most 1000
	Before int64 // only runs with a smaller id
	After  int64 // only runs with a larger id
}

// Filter narrows a run listing; zero fields match everything.
type Filter struct {
	Status   Status
	Pipeline string // runs that selected the pipeline or ran one of its nodes
}

// RunPage is one page of runs, newest first. HasOlder and HasNewer tell
// whether runs matching the filter exist beyond each end of the page.
type RunPage struct {
	Runs     []Run `json:"runs"`
	HasOlder bool  `json:"has_older"`
	HasNewer bool  `json:"has_newer"`
}
