// Package watch is the local dev loop of `laktory tui --watch` and
// `laktory run --watch`: which nodes a change affects, and when to run
// them. It is pure but for Sources, the watcher of the files the
// workspace's file sources read; the callers (the TUI through commands,
// the CLI in its loop) own the timers and the runs.
//
//   - A new or changed file that a file source reads affects its node.
//   - A saved pipeline file that validates affects the nodes whose
//     definition changed (all of a new pipeline's).
//   - The nodes downstream of an affected node are affected too: those
//     that read it in its pipeline, and the readers of the tables it
//     writes.
//
// A Queue debounces the changes, runs one run at a time and coalesces the
// changes that come meanwhile into the next run. Runs are always
// incremental: never a FULL refresh or a RESET.
package watch

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/workspace"
)

// Selection is the nodes to run, per pipeline.
type Selection map[string][]string

// Add adds a node.
func (s Selection) Add(pipeline, node string) {
	if !slices.Contains(s[pipeline], node) {
		s[pipeline] = append(s[pipeline], node)
		slices.Sort(s[pipeline])
	}
}

// Merge adds the nodes of o.
func (s Selection) Merge(o Selection) {
	for pl, nodes := range o {
		for _, n := range nodes {
			s.Add(pl, n)
		}
	}
}

// Keys are the nodes as pipeline.node, sorted.
func (s Selection) Keys() []string {
	var out []string
	for pl, nodes := range s {
		for _, n := range nodes {
			out = append(out, pl+"."+n)
		}
	}
	sort.Strings(out)
	return out
}

// Request is the incremental run of the selection: one pipeline.node
// selector per node.
func (s Selection) Request() runner.Request {
	return runner.Request{Pipelines: []string{}, Selectors: s.Keys()}
}

// String is "pl-prices [feed_a, gld_prices_a], pl-events [events_live]".
func (s Selection) String() string {
	pls := make([]string, 0, len(s))
	for pl := range s {
		pls = append(pls, pl)
	}
	sort.Strings(pls)
	parts := make([]string, len(pls))
	for i, pl := range pls {
		parts[i] = pl + " [" + strings.Join(s[pl], ", ") + "]"
	}
	return strings.Join(parts, ", ")
}

// Within keeps the nodes only selects (nil keeps all).
func (s Selection) Within(only func(pipeline, node string) bool) Selection {
	if only == nil {
		return s
	}
	out := Selection{}
	for pl, nodes := range s {
		for _, n := range nodes {
			if only(pl, n) {
				out.Add(pl, n)
			}
		}
	}
	return out
}

// Change is a change of the workspace.
type Change struct {
	// Old and New are the snapshots before and after (Old may be nil: data
	// files changed, the pipelines did not).
	Old, New *workspace.Snapshot
	// Paths are the files that changed.
	Paths []string
	// Diagnostics are New's; a pipeline file with an error affects nothing.
	Diagnostics []workspace.Diagnostic
}

// Affected returns the nodes a change runs, with why.
func Affected(c Change) (Selection, []string) {
	sel := Selection{}
	var why []string
	snap := c.New
	if snap == nil {
		return sel, nil
	}
	broken := map[string]bool{}
	for _, d := range c.Diagnostics {
		if d.Severity == workspace.SeverityError {
			broken[d.File] = true
		}
	}
	for _, path := range c.Paths {
		switch {
		case isPipelineFile(snap, path):
			if broken[path] {
				why = append(why, rel(snap, path)+" has errors: not run")
				continue
			}
			n := 0
			for _, p := range snap.Pipelines {
				if p.Pos.File != path {
					continue
				}
				for _, node := range p.Nodes {
					if c.Old == nil || fingerprint(c.Old.Node(p.Name, node.Name)) != fingerprint(node) {
						sel.Add(p.Name, node.Name)
						n++
					}
				}
			}
			if n > 0 {
				why = append(why, rel(snap, path)+" saved")
			}
		case written(snap, path):
			// A run wrote it (the lake, checkpoints, a sink's files): its
			// readers are downstream of the writer already.
		default:
			found := false
			for _, src := range FileSources(snap) {
				if reads(src.Source, path) {
					sel.Add(src.Pipeline, src.Node)
					found = true
				}
			}
			if found {
				why = append(why, rel(snap, path))
			}
		}
	}
	downstream(snap, sel)
	return sel, why
}

// written reports whether path is where runs write: the workspace's state
// (lake, checkpoints, history) or a sink's path.
func written(s *workspace.Snapshot, path string) bool {
	roots := []string{s.Layout.StateDir(), s.Layout.Lake}
	for _, p := range s.Pipelines {
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				roots = append(roots, sk.ResolvedPath)
			}
		}
	}
	for _, r := range roots {
		if r != "" && within(path, r) {
			return true
		}
	}
	return false
}

// within reports whether path is root or below it.
func within(path, root string) bool {
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

func isPipelineFile(s *workspace.Snapshot, path string) bool {
	return slices.Contains(s.Files, path)
}

func rel(s *workspace.Snapshot, path string) string { return s.Rel(path) }

// downstream adds to sel the nodes that read a selected node: in its
// pipeline's DAG, and through the tables it writes.
func downstream(snap *workspace.Snapshot, sel Selection) {
	for changed := true; changed; {
		changed = false
		add := func(pl, node string) {
			if !slices.Contains(sel[pl], node) {
				sel.Add(pl, node)
				changed = true
			}
		}
		for pl, nodes := range sel {
			p := snap.Pipeline(pl)
			if p == nil {
				continue
			}
			for _, n := range slices.Clone(nodes) {
				if p.DAG != nil {
					for _, d := range p.DAG.Downstream(n) {
						add(pl, d)
					}
				}
				for _, w := range snap.Writers {
					if w.Pipeline != pl || w.Node != n {
						continue
					}
					for _, r := range snap.Readers {
						if r.Table == w.Table && r.Table != "" && !(r.Pipeline == pl && r.Node == n) {
							add(r.Pipeline, r.Node)
						}
					}
				}
			}
		}
	}
}

// fingerprint is a node's definition without its positions in its file:
// moving a node, or editing the node above it, does not change it.
func fingerprint(n *workspace.Node) string {
	if n == nil {
		return ""
	}
	b, err := json.Marshal(n)
	if err != nil {
		return fmt.Sprint(n)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return string(b)
	}
	b, _ = json.Marshal(dropPositions(v))
	return string(b)
}

func dropPositions(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "Pos")
		delete(x, "Fields")
		for k, e := range x {
			x[k] = dropPositions(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropPositions(e)
		}
	}
	return v
}

// FileSource is a file source of a node.
type FileSource struct {
	Pipeline, Node string
	Source         *workspace.Source
}

// FileSources are the sources that read files (not tables, nodes or Delta
// tables by path: those change when a run writes them).
func FileSources(snap *workspace.Snapshot) []FileSource {
	var out []FileSource
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			for _, s := range n.Sources {
				if s.Kind == workspace.SourceFile && s.Table == "" && s.ResolvedPath != "" && !strings.EqualFold(s.Format, "DELTA") {
					out = append(out, FileSource{Pipeline: p.Name, Node: n.Name, Source: s})
				}
			}
		}
	}
	return out
}

// reads reports whether a source reads the file at path: the file itself,
// a file below its folder, or a file its glob matches.
func reads(s *workspace.Source, path string) bool {
	root := s.ResolvedPath
	if strings.ContainsAny(root, "*?[") {
		if ok, _ := filepath.Match(root, path); ok {
			return true
		}
		root = globRoot(root)
	}
	return within(path, root)
}

// globRoot is the folder above a glob's first wildcard.
func globRoot(p string) string {
	i := strings.IndexAny(p, "*?[")
	return filepath.Dir(p[:i+1])
}

// Queue decides when to run: after Debounce without a change, one run at
// a time, the changes that come during a run coalesced into the next.
type Queue struct {
	// Debounce is the quiet time after the last change before a run.
	Debounce time.Duration

	pending Selection
	why     []string
	last    time.Time // of the last change
	running Selection // nil when no run of the queue is in progress
}

// DefaultDebounce is the quiet time of a Queue: a copy of several files,
// or an editor's save, makes one run.
const DefaultDebounce = 500 * time.Millisecond

// Add queues the nodes of a change.
func (q *Queue) Add(sel Selection, why []string, now time.Time) {
	if len(sel) == 0 {
		return
	}
	if q.pending == nil {
		q.pending = Selection{}
	}
	q.pending.Merge(sel)
	for _, w := range why {
		if !slices.Contains(q.why, w) {
			q.why = append(q.why, w)
		}
	}
	q.last = now
}

// Next returns the run that is due at now, and marks it running: the
// changes queued once Debounce has passed since the last one, when no run
// is in progress.
func (q *Queue) Next(now time.Time) (Selection, []string, bool) {
	if q.running != nil || len(q.pending) == 0 || now.Sub(q.last) < q.Debounce {
		return nil, nil, false
	}
	sel, why := q.pending, q.why
	q.pending, q.why, q.running = nil, nil, sel
	return sel, why, true
}

// Wait is how long until a queued run is due (0: now or nothing queued;
// check Idle and Running).
func (q *Queue) Wait(now time.Time) time.Duration {
	if q.running != nil || len(q.pending) == 0 {
		return 0
	}
	return max(q.Debounce-now.Sub(q.last), 0)
}

// Done marks the run in progress over.
func (q *Queue) Done() { q.running = nil }

// Queued reports whether changes wait for a run.
func (q *Queue) Queued() bool { return len(q.pending) > 0 }

// Status says what the queue waits for: "waiting for changes", "running
// pl-prices [feed_a]", "pl-prices [feed_a] in 0.3s (landing/x.json)", or
// what is queued after the run in progress.
func (q *Queue) Status(now time.Time) string {
	switch {
	case q.running != nil && len(q.pending) > 0:
		return "running " + q.running.String() + "; then " + q.pending.String()
	case q.running != nil:
		return "running " + q.running.String()
	case len(q.pending) > 0:
		return fmt.Sprintf("%s in %.1fs (%s)", q.pending.String(), q.Wait(now).Seconds(), strings.Join(q.why, ", "))
	}
	return "waiting for changes"
}
