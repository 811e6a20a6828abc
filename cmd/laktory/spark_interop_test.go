package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// sparkCheckLine is a result line of scripts/interop/spark_check.py:
// "PASS name (3.1s)[: note]" or "FAIL name (3.1s): why" (the why may go on
// over indented lines).
var sparkCheckLine = regexp.MustCompile(`^(PASS|FAIL) (\w+) \(([0-9.]+)s\)(?::\s?(.*))?$`)

// sparkResult is one check of the Spark interop script.
type sparkResult struct {
	name, status, seconds, text string
}

// parseSparkCheck reads the script's output: the checks in order and
// whether the closing "N passed, M failed" line came.
func parseSparkCheck(out string) (results []sparkResult, closed bool) {
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	closing := regexp.MustCompile(`^\d+ passed, \d+ failed$`)
	for sc.Scan() {
		line := sc.Text()
		if m := sparkCheckLine.FindStringSubmatch(line); m != nil {
			results = append(results, sparkResult{name: m[2], status: m[1], seconds: m[3], text: m[4]})
			continue
		}
		if closing.MatchString(line) {
			closed = true
			continue
		}
		if n := len(results); n > 0 && strings.HasPrefix(line, "  ") {
			results[n-1].text += "\n" + line
		}
	}
	return results, closed
}

func TestParseSparkCheck(t *testing.T) {
	out := "spark 4.2.0, delta-spark 4.4.0, java 17 (started in 8.0s)\n" +
		"PASS ours_demo_workspace (22.3s): 4 tables\n" +
		"FAIL stream_x (1.5s): rows differ\n  only in spark: (1,)\n" +
		"PASS concurrent_y (9.0s)\n" +
		"spark check took 40s\n2 passed, 1 failed\n"
	got, closed := parseSparkCheck(out)
	want := []sparkResult{
		{"ours_demo_workspace", "PASS", "22.3", "4 tables"},
		{"stream_x", "FAIL", "1.5", "rows differ\n  only in spark: (1,)"},
		{"concurrent_y", "PASS", "9.0", ""},
	}
	if !closed || len(got) != len(want) {
		t.Fatalf("closed %v, results %+v", closed, got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestInteropSpark runs scripts/interop/spark_check.sh against real Apache
// Spark with Delta Lake, one subtest per check. It is opt-in: it runs
// when LAKTORY_SPARK_PYTHON is a Python with pyspark and delta-spark (see
// scripts/interop/requirements-spark.txt) and skips otherwise, also under
// scripts/test.sh (CI does not install Spark). It takes several minutes:
//
//	LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python go test ./cmd/laktory -run TestInteropSpark -timeout 30m -v
//
// LAKTORY_SPARK_CHECKS=a,b runs the checks whose names start so.
func TestInteropSpark(t *testing.T) {
	py := os.Getenv("LAKTORY_SPARK_PYTHON")
	if py == "" {
		t.Skip("LAKTORY_SPARK_PYTHON not set: the Spark interop check is opt-in (scripts/interop/spark_check.sh)")
	}
	if testing.Short() {
		t.Skip("the Spark interop check takes minutes: not in -short")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "interop", "spark_check.sh"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		defer cancel()
	}
	var args []string
	if only := os.Getenv("LAKTORY_SPARK_CHECKS"); only != "" {
		args = append(args, "--only", only)
	}
	cmd := exec.CommandContext(ctx, "bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "LAKTORY_SPARK_PYTHON="+py, "SPARK_CHECK_WORK="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, runErr := cmd.Output()
	out := string(outb)
	results, closed := parseSparkCheck(out)
	for _, r := range results {
		t.Run(r.name, func(t *testing.T) {
			t.Logf("%s in %ss %s", r.status, r.seconds, r.text)
			if r.status == "FAIL" {
				t.Errorf("Spark interop check %s failed: %s", r.name, r.text)
			}
		})
	}
	if len(results) == 0 || !closed {
		t.Fatalf("the Spark check did not run to its end (%v):\n%s\n%s", runErr, out, stderr.String())
	}
	if runErr != nil && !t.Failed() {
		t.Fatalf("spark_check.sh: %v\n%s", runErr, stderr.String())
	}
}
