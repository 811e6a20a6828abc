package runner

import (
	"container/heap"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/selection"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// resetKind is what a refresh does to a sink before (or instead of)
// writing.
type resetKind int

const (
	resetNone       resetKind = iota
	resetDeleteOwn            // shared sink: delete the writer's rows
	resetDrop                 // drop the sink (its folder)
	resetTruncate             // remove every row, keep the table
	resetTableDrop            // shared table: DROP the whole table, once per run
	resetTableTrunc           // shared table: TRUNCATE the whole table, once per run
)

// sinkPlan is what a task does with one sink.
type sinkPlan struct {
	sink   *workspace.Sink
	writer *workspace.Writer // nil for a sink that writes no table
	table  *workspace.Table  // nil likewise
	reset  resetKind
	// checkpoints are the folders the reset deletes (existing ones only).
	checkpoints []string
	// lockDir is the writer's checkpoint folder (existing or not): its
	// lock ("<lockDir>.lock") and the intent of an unfinished refresh
	// ("<lockDir>.refresh.json") live beside it. "" for a sink that
	// writes nothing (a view).
	lockDir string
	// refresh is the sink's refresh in this run: the run's, or FULL when
	// an INCREMENTAL run finishes a FULL or RESET of the writer that a
	// crash interrupted (intent).
	refresh string
	// intent is the unfinished refresh found beside the checkpoint when
	// the run was planned (nil: none).
	intent *intent
	// whole is the whole-table reset this sink takes part in
	// (resetTableDrop, resetTableTrunc): planned once per table and run,
	// shared by the sink plans of all the table's writers in the run.
	whole *wholeReset
}

// wholeReset is a DROP or TRUNCATE of a whole table, planned once per
// table and run, and done once, by whichever of the table's writers' tasks
// gets there first, before any of them writes.
type wholeReset struct {
	table workspace.TableID
	sink  *sinkPlan // the first writer's sink plan (names the table)
	drop  bool
	// checkpoints are the checkpoint folders of every writer of the table
	// in every pipeline of the run (in the run or not), existing or not:
	// the reset locks them all and deletes those that exist.
	checkpoints []string
	// declarative: the table of a declarative pipeline (its flows are
	// forgotten with it).
	declarative bool
}

// taskPlan is the executable part of a Task.
type taskPlan struct {
	pipeline *workspace.Pipeline
	node     *workspace.Node
	sinks    []*sinkPlan
	// process is false for a RESET: the sinks are reset, nothing is read.
	process bool
	// keepOutput: a downstream task of the run reads this node's output
	// from memory.
	keepOutput bool
	// flows are the node's flows when it reads a stream (or is a one-time
	// flow): each writes one sink through its checkpoint. A node without
	// flows is processed once, as a batch.
	flows []*flowPlan
}

// Plan validates a request against a workspace snapshot and returns what
// the run will do, without doing anything: the tasks in dependency order
// and every destructive effect (rows deleted per writer with their
// estimated count, whole tables dropped or truncated, checkpoints reset).
//
// An invalid request is rejected with a *PlanError (errors.Is
// ErrInvalidRun) carrying the diagnostics, with the codes and messages of
// validation: unknown pipelines or selectors, bad refresh/reset_mode
// combinations (validate.RunParameters), workspace errors in the selected
// pipelines' files, and nodes using features local runs do not support yet.
func (r *Runner) Plan(ctx context.Context, snap *workspace.Snapshot, req Request) (*Plan, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: no workspace snapshot", ErrInvalidRun)
	}
	sel, ds := selection.Select(snap, req.Pipelines, req.Selectors)
	if workspace.HasErrors(ds) {
		return nil, &PlanError{Diagnostics: ds}
	}
	params, pds := validate.RunParameters(snap, validate.RunRequest{Refresh: req.Refresh, ResetMode: req.ResetMode, Selection: sel.Map()})
	ds = append(ds, pds...)
	ds = append(ds, bucketLakeUnsupported(r.runEngine().Info(), snap, sel)...)
	if workspace.HasErrors(ds) {
		return nil, &PlanError{Diagnostics: ds}
	}
	nds, err := bucketSparkNewTables(ctx, r.runEngine().Info(), snap, sel)
	if err != nil {
		return nil, err
	}
	ds = append(ds, nds...)
	wp, err := r.workspaceProblems(ctx, snap, sel, req.Strict, len(req.Pipelines) == 0)
	if err != nil {
		return nil, err
	}
	ds = append(ds, wp...)
	executed := map[*workspace.Node]bool{}
	for _, p := range sel.Pipelines {
		for _, name := range sel.Nodes[p.Name] {
			for _, n := range nodesExecuted(p, p.Node(name), sel.Nodes[p.Name]) {
				executed[n] = true
				ds = append(ds, unsupported(p, n)...)
				ds = append(ds, engineUnsupported(r.runEngine().Info(), p, n)...)
			}
		}
	}
	ds = workspace.SortDiagnostics(ds)
	if workspace.HasErrors(ds) {
		return nil, &PlanError{Diagnostics: ds}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	plan := &Plan{Request: req, Params: params, Selection: sel.Map(), snap: snap}
	for _, d := range ds {
		if d.Severity == workspace.SeverityWarning {
			plan.Warnings = append(plan.Warnings, d)
		}
	}
	lds, skipped := landingDiagnostics(ctx, snap, func(_ *workspace.Pipeline, n *workspace.Node) bool { return executed[n] })
	plan.Warnings, plan.skipped = append(plan.Warnings, lds...), skipped
	r.buildTasks(plan, sel)
	deep, err := r.planEffects(ctx, plan)
	if err != nil {
		return nil, err
	}
	plan.Flows = planFlows(plan)
	deep = append(deep, r.flowWarnings(ctx, plan)...)
	deep = append(deep, refreshedWriterWarnings(plan)...)
	plan.Warnings = workspace.SortDiagnostics(append(plan.Warnings, deep...))
	// A plan deleting nothing says so with empty lists (JSON []), not null.
	if plan.Effects == nil {
		plan.Effects = []Effect{}
	}
	if plan.Warnings == nil {
		plan.Warnings = []validate.Diagnostic{}
	}
	return plan, nil
}

// nodesExecuted returns n and the upstream nodes a task of n executes
// itself: nodes without sinks it reads that the run does not select
// (Laktory executes them when a downstream node reads them).
func nodesExecuted(p *workspace.Pipeline, n *workspace.Node, selected []string) []*workspace.Node {
	out := []*workspace.Node{n}
	seen := map[string]bool{n.Name: true}
	for i := 0; i < len(out); i++ {
		if p.DAG == nil {
			break
		}
		for _, up := range p.DAG.Upstream(out[i].Name) {
			u := p.Node(up)
			if u == nil || seen[up] || slices.Contains(selected, up) || !computedByReaders(p, u) {
				continue
			}
			seen[up] = true
			out = append(out, u)
		}
	}
	return out
}

// workspaceProblems returns the validation errors found in the files of the
// selected pipelines, the schema flow's included, and in the workbench
// config (problems elsewhere do not block the run). A run of every
// pipeline (all) is also blocked by the errors of files no pipeline loaded
// from: a file that does not parse may be a pipeline the run would
// silently leave out.
func (r *Runner) workspaceProblems(ctx context.Context, snap *workspace.Snapshot, sel selection.Selection, strict, all bool) ([]validate.Diagnostic, error) {
	files := map[string]bool{}
	if snap.Config != nil {
		files[snap.Config.File] = true
	}
	for _, p := range sel.Pipelines {
		files[p.File] = true
		for _, f := range snap.Deps(p.File) {
			files[f] = true
		}
	}
	names := make([]string, len(sel.Pipelines))
	for i, p := range sel.Pipelines {
		names[i] = p.Name
	}
	ds, err := r.validate(ctx, snap, validate.Options{Paths: PathFacts(snap), Strict: strict, Runnable: true}, names)
	if err != nil {
		return nil, err
	}
	var out []validate.Diagnostic
	for _, d := range ds {
		if d.Severity == workspace.SeverityError && (d.File == "" || files[d.File] || all && !snap.LoadsPipeline(d.File)) {
			out = append(out, d)
		}
	}
	return out, nil
}

// buildTasks makes one task per selected node, in DAG order, pipelines by
// name. A task depends on the tasks of the nodes it reads or depends on.
func (r *Runner) buildTasks(plan *Plan, sel selection.Selection) {
	process := plan.Params.Refresh != validate.RefreshReset
	for _, p := range sel.Pipelines {
		nodes := sel.Nodes[p.Name]
		for _, name := range nodes {
			n := p.Node(name)
			t := &Task{Key: p.Name + "." + name, Pipeline: p.Name, Node: name, DependsOn: []string{},
				plan: &taskPlan{pipeline: p, node: n, process: process}}
			if p.DAG != nil {
				for _, up := range p.DAG.Upstream(name) {
					if slices.Contains(nodes, up) {
						t.DependsOn = append(t.DependsOn, p.Name+"."+up)
					}
				}
			}
			for _, sk := range n.Sinks {
				sp := &sinkPlan{sink: sk, refresh: plan.Params.Refresh}
				if p.MaterializedView(n, sk) && !strings.EqualFold(sk.Mode, workspace.ModeOverwrite) {
					// Each update replaces a materialized view: the sink's
					// mode does not apply (LK241).
					mv := *sk
					mv.Mode = workspace.ModeOverwrite
					sp.sink = &mv
				}
				if !sk.IsView() && sk.Kind != workspace.SinkPipelineView {
					sp.lockDir = CheckpointDir(plan.snap.Layout, p, n, sk)
				}
				if sk.Table != "" {
					sp.table = plan.snap.Table(sk.Table)
					if sp.table != nil {
						for _, w := range sp.table.Writers {
							if w.Pipeline == p.Name && w.Node == n.Name && w.Sink == sk.Index {
								sp.writer = w
							}
						}
					}
				}
				t.plan.sinks = append(t.plan.sinks, sp)
			}
			t.plan.flows = nodeFlows(plan.snap, p, n, t.plan.sinks)
			if p.Declarative() {
				// The engine orders flows by the tables they read: a node
				// reading a table of the pipeline runs after its writers.
				for _, up := range tableWriters(plan.snap, p, n) {
					if key := p.Name + "." + up; slices.Contains(nodes, up) && !slices.Contains(t.DependsOn, key) {
						t.DependsOn = append(t.DependsOn, key)
					}
				}
			}
			plan.Tasks = append(plan.Tasks, t)
		}
	}
	byKey := map[string]*Task{}
	for _, t := range plan.Tasks {
		byKey[t.Key] = t
	}
	for _, t := range plan.Tasks {
		for _, d := range t.DependsOn {
			if up := byKey[d]; up != nil && process {
				up.plan.keepOutput = true
			}
		}
	}
	crossPipelineOrder(plan, sel, byKey)
}

// crossPipelineOrder makes a task reading a table (or view) that another
// pipeline of the run writes, itself or through the upstream nodes it
// executes, depend on the writer's task, so a first run of both does not
// read it before it exists. Within a pipeline a table read follows
// Laktory's order (PipelineReads): after a writer Laktory runs first,
// before one it runs later, so a writer's first write or FULL refresh
// never races the read. A read that would close a cycle does not wait
// (the plan warns, LK240): the order never deadlocks. Laktory orders none
// of these reads, it runs each pipeline on its own (docs/running.md, "Order across pipelines").
// The tasks are then sorted again: writers before their readers, in the
// order they were built otherwise.
func crossPipelineOrder(plan *Plan, sel selection.Selection, byKey map[string]*Task) {
	fixed := map[string][]string{}
	var reads, within []workspace.ReadEdge
	for _, t := range plan.Tasks {
		for _, d := range t.DependsOn {
			fixed[d] = append(fixed[d], t.Key)
		}
		p := t.plan.pipeline
		for _, n := range nodesExecuted(p, t.plan.node, sel.Nodes[p.Name]) {
			for _, e := range plan.snap.CrossReads(p, n) {
				if byKey[e.From] != nil {
					e.To = t.Key
					reads = append(reads, e)
				}
			}
			for _, e := range plan.snap.PipelineReads(p, n) {
				// The reader's side is the task executing n.
				if e.Before {
					e.From = t.Key
				} else {
					e.To = t.Key
				}
				if byKey[e.From] != nil && byKey[e.To] != nil && e.From != e.To {
					within = append(within, e)
				}
			}
		}
	}
	if len(reads) == 0 && len(within) == 0 {
		return
	}
	// The reads within a pipeline are ordered first, as Laktory runs them;
	// those across pipelines, which Laktory does not order, then fit in.
	kept, broken := workspace.OrderReads(fixed, within)
	for _, e := range kept {
		fixed[e.From] = append(fixed[e.From], e.To)
	}
	keptX, brokenX := workspace.OrderReads(fixed, reads)
	for _, e := range append(kept, keptX...) {
		t := byKey[e.To]
		if !slices.Contains(t.DependsOn, e.From) {
			t.DependsOn = append(t.DependsOn, e.From)
		}
	}
	for _, b := range append(broken, brokenX...) {
		plan.Warnings = append(plan.Warnings, validate.CrossCycle(plan.snap, b))
	}
	plan.Tasks = topoTasks(plan.Tasks)
}

// topoTasks orders tasks so that each comes after the tasks it depends on,
// keeping their order otherwise: Kahn's sort taking the first ready task
// in the order built.
func topoTasks(tasks []*Task) []*Task {
	index := make(map[string]int, len(tasks))
	for i, t := range tasks {
		index[t.Key] = i
	}
	indeg := make([]int, len(tasks))
	next := make([][]int, len(tasks))
	for i, t := range tasks {
		for _, d := range t.DependsOn {
			if j, ok := index[d]; ok {
				indeg[i]++
				next[j] = append(next[j], i)
			}
		}
	}
	ready := &intHeap{}
	for i := range tasks {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	out := make([]*Task, 0, len(tasks))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		out = append(out, tasks[i])
		for _, j := range next[i] {
			if indeg[j]--; indeg[j] == 0 {
				heap.Push(ready, j)
			}
		}
	}
	if len(out) < len(tasks) {
		return tasks // a cycle (none is added): keep the order built
	}
	return out
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// planEffects decides how each sink is reset and lists the destructive
// effects with their row counts. It returns the deep warnings (orphan
// writer ids, ownership switches) of the tables the run writes.
func (r *Runner) planEffects(ctx context.Context, plan *Plan) ([]validate.Diagnostic, error) {
	rp := plan.Params
	plan.knownCps = r.knownCheckpoints(ctx, plan.snap)
	tables := map[workspace.TableID]*delta.Snapshot{}
	load := func(id workspace.TableID) (*delta.Snapshot, error) {
		if s, ok := tables[id]; ok {
			return s, nil
		}
		s, err := loadTable(ctx, string(id))
		if err == nil {
			tables[id] = s
		}
		return s, err
	}
	wholes := map[workspace.TableID]*wholeReset{}
	runPipelines := map[string]bool{}
	for _, t := range plan.Tasks {
		runPipelines[t.Pipeline] = true
	}
	for _, t := range plan.Tasks {
		tp := t.plan
		for _, sp := range tp.sinks {
			in, err := readIntent(sp.lockDir)
			if err != nil {
				return nil, err
			}
			sp.intent = in
			override := rp.ResetMode
			if in != nil && in.Whole == "" && rp.Refresh == validate.RefreshIncremental {
				// A FULL or RESET of this writer did not finish: this run
				// refreshes it fully (a RESET followed by this run comes to
				// the same), which makes its rows and checkpoint agree.
				sp.refresh, override = validate.RefreshFull, in.Mode
			}
			if sp.refresh != validate.RefreshIncremental {
				r.planSinkReset(ctx, plan, t, sp, override, load, wholes, runPipelines)
			}
			if in != nil {
				plan.Effects = append(plan.Effects, resumeEffect(t, sp, in, load))
			}
		}
	}
	overwriteEffects(plan, load)
	return r.deepWarnings(ctx, plan), nil
}

// resumeEffect announces the refresh of a writer (or of a whole table) a
// crash interrupted, which the run finishes or redoes.
func resumeEffect(t *Task, sp *sinkPlan, in *intent, load func(workspace.TableID) (*delta.Snapshot, error)) Effect {
	e := Effect{Kind: EffectResume, Task: t.Key, Table: sp.sink.Table, Rows: -1, Checkpoint: sp.lockDir, RunID: in.RunID}
	switch {
	case in.Whole != "" && sp.whole == nil:
		verb := strings.ToLower(in.Whole)
		e.Description = fmt.Sprintf("finish the RESET (%s) of %s interrupted in run %d: %s the table unless that was done, and reset the checkpoint of %s", in.Whole, in.Table, in.RunID, verb, t.Key)
		if ts, err := load(sp.sink.Table); err == nil && ts != nil && ts.TableID() == in.TableID {
			if n, ok := ts.NumRecords(); ok {
				e.Rows = n
			}
		}
	case in.Whole != "":
		e.Description = fmt.Sprintf("redo the RESET (%s) of %s interrupted in run %d (this run resets the table again)", in.Whole, in.Table, in.RunID)
	default:
		e.Description = fmt.Sprintf("redo the %s refresh of %s interrupted in run %d: this run refreshes it %s", in.Refresh, t.Key, in.RunID, strings.ToUpper(sp.refresh))
	}
	return e
}

// planSinkReset decides how a sink is reset by a FULL or RESET (its
// refresh) and lists the destructive effects with their row counts.
func (r *Runner) planSinkReset(ctx context.Context, plan *Plan, t *Task, sp *sinkPlan, override string,
	load func(workspace.TableID) (*delta.Snapshot, error), wholes map[workspace.TableID]*wholeReset, runPipelines map[string]bool) {
	snap := plan.snap
	tp := t.plan
	sk := sp.sink
	if sk.Kind == workspace.SinkForEach {
		// A full refresh resets every flow into the ForEach sink; its
		// destination is not cleaned.
		for _, o := range targetWriters(tp.pipeline, tp.node, sk) {
			for _, os := range o.Sinks {
				if targetKey(o, os) != targetKey(tp.node, sk) {
					continue
				}
				for _, cp := range plan.resettable(CheckpointDir(snap.Layout, tp.pipeline, o, os)) {
					if !slices.Contains(sp.checkpoints, cp) && !effectHasCheckpoint(plan.Effects, cp) {
						sp.checkpoints = append(sp.checkpoints, cp)
						plan.Effects = append(plan.Effects, Effect{Kind: EffectResetCheckpoint, Task: t.Key, Rows: -1, Checkpoint: cp,
							Description: fmt.Sprintf("reset the checkpoint %s of a flow into %s: it sends all its data again (the destination is not cleaned)", snap.Rel(cp), sk.Describe())})
					}
				}
			}
		}
		return
	}
	if sk.Table == "" || sp.table == nil {
		return
	}
	var ts *delta.Snapshot
	var readErr error
	if sk.IsDelta() {
		ts, readErr = load(sk.Table)
	}
	label := tableLabel(sp)
	switch {
	case sk.Shared != nil && override == "":
		sp.reset = resetDeleteOwn
		e := Effect{Kind: EffectDeleteRows, Task: t.Key, Table: sk.Table, Rows: -1}
		var schema *delta.StructType
		if ts != nil {
			schema = ts.Schema()
		}
		e.Writer, e.Predicate = ownerPredicate(r.sql, sp.writer, schema)
		switch {
		case readErr != nil:
		case ts == nil:
			e.Rows = 0
		case sp.writer != nil && sp.writer.Ownership == workspace.OwnerColumn && ts.Schema().Field(sp.writer.Column) == nil:
			// A legacy table: the task fails with the fix.
		default:
			if n, err := r.countRows(ctx, ts, e.Predicate); err == nil {
				e.Rows = n
			}
			if e.Rows != 0 {
				e.Overlaps = r.overlaps(ctx, ts, sp, e.Predicate)
			}
		}
		e.Description = fmt.Sprintf("delete the rows of %s from %s (%s)", ownerLabel(sp.writer), label, rowsText(e.Rows))
		for _, o := range e.Overlaps {
			e.Description += fmt.Sprintf("; %s of them also match writer %s (where %s)", rowsText(o.Rows), o.Writer, o.Where)
		}
		plan.Effects = append(plan.Effects, e)
		sp.checkpoints = plan.resettable(CheckpointDir(snap.Layout, tp.pipeline, tp.node, sk))
	case sk.Shared != nil || tp.pipeline.Declarative():
		// The whole table once per run (reset_mode override of a
		// shared table; any reset of a declarative pipeline's
		// table: the engine clears it once and resets every flow).
		sp.reset = resetTableDrop
		kind := EffectDropTable
		if override == "TRUNCATE" {
			sp.reset, kind = resetTableTrunc, EffectTruncateTable
		}
		wr := wholes[sk.Table]
		if wr == nil {
			wr = &wholeReset{table: sk.Table, sink: sp, drop: sp.reset == resetTableDrop, declarative: tp.pipeline.Declarative()}
			wholes[sk.Table] = wr
			what := "every writer's rows"
			if tp.pipeline.Declarative() {
				what = "the rows of every flow (" + strings.Join(flowNames(tp.pipeline, sp.table), ", ") + ")"
			}
			plan.Effects = append(plan.Effects, wholeTableEffect(kind, t.Key, sk.Table, label, ts, what))
			// The checkpoints of all the table's writers in every
			// pipeline of the run, run or not: whichever task resets
			// the table resets them all, before any writer writes.
			for _, w := range sp.table.Writers {
				wp := snap.Pipeline(w.Pipeline)
				if !runPipelines[w.Pipeline] || wp == nil {
					continue
				}
				wn := wp.Node(w.Node)
				if wn == nil || wn.SinkAt(w.Sink) == nil {
					continue
				}
				if cp := CheckpointDir(snap.Layout, wp, wn, wn.SinkAt(w.Sink)); !slices.Contains(wr.checkpoints, cp) {
					wr.checkpoints = append(wr.checkpoints, cp)
				}
			}
			sp.checkpoints = plan.resettable(wr.checkpoints...)
		}
		sp.whole = wr
	case sk.IsView():
		// Laktory's purge of a view: DROP VIEW IF EXISTS (LK191 refuses
		// TRUNCATE); a FULL refresh creates it again.
		sp.reset = resetDrop
		plan.Effects = append(plan.Effects, Effect{Kind: EffectDropTable, Task: t.Key, Table: sk.Table, Rows: 0,
			Description: fmt.Sprintf("drop the view %s (it holds no rows: the tables it reads are kept)", label)})
	default:
		mode, from := resetMode(override, sk)
		sp.reset = resetDrop
		kind := EffectDropTable
		if mode == "TRUNCATE" {
			sp.reset, kind = resetTruncate, EffectTruncateTable
		}
		what := "the whole table"
		if len(sp.table.Writers) > 1 {
			what = fmt.Sprintf("the rows of every writer of it (%s)", strings.Join(writerNames(sp.table.Writers), ", "))
		}
		e := wholeTableEffect(kind, t.Key, sk.Table, label, ts, what)
		e.Description += fmt.Sprintf(" [reset_mode %s from %s]", mode, from)
		if !sk.IsDelta() {
			e.Rows = -1
			if !pathExists(string(sk.Table)) {
				e.Rows = 0
			}
		}
		plan.Effects = append(plan.Effects, e)
		sp.checkpoints = plan.resettable(CheckpointDir(snap.Layout, tp.pipeline, tp.node, sk))
	}
	if readErr != nil {
		for i := range plan.Effects {
			if e := &plan.Effects[i]; e.Task == t.Key && e.Table == sk.Table && e.Rows <= 0 {
				e.Rows = -1
				e.Description += " (the table cannot be read: " + readErr.Error() + ")"
			}
		}
	}
	for _, cp := range sp.checkpoints {
		if effectHasCheckpoint(plan.Effects, cp) {
			continue
		}
		plan.Effects = append(plan.Effects, Effect{Kind: EffectResetCheckpoint, Task: t.Key, Table: sk.Table, Rows: -1, Checkpoint: cp,
			Description: fmt.Sprintf("reset the streaming checkpoint %s: its flow reprocesses all its data", snap.Rel(cp))})
	}
}

// overlaps counts, per other writer of sp's table with a where
// predicate, the rows of ts that the delete predicate pred removes and that
// also match that writer's predicate: the rows a FULL refresh of sp would
// take from it (predicates validation cannot prove disjoint, or that a
// parameter changed). A count that fails is reported as unknown (-1).
func (r *Runner) overlaps(ctx context.Context, ts *delta.Snapshot, sp *sinkPlan, pred string) []Overlap {
	if sp.table == nil || sp.writer == nil || pred == "" {
		return nil
	}
	var out []Overlap
	for _, o := range sp.table.Writers {
		if o == sp.writer || o.Ownership != workspace.OwnerWhere || o.Declarative {
			continue
		}
		other := writerWhere(r.sql, o, ts.Schema())
		if other == "" {
			continue
		}
		n, err := r.countRows(ctx, ts, "("+pred+") AND ("+other+")")
		if err != nil {
			n = -1
		}
		if n != 0 {
			out = append(out, Overlap{Writer: o.Pipeline + "." + o.Node, Where: o.Where, Rows: n})
		}
	}
	return out
}

// overwriteEffects lists the OVERWRITE sinks (without `shared`) of an
// INCREMENTAL run that write a table other writers write too: each
// replaces every row of it, theirs included.
func overwriteEffects(plan *Plan, load func(workspace.TableID) (*delta.Snapshot, error)) {
	for _, t := range plan.Tasks {
		for _, sp := range t.plan.sinks {
			sk := sp.sink
			if sp.refresh != validate.RefreshIncremental || sp.table == nil || sk.Shared != nil || !strings.EqualFold(sk.Mode, workspace.ModeOverwrite) {
				continue
			}
			var others []*workspace.Writer
			for _, w := range sp.table.Writers {
				if w != sp.writer && (w.Pipeline != t.Pipeline || w.Node != t.Node || w.Sink != sk.Index) {
					others = append(others, w)
				}
			}
			if len(others) == 0 {
				continue
			}
			var ts *delta.Snapshot
			if sk.IsDelta() {
				ts, _ = load(sk.Table)
			}
			e := wholeTableEffect(EffectOverwrite, t.Key, sk.Table, tableLabel(sp), ts, "")
			e.Description = fmt.Sprintf("overwrite %s (mode OVERWRITE, not `shared`): every row is replaced, the rows of its other writers (%s) included (%s)",
				tableLabel(sp), strings.Join(writerNames(others), ", "), rowsText(e.Rows))
			plan.Effects = append(plan.Effects, e)
		}
	}
}

// deepWarnings runs validation's deep rules on the shared tables the run
// writes and keeps their warnings (the errors, such as a legacy table,
// fail the task that writes it, with the fix).
func (r *Runner) deepWarnings(ctx context.Context, plan *Plan) []validate.Diagnostic {
	facts := map[workspace.TableID]validate.TableFacts{}
	db := r.db
	for _, t := range plan.Tasks {
		for _, sp := range t.plan.sinks {
			if sp.table == nil || !sp.sink.IsDelta() || !sp.table.Shared() {
				continue
			}
			if _, done := facts[sp.table.ID]; done {
				continue
			}
			column := ""
			for _, w := range sp.table.Writers {
				if w.Ownership == workspace.OwnerColumn {
					column = w.Column
					break
				}
			}
			f, err := tableFacts(ctx, &db, sp.table.Path, column)
			if err != nil {
				f = validate.TableFacts{Err: err.Error()}
			}
			facts[sp.table.ID] = f
		}
	}
	if len(facts) == 0 {
		return nil
	}
	var out []validate.Diagnostic
	for _, d := range validate.Check(plan.snap, validate.Options{Facts: facts, SQL: r.sql}) {
		switch d.Code {
		case validate.CodeOrphanWriters, validate.CodeOwnershipSwitch, validate.CodeFactsUnreadable:
			out = append(out, d)
		}
	}
	return out
}

// ownerPredicate returns the writer (its id or where predicate) and the
// SQL predicate selecting its rows in a table of the given schema (nil
// when unknown); sqlp parses a POLARS writer's predicate (whereSQL).
func ownerPredicate(sqlp validate.SQL, w *workspace.Writer, schema *delta.StructType) (writer, predicate string) {
	if w == nil {
		return "", ""
	}
	switch w.Ownership {
	case workspace.OwnerColumn:
		return w.WriterID, quoteIdent(w.Column) + " = " + quoteString(w.WriterID)
	case workspace.OwnerWhere:
		return w.Where, writerWhere(sqlp, w, schema)
	}
	return "", ""
}

func ownerLabel(w *workspace.Writer) string {
	if w == nil {
		return "the writer"
	}
	if w.Ownership == workspace.OwnerWhere {
		return fmt.Sprintf("writer %s.%s (where %s)", w.Pipeline, w.Node, w.Where)
	}
	return fmt.Sprintf("writer '%s'", w.WriterID)
}

func wholeTableEffect(kind EffectKind, task string, id workspace.TableID, label string, ts *delta.Snapshot, what string) Effect {
	e := Effect{Kind: kind, Task: task, Table: id, Rows: 0}
	if ts != nil {
		e.Rows = -1
		if n, ok := ts.NumRecords(); ok {
			e.Rows = n
		}
	}
	verb := "drop"
	if kind == EffectTruncateTable {
		verb = "truncate"
	}
	e.Description = fmt.Sprintf("%s %s: %s (%s)", verb, label, what, rowsText(e.Rows))
	return e
}

func tableLabel(sp *sinkPlan) string {
	if sp.table != nil {
		return sp.table.Label()
	}
	return sp.sink.Describe()
}

func rowsText(n int64) string {
	switch {
	case n < 0:
		return "row count unknown"
	case n == 1:
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// flowNames lists the flows of pipeline p into table t.
func flowNames(p *workspace.Pipeline, t *workspace.Table) []string {
	var out []string
	for _, w := range t.Writers {
		if n := p.Node(w.Node); w.Pipeline == p.Name && n != nil && n.SinkAt(w.Sink) != nil {
			if name := FlowName(p, n, n.SinkAt(w.Sink)); !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// tableWriters returns the nodes of p (other than n) writing a table that n
// reads with a table or path source.
func tableWriters(snap *workspace.Snapshot, p *workspace.Pipeline, n *workspace.Node) []string {
	var out []string
	for _, src := range n.Sources {
		t := snap.Table(src.Table)
		if src.Table == "" || t == nil {
			continue
		}
		for _, w := range t.Writers {
			if w.Pipeline == p.Name && w.Node != n.Name && !slices.Contains(out, w.Node) {
				out = append(out, w.Node)
			}
		}
	}
	return out
}

func writerNames(ws []*workspace.Writer) []string {
	seen := map[string]bool{}
	for _, w := range ws {
		seen[w.Pipeline+"."+w.Node] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// knownCheckpoints are the checkpoints the state database records flows
// committed batches through, by absolute path (none before the first run).
func (r *Runner) knownCheckpoints(ctx context.Context, snap *workspace.Snapshot) map[string]bool {
	if r.cfg.History == nil && !pathExists(snap.Layout.StateDB()) {
		return nil
	}
	s, err := r.store(ctx, snap.Layout.StateDB())
	if err != nil {
		return nil
	}
	cs, err := s.ListCheckpoints(ctx)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, c := range cs {
		p := c.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(snap.Dir, p)
		}
		out[filepath.Clean(p)] = true
	}
	return out
}

// resettable returns the checkpoints of paths a reset resets: a folder
// that exists, and one removed by hand that a record says a flow
// committed batches through (its marker, or the state database), so the
// reset forgets the record and the flow starts over.
func (p *Plan) resettable(paths ...string) []string {
	var out []string
	for _, cp := range paths {
		if pathExists(cp) || pathExists(checkpoint.WrittenMarker(cp)) || p.knownCps[filepath.Clean(cp)] {
			out = append(out, cp)
		}
	}
	return out
}

func existing(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if pathExists(p) {
			out = append(out, p)
		}
	}
	return out
}

func effectHasCheckpoint(es []Effect, cp string) bool {
	for _, e := range es {
		if e.Kind == EffectResetCheckpoint && e.Checkpoint == cp {
			return true
		}
	}
	return false
}

// WriterDeletion is the deletion of one writer id's rows from a shared
// table (laktory table forget-writer): the rows of a renamed or removed
// writer, which no FULL refresh deletes (LK202), and nothing else.
type WriterDeletion struct {
	// Table is the shared table, Column its writer column.
	Table  *workspace.Table `json:"-"`
	Path   string           `json:"path"`
	Label  string           `json:"table"`
	Column string           `json:"column"`
	// WriterID is the id whose rows go; Null: the rows whose writer column
	// is NULL instead (WriterID is then "").
	WriterID string `json:"writer_id"`
	Null     bool   `json:"null,omitempty"`
	// Predicate is the delete's SQL, Rows the rows it matches now.
	Predicate string `json:"predicate"`
	Rows      int64  `json:"rows"`
	// Version is the table version the rows were counted at.
	Version int64 `json:"version"`
	// Claim is the writer claim of the id in a bucket table, this
	// workspace's, which goes with its rows ("": none).
	Claim string `json:"claim,omitempty"`
}

// PlanWriterDeletion counts the rows of writer id (NULL when null) in the
// shared table tableName (as a table_name of the workspace names it, or
// its lake path): it changes nothing. An id a current writer of the table
// declares is refused (its FULL refresh or RESET deletes its rows, with
// its checkpoint and lock), as is a table that has no writer column.
func (r *Runner) PlanWriterDeletion(ctx context.Context, snap *workspace.Snapshot, tableName, id string, null bool) (*WriterDeletion, error) {
	t := findTable(snap, tableName)
	if t == nil {
		return nil, fmt.Errorf("%w: no table %q is written by the workspace's pipelines", ErrInvalidRun, tableName)
	}
	column := ""
	for _, w := range t.Writers {
		if w.Ownership != workspace.OwnerColumn {
			continue
		}
		column = w.Column
		if !null && w.WriterID == id {
			return nil, fmt.Errorf("%w: writer id '%s' is %s.%s's, a current writer of %s: refresh it instead (laktory run -p %s -s %s --refresh RESET deletes its rows and resets its checkpoint)",
				ErrInvalidRun, id, w.Pipeline, w.Node, t.Label(), w.Pipeline, w.Node)
		}
	}
	if column == "" {
		return nil, fmt.Errorf("%w: %s has no writer declaring `shared: true`: its rows carry no writer id", ErrInvalidRun, t.Label())
	}
	s, err := loadTable(ctx, t.Path)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("%w: table %s has not been written yet", ErrInvalidRun, t.Label())
	}
	if s.Schema().Field(column) == nil {
		return nil, fmt.Errorf("%w: table %s has no writer column %s", ErrLegacyTable, t.Label(), column)
	}
	d := &WriterDeletion{Table: t, Path: t.Path, Label: t.Label(), Column: column, WriterID: id, Null: null, Version: s.Version()}
	if !null {
		if d.Claim, err = forgottenClaim(ctx, t.Path, id, snap.Dir); err != nil {
			return nil, err
		}
	}
	if null {
		d.WriterID, d.Predicate = "", quoteIdent(column)+" IS NULL"
	} else {
		d.Predicate = quoteIdent(column) + " = " + quoteString(id)
	}
	if d.Rows, err = r.countRows(ctx, s, d.Predicate); err != nil {
		return nil, err
	}
	return d, nil
}

// DeleteWriterRows commits the deletion d plans (retrying a commit that
// conflicts with a concurrent writer up to 5 times) and returns the rows
// deleted: the rows of that id at the time of the commit.
func (r *Runner) DeleteWriterRows(ctx context.Context, d *WriterDeletion) (int64, error) {
	if d == nil || d.Predicate == "" {
		return 0, fmt.Errorf("%w: no writer deletion planned", ErrInvalidRun)
	}
	var res *delta.CommitResult
	var err error
	for attempt := 1; ; attempt++ {
		res, err = delta.Delete(ctx, r.db, d.Path, d.Predicate, delta.WriteOptions{UserMetadata: "laktory table forget-writer"})
		if !delta.IsRetryable(err) || attempt == 5 {
			break
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
	if err != nil {
		return 0, fmt.Errorf("delete the rows of writer %s from %s: %w", d.Describe(), d.Label, err)
	}
	if d.Claim != "" {
		// The rows are gone: so is the writer's claim (a crash before this
		// leaves this workspace's claim, which claims nothing another
		// workspace could want).
		if err := dropClaim(ctx, d.Path, d.Claim); err != nil {
			return 0, fmt.Errorf("the rows of writer %s are deleted from %s, its claim is not: %w", d.Describe(), d.Label, err)
		}
	}
	if !res.Committed {
		return 0, nil
	}
	return res.Metrics.DeletedRows, nil
}

// Describe names the writer id of d ('x', or NULL).
func (d *WriterDeletion) Describe() string {
	if d.Null {
		return "NULL"
	}
	return "'" + d.WriterID + "'"
}

// findTable finds a table of the workspace by its table_name (as written,
// or its last parts) or its lake path.
func findTable(snap *workspace.Snapshot, name string) *workspace.Table {
	for _, t := range snap.Tables {
		if string(t.ID) == name || t.Path == name || t.Label() == name || strings.HasSuffix(t.Label(), "."+name) {
			return t
		}
	}
	return nil
}
