package runner

import (
	"slices"
	"strings"
	"testing"

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
