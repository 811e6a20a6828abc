package runner

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// overlapWS is a table shared by where predicates that validation cannot
// prove disjoint (they constrain different columns): pa owns
// `client_id = 1 OR v > 3`, pb `client_id = 2`; pb's rows 4 and 5 match
// both.
func overlapWS(t *testing.T) *ws {
	return newWS(t, map[string]string{
		"pipelines/pa.yaml": `name: pa
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: client_id = 1 OR v > 3
`,
		"pipelines/pb.yaml": `name: pb
nodes:
- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: client_id = 2
`,
		"data/a/1.jsonl": jsonl("a", 1, 4, `, "client_id": 1`),
		"data/b/1.jsonl": jsonl("b", 4, 6, `, "client_id": 2`),
	})
}

// TestOverlapCountedAndRefused: before a FULL refresh deletes a writer's
// rows, the plan counts those that also match another writer's predicate
// and names the writer; Start refuses such a plan without AllowOverlap,
// and with it the rows go (as acknowledged). The delete counts again on
// the table as it is when it runs: rows arriving after the plan stop it.
func TestOverlapCountedAndRefused(t *testing.T) {
	w := overlapWS(t)
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	path := w.table("orders")
	if got := count(t, r, path, "true"); got != 5 {
		t.Fatalf("rows after the first run: %d", got)
	}
	ctx := context.Background()
	plan, err := r.Plan(ctx, snap, Request{Pipelines: []string{"pa"}, Refresh: "FULL"})
	if err != nil {
		t.Fatal(err)
	}
	ov := plan.Overlapping()
	if len(ov) != 1 || len(ov[0].Overlaps) != 1 || ov[0].Overlaps[0] != (Overlap{Writer: "pb.b", Where: "client_id = 2", Rows: 2}) {
		t.Fatalf("overlaps: %+v", plan.Effects)
	}
	if e := ov[0]; e.Rows != 5 || !strings.Contains(e.Description, "2 rows of them also match writer pb.b (where client_id = 2)") {
		t.Fatalf("effect: %+v", e)
	}
	if _, err := r.Start(ctx, plan); !errors.Is(err, ErrOverlap) || !strings.Contains(err.Error(), "--delete-overlapping") {
		t.Fatalf("Start without AllowOverlap: %v", err)
	}
	if got := count(t, r, path, "client_id = 2"); got != 2 {
		t.Fatalf("refused, yet pb's rows are %d", got)
	}

	// Planned before pb's rows exist (nothing overlaps), run after they
	// arrived: the delete stops before deleting anything.
	r.cfg.Parallel = 1
	w2 := overlapWS(t)
	snap2 := w2.load()
	mustRun(t, r, snap2, Request{Pipelines: []string{"pa"}})
	late, err := r.Plan(ctx, snap2, Request{Pipelines: []string{"pa"}, Refresh: "FULL"})
	if err != nil || len(late.Overlapping()) != 0 {
		t.Fatalf("plan before pb wrote: %v %+v", err, late)
	}
	mustRun(t, r, snap2, Request{Pipelines: []string{"pb"}})
	o := start(t, r, late)
	if ts := taskSum(t, o.sum, "pa.a"); !strings.Contains(ts.Err, "would also delete 2 rows matching writer pb.b (where client_id = 2): nothing was deleted") {
		t.Fatalf("late overlap: %q", ts.Err)
	}
	if got := count(t, r, w2.table("orders"), "true"); got != 5 {
		t.Fatalf("rows after the refused delete: %d", got)
	}

	// Acknowledged: pa takes the rows its predicate names, pb's included.
	plan, err = r.Plan(ctx, snap, Request{Pipelines: []string{"pa"}, Refresh: "FULL", AllowOverlap: true})
	if err != nil {
		t.Fatal(err)
	}
	start(t, r, plan)
	if got := count(t, r, path, "client_id = 2"); got != 0 {
		t.Fatalf("acknowledged: pb's overlapping rows remain: %d", got)
	}
}

// TestOverwriteOfSharedTableDestructive: an OVERWRITE sink without
// `shared` on a table other writers write replaces their rows in an
// INCREMENTAL run too: the plan lists it (so every entry point confirms
// or refuses it), naming the other writers and the rows.
func TestOverwriteOfSharedTableDestructive(t *testing.T) {
	w := overlapWS(t)
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	w.write(map[string]string{"pipelines/pa.yaml": `name: pa
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: OVERWRITE
`})
	snap := workspacetest.LoadDir(t, w.dir, workspace.Options{})
	plan, err := r.Plan(context.Background(), snap, Request{Pipelines: []string{"pa"}})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Destructive() || len(plan.Effects) != 1 || plan.Effects[0].Kind != EffectOverwrite || plan.Effects[0].Rows != 5 ||
		!strings.Contains(plan.Effects[0].Description, "the rows of its other writers (pb.b) included (5 rows)") {
		t.Fatalf("effects: %+v", plan.Effects)
	}
	// Alone on its table, an OVERWRITE sink is its own business.
	plan, err = r.Plan(context.Background(), snap, Request{Pipelines: []string{"pb"}})
	if err != nil || plan.Destructive() {
		t.Fatalf("pb's plan: %v %+v", err, plan)
	}
}

// TestFloatPredicateOneWay: a where predicate on a DOUBLE column is
// evaluated one way by the write check, the FULL refresh's delete (and its
// count in the plan) and a scan: `d <= 0.1` owns the row d = 0.1 in each,
// so three FULL refreshes leave one row (the delete's file pruning
// compared the exact tenth with the double and skipped the file: each
// refresh appended again). Equality on the DOUBLE column is refused
// before anything runs (LK115).
func TestFloatPredicateOneWay(t *testing.T) {
	files := func(where string) map[string]string {
		return map[string]string{
			"pipelines/pa.yaml": "name: pa\nnodes:\n- name: a\n  sources:\n  - path: ../data/a/\n    format: JSONL\n  sinks:\n  - table_name: orders\n    mode: APPEND\n    shared:\n      where: " + where + "\n",
			"pipelines/pb.yaml": "name: pb\nnodes:\n- name: b\n  sources:\n  - path: ../data/b/\n    format: JSONL\n  sinks:\n  - table_name: orders\n    mode: APPEND\n    shared:\n      where: d > 0.1\n",
			"data/a/1.jsonl":    "{\"id\": 1, \"d\": 0.1}\n",
			"data/b/1.jsonl":    "{\"id\": 2, \"d\": 0.2}\n",
		}
	}
	w := newWS(t, files("d <= 0.1"))
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	for i := range 3 {
		o := mustRun(t, r, snap, Request{Pipelines: []string{"pa"}, Refresh: "FULL"})
		if e := o.plan.Effects; len(e) != 1 || e[0].Rows != 1 {
			t.Fatalf("refresh %d: the plan counts %+v", i+1, e)
		}
	}
	if got := count(t, r, w.table("orders"), "true"); got != 2 {
		t.Fatalf("rows after 3 FULL refreshes: %d, want 2", got)
	}
	w.write(files("d = 0.1"))
	if pe := planErr(t, r, w.load(), Request{Pipelines: []string{"pa"}, Refresh: "FULL"}); !hasDiag(pe, "LK115", "compares the DOUBLE column 'd' for equality") {
		t.Fatalf("equality on a DOUBLE column: %v", pe)
	}
}

// TestLongTableNameRefused: a 250-character table name (Laktory takes
// 255) would make the checkpoint's files' names too long for the file
// system: validation refuses it (LK116) instead of every run failing when
// it locks the checkpoint; 200 characters run.
func TestLongTableNameRefused(t *testing.T) {
	files := func(name string) map[string]string {
		return map[string]string{
			"pipelines/pa.yaml": "name: pa\nnodes:\n- name: a\n  sources:\n  - path: ../data/a/\n    format: JSONL\n  sinks:\n  - table_name: " + name + "\n    mode: APPEND\n",
			"data/a/1.jsonl":    jsonl("a", 0, 2, ""),
		}
	}
	r := testRunner(t)
	w := newWS(t, files(strings.Repeat("t", 250)))
	ds, err := r.Validate(context.Background(), w.load(), validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []validate.Diagnostic
	for _, d := range ds {
		if d.Code == validate.CodeNameTooLong {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Line != 8 || !strings.Contains(got[0].Message, "sink #1 of node 'a' cannot run locally: the checkpoint's refresh record table-main.default.ttttttttttttttttttttt... (282 bytes) would be longer than the 255 bytes") {
		t.Fatalf("LK116: %v", got)
	}
	if pe := planErr(t, r, w.load(), Request{}); !hasDiag(pe, validate.CodeNameTooLong, "cannot run locally") {
		t.Fatalf("plan: %v", pe)
	}
	mustRun(t, r, newWS(t, files(strings.Repeat("t", 200))).load(), Request{})
}

// TestSchemaCacheRecreatedTable: a table dropped and created again at
// version 0 with other columns is read again, not taken from the schema
// cache keyed by (path, version): the where predicate on its new column
// is accepted, and on the old one refused (LK113).
func TestSchemaCacheRecreatedTable(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pa.yaml": "name: pa\nnodes:\n- name: a\n  sinks:\n  - table_name: t\n    mode: APPEND\n    shared:\n      where: c = 1\n- name: b\n  sinks:\n  - table_name: t\n    mode: APPEND\n    shared:\n      where: c = 2\n"})
	r := testRunner(t)
	ctx := context.Background()
	path := w.table("t")
	create := func(col string) {
		t.Helper()
		if err := os.RemoveAll(path); err != nil {
			t.Fatal(err)
		}
		rows := "SELECT 1::BIGINT AS " + col
		schema, err := delta.QuerySchema(ctx, r.db, rows)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := delta.Create(ctx, path, delta.TableDefinition{Schema: schema}, delta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	lk113 := func() bool {
		t.Helper()
		ds, err := r.Validate(ctx, w.load(), validate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(ds, func(d validate.Diagnostic) bool { return d.Code == validate.CodeWhereColumn })
	}
	create("x")
	if !lk113() {
		t.Fatal("a table without c: LK113 expected")
	}
	time.Sleep(10 * time.Millisecond) // another modification time for the new version 0
	create("c")
	if lk113() {
		t.Fatal("the table created again with c is still read as the cached one without it")
	}
}
