package runner

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/history"
)

const mergePipeline = `name: pl
nodes:
- name: silver
  sources:
  - path: ../data/changes.csv
    format: CSV
  sinks:
  - table_name: silver
    mode: MERGE
    reset_mode: %s
    merge_cdc_options:
      primary_keys: [id]
      order_by: seq
      delete_where: op = 'D'
`

// TestMergeSinkRun: a batch MERGE sink's run reports and records the rows
// each merge inserted, updated and deleted; a FULL refresh resets the
// table with the sink's reset_mode and merges the batch into it again.
func TestMergeSinkRun(t *testing.T) {
	for _, mode := range []string{"DROP", "TRUNCATE"} {
		t.Run(mode, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": strings.Replace(mergePipeline, "%s", mode, 1),
				"data/changes.csv": "id,v,seq,op\n1,a,1,I\n2,b,1,I\n3,c,1,I\n"})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			w.write(map[string]string{"data/changes.csv": "id,v,seq,op\n1,a2,2,U\n2,,2,D\n4,d,1,I\n3,old,0,U\n"})
			o := mustRun(t, r, w.load(), Request{})
			ts := taskSum(t, o.sum, "pl.silver")
			if len(ts.Merges) != 1 || ts.Merges[0] != (MergeSummary{Table: "main.default.silver", SCDType: 1, Inserted: 1, Updated: 1, Deleted: 1}) {
				t.Fatalf("merges %+v", ts.Merges)
			}
			d := detail(t, w, o.sum.RunID)
			i := slices.IndexFunc(d.Operations, func(op history.Operation) bool { return op.Operation == "MERGE" })
			if i < 0 || d.Operations[i].RowsAdded != 1 || d.Operations[i].RowsUpdated != 1 || d.Operations[i].RowsDeleted != 1 ||
				d.Operations[i].Detail != "MERGE, SCD type 1: 1 inserted, 1 updated, 1 deleted" {
				t.Fatalf("history operations %+v", d.Operations)
			}
			rows := query(t, r, w.table("silver"), "SELECT id, v, seq FROM t ORDER BY id")
			if got := strings.Join(flat(rows), " "); got != "1 a2 2 3 c 1 4 d 1" {
				t.Fatalf("rows %v", rows)
			}
			// A FULL refresh merges the last batch into an empty table.
			mustRun(t, r, w.load(), Request{Refresh: "FULL"})
			if got := query(t, r, w.table("silver"), "SELECT count(*) FROM t")[0][0]; got != "3" {
				t.Fatalf("after a FULL refresh %s rows, want the 3 the last batch inserts (2 is a delete)", got)
			}
		})
	}
}

func flat(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// TestMergeConflictRetried: another writer appends a row whose key lies in
// the batch's key range while the MERGE is about to commit: the commit
// conflicts (DELTA_CONCURRENT_APPEND), is planned again on the new
// snapshot and succeeds, keeping the other writer's row.
func TestMergeConflictRetried(t *testing.T) {
	var other *Runner
	var mu sync.Mutex
	path := ""
	r := testRunner(t, func(c *Config) {
		c.beforeCommit = func(task string, attempt int) {
			mu.Lock()
			defer mu.Unlock()
			if path != "" && attempt == 0 {
				q := "SELECT '2' AS id, 'other' AS v, '9' AS seq, 'I' AS op" // CSV columns are strings, as Spark reads them
				if _, err := delta.Append(context.Background(), other.db, path, q, delta.WriteOptions{}); err != nil {
					t.Errorf("concurrent append: %v", err)
				}
				path = ""
			}
		}
	})
	other = testRunner(t)
	w := newWS(t, map[string]string{"pipelines/pl.yaml": strings.Replace(mergePipeline, "%s", "DROP", 1),
		"data/changes.csv": "id,v,seq,op\n1,a,1,I\n3,c,1,I\n"})
	mustRun(t, r, w.load(), Request{})
	w.write(map[string]string{"data/changes.csv": "id,v,seq,op\n1,a2,2,U\n3,,2,D\n"})
	mu.Lock()
	path = w.table("silver")
	mu.Unlock()
	o := mustRun(t, r, w.load(), Request{})
	if retries := eventKinds(o.events, EventRetry); len(retries) != 1 || !strings.Contains(retries[0].Err, "DELTA_CONCURRENT_APPEND") {
		t.Fatalf("retry events %+v", retries)
	}
	if got := strings.Join(flat(query(t, r, w.table("silver"), "SELECT id, v FROM t ORDER BY id")), " "); got != "1 a2 2 other" {
		t.Fatalf("rows %s", got)
	}
}

// TestMergeFailureKeepsTarget: the empty target is created in a commit of
// its own; a merge that fails after it leaves the table as created.
func TestMergeFailureKeepsTarget(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": strings.Replace(strings.Replace(mergePipeline, "%s", "DROP", 1), "      order_by: seq\n", "      order_by: seq\n      scd_type: 2\n", 1),
		// Two changes of key 1 without order_by: both are the key's latest,
		// and the MERGE closing its version fails as Delta's does.
		"data/changes.csv": "id,v,seq,op\n1,a,1,I\n"})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	w.write(map[string]string{"data/changes.csv": "id,v,seq,op\n1,x,,U\n1,y,,U\n"})
	o := run(t, r, w.load(), Request{})
	if ts := taskSum(t, o.sum, "pl.silver"); o.err == nil || !strings.Contains(ts.Err, "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE") {
		t.Fatalf("run: %v / %q", o.err, ts.Err)
	}
	if v := tableVersion(t, w.table("silver")); v != 1 {
		t.Fatalf("the table is at version %d: the failed merge must commit nothing", v)
	}
	// A first merge that fails leaves the created table.
	w2 := newWS(t, map[string]string{"pipelines/pl.yaml": strings.Replace(mergePipeline, "%s", "DROP", 1),
		"data/changes.csv": "id,v,seq,op\n1,a,1,I\n"})
	scd2 := strings.Replace(strings.Replace(mergePipeline, "%s", "DROP", 1), "      order_by: seq\n", "      order_by: seq\n      scd_type: 2\n", 1)
	w2.write(map[string]string{"pipelines/pl.yaml": strings.Replace(scd2, "op = 'D'", "CAST(v AS INTEGER) = 1", 1)})
	o = run(t, r, w2.load(), Request{})
	if o.err == nil {
		t.Fatal("a delete_where that fails on the rows must fail the run")
	}
	if v := tableVersion(t, w2.table("silver")); v != 0 {
		t.Fatalf("the table is at version %d, want the empty table's creation (0) only", v)
	}
}
