package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestInteropSparkEngine runs the demo's job pipelines (pl-prices,
// pl-client-acme, pl-client-globex) and its declarative pl-events on the
// local engine and on Spark through Spark Connect (laktory run --engine
// spark), then compares every table the two wrote, row for row with
// delta-rs: after the first run, after a FULL refresh of one writer of the
// shared prices table, and after a full refresh of pl-events (its table
// cleared once, the once flow run again). It logs the wall time of each
// run per engine.
//
// It is opt-in, as TestInteropSpark: it runs when LAKTORY_SPARK_PYTHON is
// a Python with pyspark and delta-spark, and needs LAKTORY_PYTHON (a
// Python with deltalake). It starts a Spark Connect server with
// scripts/interop/spark_connect.sh (LAKTORY_SPARK_CONNECT_MODE local, the
// default, for local[2]; cluster for a standalone master with two
// workers) and stops it, unless LAKTORY_SPARK_REMOTE names a running one:
//
//	LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python LAKTORY_PYTHON=$PWD/.venv/bin/python \
//	  go test ./cmd/laktory -run TestInteropSparkEngine -timeout 60m -v
func TestInteropSparkEngine(t *testing.T) {
	sparkPy := os.Getenv("LAKTORY_SPARK_PYTHON")
	if sparkPy == "" {
		t.Skip("LAKTORY_SPARK_PYTHON not set: the Spark engine check is opt-in (scripts/interop/spark_connect.sh)")
	}
	if testing.Short() {
		t.Skip("the Spark engine check takes minutes: not in -short")
	}
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		t.Fatal("LAKTORY_PYTHON is not set: the tables are compared with deltalake (scripts/requirements-interop.txt)")
	}
	remote := sparkConnect(t, sparkPy)
	dirs := map[string]string{"local": workspacetest.Demo(t), "spark": workspacetest.Demo(t)}
	flags := map[string][]string{"local": nil, "spark": {"--engine", "spark", "--remote", remote}}
	jobs := []string{"-p", "pl-prices", "-p", "pl-client-acme", "-p", "pl-client-globex"}
	tables := []string{"prices", "all_orders", "gld_prices_a"}

	step := func(name string, args ...string) {
		t.Helper()
		for _, e := range []string{"local", "spark"} {
			start := time.Now()
			code, out, errb := runCLI(t, nil, append(append([]string{"run", dirs[e], "--yes"}, args...), flags[e]...)...)
			t.Logf("%s on the %s engine: %s", name, e, time.Since(start).Round(10*time.Millisecond))
			if code != ExitOK {
				t.Fatalf("%s on the %s engine: exit %d\n%s\n%s", name, e, code, out, errb)
			}
		}
		for _, table := range tables {
			compareEngineTables(t, py, name, table, tablePath(dirs["local"], table), tablePath(dirs["spark"], table))
		}
	}
	events := []string{"-p", "pl-events"}
	step("first run", jobs...)
	tables = append(tables, "events")
	step("first run of pl-events", events...)
	step("FULL refresh of pl-prices.feed_a", "--select", "pl-prices.feed_a", "--refresh", "FULL")
	step("full refresh of pl-events", append(events, "--refresh", "FULL")...)
}

// sparkConnect returns the Spark Connect server of the test:
// $LAKTORY_SPARK_REMOTE, or one started for it (and stopped at its end).
func sparkConnect(t *testing.T, sparkPy string) string {
	t.Helper()
	if r := os.Getenv("LAKTORY_SPARK_REMOTE"); r != "" {
		return r
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "interop", "spark_connect.sh"))
	if err != nil {
		t.Fatal(err)
	}
	mode := os.Getenv("LAKTORY_SPARK_CONNECT_MODE")
	if mode == "" {
		mode = "local"
	}
	state := t.TempDir()
	env := append(os.Environ(), "LAKTORY_SPARK_PYTHON="+sparkPy, "SPARK_CONNECT_DIR="+state,
		"SPARK_CONNECT_PORT="+freePort(t), "SPARK_MASTER_PORT="+freePort(t))
	sh := func(ctx context.Context, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "bash", append([]string{script}, args...)...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			log, _ := os.ReadFile(filepath.Join(state, "connect.log"))
			if len(log) > 4000 {
				log = log[len(log)-4000:]
			}
			return "", fmt.Errorf("spark_connect.sh %s: %w: %s\nthe end of connect.log:\n%s", strings.Join(args, " "), err, stderr.String(), log)
		}
		return strings.TrimSpace(string(out)), nil
	}
	t.Cleanup(func() {
		if _, err := sh(context.Background(), "stop"); err != nil {
			t.Error(err)
		}
	})
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := sh(ctx, "start", mode)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	remote := lines[len(lines)-1]
	t.Logf("Spark Connect (%s) at %s, started in %s", mode, remote, time.Since(start).Round(100*time.Millisecond))
	return remote
}

// freePort is a TCP port of 127.0.0.1 free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// tablePath is the lake path of a demo table.
func tablePath(dir, name string) string {
	l, _ := workspace.NewLayout(dir, "", "")
	return l.TablePath(workspace.ParseTableName(name, "", ""))
}

// compareEngineTables fails the test unless the two Delta tables have the same
// schema and the same rows, as delta-rs reads them.
func compareEngineTables(t *testing.T, py, step, table, a, b string) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "interop", "compare_tables.py"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, script, a, b).Output()
	var res struct {
		Error      string
		SameSchema bool  `json:"same_schema"`
		SameRows   bool  `json:"same_rows"`
		SchemaA    any   `json:"schema_a"`
		SchemaB    any   `json:"schema_b"`
		RowsA      int64 `json:"rows_a"`
		RowsB      int64 `json:"rows_b"`
		OnlyA      any   `json:"only_a"`
		OnlyB      any   `json:"only_b"`
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil || err != nil || res.Error != "" {
		t.Fatalf("%s: compare %s: %v %v %s: %s", step, table, err, jerr, res.Error, out)
	}
	if !res.SameSchema || !res.SameRows {
		t.Errorf("%s: table %s differs between the engines:\n schema local %v\n schema spark %v\n rows local %d, spark %d\n only local %v\n only spark %v",
			step, table, res.SchemaA, res.SchemaB, res.RowsA, res.RowsB, res.OnlyA, res.OnlyB)
		return
	}
	t.Logf("%s: %s: the same %d rows on both engines", step, table, res.RowsA)
}
