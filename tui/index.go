package tui

import (
	"math"
	"slices"
	"strings"

	"github.com/laktory/workbench/tui/lanes"
	"github.com/laktory/workbench/workspace"
)

// objKey names a pipeline (Node ""), a node (Sink -1) or a sink.
type objKey struct {
	Pipeline, Node string
	Sink           int
}

func pipelineKey(pl string) objKey       { return objKey{Pipeline: pl, Sink: -1} }
func nodeKey(pl, node string) objKey     { return objKey{Pipeline: pl, Node: node, Sink: -1} }
func sinkKey(pl, n string, i int) objKey { return objKey{Pipeline: pl, Node: n, Sink: i} }

// span is the lines [from, to] of an object in a file.
type span struct {
	key      objKey
	from, to int
}

// index places diagnostics on the objects of a snapshot: a diagnostic
// belongs to the innermost pipeline, node and sink whose lines hold it, and
// a diagnostic in a file a pipeline includes (!use) to that pipeline.
type index struct {
	state  map[objKey]lanes.State
	diags  map[objKey][]workspace.Diagnostic
	counts [3]int // by severity
}

func severityState(s workspace.Severity) lanes.State {
	switch s {
	case workspace.SeverityError:
		return lanes.Error
	case workspace.SeverityWarning:
		return lanes.Warning
	}
	return lanes.Info
}

func buildIndex(snap *workspace.Snapshot, ds []workspace.Diagnostic) *index {
	ix := &index{state: map[objKey]lanes.State{}, diags: map[objKey][]workspace.Diagnostic{}}
	for _, d := range ds {
		if d.Severity >= 0 && int(d.Severity) < len(ix.counts) {
			ix.counts[d.Severity]++
		}
	}
	if snap == nil {
		return ix
	}
	byFile := map[string][]span{}
	included := map[string][]string{} // included file -> pipelines
	for _, p := range snap.Pipelines {
		for f, spans := range pipelineSpans(p) {
			byFile[f] = append(byFile[f], spans...)
		}
		for _, dep := range snap.Deps(p.File) {
			if !slices.Contains(included[dep], p.Name) {
				included[dep] = append(included[dep], p.Name)
			}
		}
	}
	// A stack file holds several pipelines: each ends where the next starts.
	for f, spans := range byFile {
		var starts []int
		for _, s := range spans {
			if s.key.Node == "" {
				starts = append(starts, s.from)
			}
		}
		slices.Sort(starts)
		ends := map[string]int{} // pipeline -> last line in this file
		for i := range spans {
			if spans[i].key.Node != "" {
				continue
			}
			for _, st := range starts {
				if st > spans[i].from {
					spans[i].to = st - 1
					break
				}
			}
			ends[spans[i].key.Pipeline] = spans[i].to
		}
		for i := range spans { // a pipeline's last node ends with it
			if end, ok := ends[spans[i].key.Pipeline]; ok && spans[i].key.Node != "" {
				spans[i].to = min(spans[i].to, end)
			}
		}
		byFile[f] = spans
	}
	for _, d := range ds {
		keys := map[objKey]bool{}
		for _, s := range byFile[d.File] {
			if d.Line >= s.from && d.Line <= s.to {
				keys[s.key] = true
				keys[pipelineKey(s.key.Pipeline)] = true // parents too (a node in an included file)
				if s.key.Node != "" {
					keys[nodeKey(s.key.Pipeline, s.key.Node)] = true
				}
			}
		}
		if len(keys) == 0 {
			for _, pl := range included[d.File] {
				keys[pipelineKey(pl)] = true
			}
		}
		for k := range keys {
			ix.add(k, d)
		}
	}
	return ix
}

func (ix *index) add(k objKey, d workspace.Diagnostic) {
	ix.diags[k] = append(ix.diags[k], d)
	ix.state[k] = max(ix.state[k], severityState(d.Severity))
}

// pipelineSpans returns the spans of a pipeline, its nodes and sinks. A
// node ends where the next node of its file starts; a sink where the next
// sink starts, or for the last one at the first field of its node declared
// after it. Nodes included from another file (!use) get spans in that file.
func pipelineSpans(p *workspace.Pipeline) map[string][]span {
	out := map[string][]span{p.File: {{key: pipelineKey(p.Name), from: p.Pos.Line, to: math.MaxInt}}}
	nodes := slices.Clone(p.Nodes)
	slices.SortStableFunc(nodes, func(a, b *workspace.Node) int {
		if a.Pos.File != b.Pos.File {
			return strings.Compare(a.Pos.File, b.Pos.File)
		}
		return a.Pos.Line - b.Pos.Line
	})
	for i, n := range nodes {
		file := n.Pos.File
		end := math.MaxInt
		if i+1 < len(nodes) && nodes[i+1].Pos.File == file {
			end = nodes[i+1].Pos.Line - 1
		}
		out[file] = append(out[file], span{key: nodeKey(p.Name, n.Name), from: n.Pos.Line, to: end})
		for j, s := range n.Sinks {
			if s.Pos.File != file {
				continue
			}
			send := end
			if j+1 < len(n.Sinks) && n.Sinks[j+1].Pos.File == file {
				send = n.Sinks[j+1].Pos.Line - 1
			} else {
				for f, pos := range n.Fields {
					if f != "sinks" && pos.File == file && pos.Line > s.Pos.Line && pos.Line-1 < send {
						send = pos.Line - 1
					}
				}
			}
			out[file] = append(out[file], span{key: sinkKey(p.Name, n.Name, s.Index), from: s.Pos.Line, to: send})
		}
	}
	return out
}

// writerState is the state of a writer's sink, for the lane matrix.
func (ix *index) writerState(w *workspace.Writer) lanes.State {
	return ix.state[sinkKey(w.Pipeline, w.Node, w.Sink)]
}

// objectOf is the innermost object a diagnostic is placed on (a sink,
// else a node, else a pipeline).
func (ix *index) objectOf(d workspace.Diagnostic) (objKey, bool) {
	var best objKey
	depth := -1
	for k, ds := range ix.diags {
		dk := 0
		switch {
		case k.Sink >= 0:
			dk = 2
		case k.Node != "":
			dk = 1
		}
		if dk < depth || !slices.Contains(ds, d) {
			continue
		}
		if dk > depth || k.Pipeline+"\x00"+k.Node < best.Pipeline+"\x00"+best.Node {
			best, depth = k, dk
		}
	}
	return best, depth >= 0
}

// of returns the state of an object.
func (ix *index) of(k objKey) lanes.State { return ix.state[k] }

// tableDiags returns the diagnostics placed on the sinks writing t.
func (ix *index) tableDiags(t *workspace.Table) []workspace.Diagnostic {
	var out []workspace.Diagnostic
	for _, w := range t.Writers {
		for _, d := range ix.diags[sinkKey(w.Pipeline, w.Node, w.Sink)] {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}
