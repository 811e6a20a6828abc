package runner

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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
	// Threads is DuckDB's threads setting for the local engine's database
	// (local.Options); 0 leaves DuckDB's default, one per core. One thread
	// costs less CPU (DuckDB 1.5's calling thread polls without waiting
	// while its query's last tasks run on the others, duckdb/duckdb#22178)
	// but a lone pipeline reads CSV slower (docs/performance.md).
	Threads int
	// Retry is the commit-conflict retry policy; zero fields take the
	// defaults of DefaultRetry.
	Retry RetryPolicy
	// Now is the clock of events (default time.Now).
	Now func() time.Time
	// LeaseTTL is how long the lease of a bucket table a Spark-engine run
	// writes lasts unless renewed (0: delta.DefaultLeaseTTL).
	LeaseTTL time.Duration
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
	// afterPathCheck is called once a task's path check resolved its
	// paths, before it touches anything.
	afterPathCheck func(task string)
}

// clock is the time now as runs measure their and their tasks' start and
// end: to the millisecond the history stores, so that what a run prints
// (its summary, run --json) is what the history records.
func (r *Runner) clock() time.Time { return r.cfg.Now().UTC().Truncate(time.Millisecond) }

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
	// sql is DuckDB's parser over db (validate.SQL) with Spark SQL's front
	// end for streaming queries (validate.StreamSQL).
	sql sqlFront
	// flow checks workspaces against their inputs' schemas (Validate).
	flow *schemaflow.Flow
	// probes are the answers of the schema checks' NULL probes.
	probes nullProbes

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
	db, err := local.OpenDBWith(context.Background(), cfg.Sandbox, local.Options{Threads: cfg.Threads})
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
	r.local, r.sql = le, sqlFront{le.Parser()}
	r.flow = schemaflow.New(schemaEngine{r}, schemaflow.Options{StoreDir: cfg.SchemaCache, Version: engineVersion(db)})
	return r, nil
}

// SQL is the runner's SQL parser for validate (validate.Options.SQL,
// validate.Predicate): DuckDB's, over the runner's database.
func (r *Runner) SQL() validate.SQL { return r.sql }

// SparkSQL is p with Spark SQL's front end beside it, as the runner's SQL
// is: for a program that validates without a runner (laktory graph), so
// that its rules read queries as laktory validate's do (LK168).
func SparkSQL(p *local.Parser) validate.SQL { return sqlFront{p} }

// sqlFront is the runner's validate.SQL: the local engine's DuckDB parser,
// and Spark SQL's front end where a rule needs Spark's reading of a query
// (validate.StreamSQL: the COMPLETE-mode checks, LK168 and LK155-157).
type sqlFront struct{ *local.Parser }

// StreamShape implements validate.StreamSQL.
func (sqlFront) StreamShape(query string, read func(string) validate.StreamShape) (validate.StreamShape, error) {
	p, err := sparksql.AnalyzeStreamOver(query, func(ph string) sparksql.StreamPlan {
		in := read(ph)
		return sparksql.StreamPlan{Streaming: in.Streaming, Aggregated: in.Aggregated}
	})
	return validate.StreamShape{Streaming: p.Streaming, Aggregate: p.Aggregate, Aggregated: p.Aggregated,
		Chained: p.Chained, Intersect: p.Intersect, Distinct: p.Distinct, Unresolved: p.Unresolved}, err
}

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

// RetryPolicy says how a commit that conflicts with a concurrent writer is
// retried: up to MaxRetries more attempts, the k-th after
// BaseDelay*2^(k-1) (at most MaxDelay) plus a random jitter, each attempt
// re-planning its operation on the table's new snapshot.
type RetryPolicy struct {
	MaxRetries int
	BaseDelay  time.Duration
	MaxDelay   time.Duration
	// Jitter returns the random part added to a delay d (default: uniform
	// in [0, d/2)). Tests make it deterministic.
	Jitter func(d time.Duration) time.Duration
	// Sleep waits d or until ctx is done (default: a timer). Tests make it
	// instant.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultRetry is the policy of a Runner whose Config leaves Retry zero:
// 5 retries, from 100 ms doubling up to 3 s, plus up to 50% jitter.
var DefaultRetry = RetryPolicy{MaxRetries: 5, BaseDelay: 100 * time.Millisecond, MaxDelay: 3 * time.Second}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxRetries <= 0 {
		p.MaxRetries = DefaultRetry.MaxRetries
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultRetry.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultRetry.MaxDelay
	}
	if p.Jitter == nil {
		p.Jitter = func(d time.Duration) time.Duration {
			if d <= 1 {
				return 0
			}
			return time.Duration(rand.Int64N(int64(d / 2)))
		}
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	return p
}

// Delay is the wait before retry attempt (1-based), jitter included.
func (p RetryPolicy) Delay(attempt int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	return d + p.Jitter(d)
}

// retry runs op until it succeeds, fails with an error retryable does not
// accept, or has been retried MaxRetries times. Before each retry it calls
// onRetry (attempt from 1, the delay, the error) and sleeps. The final
// conflict is returned wrapped in ErrConflict with the attempt count.
func (p RetryPolicy) retry(ctx context.Context, op func(attempt int) error, retryable func(error) bool,
	onRetry func(attempt int, delay time.Duration, err error)) error {
	for attempt := 0; ; attempt++ {
		err := op(attempt)
		if err == nil || !retryable(err) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if attempt >= p.MaxRetries {
			return fmt.Errorf("%w: gave up after %d attempts (%d retries): concurrent writers kept committing changes this operation depends on; nothing of it is visible. Run it again when they are done, or partition the table by its writer column so that writers touch different files. The last conflict: %w",
				ErrConflict, attempt+1, attempt, err)
		}
		d := p.Delay(attempt + 1)
		onRetry(attempt+1, d, err)
		if err := p.Sleep(ctx, d); err != nil {
			return err
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Sandbox is the confinement of the SQL of snap's pipelines: the
// workspace, the lake (for a lake in a bucket: the object cache and the
// staging folders) and the roots of the workbench config (read and
// write), and the folders and files its sources declare outside them
// (read: DuckDB's allowed_paths, or the folder of a folder or glob
// source); DuckDB spills into DIR/.laktory/tmp.
func Sandbox(snap *workspace.Snapshot) *delta.Confinement {
	c := &delta.Confinement{TempDir: filepath.Join(snap.Layout.StateDir(), "tmp")}
	for _, r := range snap.Layout.AllowedRoots() {
		if !delta.IsRemoteLocation(r) {
			c.Dirs = append(c.Dirs, r)
		}
	}
	if snap.Layout.RemoteLake() {
		// DuckDB reads a bucket's tables from the object cache and writes
		// their new files in staging folders (docs/object-storage.md).
		c.Dirs = append(c.Dirs, delta.DefaultObjectCache().Dir, delta.StageDir())
	}
	inside := func(p string) bool {
		for _, d := range c.Dirs {
			if rel, err := filepath.Rel(d, p); err == nil && !strings.HasPrefix(rel, "..") {
				return true
			}
		}
		return false
	}
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			for _, src := range n.Sources {
				path := src.ResolvedPath
				if path == "" || strings.Contains(path, "://") || inside(path) {
					continue
				}
				if i := strings.IndexAny(path, "*?["); i >= 0 {
					path = filepath.Dir(path[:i] + "x")
				}
				if st, err := os.Stat(path); err == nil && !st.IsDir() {
					c.Files = append(c.Files, path)
				} else {
					c.Dirs = append(c.Dirs, path)
				}
			}
		}
	}
	return c
}
