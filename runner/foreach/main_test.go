package foreach_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// helperEnv selects what the test binary does when run as a command
// writer (see helper).
const helperEnv = "FOREACH_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helper is a command writer, run as a re-exec of the test binary in its
// working directory:
//
//	copy:  rows -> out-<partition>-<epoch>.jsonl, environment -> env-<partition>.txt
//	fail:  reads its rows, writes to stderr, exits 3 (only in partition
//	       $FOREACH_FAIL_PARTITION when set; copies otherwise)
//	early: exits 0 without reading its rows
//	hang:  reads one row, starts a "sleep" child, writes both pids to
//	       pids-<partition>.txt, then sleeps
//	sleep: sleeps
func helper(mode string) int {
	pid := os.Getenv("LAKTORY_FOREACH_PARTITION_ID")
	if mode == "fail" && os.Getenv("FOREACH_FAIL_PARTITION") != "" && os.Getenv("FOREACH_FAIL_PARTITION") != pid {
		mode = "copy"
	}
	switch mode {
	case "copy":
		out, err := os.Create(fmt.Sprintf("out-%s-%s.jsonl", pid, os.Getenv("LAKTORY_FOREACH_EPOCH_ID")))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if _, err := io.Copy(out, os.Stdin); err != nil || out.Close() != nil {
			fmt.Fprintln(os.Stderr, "copy failed:", err)
			return 1
		}
		var env []string
		for _, k := range []string{"LAKTORY_FOREACH_PARTITION_ID", "LAKTORY_FOREACH_EPOCH_ID", "LAKTORY_FOREACH_FLOW", "LAKTORY_FOREACH_SINK", "FOREACH_PARENT", "FOREACH_EXTRA"} {
			env = append(env, k+"="+os.Getenv(k))
		}
		if err := os.WriteFile("env-"+pid+".txt", []byte(strings.Join(env, "\n")), 0o644); err != nil {
			return 1
		}
		return 0
	case "fail":
		io.Copy(io.Discard, os.Stdin)
		fmt.Fprint(os.Stderr, "\n  cannot reach the store: connection refused\n\n")
		return 3
	case "early":
		return 0
	case "hang":
		bufio.NewReader(os.Stdin).ReadString('\n')
		self, _ := os.Executable()
		child := exec.Command(self)
		child.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := child.Start(); err != nil {
			return 1
		}
		os.WriteFile("pids-"+pid+".txt", []byte(fmt.Sprintf("%d %d", os.Getpid(), child.Process.Pid)), 0o644)
		time.Sleep(time.Hour)
	case "sleep":
		time.Sleep(time.Hour)
	}
	return 2
}
