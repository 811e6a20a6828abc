// Package selection resolves a run's pipelines and Laktory's node
// selectors ("name", "*name", "name*", "*name*", by name, execution task
// name or tag, optionally "pipeline.node") into the nodes it executes, in
// DAG order, with Laktory's messages for what names nothing.
package selection

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Selection is the nodes a run executes, per pipeline, in DAG order.
type Selection struct {
	Pipelines []*workspace.Pipeline // sorted by name
	Nodes     map[string][]string   // pipeline -> selected node names, DAG order
}

// selector is one parsed node selector: "name", "*name", "name*", "*name*";
// name may be qualified by its pipeline, "pipeline.node", as the CLI and the
// workbench name nodes.
type selector struct {
	raw        string
	name       string
	upstream   bool
	downstream bool
}

func parseSelector(s string) selector {
	s = strings.TrimSpace(s)
	sel := selector{raw: s}
	if strings.HasPrefix(s, "*") {
		sel.upstream, s = true, s[1:]
	}
	if strings.HasSuffix(s, "*") {
		sel.downstream, s = true, s[:len(s)-1]
	}
	sel.name = s
	return sel
}

// matches reports whether node n of pipeline p is named by the selector's
// name: its name, its execution task name, or one of its tags (Laktory's
// selects), alone or after "pipeline.".
func (s selector) matches(p *workspace.Pipeline, n *workspace.Node) bool {
	return names(n, s.name) || (strings.HasPrefix(s.name, p.Name+".") && names(n, s.name[len(p.Name)+1:]))
}

func names(n *workspace.Node, name string) bool {
	return n.Name == name || n.ExecutionTaskName == name || n.TaskName() == name || slices.Contains(n.Tags, name)
}

// selectable lists what selectors may name in pipelines: pipeline.node,
// node names, task names and tags (for "did you mean").
func selectable(pipelines []*workspace.Pipeline) []string {
	var out []string
	for _, p := range pipelines {
		for _, n := range p.Nodes {
			out = append(out, p.Name+"."+n.Name, n.Name)
			if n.ExecutionTaskName != "" {
				out = append(out, n.ExecutionTaskName)
			}
			out = append(out, n.Tags...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Select resolves a request's pipelines (none: every pipeline) and
// selectors (none: every node) into the nodes to run. Unknown pipelines
// and selectors that match no node are errors, with Laktory's message.
func Select(snap *workspace.Snapshot, pipelines, selectors []string) (Selection, []validate.Diagnostic) {
	var ds []validate.Diagnostic
	add := func(code, msg, hint string) {
		ds = append(ds, workspace.NewDiagnostic(workspace.Pos{}, workspace.SeverityError, code, msg, hint))
	}
	names := make([]string, 0, len(snap.Pipelines))
	for _, p := range snap.Pipelines {
		names = append(names, p.Name)
	}
	var candidates []*workspace.Pipeline
	if len(pipelines) == 0 {
		candidates = snap.Pipelines
	} else {
		for _, name := range pipelines {
			p := snap.Pipeline(name)
			if p == nil {
				msg := fmt.Sprintf("pipeline '%s' is not in the workspace", name)
				if s := workspace.Suggest(name, names); s != "" {
					msg += fmt.Sprintf("; did you mean '%s'?", s)
				}
				add(validate.CodeUnknownNode, msg, "pipelines of the workspace: "+strings.Join(names, ", "))
				continue
			}
			if !slices.Contains(candidates, p) {
				candidates = append(candidates, p)
			}
		}
	}
	sel := Selection{Nodes: map[string][]string{}}
	var sels []selector
	for _, raw := range selectors {
		if s := parseSelector(raw); s.name != "" {
			sels = append(sels, s)
		}
	}
	matched := make([]bool, len(sels))
	for _, p := range candidates {
		picked := map[string]bool{}
		if len(sels) == 0 {
			for _, n := range p.Nodes {
				picked[n.Name] = true
			}
		}
		for i, s := range sels {
			for _, n := range p.Nodes {
				if !s.matches(p, n) {
					continue
				}
				matched[i] = true
				picked[n.Name] = true
				if p.DAG == nil {
					continue
				}
				if s.upstream {
					walk(n.Name, p.DAG.Upstream, picked)
				}
				if s.downstream {
					walk(n.Name, p.DAG.Downstream, picked)
				}
			}
		}
		if len(picked) == 0 {
			continue
		}
		order := dagOrder(p)
		var nodes []string
		for _, name := range order {
			if picked[name] {
				nodes = append(nodes, name)
			}
		}
		sel.Pipelines = append(sel.Pipelines, p)
		sel.Nodes[p.Name] = nodes
	}
	for i, s := range sels {
		if matched[i] {
			continue
		}
		where := "the workspace"
		if len(pipelines) > 0 {
			where = "pipelines " + strings.Join(pipelines, ", ")
		}
		msg := fmt.Sprintf("Invalid node, execution_task_name, or tag: %s", s.raw)
		if sug := workspace.Suggest(s.name, selectable(candidates)); sug != "" {
			msg += fmt.Sprintf("; did you mean '%s'?", strings.Replace(s.raw, s.name, sug, 1))
		}
		add(validate.CodeUnknownNode, msg,
			fmt.Sprintf("no node of %s has that name, task name or tag; use name or pipeline.node, *name (with upstream), name* (with downstream) or *name*", where))
	}
	slices.SortFunc(sel.Pipelines, func(a, b *workspace.Pipeline) int { return strings.Compare(a.Name, b.Name) })
	return sel, ds
}

// walk adds every node reachable from name through next to picked.
func walk(name string, next func(string) []string, picked map[string]bool) {
	for _, m := range next(name) {
		if !picked[m] {
			picked[m] = true
			walk(m, next, picked)
		}
	}
}

// Map is the selection in validate's form (validate.RunRequest.Selection),
// a copy.
func (s Selection) Map() map[string][]string {
	out := make(map[string][]string, len(s.Nodes))
	for p, ns := range s.Nodes {
		out[p] = slices.Clone(ns)
	}
	return out
}

// dagOrder is the execution order of a pipeline's nodes: the DAG's order,
// else (a cycle, reported by validation) declaration order.
func dagOrder(p *workspace.Pipeline) []string {
	if p.DAG != nil && p.DAG.Order != nil {
		return p.DAG.Order
	}
	if p.DAG != nil {
		return p.DAG.Nodes
	}
	out := make([]string, 0, len(p.Nodes))
	for _, n := range p.Nodes {
		out = append(out, n.Name)
	}
	return out
}
