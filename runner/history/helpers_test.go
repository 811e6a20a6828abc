package history

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The test binary doubles as a second process writing to the same database:
// with HISTORY_TEST_HELPER set, TestMain runs helperProcess instead of the
// tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("HISTORY_TEST_HELPER"); mode != "" {
		os.Exit(helperProcess(mode, os.Getenv("HISTORY_TEST_DB")))
	}
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func helperProcess(mode, path string) int {
	ctx := context.Background()
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	switch mode {
	case "exit":
		return 0
	case "write":
		n, _ := strconv.Atoi(os.Getenv("HISTORY_TEST_RUNS"))
		s, err := Open(ctx, path)
		if err != nil {
			return fail(err)
		}
		defer s.Close()
		if err := writeRuns(ctx, s, os.Getenv("HISTORY_TEST_TAG"), n); err != nil {
			return fail(err)
		}
		return 0
	case "abandon":
		// Starts a run, says its id, and exits when stdin closes without
		// finishing it, as a crashed runner would.
		s, err := Open(ctx, path)
		if err != nil {
			return fail(err)
		}
		id, err := s.StartRun(ctx, RunStart{Workspace: "/ws", Pipelines: []string{"pl"}})
		if err == nil {
			err = s.StartTask(ctx, id, TaskStart{Pipeline: "pl", Node: "n"})
		}
		if err != nil {
			return fail(err)
		}
		fmt.Println(id)
		bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(0) // no Close, no FinishRun
	}
	return fail(fmt.Errorf("unknown helper mode %q", mode))
}

// helper starts the test binary as a helper process on the database at path.
func helper(t *testing.T, mode, path string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"HISTORY_TEST_HELPER=" + mode, "HISTORY_TEST_DB=" + path}, env...)...)
	return cmd
}

// writeRuns records n complete runs of 3 tasks each, tagged with pipeline
// tag: what a runner does, statement by statement.
func writeRuns(ctx context.Context, s *Store, tag string, n int) error {
	for i := range n {
		id, err := s.StartRun(ctx, RunStart{Workspace: "/ws", Refresh: RefreshFull, Pipelines: []string{tag}})
		if err != nil {
			return err
		}
		for j := range 3 {
			key := fmt.Sprintf("%s.n%d", tag, j)
			steps := []func() error{
				func() error {
					return s.StartTask(ctx, id, TaskStart{Key: key, Pipeline: tag, Node: fmt.Sprint("n", j)})
				},
				func() error {
					return s.RecordOperation(ctx, id, Operation{Task: key, Table: "t", Operation: "WRITE", RowsAdded: int64(i + 1)})
				},
				func() error {
					return s.RecordRetry(ctx, id, Retry{Task: key, Table: "t", Attempt: 1, Delay: time.Millisecond, Error: "conflict"})
				},
				func() error { _, err := s.AppendEvent(ctx, id, Event{Kind: "progress", Task: key}); return err },
				func() error { _, err := s.AppendEvent(ctx, id, Event{Kind: "done", Task: key}); return err },
				func() error { return s.FinishTask(ctx, id, key, TaskEnd{Status: StatusSucceeded, RowsRead: 1}) },
			}
			for _, step := range steps {
				if err := step(); err != nil {
					return fmt.Errorf("run %d task %s: %w", id, key, err)
				}
			}
		}
		if err := s.RecordMessage(ctx, id, Message{Severity: SeverityWarning, Text: "w"}); err != nil {
			return err
		}
		if err := s.FinishRun(ctx, id, RunEnd{Status: StatusSucceeded}); err != nil {
			return err
		}
	}
	return nil
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeClock returns t0, then one second later at every call.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: t0} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.t
	c.t = c.t.Add(time.Second)
	return t
}

// Test-only options.
func withOwner(o owner) Option            { return func(c *config) { c.self = o } }
func withAlive(f func(owner) bool) Option { return func(c *config) { c.alive = f } }
func withMigrations(fsys fs.FS) Option    { return func(c *config) { c.migrations = fsys } }
func testOwner() Option                   { return withOwner(owner{host: "test-host", pid: 4242}) }
func alwaysAlive() Option                 { return withAlive(func(owner) bool { return true }) }
func dbPath(t testing.TB) string          { return filepath.Join(t.TempDir(), ".laktory", "state.db") }
func mustNil(t testing.TB, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// openTest opens a new store with a fake clock and a fixed owner.
func openTest(t testing.TB, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), dbPath(t), append([]Option{WithClock(newClock().Now), testOwner(), alwaysAlive()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
