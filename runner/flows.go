package runner

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// FlowName is the name of the flow through which node n writes sink sk.
// In a declarative pipeline it is the append flow: flow.name when set, else
// the table's name for the only node writing a table, else
// {target}__{node} (several nodes appending to one table, and every flow
// into a sink: a ForEach sink or a Delta sink by path). Elsewhere it is
// "<pipeline>.<node>/<sink>". A flow is identified by its name: a new name
// is a new flow, which starts from scratch.
func FlowName(p *workspace.Pipeline, n *workspace.Node, sk *workspace.Sink) string {
	if !p.Declarative() {
		return fmt.Sprintf("%s.%s/%s", p.Name, n.Name, sinkSegment(n, sk))
	}
	if n.Flow != nil && n.Flow.Name != "" {
		return n.Flow.Name
	}
	if sk.Kind == workspace.SinkTable && sk.TableRef != nil && len(targetWriters(p, n, sk)) == 1 {
		return sk.TableRef.Table
	}
	return n.FlowName(sk)
}

// targetWriters returns the nodes of p writing the target of sink sk of n
// (the same table, or the same ForEach sink).
func targetWriters(p *workspace.Pipeline, n *workspace.Node, sk *workspace.Sink) []*workspace.Node {
	key := targetKey(n, sk)
	var out []*workspace.Node
	for _, o := range p.Nodes {
		for _, s := range o.Sinks {
			if targetKey(o, s) == key && key != "" && !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// targetKey identifies what a sink writes: its table, or its ForEach sink.
func targetKey(n *workspace.Node, sk *workspace.Sink) string {
	if sk.Kind == workspace.SinkForEach && sk.ForEach != nil {
		return "foreach:" + foreachName(n, sk)
	}
	return string(sk.Table)
}

// foreachName is a ForEach sink's name: its own, else the node's.
func foreachName(n *workspace.Node, sk *workspace.Sink) string {
	if sk.ForEach != nil && sk.ForEach.Name != "" {
		return sk.ForEach.Name
	}
	return n.Name
}

// flowTarget names a flow's target in the flows remembered per table: the
// table's name (or path), or foreach:<name>.
func flowTarget(snap *workspace.Snapshot, n *workspace.Node, sk *workspace.Sink) string {
	if sk.Kind == workspace.SinkForEach {
		return targetKey(n, sk)
	}
	if t := snap.Table(sk.Table); t != nil {
		return t.Label()
	}
	return string(sk.Table)
}

// nodeFlows returns the flows of a node that reads a stream or is a
// one-time flow of a declarative pipeline: one per sink. Other nodes have
// none (they are processed once, as a batch).
func nodeFlows(snap *workspace.Snapshot, p *workspace.Pipeline, n *workspace.Node, sinks []*sinkPlan) []*flowPlan {
	once := p.Declarative() && n.Flow != nil && n.Flow.Once
	if !n.Streaming() && !once {
		return nil
	}
	var out []*flowPlan
	for _, sp := range sinks {
		sk := sp.sink
		f := &flowPlan{name: FlowName(p, n, sk), dir: CheckpointDir(snap.Layout, p, n, sk), sink: sp, once: once,
			update: n.Flow != nil && n.Flow.Kind == workspace.FlowUpdate, complete: sinkMode(sk) == modeComplete}
		if f.complete {
			f.partial = completePartial(n)
		}
		if p.Declarative() {
			f.target = flowTarget(snap, n, sk)
			if n.Flow != nil && n.Flow.ImportCheckpoint != "" && !once {
				f.importFrom = workspace.ResolvePath(p.File, n.Flow.ImportCheckpoint)
			}
		}
		out = append(out, f)
	}
	return out
}

// importCheckpoint clones the flow's import_checkpoint into its own
// checkpoint on its first update, so it resumes from that checkpoint's last
// committed offsets. Later updates, and updates after a full refresh,
// ignore it; importing into a table that already exists is an error.
func (fr *flowRun) importCheckpoint(ctx context.Context) error {
	x, f := fr.x, fr.f
	note := func(msg string) {
		x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "read", Message: "flow " + f.name + ": " + msg})
	}
	if b, err := os.ReadFile(checkpoint.ImportMarker(f.dir)); err == nil {
		var m struct {
			From string `json:"imported_from"`
		}
		json.Unmarshal(b, &m) //nolint:errcheck // informative only
		if !filepath.IsAbs(m.From) {
			m.From = filepath.Join(x.run.Plan.snap.Dir, m.From) // written relative to the workspace
		}
		if filepath.Clean(m.From) != filepath.Clean(f.importFrom) {
			x.log.warn(fmt.Sprintf("flow %s already imported the checkpoint %s: import_checkpoint %s is ignored; to import another checkpoint, give the flow a name the target has not used (flow.name)",
				f.name, m.From, f.importFrom))
		}
		return nil
	}
	if pathExists(filepath.Join(f.dir, "metadata")) {
		note("import_checkpoint is ignored: the flow already has its checkpoint (a flow name used before skips the import)")
		return nil
	}
	if !pathExists(filepath.Join(f.importFrom, "offsets")) && !pathExists(filepath.Join(f.importFrom, "commits")) {
		return fmt.Errorf("%w: import_checkpoint %s of flow %s is not a Structured Streaming checkpoint (no offsets/ or commits/ folder): set it to the checkpointLocation of the query",
			ErrCheckpoint, f.importFrom, f.name)
	}
	if sp := f.sink; sp.sink.Kind != workspace.SinkForEach && sp.sink.Table != "" {
		if exists, err := fr.existingTable(ctx); err != nil {
			return err
		} else if exists {
			return fmt.Errorf("%w: flow %s imports the checkpoint %s into %s, which already exists: importing a checkpoint into an existing table is not supported. Target a new table that the pipeline creates, or a sink",
				ErrFlow, f.name, f.importFrom, tableLabel(sp))
		}
	}
	if err := os.MkdirAll(filepath.Dir(f.dir), 0o755); err != nil {
		return fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	tmp := f.dir + ".importing"
	g := x.run.guard
	if err := g.RemoveAll(tmp); err != nil {
		return fmt.Errorf("%w: import %s: %w", ErrCheckpoint, f.importFrom, err)
	}
	if err := checkpoint.CopyDir(f.importFrom, tmp); err != nil {
		g.RemoveAll(tmp) //nolint:errcheck // best effort
		return fmt.Errorf("%w: import %s: %w", ErrCheckpoint, f.importFrom, err)
	}
	if !pathExists(filepath.Join(tmp, "metadata")) {
		// A checkpoint without a query id still needs one (the flow id).
		g.RemoveAll(filepath.Join(tmp, "metadata")) //nolint:errcheck // a missing metadata is made below
	}
	if err := os.Rename(tmp, f.dir); err != nil {
		g.RemoveAll(tmp) //nolint:errcheck // best effort
		return fmt.Errorf("%w: import %s: %w", ErrCheckpoint, f.importFrom, err)
	}
	from := f.importFrom // relative to the workspace when inside it: the workspace may move
	if rel, err := filepath.Rel(x.run.Plan.snap.Dir, from); err == nil && !strings.HasPrefix(rel, "..") {
		from = rel
	}
	m, _ := json.Marshal(map[string]string{"flow": f.name, "imported_from": from, "imported_at": x.run.r.cfg.Now().UTC().Format(time.RFC3339)})
	if err := checkpoint.WriteFileAtomic(checkpoint.ImportMarker(f.dir), m); err != nil {
		return fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	cp, err := checkpoint.Open(f.dir, x.run.Plan.snap.Dir)
	if err != nil {
		return err
	}
	last, _ := cp.LastCommitted()
	note(fmt.Sprintf("imported the checkpoint %s: resuming after its batch %d", f.importFrom, last))
	return nil
}

// existingTable reports whether the flow's target table exists and was not
// created by its pipeline (no flow of the pipeline remembered for it, and
// not created by this run).
func (fr *flowRun) existingTable(ctx context.Context) (bool, error) {
	x, sp := fr.x, fr.f.sink
	snap, err := loadTable(ctx, x.sinkPath(sp))
	if err != nil || snap == nil {
		return false, err
	}
	if x.run.createdByRun(sp.sink.Table) {
		return false, nil
	}
	flows, err := x.run.store.ListFlows(ctx, fr.f.target)
	if err != nil {
		return false, err
	}
	for _, fl := range flows {
		if fl.Pipeline == x.tp.pipeline.Name {
			return false, nil
		}
	}
	return true, nil
}

// sinkDefinition records a ForEach sink's definition in the event log,
// once per run and sink.
func (x *taskExec) sinkDefinition(f *flowPlan) {
	sk := f.sink.sink
	name := foreachName(x.tp.node, sk)
	key := x.tp.pipeline.Name + "/foreach:" + name
	if _, dup := x.run.defined.LoadOrStore(key, true); dup {
		return
	}
	writer := "command"
	if sk.ForEach != nil && sk.ForEach.HTTP != nil {
		writer = "http " + sk.ForEach.HTTP.Method + " " + sk.ForEach.HTTP.URL
	} else if sk.ForEach != nil {
		writer = "command " + strings.Join(sk.ForEach.Command, " ")
	}
	x.run.emit(Event{Kind: EventSinkDefinition, Task: x.t.Key, Flow: f.name, Sink: name, Format: "foreach",
		Message: fmt.Sprintf("ForEach sink %s (format foreach, %s)", name, writer)})
}

// record remembers a declarative flow once it ran.
func (fr *flowRun) record() {
	x, f := fr.x, fr.f
	if f.target == "" {
		return
	}
	fl := history.Flow{Table: f.target, Pipeline: x.tp.pipeline.Name, Name: f.name}
	x.run.record(func(c context.Context) error { return x.run.store.RecordFlows(c, x.run.ID, []history.Flow{fl}) })
}

// tableNodes are the nodes of pipeline p writing the table of sp: a FULL
// refresh of them refreshes that table (every flow of it) and no other.
func tableNodes(p *workspace.Pipeline, sp *sinkPlan) []string {
	var out []string
	if sp.table == nil {
		return nil
	}
	for _, w := range sp.table.Writers {
		if w.Pipeline == p.Name && !slices.Contains(out, w.Node) {
			out = append(out, w.Node)
		}
	}
	return out
}

// flowWarnings warns, before a run, about flows of declarative pipelines
// that will start from scratch on a table that already has other flows: a
// node was renamed or the table gained a writer, and the new flow
// reprocesses all its data. A full refresh of the table is advised.
func (r *Runner) flowWarnings(ctx context.Context, plan *Plan) []validate.Diagnostic {
	snap := plan.snap
	if r.cfg.History == nil && !pathExists(snap.Layout.StateDB()) {
		return nil // no run yet: no flow remembered
	}
	var store *history.Store
	var out []validate.Diagnostic
	done := map[string]bool{}
	for _, t := range plan.Tasks {
		tp := t.plan
		for _, f := range tp.flows {
			if f.target == "" || done[f.target+"\x00"+f.name] || pathExists(filepath.Join(f.dir, "metadata")) {
				continue
			}
			done[f.target+"\x00"+f.name] = true
			if plan.Params.Refresh == validate.RefreshFull {
				continue // the table is cleared and every flow reset anyway
			}
			if store == nil {
				s, err := r.store(ctx, snap.Layout.StateDB())
				if err != nil {
					return out
				}
				store = s
			}
			known, err := store.ListFlows(ctx, f.target)
			if err != nil || len(known) == 0 {
				continue
			}
			var names []string
			seen := false
			for _, k := range known {
				if k.Pipeline != tp.pipeline.Name {
					continue
				}
				names = append(names, k.Name)
				seen = seen || k.Name == f.name
			}
			if seen || len(names) == 0 {
				continue
			}
			at := tp.node.Pos
			if tp.node.Flow != nil {
				at = tp.node.Flow.At("name")
			}
			out = append(out, workspace.NewDiagnostic(at, workspace.SeverityWarning, validate.CodeFlowName,
				fmt.Sprintf("flow %s of %s is new (%s had the flows %s): a flow is identified by its name, so it starts from scratch and reprocesses all of its data, which %s may already hold",
					f.name, f.target, f.target, strings.Join(names, ", "), f.target),
				"keep the old name with `flow: {name: ...}`, or run a full refresh of the table once: "+human.RunCommand(tp.pipeline.Name, tableNodes(tp.pipeline, f.sink), validate.RefreshFull, "")))
		}
	}
	return out
}

// refreshedWriterWarnings warns, before a FULL or RESET run, about the
// streaming readers of the tables it deletes rows from that the run does
// not refresh as well: the default reader stops on the deletes
// (DELTA_SOURCE_IGNORE_DELETE) and a skipChangeCommits reader of the
// refreshed writer reads its rows again; both need a FULL refresh.
func refreshedWriterWarnings(plan *Plan) []validate.Diagnostic {
	if !isReset(plan.Params) {
		return nil
	}
	snap := plan.snap
	inRun := map[string]bool{}
	for _, t := range plan.Tasks {
		inRun[t.Key] = true
	}
	var out []validate.Diagnostic
	warned := map[string]bool{}
	for _, t := range plan.Tasks {
		for _, sp := range t.plan.sinks {
			if sp.reset == resetNone || sp.table == nil {
				continue
			}
			for _, rd := range snap.Readers {
				key := rd.Pipeline + "." + rd.Node
				if !rd.AsStream || rd.Table != sp.table.ID || inRun[key] || warned[key+"\x00"+t.Key] {
					continue
				}
				own := rd.Kind != workspace.ReadNode && rd.Kind != workspace.ReadNodeRef || (rd.Pipeline == t.Pipeline && rd.FromNode == t.Node)
				if rd.SkipChangeCommits && !own {
					continue // the other writer's deletes are skipped, its rows filtered out
				}
				warned[key+"\x00"+t.Key] = true
				what := fmt.Sprintf("stops on its next run with DELTA_SOURCE_IGNORE_DELETE (the deleted rows of %s)", t.Node)
				if rd.SkipChangeCommits {
					what = fmt.Sprintf("reads the rows %s writes again (skipChangeCommits skips the delete, not the new rows): they would be duplicated", t.Node)
				}
				out = append(out, workspace.NewDiagnostic(rd.Pos, workspace.SeverityWarning, validate.CodeSkipNodeReader,
					fmt.Sprintf("node '%s' of pipeline '%s' streams %s and is not refreshed by this run: it %s", rd.Node, rd.Pipeline, sp.table.Label(), what),
					"select it in this run, or after this run refresh it: "+human.RunCommand(rd.Pipeline, []string{rd.Node}, validate.RefreshFull, "")))
			}
		}
	}
	return out
}

// planFlows lists the flows of a plan's tasks.
func planFlows(plan *Plan) []FlowInfo {
	var out []FlowInfo
	for _, t := range plan.Tasks {
		for _, f := range t.plan.flows {
			fi := FlowInfo{Task: t.Key, Name: f.name, Target: f.target, Checkpoint: f.dir, Once: f.once, Kind: workspace.FlowAppend,
				ImportCheckpoint: f.importFrom}
			if fi.Target == "" {
				fi.Target = f.sink.sink.Describe()
			}
			if fl := t.plan.node.Flow; fl != nil {
				fi.Comment, fi.SparkConf = fl.Comment, fl.SparkConf
				if fl.Kind != "" {
					fi.Kind = fl.Kind
				}
			}
			out = append(out, fi)
		}
	}
	return out
}

// CheckpointDir is the streaming checkpoint folder of sink sk of node n:
// the sink's checkpoint_path (relative paths resolve against the pipeline
// file's folder, remote ones by the workbench config's `paths:`), else DIR/.laktory/checkpoints/<pipeline>/<node>/<sink>,
// where <sink> is "table-<catalog.schema.table>" for a table sink,
// "path-<folder name>-<hash>" for a file sink and "foreach-<name>" for a
// ForEach sink. In a declarative pipeline a flow is identified by its name,
// so the folder is DIR/.laktory/checkpoints/<pipeline>/_flows/<sink>/<flow>
// (see FlowName). Streaming writers keep their offsets there; a refresh
// that resets the sink deletes it.
func CheckpointDir(l workspace.Layout, p *workspace.Pipeline, n *workspace.Node, sk *workspace.Sink) string {
	if sk.CheckpointPath != "" {
		return l.ResolveDeclared(p.File, sk.CheckpointPath)
	}
	if p.Declarative() {
		return filepath.Join(l.CheckpointsDir(), safeSegment(p.Name), "_flows", sinkSegment(n, sk), safeSegment(FlowName(p, n, sk)))
	}
	return filepath.Join(l.CheckpointsDir(), safeSegment(p.Name), safeSegment(n.Name), sinkSegment(n, sk))
}

func sinkSegment(n *workspace.Node, sk *workspace.Sink) string {
	switch {
	case sk.Kind == workspace.SinkForEach && sk.ForEach != nil:
		name := sk.ForEach.Name
		if name == "" {
			name = n.Name
		}
		return "foreach-" + safeSegment(name)
	case sk.TableRef != nil:
		return "table-" + safeSegment(sk.TableRef.String())
	case sk.PipelineViewName != "":
		return "view-" + safeSegment(sk.PipelineViewName)
	case sk.ResolvedPath != "":
		h := sha1.Sum([]byte(sk.ResolvedPath))
		return fmt.Sprintf("path-%s-%s", safeSegment(filepath.Base(sk.ResolvedPath)), hex.EncodeToString(h[:4]))
	}
	return fmt.Sprintf("sink-%d", sk.Index)
}

// safeSegment makes a name safe as one path segment.
func safeSegment(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		return "_" + s
	}
	return s
}

// resetMode resolves how a non-shared sink is reset, as Laktory 0.13.1's
// _get_purge_mode does: the run's override, else the sink's reset_mode,
// else DROP (Laktory 0.13.1 has reset_mode on sinks only). Files other than
// Delta are always dropped. source names where the mode comes from, for
// messages.
func resetMode(override string, sk *workspace.Sink) (mode, source string) {
	switch {
	case !sk.IsDelta():
		return "DROP", "file sink"
	case override != "":
		return override, "run override"
	case sk.ResetMode != "":
		return strings.ToUpper(sk.ResetMode), "Sink " + sk.Describe()
	}
	return "DROP", "default"
}

// isReset reports whether a run resets sinks (FULL or RESET).
func isReset(rp validate.RunParams) bool {
	return rp.Refresh == validate.RefreshFull || rp.Refresh == validate.RefreshReset
}
