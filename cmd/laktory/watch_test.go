package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// syncBuffer is a buffer written by the command and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestRunWatch: laktory run --watch runs, then waits; a file dropped into
// a landing folder runs the nodes that read it (and their reader),
// incrementally; Ctrl-C ends it with 0.
func TestRunWatch(t *testing.T) {
	dir := workspacetest.Demo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"run", dir, "--watch"}, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	}()
	wait := func(what string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(out.String(), what) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%q never printed:\n%s%s", what, out.String(), errb.String())
	}
	wait("Watching " + dir + ": waiting for changes")
	spare, err := os.ReadFile(filepath.Join(dir, "data", "spare", "feed_a", "prices_2026-01-03.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "landing", "feed_a", "prices_2026-01-03.json"), spare, 0o644); err != nil {
		t.Fatal(err)
	}
	wait("Changed: data/landing/feed_a/prices_2026-01-03.json: running pl-prices [feed_a, gld_prices_a]")
	wait("Run 2 succeeded")
	if s := out.String(); !strings.Contains(s[strings.Index(s, "Run 2 succeeded"):], "100 rows written") {
		t.Fatalf("the watch's run: feed_a's 50 new rows and gld_prices_a's:\n%s", s)
	}
	cancel()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Fatalf("exit %d after Ctrl-C:\n%s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("--watch did not end on Ctrl-C")
	}
	if code, _, errs := runCLI(t, nil, "run", dir, "--watch", "--refresh", "FULL"); code != ExitUsage || !strings.Contains(errs, "--watch runs incrementally") {
		t.Fatalf("--watch with FULL: exit %d %q", code, errs)
	}
}
