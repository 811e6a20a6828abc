package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

type dialogKind int

const (
	dlgResetMode dialogKind = iota // pick the reset mode of a RESET
	dlgPlanning                    // waiting for the plan
	dlgConfirm                     // a plan to confirm
	dlgMessage                     // an explanation to dismiss
	dlgQuit                        // quit while a run is in progress
	dlgParams                      // the run's required pipeline parameters
)

// runTarget is what a run key applies to.
type runTarget struct {
	desc      string
	pipelines []string
	selectors []string
	// selection lists, per pipeline, the nodes to run (none: all).
	selection map[string][]string
}

// dialog is the modal box over the main pane.
type dialog struct {
	kind    dialogKind
	title   string
	body    []string
	options []string // dlgResetMode: the choices, values their reset modes
	values  []string
	notes   []string // what each choice does, shown under the choices
	cursor  int
	offset  int // first body line shown (a body taller than the screen scrolls)
	token   int
	target  runTarget
	refresh string
	plan    *runner.Plan
	params  *paramsForm // dlgParams, and the planning that follows it
	// resetMode and snap are what the run is planned with (snap: the
	// workspace with the run's parameters), for planning it again on the
	// other engine; runner and engine made the plan.
	resetMode string
	snap      *workspace.Snapshot
	runner    Runner
	engine    string
	// engineLines show the engine choice (none: the workbench offers
	// none), under the title.
	engineLines []string
}

// resetModes are the choices of the reset-mode picker, from the least
// destructive to the most (the picker starts on the first).
var resetModes = []struct{ label, value, note string }{
	{"as declared  each sink's own reset: a shared sink, its writer's rows only", "",
		"Each sink of the selection is reset as it declares: a shared sink loses only its writer's rows (the other " +
			"writers keep theirs); any other sink is reset with its reset_mode (default DROP). Their streaming checkpoints are reset."},
	{"TRUNCATE     empty the whole table, keep its schema", "TRUNCATE",
		"The whole table of every sink of the selection is emptied, the rows of all its writers included; the table and its " +
			"schema stay. The checkpoints of its writers in the pipelines of the run are reset; its writers in other pipelines then need a FULL refresh."},
	{"DROP         drop the whole table and its schema", "DROP",
		"The whole table of every sink of the selection is dropped, the rows of all its writers and its schema with it; the next " +
			"run creates it again. The checkpoints of its writers in the pipelines of the run are reset; its writers in other pipelines then need a FULL refresh."},
}

func newResetPicker(t runTarget) *dialog {
	d := &dialog{kind: dlgResetMode, title: "RESET " + t.desc, target: t, refresh: validate.RefreshReset,
		body: []string{"Reset mode, from the least to the most destructive (the next step lists what it deletes and asks again):"}}
	for _, m := range resetModes {
		d.options = append(d.options, m.label)
		d.values = append(d.values, m.value)
		d.notes = append(d.notes, m.note)
	}
	return d
}

// confirmBody says what a plan will do: its tasks, what it deletes and
// resets, its warnings, and the streaming flows it runs.
func confirmBody(plan *runner.Plan, snap *workspace.Snapshot, st *Styles) []string {
	keys := make([]string, 0, len(plan.Tasks))
	for _, t := range plan.Tasks {
		keys = append(keys, t.Key)
	}
	lines := []string{fmt.Sprintf("%s: %s", human.Plural(int64(len(keys)), "task"), strings.Join(keys, ", ")), ""}
	if len(plan.Effects) == 0 {
		lines = append(lines, st.OK.Render("Nothing is deleted or reset."))
	} else {
		lines = append(lines, st.Warning.Render("This will:"))
		for _, e := range plan.Effects {
			lines = append(lines, " "+effectLine(e, plan.Flows, snap, st))
			for _, o := range e.Overlaps {
				lines = append(lines, "   "+st.Error.Render("✗ "+overlapLine(o)))
			}
		}
	}
	if len(plan.Overlapping()) > 0 {
		lines = append(lines, "", st.Error.Render("The steps marked ✗ delete rows of other writers too: y does not run this."),
			st.Error.Render("D deletes them too and runs (as laktory run --delete-overlapping); or make the predicates disjoint."))
	}
	if len(plan.Warnings) > 0 {
		lines = append(lines, "", st.Warning.Render("Warnings:"))
		for _, d := range plan.Warnings {
			lines = append(lines, " "+severityMark(st, d.Severity)+" "+d.Message)
		}
	}
	if len(plan.Flows) > 0 {
		reset := map[string]bool{}
		for _, e := range plan.Effects {
			if e.Kind == runner.EffectResetCheckpoint {
				reset[e.Checkpoint] = true
			}
		}
		lines = append(lines, "", st.Accent.Render(fmt.Sprintf("Streaming flows (%d):", len(plan.Flows))))
		for _, f := range plan.Flows {
			lines = append(lines, flowLines(f, snap, reset[f.Checkpoint], st)...)
		}
	}
	return lines
}

// flowLines describes a flow of a plan: its name and target, its options
// (once, kind, the checkpoint it imports) and its checkpoint.
func flowLines(f runner.FlowInfo, snap *workspace.Snapshot, reset bool, st *Styles) []string {
	head := " ⇢ " + f.Name + " → " + flowTarget(f.Target)
	var opts []string
	if f.Once {
		opts = append(opts, "once (a backfill: again only after a full refresh)")
	}
	if f.Kind != "" && f.Kind != workspace.FlowAppend {
		opts = append(opts, f.Kind)
	}
	if f.ImportCheckpoint != "" {
		opts = append(opts, "imports "+relPath(snap, f.ImportCheckpoint)+" on its first update")
	}
	if len(opts) > 0 {
		head += st.Dim.Render(" · " + strings.Join(opts, " · "))
	}
	cp := "   checkpoint " + relPath(snap, f.Checkpoint)
	if reset {
		cp += " " + st.Warning.Render("(reset)")
	}
	return []string{head, st.Dim.Render(cp)}
}

// flowTarget names a flow's target: a table by its short name, a sink by
// its kind and name.
func flowTarget(t string) string {
	switch {
	case strings.HasPrefix(t, "foreach:"):
		return "ForEach sink " + strings.TrimPrefix(t, "foreach:")
	case strings.HasPrefix(t, "table "):
		return shortName(strings.TrimPrefix(t, "table "))
	}
	return shortName(t)
}

// checkpointOwner names the node whose sink keeps its checkpoint in dir
// ("pipeline.node"), else def.
func checkpointOwner(snap *workspace.Snapshot, dir, def string) string {
	if snap == nil {
		return def
	}
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				if runner.CheckpointDir(snap.Layout, p, n, sk) == dir {
					return p.Name + "." + n.Name
				}
			}
		}
	}
	return def
}

// relPath is a path relative to the workspace when it is inside it.
func relPath(snap *workspace.Snapshot, p string) string {
	if snap == nil || p == "" {
		return p
	}
	return snap.Rel(p)
}

// effectLine says one destructive effect in words.
func effectLine(e runner.Effect, flows []runner.FlowInfo, snap *workspace.Snapshot, st *Styles) string {
	table := string(e.Table)
	if t := snap.Table(e.Table); t != nil {
		table = tableLabel(t)
	}
	rows := "an unknown number of rows"
	if e.Rows >= 0 {
		rows = human.Plural(e.Rows, "row")
	}
	switch e.Kind {
	case runner.EffectDeleteRows:
		if isPredicate(snap, e) {
			return fmt.Sprintf("✂ delete %s where %s from %s", rows, e.Writer, table)
		}
		s := fmt.Sprintf("✂ delete %s of %s from %s", rows, e.Writer, table)
		if e.Predicate != "" {
			s += st.Dim.Render("  (WHERE " + e.Predicate + ")")
		}
		return s
	case runner.EffectDropTable:
		return fmt.Sprintf("✂ drop the whole table %s (%s, every writer's)", table, rows)
	case runner.EffectTruncateTable:
		return fmt.Sprintf("✂ empty the whole table %s (%s, every writer's)", table, rows)
	case runner.EffectResetCheckpoint:
		for _, f := range flows {
			if f.Checkpoint == e.Checkpoint {
				return fmt.Sprintf("↺ reset the checkpoint of flow %s (it reprocesses all its data)", f.Name)
			}
		}
		return fmt.Sprintf("↺ reset the checkpoint of %s (%s)", checkpointOwner(snap, e.Checkpoint, e.Task), relPath(snap, e.Checkpoint))
	}
	if e.Description != "" {
		return "• " + e.Description
	}
	return fmt.Sprintf("• %s on %s", e.Kind, table)
}

// overlapLine says which rows of another writer a step deletes too.
func overlapLine(o runner.Overlap) string {
	rows := "an unknown number of rows"
	if o.Rows >= 0 {
		rows = human.Plural(o.Rows, "row")
	}
	return fmt.Sprintf("also deletes %s of writer %s (where %s)", rows, o.Writer, o.Where)
}

// isPredicate reports whether a deletion's writer is a where predicate of
// the table's writers (rather than a writer id).
func isPredicate(snap *workspace.Snapshot, e runner.Effect) bool {
	t := snap.Table(e.Table)
	if t == nil {
		return false
	}
	for _, w := range t.Writers {
		if w.Ownership == workspace.OwnerWhere && w.Where == e.Writer {
			return true
		}
	}
	return false
}

// diagLines lists diagnostics for a dialog.
func diagLines(ds []workspace.Diagnostic, snap *workspace.Snapshot, st *Styles) []string {
	var lines []string
	for _, d := range ds {
		where := ""
		if d.File != "" {
			where = fmt.Sprintf("%s:%d ", snap.Rel(d.File), d.Line)
		}
		lines = append(lines, " "+severityMark(st, d.Severity)+" "+st.Dim.Render(where+d.Code)+" "+d.Message)
		if d.Hint != "" {
			lines = append(lines, "   "+st.Info.Render("hint: "+d.Hint))
		}
	}
	return lines
}

// dialogChrome is the lines of a dialog besides its body and options:
// the borders, the title, the blank lines around the body and the keys.
const dialogChrome = 6

// render draws the dialog as a box at most w wide and h high; a body
// taller than the room scrolls (offset).
func (d *dialog) render(st *Styles, w, h int) []string {
	inner := max(min(w-6, 90), 20)
	body := wrapAll(d.body, inner)
	var note []string
	if d.cursor < len(d.notes) {
		note = append([]string{""}, wrap(d.notes[d.cursor], inner)...)
	}
	engines := wrapAll(d.engineLines, inner)
	if len(engines) > 0 {
		engines = append(engines, "")
	}
	room := max(h-dialogChrome-len(d.options)-len(note)-len(engines), 1)
	d.offset = min(max(d.offset, 0), max(len(body)-room, 0))
	end := min(d.offset+room, len(body))
	lines := append([]string{st.DialogHead.Render(ansi.Truncate(d.title, inner, "…")), ""}, engines...)
	width := 0 // of the whole body, so the box keeps its size as it scrolls
	for _, l := range body {
		width = max(width, ansi.StringWidth(l))
	}
	lines = append(lines, body[d.offset:end]...)
	for i, o := range d.options {
		cur := "  "
		if i == d.cursor {
			cur = "› "
		}
		line := cur + o
		if i == d.cursor {
			line = st.Selected.Render(fitLine(line, inner))
		}
		lines = append(lines, line)
	}
	lines = append(lines, note...)
	lines = append(lines, "")
	scroll := ""
	if len(body) > room {
		scroll = fmt.Sprintf("↑/↓ %d-%d/%d · ", d.offset+1, end, len(body))
	}
	engine := ""
	if len(d.engineLines) > 0 {
		engine = "e engine · "
	}
	switch d.kind {
	case dlgResetMode:
		lines = append(lines, st.Dim.Render(scroll+"↑/↓ choose · "+engine+"enter plan the run · esc cancel"))
	case dlgParams:
		if engine != "" { // e is text here
			engine = "ctrl+e engine · "
		}
		// Wrapped, not cut: the engine's key must show at 80 columns.
		for _, l := range wrap("type a value · tab/↑/↓ next field · "+engine+"enter plan the run · esc cancel", inner) {
			lines = append(lines, st.Dim.Render(l))
		}
	case dlgPlanning:
		if d.snap == nil { // the parameters loading
			engine = ""
		}
		lines = append(lines, st.Dim.Render("planning… · "+engine+"esc cancel"))
	case dlgConfirm:
		run := st.Bold.Render("y") + st.Dim.Render(" run · ")
		if d.plan != nil && len(d.plan.Overlapping()) > 0 {
			run = st.Bold.Render("D") + st.Dim.Render(" delete their rows too and run · ")
		}
		lines = append(lines, st.Dim.Render(scroll)+run+st.Dim.Render(engine)+st.Bold.Render("n/esc")+st.Dim.Render(" cancel"))
	case dlgQuit:
		lines = append(lines, st.Bold.Render("y")+st.Dim.Render(" cancel the run and quit · ")+st.Bold.Render("n/esc")+st.Dim.Render(" stay"))
	default:
		if d.snap == nil { // not a run the engine may take instead
			engine = ""
		}
		lines = append(lines, st.Dim.Render(scroll+engine+"enter/esc close"))
	}
	for _, l := range lines {
		width = max(width, ansi.StringWidth(l))
	}
	width = min(width, inner)
	for i := range lines {
		lines[i] = fitLine(lines[i], width)
	}
	box := st.DialogBox.Render(strings.Join(lines, "\n"))
	return strings.Split(box, "\n")
}
