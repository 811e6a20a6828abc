package tui

import (
	"math"
	"slices"

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
		byFile[p.File] = append(byFile[p.File], pipelineSpans(p)...)
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
		for i := range spans {
			if spans[i].key.Node != "" || spans[i].to != math.MaxInt {
				continue
			}
			for _, st := range starts {
				if st > spans[i].from {
					spans[i].to = st - 1
					break
				}
			}
		}
		byFile[f] = spans
	}
	for _, d := range ds {
		hit := false
		for _, s := range byFile[d.File] {
			if d.Line >= s.from && d.Line <= s.to {
				ix.add(s.key, d)
				hit = true
			}
		}
		if !hit {
			for _, pl := range included[d.File] {
				ix.add(pipelineKey(pl), d)
			}
		}
	}
	return ix
}

func (ix *index) add(k objKey, d workspace.Diagnostic) {
	ix.diags[k] = append(ix.diags[k], d)
	ix.state[k] = max(ix.state[k], severityState(d.Severity))
}

// pipelineSpans returns the spans of a pipeline, its nodes and sinks. A
// node ends where the next one starts; a sink where the next sink starts,
// or for the last one at the first field of its node declared after it.
func pipelineSpans(p *workspace.Pipeline) []span {
	out := []span{{key: pipelineKey(p.Name), from: p.Pos.Line, to: math.MaxInt}}
	nodes := slices.Clone(p.Nodes)
	slices.SortStableFunc(nodes, func(a, b *workspace.Node) int { return a.Pos.Line - b.Pos.Line })
	for i, n := range nodes {
		if n.Pos.File != p.File {
			continue // a node included from another file
		}
		end := math.MaxInt
		if i+1 < len(nodes) {
			end = nodes[i+1].Pos.Line - 1
		}
		out = append(out, span{key: nodeKey(p.Name, n.Name), from: n.Pos.Line, to: end})
		for j, s := range n.Sinks {
			if s.Pos.File != p.File {
				continue
			}
			send := end
			if j+1 < len(n.Sinks) {
				send = n.Sinks[j+1].Pos.Line - 1
			} else {
				for f, pos := range n.Fields {
					if f != "sinks" && pos.File == p.File && pos.Line > s.Pos.Line && pos.Line-1 < send {
						send = pos.Line - 1
					}
				}
			}
			out = append(out, span{key: sinkKey(p.Name, n.Name, s.Index), from: s.Pos.Line, to: send})
		}
	}
	return out
}

// writerState is the state of a writer's sink, for the lane matrix.
func (ix *index) writerState(w *workspace.Writer) lanes.State {
	return ix.state[sinkKey(w.Pipeline, w.Node, w.Sink)]
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
