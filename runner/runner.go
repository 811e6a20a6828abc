package runner

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/dialect/spark"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/polarssql"
	"github.com/laktory/workbench/runner/schemaflow"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Config configures a Runner.
type Config struct {
	// History is the run history runs record into. nil opens the
	// workspace's DIR/.laktory/state.db on the first Start and keeps it
	// open until Close.
	History *history.Store
	// Parallel is the default bound on tasks running at once when a
	// Request leaves it 0; 0 means the number of cores.
	Parallel int
	// Retry is the commit-conflict retry policy; zero fields take the
	// defaults of DefaultRetry.
	Retry RetryPolicy
	// Now is the clock of events (default time.Now).
	Now func() time.Time
	// ForEach are ForEach sinks written in Go (foreach.New, foreach.Func),
	// by name: a `foreach:` sink of that name hands its rows to them
	// instead of the command or HTTP writer its YAML declares.
	ForEach map[string]*foreach.Sink
	// Dialect picks the translator of each node's SQL (nil: Dialect).
	Dialect dialect.Chooser
	// SchemaCache is a folder where Validate keeps the schemas it read and
	// the nodes it bound between processes ("": in memory only).
	SchemaCache string
	// Sandbox, when set, confines the runner's DuckDB, where the SQL of the
	// pipelines runs (and is bound by validation), to its folders and files
	// (delta.OpenConfinedDuckDB): Sandbox(snap) for a workspace. nil leaves
	// DuckDB unconfined, for Go programs running SQL they trust.
	Sandbox *delta.Confinement
	// Engine executes the runs (nil: the local engine, DuckDB and package
	// delta). Planning, validation and the history stay the runner's;
	// Plan refuses what the engine cannot run (engineUnsupported). The
	// runner does not close it.
	Engine engine.Engine

	// Settle is the settle window of landing files: a file whose size or
	// modification time changed within it is not read yet (a stream
	// defers it to a later run, a batch read fails); 0 takes the default
	// (one second), a negative value turns the check off.
	Settle time.Duration

	// hooks for tests.
	beforeCommit func(task string, attempt int)
	// progressEvery is how often writes report their progress (default
	// delta's).
	progressEvery time.Duration
	// afterStep is called after each step of a micro-batch (stepOffsets,
	// stepSink, stepCommit).
	afterStep func(task, flow, step string, batch int64)
}

// settle is the runner's settle window of landing files.
func (r *Runner) settle() time.Duration {
	switch {
	case r.cfg.Settle == 0:
		return landing.DefaultSettle
	case r.cfg.Settle < 0:
		return 0
	}
	return r.cfg.Settle
}

// Runner plans and executes runs of workspaces. It owns one DuckDB
// database shared by its runs (each task uses its own connection). It is
// safe for concurrent use; Close it when done.
type Runner struct {
	cfg Config
	db  *sql.DB
	// local is the local engine over db: schema checks and local runs.
	local engine.Engine
	// sql is DuckDB's parser over db (validate.SQL).
	sql *local.Parser
	// flow checks workspaces against their inputs' schemas (Validate).
	flow *schemaflow.Flow

	mu     sync.Mutex
	stores map[string]*history.Store // opened by the runner, by path
	closed bool
}

// New returns a Runner. It opens the DuckDB database runs use.
func New(cfg Config) (*Runner, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Dialect == nil {
		cfg.Dialect = Dialect
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = runtime.NumCPU()
	}
	cfg.Retry = cfg.Retry.withDefaults()
	db, err := local.OpenDB(context.Background(), cfg.Sandbox)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	// The macros translated Spark SQL and Polars SQL call live in the
	// database, for every connection.
	exec := func(ctx context.Context, s string) error {
		_, err := db.ExecContext(ctx, s)
		return err
	}
	for _, install := range []func(context.Context, func(context.Context, string) error) error{sparksql.Install, polarssql.Install} {
		if err := install(context.Background(), exec); err != nil {
			db.Close()
			return nil, fmt.Errorf("runner: %w", err)
		}
	}
	r := &Runner{cfg: cfg, db: db, stores: map[string]*history.Store{}}
	le := local.New(db, func(ctx context.Context, q local.Querier, files []string, format string, src *workspace.Source) (string, error) {
		return readFileList(ctx, q, files, format, readOptions{src: src})
	})
	r.local, r.sql = le, le.Parser()
	r.flow = schemaflow.New(schemaEngine{r}, schemaflow.Options{StoreDir: cfg.SchemaCache, Version: engineVersion(db)})
	return r, nil
}

// SQL is the runner's SQL parser for validate (validate.Options.SQL,
// validate.Predicate): DuckDB's, over the runner's database.
func (r *Runner) SQL() validate.SQL { return r.sql }

// Tables reads Delta tables through the runner's database (the facts
// of deep validation, the workbench's Table tab): a reader the caller need
// not close (its Close leaves the database open), whose queries fail once
// the runner is closed.
func (r *Runner) Tables() *lake.Reader { return lake.New(r.db, r.sql) }

// Close releases the DuckDB database and the run histories the runner
// opened. Runs still going are not waited for: cancel and Wait them first.
func (r *Runner) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	var errs []error
	for _, s := range r.stores {
		errs = append(errs, s.Close())
	}
	errs = append(errs, r.db.Close())
	return errors.Join(errs...)
}

// store returns the history to record a run of the workspace whose state
// database is path.
func (r *Runner) store(ctx context.Context, path string) (*history.Store, error) {
	if r.cfg.History != nil {
		return r.cfg.History, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("runner: closed")
	}
	if s, ok := r.stores[path]; ok {
		return s, nil
	}
	s, err := history.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	r.stores[path] = s
	return s, nil
}

// Dialect is the translator of a node's SQL: the one place that picks it,
// for runs (the compiler) and for validation (the schema flow). PYSPARK
// nodes (Laktory's default backend) write Spark SQL, translated with
// Spark's semantics (runner/sparksql); POLARS nodes write Polars SQL,
// translated with polars 1.32.0's (runner/polarssql). On both, the
// expressions Laktory evaluates with its own SQL parser
// (dialect.LaktoryExpression) accept what that parser accepts.
func Dialect(n *workspace.Node) dialect.Translator {
	if n.DataframeBackend == "POLARS" {
		return polarssql.Translator{}
	}
	return spark.Translator{Opts: spark.Options(n)}
}
