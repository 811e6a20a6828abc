package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
)

func (s *recSession) WriteFiles(ctx context.Context, target, query string, w engine.FileWrite) (int64, error) {
	s.e.log("write files %s %s", w.Format, filepath.Base(filepath.Dir(target)))
	return s.Session.WriteFiles(ctx, target, query, w)
}

func (t *recTxn) Merge(ctx context.Context, spec delta.MergeSpec) (delta.MergeMetrics, error) {
	t.ops = append(t.ops, "merge")
	return t.Txn.Merge(ctx, spec)
}

// TestEngineSeamMergeAndFiles: a MERGE sink and a file sink go through
// the engine seam (Txn.Merge, Session.WriteFiles) on an engine other than
// the local one, the MERGE planned in Spark SQL for it (here the local
// engine under the Spark engine's name, which reads the SCD type 1 plan's
// Spark SQL too): the same table and the same files as on the local
// engine, over two batches.
func TestEngineSeamMergeAndFiles(t *testing.T) {
	pipeline := mergePipeline + `- name: files
  sources:
  - path: ../data/changes.csv
    format: CSV
  sinks:
  - path: ../out/parts
    mode: OVERWRITE
    format: PARQUET
`
	batches := []string{"id,v,seq,op\n1,a,1,I\n2,b,1,I\n3,c,1,I\n", "id,v,seq,op\n1,a2,2,U\n2,,2,D\n4,d,1,I\n3,old,0,U\n"}
	var got [2][]string
	for i, name := range []string{engine.Local, engine.Spark} {
		t.Run(name, func(t *testing.T) {
			r := testRunner(t)
			rec := &fakeEngine{Engine: r.local}
			if name == engine.Spark {
				r.cfg.Engine = sparkNamed{rec}
			}
			w := newWS(t, map[string]string{"pipelines/pl.yaml": strings.Replace(pipeline, "%s", "DROP", 1), "out/.keep": ""})
			for _, b := range batches {
				w.write(map[string]string{"data/changes.csv": b})
				mustRun(t, r, w.load(), Request{})
				rows := query(t, r, w.table("silver"), "SELECT id, v, seq FROM t ORDER BY id")
				files := query(t, r, w.table("silver"), "SELECT count(*) FROM read_parquet('"+filepath.Join(w.dir, "out", "parts", "*.parquet")+"')")
				got[i] = append(got[i], strings.Join(flat(rows), " ")+" | "+files[0][0]+" file rows")
			}
			if got[i][1] != "1 a2 2 3 c 1 4 d 1 | 4 file rows" {
				t.Fatalf("after two batches: %s", got[i][1])
			}
			ops := rec.take()
			if name == engine.Local {
				return
			}
			merges := slices.IndexFunc(ops, func(op string) bool { return strings.HasPrefix(op, "commit silver: merge") })
			writes := slices.IndexFunc(ops, func(op string) bool { return op == "write files PARQUET out" })
			if merges < 0 || writes < 0 {
				t.Fatalf("no MERGE through Txn.Merge or no file write through Session.WriteFiles: %q", ops)
			}
		})
	}
	if !slices.Equal(got[0], got[1]) {
		t.Fatalf("local %q, through the seam %q", got[0], got[1])
	}
}
