package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

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
