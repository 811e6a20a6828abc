package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestWalkthroughTmux runs scripts/walkthrough.sh: the demo walked in a
// real terminal as a new user (open, run all, watch mode and a dropped
// file, FULL refresh of feed_a, search, quit), asserting on the captured
// screens. It is skipped without tmux unless LAKTORY_REQUIRE_TMUX=1.
func TestWalkthroughTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("LAKTORY_REQUIRE_TMUX") == "1" {
			t.Fatal("tmux is required (LAKTORY_REQUIRE_TMUX=1) but not installed")
		}
		t.Skip("tmux is not installed")
	}
	bin := filepath.Join(t.TempDir(), "laktory")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join("..", "..", "scripts", "walkthrough.sh"), bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the walkthrough failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
