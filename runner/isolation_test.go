package runner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/validate"
)

// TestFullRefreshRacingAppend: a FULL refresh of writer a of a shared
// table (its delete commit) races an append by another writer of the
// table (delta-rs, Spark, a script: not a run of this workspace, whose
// locks exclude it) under each isolation level Delta has
// (delta.isolationLevel in the sink's metadata.properties). b's rows never
// conflict (their files' statistics say they hold no row of a) and are
// kept. a's rows appended at that moment conflict under Serializable (the
// default, as in OSS Delta): the refresh is retried on the new snapshot and
// deletes them with a's other rows, so a holds its refreshed rows exactly
// once. Under WriteSerializable Delta ignores blind appends for the
// refresh's read (ConflictChecker.scala:1145-1147): the refresh commits
// without a retry and the appended rows of a stay beside its refreshed
// ones, as Spark and Databricks keep them. A second run of a during the
// refresh is refused by the writer's lock and writes nothing.
func TestFullRefreshRacingAppend(t *testing.T) {
	cases := []struct {
		name      string
		isolation string
		// appender is the writer id of the rows appended during the
		// refresh's delete commit ("run": another run of a instead).
		appender string
		retries  int
		want     string
	}{
		{name: "Serializable, b appends", appender: "pl.b", want: "pl.a=3 pl.b=4"},
		{name: "Serializable, a's rows appended", appender: "pl.a", retries: 1, want: "pl.a=3 pl.b=2"},
		{name: "WriteSerializable, b appends", isolation: "WriteSerializable", appender: "pl.b", want: "pl.a=3 pl.b=4"},
		{name: "WriteSerializable, a's rows appended", isolation: "WriteSerializable", appender: "pl.a", want: "pl.a=5 pl.b=2"},
		{name: "WriteSerializable, another run of a", isolation: "WriteSerializable", appender: "run", want: "pl.a=3 pl.b=2"},
		{name: "Serializable, another run of a", appender: "run", want: "pl.a=3 pl.b=2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := scenarioFiles(ownerships[0])
			if tc.isolation != "" {
				files["pipelines/pl.yaml"] = strings.ReplaceAll(files["pipelines/pl.yaml"], "    shared: true\n",
					"    shared: true\n    metadata:\n      properties:\n        delta.isolationLevel: "+tc.isolation+"\n")
			}
			w := newWS(t, files)
			snap := w.load()
			other := testRunner(t)
			var path string
			var once sync.Once
			var second outcome
			r := testRunner(t, func(c *Config) {
				c.beforeCommit = func(task string, attempt int) {
					if path == "" || task != "pl.a" {
						return
					}
					once.Do(func() {
						if tc.appender == "run" {
							second = run(t, testRunner(t), snap, Request{Selectors: []string{"a"}})
							return
						}
						c := "2"
						if tc.appender == "pl.a" {
							c = "1"
						}
						q := "SELECT '" + tc.appender + "' AS _laktory_writer, 'x' || i AS k, i::BIGINT AS v, " + c + "::BIGINT AS c FROM range(2) r(i)"
						if _, err := delta.Append(context.Background(), other.db, path, q, delta.WriteOptions{}); err != nil {
							t.Errorf("concurrent append: %v", err)
						}
					})
				}
			})
			mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
			path = w.table("prices")
			if tc.isolation != "" {
				s, err := delta.LoadSnapshot(context.Background(), path)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.Metadata().Configuration["delta.isolationLevel"]; got != tc.isolation {
					t.Fatalf("table property delta.isolationLevel = %q", got)
				}
			}
			o := mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
			if got := writerCounts(t, r, path, "_laktory_writer"); got != tc.want || o.sum.Retries != tc.retries {
				t.Fatalf("rows %s with %d retries, want %s with %d", got, o.sum.Retries, tc.want, tc.retries)
			}
			if tc.retries > 0 {
				rs := eventKinds(o.events, EventRetry)
				if len(rs) != 1 || !strings.Contains(rs[0].Err, "DELTA_CONCURRENT_APPEND") {
					t.Fatalf("retries %+v", rs)
				}
			}
			if tc.appender == "run" {
				if !errors.Is(second.err, ErrTasksFailed) || len(second.sum.Tasks) == 0 ||
					!strings.Contains(second.sum.Tasks[0].Err, "another run is processing this flow or writer") {
					t.Fatalf("the second run of a during the refresh: %v %+v", second.err, second.sum.Tasks)
				}
			}
		})
	}
}

// TestIsolationLevelSparkEngine: the Spark engine runs open-source Delta,
// which refuses to create a table with delta.isolationLevel
// WriteSerializable ("requirement failed: delta.isolationLevel must be
// Serializable", Delta 4.4); the plan refuses such a sink on that engine
// before anything runs, and takes Serializable; the local engine takes
// both, as Databricks does.
func TestIsolationLevelSparkEngine(t *testing.T) {
	for _, tc := range []struct {
		level     string
		sparkErrs int
	}{
		{"WriteSerializable", 1},
		{"writeserializable", 1},
		{"Serializable", 0},
	} {
		t.Run(tc.level, func(t *testing.T) {
			files := scenarioFiles(ownerships[0])
			files["pipelines/pl.yaml"] = strings.ReplaceAll(files["pipelines/pl.yaml"], "    shared: true\n",
				"    shared: true\n    metadata:\n      properties:\n        delta.isolationLevel: "+tc.level+"\n")
			snap := newWS(t, files).load()
			p := snap.Pipeline("pl")
			n := p.Node("a")
			if ds := engineUnsupported(engine.Info{Name: engine.Local}, p, n); len(ds) != 0 {
				t.Fatalf("the local engine refuses it: %v", ds)
			}
			ds := engineUnsupported(engine.Info{Name: "spark"}, p, n)
			if len(ds) != tc.sparkErrs {
				t.Fatalf("spark engine: %d diagnostics, want %d: %v", len(ds), tc.sparkErrs, ds)
			}
			if tc.sparkErrs > 0 && (!strings.Contains(ds[0].Message, "delta.isolationLevel must be Serializable") || ds[0].Code != validate.CodeLocalUnsupported) {
				t.Fatalf("spark engine: %+v", ds[0])
			}
		})
	}
}
