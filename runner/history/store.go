// Package history keeps the run history of a workspace in SQLite
// (DIR/.laktory/state.db): runs, their tasks, every table operation, commit
// retries, rows deleted per writer, messages, a structured event log, and the
// append flows of declarative tables.
//
// The runner records into a Store while it runs (StartRun, StartTask,
// RecordOperation, ..., FinishRun); `laktory history` and the TUI read it
// (ListRuns, RunDetail, LastTasks, ...). Every method is safe for concurrent
// use, and several processes may use one database at once: it is opened in
// WAL mode with a busy timeout, writes go through one connection per process
// (each record is one short statement or transaction that takes the write
// lock up front), reads through a small pool of read-only connections.
//
// Runs left "running" by a process that died are marked interrupted by Open
// (and MarkInterrupted): each run records the host, pid and start time of the
// process that owns it.
package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/laktory/workbench/assets"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// BusyTimeout is how long a statement waits for another connection or
// process to release the database before SQLite reports it busy.
const BusyTimeout = 5 * time.Second

// LockWait is how long a write waits, in all, for a database another
// connection or process keeps locked (a long transaction, a backup, a
// sqlite3 shell in a transaction): busy statements are retried until then,
// so a lock held for a while mid-run delays the records but loses none;
// after it the write fails with ErrLocked.
const LockWait = 2 * time.Minute

// Store is an open run history. Close it when done.
type Store struct {
	path string
	w    *sql.DB // one connection: every write of this process
	r    *sql.DB // read-only connections
	cfg  config

	mu    sync.Mutex
	stmts map[stmtKey]*sql.Stmt
}

type stmtKey struct {
	db *sql.DB
	q  string
}

type config struct {
	// busy is SQLite's busy timeout, lockWait the time a write retries a
	// busy database (BusyTimeout, LockWait; shorter in tests).
	busy, lockWait time.Duration
	now            func() time.Time
	self           owner
	alive          func(owner) bool
	migrations     fs.FS
}

// Option configures Open.
type Option func(*config)

// WithClock sets the clock that timestamps records (default time.Now).
// Times are stored in UTC with millisecond precision.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// Open opens (creating folders and file as needed) the run history at path
// and brings its schema up to date. A database written by a newer laktory
// fails with ErrNewerSchema, a file that is not SQLite with ErrNotDatabase;
// neither is modified. Open then marks runs whose process is gone as
// interrupted (see MarkInterrupted).
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	cfg := config{busy: BusyTimeout, lockWait: LockWait, now: time.Now, self: currentOwner(), migrations: assets.Migrations()}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.alive == nil {
		cfg.alive = func(o owner) bool { return ownerAlive(cfg.self, o) }
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := confined(abs); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fmt.Errorf("open run history: %w", err)
	}
	s := &Store{path: abs, cfg: cfg, stmts: map[stmtKey]*sql.Stmt{}}
	if err := s.open(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open run history %s: %w", abs, mapErr(err))
	}
	return s, nil
}

// confined refuses a history file at abs (DIR/.laktory/state.db) that
// symbolic links (the file's, its folder's) lead outside DIR, the folder
// above its own: the database opened, migrated and written is then the
// one the links lead to. Links that stay inside DIR are followed.
func confined(abs string) error {
	home := filepath.Dir(filepath.Dir(abs))
	realHome, err := filepath.EvalSymlinks(home)
	if err != nil {
		return nil // DIR does not exist yet: nothing links anywhere
	}
	real, err := realPath(abs)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrOutside, abs, err)
	}
	if rel, err := filepath.Rel(realHome, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%w: %s is a symbolic link (or lies in one) to %s, outside %s: refusing to open it; remove the link, and laktory creates its own history there",
			ErrOutside, abs, real, home)
	}
	return nil
}

// realPath resolves the symbolic links of p's longest existing prefix,
// a dangling link to where it points (where SQLite would create the file).
func realPath(p string) (string, error) { return realPathDepth(p, 0) }

func realPathDepth(p string, depth int) (string, error) {
	if depth > 40 {
		return "", errors.New("too many levels of symbolic links")
	}
	var rest []string
	for d := p; ; d = filepath.Dir(d) {
		if st, err := os.Lstat(d); err == nil {
			real, err := filepath.EvalSymlinks(d)
			if err != nil && st.Mode()&fs.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist) {
				target, rerr := os.Readlink(d)
				if rerr != nil {
					return "", rerr
				}
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(d), target)
				}
				real, err = realPathDepth(target, depth+1)
			}
			if err != nil {
				return "", err
			}
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		if filepath.Dir(d) == d {
			return p, nil
		}
		rest = append(rest, filepath.Base(d))
	}
}

func (s *Store) open(ctx context.Context) error {
	busy := strconv.FormatInt(s.cfg.busy.Milliseconds(), 10)
	var err error
	// _txlock=immediate: a transaction takes the write lock at BEGIN, where the
	// busy timeout applies, rather than failing when it upgrades later.
	if s.w, err = sql.Open("sqlite", dsn(s.path,
		"_pragma=busy_timeout("+busy+")", "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)",
		"_pragma=foreign_keys(1)", "_txlock=immediate")); err != nil {
		return err
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetConnMaxIdleTime(0)
	// Another process may hold the database while it opens (it creates or
	// migrates the same new database, or records a run): the migration is
	// one transaction, so a busy one changed nothing and runs again.
	if err := s.waitLocked(ctx, func() error { return migrate(ctx, s.w, s.cfg.migrations, s.cfg.now()) }); err != nil {
		return err
	}
	if s.r, err = sql.Open("sqlite", dsn(s.path, "_pragma=busy_timeout("+busy+")", "_pragma=query_only(1)")); err != nil {
		return err
	}
	s.r.SetMaxOpenConns(4)
	if err := s.prepareAll(ctx); err != nil {
		return err
	}
	_, err = s.MarkInterrupted(ctx)
	return err
}

// dsn builds a SQLite URI for path, so any character in the path is safe.
func dsn(path string, params ...string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // file:///C:/dir/state.db on Windows
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: strings.Join(params, "&")}
	return u.String()
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close releases the database.
func (s *Store) Close() error {
	s.mu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.mu.Unlock()
	var errs []error
	for _, db := range []*sql.DB{s.r, s.w} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	return errors.Join(errs...)
}

// Statements that run inside transactions are prepared when the store
// opens: a transaction holds its connection, so a statement cannot be
// prepared on the pool then.
var (
	writeTxQueries = []string{qInsertRun, qInsertRunPipeline, qFinishRun, qCloseTasks, qUpsertFlow,
		qInterruptRun, qInterruptTasks}
	readTxQueries = []string{qGetRun, qTasksOfRun, qOperationsOfRun, qRetriesOfRun, qDeletionsOfRun,
		qMessagesOfRun, qEventsOfRun}
)

func (s *Store) prepareAll(ctx context.Context) error {
	for _, q := range writeTxQueries {
		if _, err := s.stmt(ctx, s.w, nil, q); err != nil {
			return err
		}
	}
	for _, q := range readTxQueries {
		if _, err := s.stmt(ctx, s.r, nil, q); err != nil {
			return err
		}
	}
	return nil
}

// stmt returns the statement for q on db (bound to tx when not nil),
// preparing it once.
func (s *Store) stmt(ctx context.Context, db *sql.DB, tx *sql.Tx, q string) (*sql.Stmt, error) {
	k := stmtKey{db, q}
	s.mu.Lock()
	st, ok := s.stmts[k]
	s.mu.Unlock()
	if ok {
		if tx != nil {
			return tx.StmtContext(ctx, st), nil
		}
		return st, nil
	}
	if tx != nil {
		return tx.PrepareContext(ctx, q) // closed with tx; not prepared by prepareAll
	}
	st, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stmts == nil {
		st.Close()
		return nil, errors.New("run history is closed")
	}
	if prev, ok := s.stmts[k]; ok {
		st.Close()
		return prev, nil
	}
	s.stmts[k] = st
	return st, nil
}

// exec runs a write statement (in tx when not nil; alone, it is retried
// while the database is busy, see waitLocked).
func (s *Store) exec(ctx context.Context, tx *sql.Tx, q string, args ...any) (sql.Result, error) {
	st, err := s.stmt(ctx, s.w, tx, q)
	if err != nil {
		return nil, err
	}
	if tx != nil {
		return st.ExecContext(ctx, args...)
	}
	var res sql.Result
	err = s.waitLocked(ctx, func() error {
		var err error
		res, err = st.ExecContext(ctx, args...)
		return err
	})
	return res, err
}

// waitLocked runs the write f again while it fails because another
// connection or process holds the database (SQLite's BUSY or LOCKED, after
// the busy timeout), for up to lockWait in all: a lock held for a while
// delays a record and loses none. Then, or when ctx ends, it fails with
// ErrLocked. A busy write changed nothing, so running it again is safe.
func (s *Store) waitLocked(ctx context.Context, f func() error) error {
	start := time.Now()
	pause := 50 * time.Millisecond
	for {
		err := f()
		if !isBusy(err) {
			return err
		}
		waited := time.Since(start)
		if waited >= s.cfg.lockWait {
			return fmt.Errorf("%w: %s was kept locked by another connection or process for %s: %v", ErrLocked, s.path, waited.Round(time.Millisecond), err)
		}
		t := time.NewTimer(min(pause, s.cfg.lockWait-waited))
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: %s is locked by another connection or process (%v): %w", ErrLocked, s.path, err, ctx.Err())
		case <-t.C:
		}
		pause = min(2*pause, time.Second)
	}
}

// isBusy reports whether err is SQLite's database busy or locked.
func isBusy(err error) bool {
	code, ok := sqliteCode(err)
	return ok && (code&0xff == sqlite3.SQLITE_BUSY || code&0xff == sqlite3.SQLITE_LOCKED)
}

// queryRow runs a statement that returns one row, on the writer (for
// INSERT ... RETURNING) or the readers.
func (s *Store) queryRow(ctx context.Context, db *sql.DB, tx *sql.Tx, q string, args ...any) (*sql.Row, error) {
	st, err := s.stmt(ctx, db, tx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryRowContext(ctx, args...), nil
}

// query runs a read statement (in tx when not nil, a read transaction).
func (s *Store) query(ctx context.Context, tx *sql.Tx, q string, args ...any) (*sql.Rows, error) {
	st, err := s.stmt(ctx, s.r, tx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// inTx runs f in a write transaction (BEGIN IMMEDIATE), again while the
// database is busy (waitLocked).
func (s *Store) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	return s.waitLocked(ctx, func() error {
		tx, err := s.w.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := f(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
}

type migration struct {
	version int
	name    string
	sql     string
}

var migrationName = regexp.MustCompile(`^(\d{4})_([a-z0-9_]+)\.sql$`)

// loadMigrations reads NNNN_name.sql files, which must number 1, 2, 3, ...
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var ms []migration
	for i, n := range names {
		m := migrationName.FindStringSubmatch(n)
		if m == nil {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.sql", n)
		}
		v, _ := strconv.Atoi(m[1])
		if v != i+1 {
			return nil, fmt.Errorf("migration %s: version %d, want %d (versions must follow each other from 1)", n, v, i+1)
		}
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: m[2], sql: string(b)})
	}
	if len(ms) == 0 {
		return nil, errors.New("no migrations")
	}
	return ms, nil
}

// migrate applies the migrations the database lacks, all in one write
// transaction, so two processes opening a new database at once apply them
// once, and a failed migration leaves the database as it was.
func migrate(ctx context.Context, db *sql.DB, fsys fs.FS, now time.Time) error {
	ms, err := loadMigrations(fsys)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL)`); err != nil {
		return err
	}
	var cur int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&cur); err != nil {
		return err
	}
	latest := ms[len(ms)-1].version
	if cur > latest {
		return fmt.Errorf("%w: its schema is version %d, this laktory knows versions up to %d (upgrade laktory to read it)",
			ErrNewerSchema, cur, latest)
	}
	for _, m := range ms[cur:] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %04d_%s: %w", m.version, m.name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
			m.version, m.name, ts(now)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// mapErr turns SQLite errors about the file itself into sentinels.
func mapErr(err error) error {
	if code, ok := sqliteCode(err); ok {
		switch code & 0xff {
		case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("%w (move it away and laktory starts a new history): %v", ErrNotDatabase, err)
		}
	}
	return err
}

func sqliteCode(err error) (int, bool) {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code(), true
	}
	return 0, false
}
