package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// Refresh values of a run.
const (
	RefreshIncremental = "INCREMENTAL"
	RefreshFull        = "FULL"
	RefreshReset       = "RESET"
)

// Refreshes are the refresh values, ResetModes the reset_mode overrides.
var (
	Refreshes  = []string{RefreshIncremental, RefreshFull, RefreshReset}
	ResetModes = []string{"DROP", "TRUNCATE"}
)

// RunRequest is what a run asks for, as the user gave it.
type RunRequest struct {
	// Refresh is INCREMENTAL (default when ""), FULL or RESET, any case.
	Refresh string
	// ResetMode is the reset_mode override: "" (none), DROP or TRUNCATE,
	// any case.
	ResetMode string
	// Selection lists, per pipeline, the nodes the run executes (selectors
	// already expanded); a pipeline with no nodes listed runs all its
	// nodes. An empty Selection runs every pipeline.
	Selection map[string][]string
}

// RunParams are the normalized run parameters.
type RunParams struct {
	Refresh   string `json:"refresh"`              // INCREMENTAL, FULL or RESET
	ResetMode string `json:"reset_mode,omitempty"` // "", DROP or TRUNCATE
}

// RunParameters validates and normalizes the parameters of a run, as
// Laktory's validate_run_parameters does: ("full", "drop") gives
// (FULL, DROP), ("reset", "") gives (RESET, ""). It rejects unknown values,
// a reset_mode without FULL or RESET, FULL with a reset_mode override on a
// shared sink (use RESET, then a normal run), and RESET or a reset_mode
// other than DROP on declarative pipelines. A RESET with an override of a
// table that pipelines outside the run also write gives one warning naming
// their writers (pipeline.node), which then need a FULL refresh. The
// diagnostics of problems with a sink carry its position.
func RunParameters(snap *workspace.Snapshot, req RunRequest) (RunParams, []Diagnostic) {
	var ds []Diagnostic
	add := func(p workspace.Pos, sev Severity, code, msg, hint string) {
		ds = append(ds, workspace.NewDiagnostic(p, sev, code, msg, hint))
	}
	rp := RunParams{Refresh: strings.ToUpper(strings.TrimSpace(req.Refresh)), ResetMode: strings.ToUpper(strings.TrimSpace(req.ResetMode))}
	refreshGiven := rp.Refresh != ""
	if rp.Refresh == "" {
		rp.Refresh = RefreshIncremental
	}
	if !slices.Contains(Refreshes, rp.Refresh) {
		add(workspace.Pos{}, Error, CodeRefreshValue,
			fmt.Sprintf("--refresh %s is not supported: use INCREMENTAL, FULL or RESET", req.Refresh),
			"INCREMENTAL processes new data, FULL resets the sinks and reprocesses everything, RESET only resets the sinks")
		return rp, ds
	}
	if rp.ResetMode != "" && !slices.Contains(ResetModes, rp.ResetMode) {
		add(workspace.Pos{}, Error, CodeResetModeValue,
			fmt.Sprintf("--reset-mode %s is not supported: use DROP or TRUNCATE", req.ResetMode),
			"DROP removes the table, TRUNCATE deletes its rows and keeps the table")
		return rp, ds
	}
	if rp.ResetMode != "" && (rp.Refresh == RefreshIncremental) {
		msg := "--reset-mode requires --refresh FULL or RESET"
		if refreshGiven {
			msg += fmt.Sprintf(" (got %s)", rp.Refresh)
		}
		add(workspace.Pos{}, Error, CodeResetWithoutRefr, msg, "add --refresh RESET to reset the tables, or --refresh FULL to reset and reprocess")
		return rp, ds
	}
	if snap == nil {
		return rp, ds
	}
	selected := func(w *workspace.Writer) bool {
		if len(req.Selection) == 0 {
			return true
		}
		nodes, ok := req.Selection[w.Pipeline]
		return ok && (len(nodes) == 0 || slices.Contains(nodes, w.Node))
	}
	for _, p := range snap.Pipelines {
		if _, ok := req.Selection[p.Name]; len(req.Selection) > 0 && !ok {
			continue
		}
		if missing := p.MissingParameters(); len(missing) > 0 {
			add(p.At("parameters"), Error, workspace.CodeParameter,
				fmt.Sprintf("Parameters %s of pipeline '%s' are required: set them for the run (e.g. as job parameters) or declare a default.", workspace.PyList(missing), p.Name),
				"laktory run --param "+missing[0]+"=VALUE (repeatable), or `default:` in `parameters`")
		}
	}
	ds = append(ds, undeclaredParams(snap, req)...)
	ds = append(ds, pipelineViewReads(snap, req)...)
	for _, p := range snap.Pipelines {
		if !p.Declarative() {
			continue
		}
		if _, ok := req.Selection[p.Name]; len(req.Selection) > 0 && !ok {
			continue
		}
		if rp.Refresh == RefreshReset {
			add(p.At("name"), Error, CodeDeclarativeRefresh,
				fmt.Sprintf("--refresh RESET is not supported by declarative pipeline '%s': the engine clears its tables itself", p.Name),
				"run a FULL refresh instead: "+human.RunCommand(p.Name, req.Selection[p.Name], RefreshFull, ""))
		}
		if rp.ResetMode != "" && rp.ResetMode != "DROP" {
			add(p.At("name"), Error, CodeDeclarativeRefresh,
				fmt.Sprintf("reset_mode must stay DROP with declarative pipeline '%s' (got %s)", p.Name, rp.ResetMode),
				"drop the --reset-mode override")
		}
	}
	if rp.ResetMode == "" {
		return rp, ds
	}
	// The pipelines of the run: a whole-table reset resets the checkpoints
	// of the table's writers in them; writers in other pipelines need a
	// FULL refresh afterwards.
	inRun := func(pipeline string) bool {
		_, ok := req.Selection[pipeline]
		return len(req.Selection) == 0 || ok
	}
	done := map[workspace.TableID]bool{}
	for _, t := range snap.Tables {
		for _, w := range t.Writers {
			if !w.Shared || w.Declarative || !selected(w) || done[t.ID] {
				continue
			}
			done[t.ID] = true
			var nodes, pipelines, outside []string
			for _, o := range t.Writers {
				switch {
				case o.Pipeline == w.Pipeline && o.Node != w.Node && !slices.Contains(nodes, o.Node):
					nodes = append(nodes, o.Node)
				case o.Pipeline != w.Pipeline && !slices.Contains(pipelines, o.Pipeline):
					pipelines = append(pipelines, o.Pipeline)
				}
				if name := o.Pipeline + "." + o.Node; !inRun(o.Pipeline) && !slices.Contains(outside, name) {
					outside = append(outside, name)
				}
			}
			switch rp.Refresh {
			case RefreshFull:
				if len(pipelines) > 0 {
					add(w.Pos, Error, CodeFullOverrideOthers,
						fmt.Sprintf("--refresh FULL with --reset-mode %s on %s would also delete the rows of the other writers (pipelines %s): a full refresh never deletes the rows of the other writers",
							rp.ResetMode, t.Label(), list(pipelines)),
						"reset the whole table, then run its writers normally: "+ResetTableCommand(t, rp.ResetMode))
					continue
				}
				msg := fmt.Sprintf("--refresh FULL with --reset-mode %s on the shared table %s is rejected: a full refresh only deletes the writer's own rows", rp.ResetMode, t.Label())
				if len(nodes) > 0 {
					msg = fmt.Sprintf("--refresh FULL with --reset-mode %s on %s would delete the rows of nodes %s of pipeline '%s': reset the whole table with --refresh RESET --reset-mode %s, then run normally",
						rp.ResetMode, t.Label(), list(nodes), w.Pipeline, rp.ResetMode)
				}
				add(w.Pos, Error, CodeFullOverrideShared, msg, "reset the whole table, then run its writers normally: "+ResetTableCommand(t, rp.ResetMode))
			case RefreshReset:
				if len(outside) > 0 {
					add(w.Pos, Warning, CodeResetOtherWriters,
						fmt.Sprintf("--refresh RESET with --reset-mode %s resets the whole table %s: its writers in pipelines outside this run (%s) keep their checkpoints and need a FULL refresh afterwards, or the table misses their rows",
							rp.ResetMode, t.Label(), list(outside)),
						"reset the table with their pipelines in the run, or after this run refresh them: "+fullRefreshes(outside))
				}
			}
		}
	}
	return rp, ds
}

// fullRefreshes are the FULL refreshes of writers (pipeline.node), one
// command per pipeline.
func fullRefreshes(writers []string) string {
	var order []string
	nodes := map[string][]string{}
	for _, w := range writers {
		pl, node, _ := strings.Cut(w, ".")
		if nodes[pl] == nil {
			order = append(order, pl)
		}
		nodes[pl] = append(nodes[pl], node)
	}
	cmds := make([]string, len(order))
	for i, pl := range order {
		cmds[i] = human.RunCommand(pl, nodes[pl], RefreshFull, "")
	}
	return strings.Join(cmds, " && ")
}

// undeclaredParams: Pipeline.resolve_parameters refuses a parameter value
// its pipeline does not declare (LK121). A run of several pipelines gives
// each value to the pipelines that declare it (each deployed pipeline
// takes its own parameters), so a value is refused when no pipeline of
// the run declares it, once per pipeline of the run, with Laktory's
// message.
func undeclaredParams(snap *workspace.Snapshot, req RunRequest) []Diagnostic {
	params := snap.Params()
	if len(params) == 0 {
		return nil
	}
	var run []*workspace.Pipeline
	declared := map[string]bool{}
	for _, p := range snap.Pipelines {
		if _, ok := req.Selection[p.Name]; len(req.Selection) > 0 && !ok {
			continue
		}
		run = append(run, p)
		for _, prm := range p.Parameters {
			declared[prm.Name] = true
		}
	}
	var unknown []string
	for name := range params {
		if !declared[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	var elsewhere []string
	for _, p := range snap.Pipelines {
		if slices.ContainsFunc(p.Parameters, func(prm *workspace.Parameter) bool { return slices.Contains(unknown, prm.Name) }) {
			elsewhere = append(elsewhere, p.Name)
		}
	}
	hint := "drop --param " + unknown[0] + ", or declare it in the pipeline's `parameters`"
	if len(elsewhere) > 0 {
		hint = fmt.Sprintf("pipelines %s declare it: run them, or drop --param %s", list(elsewhere), unknown[0])
	}
	var ds []Diagnostic
	for _, p := range run {
		var names []string
		for _, prm := range p.Parameters {
			names = append(names, prm.Name)
		}
		slices.Sort(names)
		at := p.At("name")
		if p.Has("parameters") {
			at = p.At("parameters")
		}
		ds = append(ds, workspace.NewDiagnostic(at, Error, CodeParamUndeclared,
			fmt.Sprintf("Parameters %s are not declared by pipeline '%s'. Declared parameters are %s.", workspace.PyList(unknown), p.Name, workspace.PyList(names)), hint))
	}
	return ds
}

// pipelineViewReads: a node source (node_name, {nodes.x}) reads its
// node's output frame when the run computed it, else the node's primary
// sink (PipelineNodeDataSource._read_spark and _read_polars); on PYSPARK
// also when the source streams or its node reads a stream. Reading a
// pipeline_view_name sink fails in Laktory 0.13.1 (PipelineViewDataSink
// takes no reader arguments, and as_source is not implemented), so such a
// read is refused before the run (LK143). Declarative pipelines read
// their views from the engine.
func pipelineViewReads(snap *workspace.Snapshot, req RunRequest) []Diagnostic {
	var ds []Diagnostic
	for _, p := range snap.Pipelines {
		sel, inRun := req.Selection[p.Name]
		if p.Declarative() || (len(req.Selection) > 0 && !inRun) {
			continue
		}
		runs := func(node string) bool { return len(sel) == 0 || slices.Contains(sel, node) }
		for _, n := range p.Nodes {
			if !runs(n.Name) {
				continue
			}
			check := func(name string, at workspace.Pos, asStream, polars bool) {
				up := p.Node(name)
				if up == nil {
					return
				}
				sk := up.PrimarySink()
				if sk == nil || sk.Kind != workspace.SinkPipelineView {
					return
				}
				var why string
				switch {
				case !runs(up.Name):
					why = fmt.Sprintf("the run does not execute '%s'", up.Name)
				case !polars && asStream:
					why = "the source reads it as a stream"
				case !polars && up.Streaming():
					why = fmt.Sprintf("'%s' reads a stream, so its frame is read back from its sink", up.Name)
				default:
					return
				}
				ds = append(ds, workspace.NewDiagnostic(at, Error, CodePipelineViewRead,
					fmt.Sprintf("node '%s' reads node '%s', whose sink is the pipeline view %s, and %s: Laktory 0.13.1 fails reading it (TypeError: PipelineViewDataSink.as_source() got an unexpected keyword argument 'reader_kwargs')",
						n.Name, up.Name, sk.PipelineViewName, why),
					fmt.Sprintf("run '%s' in the same run (select it too), or give it a table sink to read", up.Name)))
			}
			seen := map[string]bool{}
			for _, src := range n.Sources {
				if src.NodeName != "" {
					seen[src.NodeName] = true
					check(src.NodeName, src.At("node_name"), src.AsStream, src.Backend == "POLARS")
				}
			}
			for _, ref := range n.NodeRefs {
				if !seen[ref.Name] {
					seen[ref.Name] = true
					check(ref.Name, ref.Pos, false, n.DataframeBackend == "POLARS")
				}
			}
		}
	}
	return ds
}
