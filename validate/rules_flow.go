package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// flows checks the `flow:` options of declarative nodes and `foreach:`
// sinks.
func (c *checker) flows() {
	for _, p := range c.snap.Pipelines {
		// target -> flow name -> first node
		names := map[string]map[string]string{}
		for _, n := range p.Nodes {
			if f := n.Flow; f != nil {
				c.flowOptions(p, n, f)
			}
			for _, sk := range n.Sinks {
				if sk.ForEach != nil {
					c.forEach(n, sk)
				}
				if !p.Declarative() {
					continue
				}
				target := string(sk.Table)
				if sk.Kind == workspace.SinkForEach {
					target = "foreach:" + sk.ForEach.Name
					if sk.ForEach.Name == "" {
						target = "foreach:" + n.Name
					}
				}
				if target == "" {
					continue
				}
				name := n.FlowName(sk)
				if names[target] == nil {
					names[target] = map[string]string{}
				}
				if other, dup := names[target][name]; dup && other != n.Name {
					at := n.Pos
					if n.Flow != nil {
						at = n.Flow.At("name")
					}
					c.add(at, Error, CodeFlowName,
						fmt.Sprintf("nodes '%s' and '%s' both write %s through a flow named '%s': a flow is identified by its name",
							other, n.Name, sk.Describe(), name),
						"give each node's flow its own `flow.name` (the default is {table_name}__{node_name})")
					continue
				}
				names[target][name] = n.Name
			}
		}
	}
}

func (c *checker) flowOptions(p *workspace.Pipeline, n *workspace.Node, f *workspace.Flow) {
	if !p.Declarative() {
		c.add(f.Pos, Error, CodeFlowNotDeclarative,
			fmt.Sprintf("`flow` options only apply to declarative orchestrators, and pipeline '%s' is %s", p.Name, orchestratorName(p)),
			"remove `flow:`, or set `orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}` (or LAKEFLOW_DECLARATIVE_PIPELINE)")
		return
	}
	if f.Once && n.Streaming() {
		c.add(f.At("once"), Error, CodeFlowOnceStream,
			fmt.Sprintf("node '%s' is a one-time flow (`once: true`) but reads a stream: a once flow reads a batch", n.Name),
			"remove `as_stream: true` from its sources, or remove `once`")
	}
	if f.ImportCheckpoint != "" {
		switch {
		case f.Once:
			c.add(f.At("import_checkpoint"), Error, CodeFlowCheckpoint,
				"`import_checkpoint` resumes a stream from its checkpoint, but a once flow reads a batch",
				"remove `import_checkpoint`, or `once`")
		case f.Kind == workspace.FlowUpdate:
			c.add(f.At("import_checkpoint"), Error, CodeFlowCheckpoint,
				"`import_checkpoint` is supported only on append flows", "remove `import_checkpoint`, or use `kind: append`")
		case !n.Streaming():
			c.add(f.At("import_checkpoint"), Error, CodeFlowCheckpoint,
				fmt.Sprintf("`import_checkpoint` resumes a stream, but node '%s' reads no stream", n.Name),
				"read the source with `as_stream: true`, or remove `import_checkpoint`")
		}
	}
	if f.Kind == workspace.FlowUpdate {
		for _, sk := range n.Sinks {
			if sk.Kind != workspace.SinkForEach {
				c.add(f.At("kind"), Error, CodeFlowUpdate,
					fmt.Sprintf("node '%s' is an update flow but writes %s: update flows write to ForEach sinks only", n.Name, sk.Describe()),
					"use `kind: append` for tables, or write the node to a `foreach:` sink")
				break
			}
		}
	}
}

func orchestratorName(p *workspace.Pipeline) string {
	if p.Orchestrator == "" {
		return "without an orchestrator"
	}
	return p.Orchestrator
}

func (c *checker) forEach(n *workspace.Node, sk *workspace.Sink) {
	fe := sk.ForEach
	hasCmd, hasHTTP := fe.Has("command"), fe.HTTP != nil
	if hasCmd == hasHTTP {
		msg := "a `foreach` sink needs exactly one writer: `command` or `http`"
		if hasCmd {
			msg += ", not both"
		}
		c.add(fe.Pos, Error, CodeForEachWriter, msg,
			`e.g. command: ["sh", "-c", "cat >> out.jsonl"] (rows as JSON lines on stdin), or http: {method: PUT, url: "https://api.example.com/orders/{order_id}"}`)
	}
	h := fe.HTTP
	if h == nil || h.URL == "" || strings.Contains(h.URL, "${") {
		return
	}
	if !strings.HasPrefix(h.URL, "http://") && !strings.HasPrefix(h.URL, "https://") {
		c.add(h.At("url"), Error, CodeForEachURL,
			fmt.Sprintf("`foreach.http.url` %q is not an http:// or https:// URL", h.URL),
			"write the full URL, e.g. https://api.example.com/orders/{order_id}")
	}
	cols := knownColumns(n)
	if cols == nil {
		return
	}
	for _, col := range h.URLColumns {
		if !slices.ContainsFunc(cols, func(c string) bool { return strings.EqualFold(c, col) }) {
			msg := fmt.Sprintf("the URL placeholder {%s} names no column of node '%s' (columns: %s)", col, n.Name, strings.Join(cols, ", "))
			if s := workspace.Suggest(col, cols); s != "" {
				msg += fmt.Sprintf("; did you mean {%s}?", s)
			}
			c.add(h.At("url"), Error, CodeForEachColumn, msg, "placeholders are replaced by the row's column values")
		}
	}
}

// knownColumns returns the node's output columns when the YAML tells them
// (a select step, or a source's selects or schema without transformer);
// nil when unknown.
func knownColumns(n *workspace.Node) []string {
	if k := len(n.Transformer); k > 0 {
		last := n.Transformer[k-1]
		if last.FuncName != "select" || len(last.FuncArgs) == 0 {
			return nil
		}
		var cols []string
		for _, a := range last.FuncArgs {
			s, ok := a.Value.(string)
			if !ok || !isIdentifier(s) {
				return nil
			}
			cols = append(cols, s)
		}
		return cols
	}
	if len(n.Sources) == 0 {
		return nil
	}
	s := n.Sources[0]
	var cols []string
	switch {
	case len(s.Selects) > 0:
		for _, r := range s.Selects {
			cols = append(cols, r.To)
		}
	case s.Schema != nil && len(s.Renames) == 0:
		for _, col := range s.Schema.Columns {
			if !slices.Contains(s.Drops, col.Name) {
				cols = append(cols, col.Name)
			}
		}
	default:
		return nil
	}
	return cols
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
