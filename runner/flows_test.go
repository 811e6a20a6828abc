package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

// declFiles: a declarative pipeline where a one-time backfill (2 rows) and
// two live streams (a: 3 rows per file, b: 2) append to the table events.
func declFiles() map[string]string {
	return map[string]string{
		"pipelines/decl.yaml": `name: decl
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
nodes:
- name: backfill
  flow:
    once: true
    comment: the archive
    spark_conf: {spark.sql.shuffle.partitions: "4"}
  sources:
  - path: ../data/archive/
    format: JSONL
  sinks:
  - table_name: events
    mode: APPEND
- name: live_a
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: events
    mode: APPEND
- name: live_b
  sources:
  - path: ../data/b/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: events
    mode: APPEND
`,
		"data/archive/1.jsonl": jsonl("old", 0, 2, ""),
		"data/a/1.jsonl":       jsonl("a", 0, 3, ""),
		"data/b/1.jsonl":       jsonl("b", 0, 2, ""),
	}
}

func flowsOf(t testing.TB, w *ws, table string) []string {
	t.Helper()
	l, _ := workspace.NewLayout(w.dir, "", "")
	s, err := history.Open(context.Background(), l.StateDB())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fs, err := s.ListFlows(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	slices.Sort(out)
	return out
}

// TestDeclarativeAppendFlows: the nodes of a declarative pipeline append
// to one table through their flows {table}__{node}, remembered per table;
// the once flow runs once, and again after a full refresh, which clears
// the table once and resets every flow.
func TestDeclarativeAppendFlows(t *testing.T) {
	w := newWS(t, declFiles())
	r := testRunner(t)
	snap := w.load()
	path := w.table("events")
	o := mustRun(t, r, snap, Request{})
	if n := count(t, r, path, ""); n != 7 {
		t.Fatalf("%d rows, want 2 + 3 + 2", n)
	}
	if got := fmt.Sprint(flowsOf(t, w, "main.default.events")); got != "[events__backfill events__live_a events__live_b]" {
		t.Fatalf("remembered flows %s", got)
	}
	var flows []string
	for _, e := range eventKinds(o.events, EventFlowProgress) {
		flows = append(flows, e.Flow)
	}
	slices.Sort(flows)
	if fmt.Sprint(flows) != "[events__backfill events__live_a events__live_b]" {
		t.Fatalf("flow progress of %v", flows)
	}
	if pf := o.plan.Flows; len(pf) != 3 || pf[0].Name != "events__backfill" || !pf[0].Once || pf[0].Comment != "the archive" || pf[0].SparkConf["spark.sql.shuffle.partitions"] != "4" {
		t.Fatalf("plan flows %+v: the flow options are kept and shown", pf)
	}

	// New data: the live flows append it, the backfill does not run again.
	w.write(map[string]string{"data/a/2.jsonl": jsonl("a2", 0, 1, ""), "data/archive/2.jsonl": jsonl("old2", 0, 5, "")})
	mustRun(t, r, snap, Request{})
	if n := count(t, r, path, ""); n != 8 {
		t.Fatalf("%d rows, want 7 + 1", n)
	}

	// A full refresh of one writer clears the table once and resets every
	// flow of it: all of them reprocess, the backfill included.
	o = mustRun(t, r, snap, Request{Selectors: []string{"live_a"}, Refresh: "FULL"})
	drops, resets := 0, 0
	for _, e := range o.plan.Effects {
		switch e.Kind {
		case EffectDropTable:
			drops++
		case EffectResetCheckpoint:
			resets++
		}
	}
	if drops != 1 || resets != 3 {
		t.Fatalf("effects %+v: want one drop and the 3 flows reset", o.plan.Effects)
	}
	if n := count(t, r, path, ""); n != 4 {
		t.Fatalf("%d rows after the refresh of live_a alone, want its 4", n)
	}
	mustRun(t, r, snap, Request{})
	if n := count(t, r, path, ""); n != 4+7+2 {
		t.Fatalf("%d rows: the other flows reprocess from scratch (backfill 7, live_b 2)", n)
	}
	o = mustRun(t, r, snap, Request{Refresh: "FULL"})
	if n := count(t, r, path, ""); n != 13 || len(eventKinds(o.events, EventFlowProgress)) != 3 {
		t.Fatalf("%d rows after a full refresh of the pipeline, want 13 (each once)", n)
	}
}

// TestFlowRenamedWarns: renaming a writer of a table with other flows makes
// a new flow that reprocesses: the plan warns, naming it, and advises a full
// refresh of the table.
func TestFlowRenamedWarns(t *testing.T) {
	files := declFiles()
	// Another table of the pipeline, which the hint's full refresh of
	// events must not touch.
	files["pipelines/decl.yaml"] += "- name: other\n  sources:\n  - path: ../data/b/\n    format: JSONL\n    as_stream: true\n  sinks:\n  - table_name: other\n    mode: APPEND\n"
	w := newWS(t, files)
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	yaml, _ := os.ReadFile(filepath.Join(w.dir, "pipelines/decl.yaml"))
	w.write(map[string]string{"pipelines/decl.yaml": strings.Replace(string(yaml), "name: live_b", "name: live_bb", 1)})
	plan, err := r.Plan(context.Background(), w.load(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprint(plan.Warnings)
	for _, s := range []string{"flow events__live_bb of main.default.events is new", "starts from scratch",
		"laktory run --pipeline decl --select backfill --select live_a --select live_bb --refresh FULL"} {
		if !strings.Contains(msg, s) {
			t.Fatalf("warnings %s: want %q", msg, s)
		}
	}
	// The hint's command refreshes events and no other table.
	hint, err := r.Plan(context.Background(), w.load(), Request{Pipelines: []string{"decl"}, Selectors: []string{"backfill", "live_a", "live_bb"}, Refresh: "FULL"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range hint.Effects {
		if e.Table != "" && e.Table != workspace.TableID(w.table("events")) {
			t.Fatalf("the hint's full refresh also does %s on %s", e.Kind, e.Table)
		}
	}
	// With flow.name keeping the old name, the flow resumes.
	w.write(map[string]string{"pipelines/decl.yaml": strings.Replace(string(yaml), "name: live_b\n", "name: live_bb\n  flow: {name: events__live_b}\n", 1)})
	plan, err = r.Plan(context.Background(), w.load(), Request{})
	if err != nil || strings.Contains(fmt.Sprint(plan.Warnings), "is new") {
		t.Fatalf("%v %v", plan.Warnings, err)
	}
	start(t, r, plan)
	if n := count(t, r, w.table("events"), ""); n != 7 {
		t.Fatalf("%d rows, want 7: the renamed node keeps its flow", n)
	}
}

// TestSecondWriterRestartsFlow: a table with one writer has a flow named
// after the table; a second writer renames both flows, which restart.
func TestSecondWriterRestartsFlow(t *testing.T) {
	files := declFiles()
	yaml := files["pipelines/decl.yaml"]
	files["pipelines/decl.yaml"] = yaml[:strings.Index(yaml, "- name: live_b")]
	files["pipelines/decl.yaml"] = strings.Replace(files["pipelines/decl.yaml"], "- name: backfill", "- name: backfill\n  tags: [x]", 1)
	files["pipelines/decl.yaml"] = strings.Replace(files["pipelines/decl.yaml"], "table_name: events", "table_name: other", 1)
	w := newWS(t, files)
	snap := w.load()
	p := snap.Pipeline("decl")
	if n := p.Node("live_a"); FlowName(p, n, n.Sinks[0]) != "events" {
		t.Fatalf("flow %s: a table's only writer flows under the table's name", FlowName(p, n, n.Sinks[0]))
	}
	r := testRunner(t)
	mustRun(t, r, snap, Request{})
	files["pipelines/decl.yaml"] = yaml
	w.write(files)
	plan, err := r.Plan(context.Background(), w.load(), Request{})
	if err != nil || !strings.Contains(fmt.Sprint(plan.Warnings), "flow events__live_a of main.default.events is new") {
		t.Fatalf("%v %v", plan.Warnings, err)
	}
}

// sparkCheckpoint writes a Structured Streaming checkpoint as Spark does:
// a Delta source at (version, index) after batch 1 committed.
func sparkDeltaCheckpoint(t *testing.T, dir, tableID string, version, index int64, starting bool) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "offsets"), 0o755)
	os.MkdirAll(filepath.Join(dir, "commits"), 0o755)
	os.WriteFile(filepath.Join(dir, "metadata"), []byte(`{"id":"5e1f6a1c-9a0b-4b7e-8a4e-2f1d1c0b9a8f"}`), 0o644)
	meta := `{"batchWatermarkMs":0,"batchTimestampMs":1710305994254,"conf":{"spark.sql.streaming.stateStore.providerClass":"org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider","spark.sql.shuffle.partitions":"200"}}`
	off := fmt.Sprintf(`{"sourceVersion":1,"reservoirId":"%s","reservoirVersion":%d,"index":%d,"isStartingVersion":%t}`, tableID, version, index, starting)
	for _, b := range []string{"0", "1"} {
		os.WriteFile(filepath.Join(dir, "offsets", b), []byte("v1\n"+meta+"\n"+off), 0o644)
		os.WriteFile(filepath.Join(dir, "commits", b), []byte("v1\n{\"nextBatchWatermarkMs\":0}"), 0o644)
		os.WriteFile(filepath.Join(dir, "commits", "."+b+".crc"), []byte("crc"), 0o644)
	}
}

// importFiles: node src appends data/in to table src_t (batch); the
// declarative pipeline mig streams src_t into its new table migrated,
// importing the checkpoint at ../cp.
func importFiles(target string) map[string]string {
	return map[string]string{
		"pipelines/src.yaml": `name: src
nodes:
- name: src
  sources:
  - path: ../data/in/
    format: JSONL
  sinks:
  - table_name: src_t
    mode: APPEND
`,
		"pipelines/mig.yaml": `name: mig
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
nodes:
- name: migrate
  flow:
    import_checkpoint: ../cp
  sources:
  - table_name: src_t
    as_stream: true
  sinks:
  - ` + target + `
`,
		"data/in/1.jsonl": jsonl("a", 0, 3, ""),
	}
}

// TestImportSparkCheckpoint: a flow imports a Spark checkpoint of a Delta
// source on its first update and resumes after its last committed offset;
// later updates and a full refresh do not import it again.
func TestImportSparkCheckpoint(t *testing.T) {
	w := newWS(t, importFiles("table_name: migrated\n    mode: APPEND"))
	r := testRunner(t)
	snap := w.load()
	for range 3 {
		mustRun(t, r, snap, Request{Pipelines: []string{"src"}}) // v0, v1, v2: 3 rows each
	}
	src := loadSnap(t, w.table("src_t"))
	// The Spark query had read up to the end of version 1.
	sparkDeltaCheckpoint(t, filepath.Join(w.dir, "cp"), src.TableID(), 2, -1, false)
	o := mustRun(t, r, snap, Request{Pipelines: []string{"mig"}})
	if n := count(t, r, w.table("migrated"), ""); n != 3 {
		t.Fatalf("%d rows, want version 2's 3 rows only", n)
	}
	if !strings.Contains(fmt.Sprint(o.events), "imported the checkpoint") {
		t.Fatalf("events %v", o.events)
	}
	cp := flowDir(t, snap, "mig", "migrate")
	if got := fmt.Sprint(batchesOf(t, cp, "commits")); got != "[0 1 2]" || exists(filepath.Join(cp, "commits", ".0.crc")) {
		t.Fatalf("commits %s: the import resumes after Spark's batch 1", got)
	}
	// The original checkpoint is not modified.
	if got := fmt.Sprint(batchesOf(t, filepath.Join(w.dir, "cp"), "commits")); got != "[0 1]" {
		t.Fatalf("original commits %s", got)
	}
	mustRun(t, r, snap, Request{Pipelines: []string{"src"}})
	mustRun(t, r, snap, Request{Pipelines: []string{"mig"}})
	if n := count(t, r, w.table("migrated"), ""); n != 6 {
		t.Fatalf("%d rows, want 6", n)
	}
	// A full refresh starts from an empty checkpoint: every row, no import.
	o = mustRun(t, r, snap, Request{Pipelines: []string{"mig"}, Refresh: "FULL"})
	if n := count(t, r, w.table("migrated"), ""); n != 12 || strings.Contains(fmt.Sprint(o.events), "imported the checkpoint") {
		t.Fatalf("%d rows after a full refresh, want all 12, without import", n)
	}
}

// TestImportOwnCheckpointAndFiles: our own checkpoints (here of a file
// source) import the same way; importing into an existing table fails.
func TestImportOwnCheckpointAndFiles(t *testing.T) {
	files := map[string]string{
		"pipelines/old.yaml": `name: old
nodes:
- name: s
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: old_t
    mode: APPEND
    checkpoint_path: ../cp
`,
		"pipelines/mig.yaml": `name: mig
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
nodes:
- name: migrate
  flow:
    import_checkpoint: ../cp
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: new_t
    mode: APPEND
- name: into_old
  flow:
    name: into_old
    import_checkpoint: ../cp
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: existing
    mode: APPEND
`,
		"data/in/1.jsonl": jsonl("a", 0, 3, ""),
	}
	w := newWS(t, files)
	r := testRunner(t)
	ctx := context.Background()
	schema, err := delta.QuerySchema(ctx, r.db, "SELECT 'x' AS k, 1::BIGINT AS v")
	if err == nil {
		os.MkdirAll(w.table("existing"), 0o755)
		_, err = delta.Create(ctx, w.table("existing"), delta.TableDefinition{Schema: schema}, delta.WriteOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
	snap := w.load()
	mustRun(t, r, snap, Request{Pipelines: []string{"old"}})
	w.write(map[string]string{"data/in/2.jsonl": jsonl("b", 0, 2, "")})
	mustRun(t, r, snap, Request{Pipelines: []string{"mig"}, Selectors: []string{"migrate"}})
	if n := count(t, r, w.table("new_t"), ""); n != 2 {
		t.Fatalf("%d rows, want the new file's 2", n)
	}
	o := run(t, r, snap, Request{Pipelines: []string{"mig"}, Selectors: []string{"into_old"}})
	if ts := taskSum(t, o.sum, "mig.into_old"); !strings.Contains(ts.Err, "which already exists: importing a checkpoint into an existing table is not supported") {
		t.Fatalf("%q", ts.Err)
	}
}

// TestFlowsToOneDeltaSink: two flows append to one Delta sink by path, each
// with its own checkpoint.
func TestFlowsToOneDeltaSink(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/decl.yaml": `name: decl
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
nodes:
- name: a
  sources:
  - {path: ../data/a/, format: JSONL, as_stream: true}
  sinks:
  - {path: ../sink/, format: DELTA, mode: APPEND}
- name: b
  sources:
  - {path: ../data/b/, format: JSONL, as_stream: true}
  sinks:
  - {path: ../sink/, format: DELTA, mode: APPEND}
`,
		"data/a/1.jsonl": jsonl("a", 0, 3, ""),
		"data/b/1.jsonl": jsonl("b", 0, 2, ""),
	})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	mustRun(t, r, snap, Request{})
	if n := count(t, r, filepath.Join(w.dir, "sink"), ""); n != 5 {
		t.Fatalf("%d rows, want 5", n)
	}
	a, b := flowDir(t, snap, "decl", "a"), flowDir(t, snap, "decl", "b")
	if a == b || !strings.HasSuffix(a, "sink__a") || !exists(filepath.Join(b, "commits", "0")) {
		t.Fatalf("checkpoints %s and %s", a, b)
	}
}

// foreachFiles: a node streams data/in to a ForEach sink.
func foreachFiles(sink string) map[string]string {
	return map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: orders
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
  sinks:
  - foreach:
      name: api
      ` + sink + `
`,
		"data/in/1.jsonl": jsonl("o", 0, 3, ""),
	}
}

// TestForEachHTTP: an HTTP ForEach sink sends each row to a local server,
// the URL templated from the row; the event log has the sink definition
// (format foreach) and the flow progress; the rows processed are reported.
// An HTTP error fails the flow with its message in the event log; a full
// refresh resets the checkpoint, resends, and says the destination is not
// cleaned.
func TestForEachHTTP(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	fail := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if fail {
			http.Error(w, "quota exceeded", http.StatusTooManyRequests)
			return
		}
		got[r.Method+" "+r.URL.Path]++
	}))
	defer srv.Close()
	w := newWS(t, foreachFiles(`http: {method: PUT, url: "`+srv.URL+`/orders/{k}"}`))
	r := testRunner(t)
	snap := w.load()
	o := mustRun(t, r, snap, Request{})
	if len(got) != 3 || got["PUT /orders/o-0"] != 1 {
		t.Fatalf("requests %v", got)
	}
	defs := eventKinds(o.events, EventSinkDefinition)
	if len(defs) != 1 || defs[0].Format != "foreach" || defs[0].Sink != "api" {
		t.Fatalf("sink definitions %+v", defs)
	}
	ts := taskSum(t, o.sum, "pl.orders")
	if len(ts.Operations) != 1 || ts.Operations[0].Operation != "FOREACH" || ts.Operations[0].RowsAdded != 3 || ts.RowsWritten != 3 {
		t.Fatalf("operations %+v: the rows processed are reported", ts.Operations)
	}
	d := detail(t, w, o.sum.RunID)
	var kinds []string
	for _, e := range d.Events {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Contains(kinds, "sink_definition") || !slices.Contains(kinds, "flow_progress") {
		t.Fatalf("event log %v", kinds)
	}

	mu.Lock()
	fail = true
	mu.Unlock()
	w.write(map[string]string{"data/in/2.jsonl": jsonl("p", 0, 2, "")})
	o = run(t, r, snap, Request{})
	ts = taskSum(t, o.sum, "pl.orders")
	if o.err == nil || !strings.Contains(ts.Err, "429") || !strings.Contains(ts.Err, "quota exceeded") {
		t.Fatalf("err %v %q", o.err, ts.Err)
	}
	failed := false
	for _, e := range detail(t, w, o.sum.RunID).Events {
		var ev Event
		json.Unmarshal(e.Payload, &ev)
		failed = failed || e.Kind == "flow_progress" && ev.Status == "FAILED" && strings.Contains(ev.Err, "quota exceeded")
	}
	if !failed {
		t.Fatal("no failed flow_progress with the error in the event log")
	}
	mu.Lock()
	fail = false
	mu.Unlock()
	mustRun(t, r, snap, Request{})
	if len(got) != 5 {
		t.Fatalf("requests %v: the failed batch is sent on the next run", got)
	}
	o = mustRun(t, r, snap, Request{Refresh: "FULL"})
	if got["PUT /orders/o-0"] != 2 || !strings.Contains(strings.Join(o.sum.Warnings, "\n"), "was not cleaned up") {
		t.Fatalf("requests %v, warnings %v", got, o.sum.Warnings)
	}
}

// TestForEachCommandAndGo: a command sink gets rows as JSON lines with the
// partition, epoch and flow in its environment; a non-zero exit fails the
// flow with its stderr; a Go writer registered by name replaces it.
func TestForEachCommandAndGo(t *testing.T) {
	w := newWS(t, foreachFiles(`command: ["sh", "-c", "echo \"$LAKTORY_FOREACH_PARTITION_ID $LAKTORY_FOREACH_EPOCH_ID $LAKTORY_FOREACH_FLOW\" >> ../env.txt; cat >> ../rows.jsonl"]`))
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	env, _ := os.ReadFile(filepath.Join(w.dir, "env.txt"))
	rows, _ := os.ReadFile(filepath.Join(w.dir, "rows.jsonl"))
	if string(env) != "0 0 pl.orders/foreach-api\n" || strings.Count(string(rows), "\n") != 3 || !strings.Contains(string(rows), `{"k":"o-0","v":0}`) {
		t.Fatalf("env %q rows %q", env, rows)
	}
	w.write(map[string]string{"pipelines/pl.yaml": strings.Replace(foreachFiles(`command: ["sh", "-c", "echo boom >&2; exit 3"]`)["pipelines/pl.yaml"], "x", "x", 1),
		"data/in/2.jsonl": jsonl("p", 0, 1, "")})
	o := run(t, r, w.load(), Request{})
	if ts := taskSum(t, o.sum, "pl.orders"); !strings.Contains(ts.Err, "boom") {
		t.Fatalf("%q", ts.Err)
	}
	var mu sync.Mutex
	var seen []string
	g := testRunner(t, func(c *Config) {
		c.ForEach = map[string]*foreach.Sink{"api": foreach.New("api", foreach.Func(func(_ context.Context, row foreach.Row) error {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, row.String())
			return nil
		}), foreach.Options{})}
	})
	mustRun(t, g, w.load(), Request{})
	if len(seen) != 1 || seen[0] != `{"k":"p-0","v":0}` {
		t.Fatalf("Go writer got %v", seen)
	}
}

// TestUpdateFlow: an update flow over an aggregation sends, per
// micro-batch, only the keys whose value changed.
func TestUpdateFlow(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/decl.yaml": `name: decl
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
nodes:
- name: counts
  flow: {kind: update}
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
  transformer:
    nodes:
    - expr: SELECT user_id, count(*) AS n FROM {df} GROUP BY user_id
  sinks:
  - foreach:
      name: counts_api
      command: ["sh", "-c", "cat >> ../sent.jsonl"]
`,
		"data/in/1.jsonl": `{"user_id": "u1"}` + "\n" + `{"user_id": "u2"}` + "\n" + `{"user_id": "u1"}` + "\n",
	})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	w.write(map[string]string{"data/in/2.jsonl": `{"user_id": "u2"}` + "\n" + `{"user_id": "u3"}` + "\n"})
	mustRun(t, r, snap, Request{})
	mustRun(t, r, snap, Request{})
	b, _ := os.ReadFile(filepath.Join(w.dir, "sent.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	slices.Sort(lines[:2])
	slices.Sort(lines[2:])
	want := []string{`{"user_id":"u1","n":2}`, `{"user_id":"u2","n":1}`, `{"user_id":"u2","n":2}`, `{"user_id":"u3","n":1}`}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Fatalf("sent %v, want %v (u1 is unchanged in batch 1)", lines, want)
	}
}

func loadSnap(t testing.TB, path string) *delta.Snapshot {
	t.Helper()
	s, err := delta.LoadSnapshot(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
