package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/spf13/cobra"
)

// graphJSON is the JSON form of `laktory graph`.
type graphJSON struct {
	Tables    []tableJSON    `json:"tables"`
	Pipelines []pipelineJSON `json:"pipelines"`
}

type tableJSON struct {
	ID      string       `json:"id"`
	Name    string       `json:"name,omitempty"`
	Path    string       `json:"path"`
	Shared  bool         `json:"shared"`
	View    bool         `json:"view,omitempty"`
	Writers []writerJSON `json:"writers"`
	Readers []readerJSON `json:"readers"`
}

type writerJSON struct {
	Pipeline  string `json:"pipeline"`
	Node      string `json:"node"`
	Sink      int    `json:"sink"`
	Shared    bool   `json:"shared"`
	Ownership string `json:"ownership"` // "column", "where", "table" (not shared) or "view" (a VIEW sink)
	WriterID  string `json:"writer_id,omitempty"`
	Column    string `json:"column,omitempty"`
	Where     string `json:"where,omitempty"`
	Flow      string `json:"flow,omitempty"`
	File      string `json:"file"`
	Line      int    `json:"line"`
}

type readerJSON struct {
	Pipeline          string `json:"pipeline"`
	Node              string `json:"node"`
	Kind              string `json:"kind"`
	FromNode          string `json:"from_node,omitempty"`
	AsStream          bool   `json:"as_stream"`
	SkipChangeCommits bool   `json:"skip_change_commits"`
}

type pipelineJSON struct {
	Name         string     `json:"name"`
	File         string     `json:"file"`
	Orchestrator string     `json:"orchestrator,omitempty"`
	Nodes        []string   `json:"nodes"`
	Edges        []edgeJSON `json:"edges"`
	Order        []string   `json:"order"`
	Cycle        []string   `json:"cycle,omitempty"`
}

type edgeJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
}

func init() {
	registerCommand("graph", func(a *app) *cobra.Command {
		var asJSON bool
		var wf workspaceFlags
		cmd := &cobra.Command{
			Use:   "graph [DIR]",
			Short: "Show which writers write which tables, who owns which rows, the readers and the node DAG",
			Long: `graph loads the workspace DIR (default: the current folder) and prints its
tables with their writers (pipeline.node, and the rows each owns: its writer
id in the writer column, or its where predicate) and their readers, then the
node DAG of each pipeline. --json prints the same for scripts.

The graph is drawn even when the workspace has errors; their count, and the
files that do not load (their pipelines are missing from the graph), go to
stderr and the exit code is 1: run laktory validate to see them.`,
			Example: `  laktory graph ./demo
  laktory graph --json . | jq '.tables[] | select(.shared)'`,
			Args: rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				dir := workspaceDir(args)
				s, err := a.loadWorkspace(dir, wf)
				if err != nil {
					return err
				}
				g := buildGraph(s, dir)
				if asJSON {
					if err := a.printJSON(g); err != nil {
						return err
					}
				} else {
					printGraph(a.stdout, g, a.color(a.stdout))
				}
				// DuckDB's parser, opened only when a predicate needs it.
				sqlp := local.OpenParser()
				defer sqlp.Close()
				ds := validate.Check(s, validate.Options{SQL: runner.SparkSQL(sqlp)})
				n := countErrors(ds)
				if n == 0 {
					return nil
				}
				fmt.Fprintf(a.stderr, "laktory: the workspace has %s: run laktory validate\n", plural(n, "error"))
				named := map[string]bool{}
				for _, d := range ds {
					if d.Severity == workspace.SeverityError && d.File != "" && !named[d.File] && !s.LoadsPipeline(d.File) &&
						(s.Config == nil || d.File != s.Config.File) {
						named[d.File] = true
						fmt.Fprintf(a.stderr, "laktory: %s:%d does not load (%s): the pipelines it declares are missing from the graph\n",
							displayPath(s, dir, d.File), d.Line, d.Message)
					}
				}
				return errProblems
			},
		}
		cmd.Flags().BoolVar(&asJSON, "json", false, "print the graph as JSON")
		wf.register(cmd)
		return cmd
	})
}

func countErrors(ds []workspace.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == workspace.SeverityError {
			n++
		}
	}
	return n
}

func buildGraph(s *workspace.Snapshot, dirArg string) graphJSON {
	g := graphJSON{Tables: []tableJSON{}, Pipelines: []pipelineJSON{}}
	for _, t := range s.Tables {
		tj := tableJSON{ID: string(t.ID), Name: t.Name, Path: displayPath(s, dirArg, t.Path), Shared: t.Shared(), View: t.View(),
			Writers: []writerJSON{}, Readers: []readerJSON{}}
		for _, w := range t.Writers {
			own := string(w.Ownership)
			if w.Ownership == workspace.OwnerNone {
				own = "table"
			}
			if w.View {
				own = "view"
			}
			tj.Writers = append(tj.Writers, writerJSON{Pipeline: w.Pipeline, Node: w.Node, Sink: w.Sink, Shared: w.Shared,
				Ownership: own, WriterID: w.WriterID, Column: w.Column, Where: w.Where, Flow: w.Flow,
				File: displayPath(s, dirArg, w.Pos.File), Line: w.Pos.Line})
		}
		for _, r := range t.Readers {
			tj.Readers = append(tj.Readers, readerJSON{Pipeline: r.Pipeline, Node: r.Node, Kind: string(r.Kind),
				FromNode: r.FromNode, AsStream: r.AsStream, SkipChangeCommits: r.SkipChangeCommits})
		}
		g.Tables = append(g.Tables, tj)
	}
	for _, p := range s.Pipelines {
		pj := pipelineJSON{Name: p.Name, File: displayPath(s, dirArg, p.Pos.File), Orchestrator: p.Orchestrator,
			Nodes: []string{}, Edges: []edgeJSON{}, Order: []string{}}
		if d := p.DAG; d != nil {
			pj.Nodes = append(pj.Nodes, d.Nodes...)
			pj.Order = append(pj.Order, d.Order...)
			pj.Cycle = d.Cycle
			for _, e := range d.Edges {
				pj.Edges = append(pj.Edges, edgeJSON{From: e.From, To: e.To, Kind: string(e.Kind)})
			}
		}
		g.Pipelines = append(g.Pipelines, pj)
	}
	return g
}

// printGraph draws the tables (writers -> table, with ownership, and its
// readers), then each pipeline's DAG.
func printGraph(w io.Writer, g graphJSON, color bool) {
	p := painter(color)
	fmt.Fprintln(w, p.paint(ansiBold, "Tables"))
	if len(g.Tables) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, t := range g.Tables {
		label := t.Name
		if label == "" {
			label = t.Path
		}
		var tags []string
		if t.Shared {
			tags = append(tags, p.paint(ansiCyan, "shared"))
		}
		if t.View {
			tags = append(tags, p.paint(ansiCyan, "view"))
		}
		if t.Name != "" {
			tags = append(tags, p.paint(ansiDim, t.Path))
		}
		fmt.Fprintf(w, "  %s  %s\n", p.paint(ansiBold, label), strings.Join(tags, "  "))
		width := 0
		for _, wr := range t.Writers {
			width = max(width, len(wr.Pipeline)+1+len(wr.Node))
		}
		for _, wr := range t.Writers {
			name := wr.Pipeline + "." + wr.Node
			fmt.Fprintf(w, "    %s %-*s  %s\n", p.paint(ansiDim, "<-"), width, name, ownerText(wr))
		}
		for _, r := range t.Readers {
			fmt.Fprintf(w, "    %s %s  %s\n", p.paint(ansiDim, "->"), r.Pipeline+"."+r.Node, readerText(r))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.paint(ansiBold, "Pipelines"))
	for _, pl := range g.Pipelines {
		orch := pl.Orchestrator
		if orch == "" {
			orch = "no orchestrator"
		}
		fmt.Fprintf(w, "  %s  %s\n", p.paint(ansiBold, pl.Name), p.paint(ansiDim, orch+", "+pl.File))
		if len(pl.Cycle) > 0 {
			fmt.Fprintf(w, "    %s %s\n", p.paint(ansiRed, "cycle:"), strings.Join(pl.Cycle, " -> "))
		} else if len(pl.Order) > 0 {
			fmt.Fprintf(w, "    order: %s\n", strings.Join(pl.Order, ", "))
		}
		for _, e := range pl.Edges {
			fmt.Fprintf(w, "    %s -> %s  %s\n", e.From, e.To, p.paint(ansiDim, "("+e.Kind+")"))
		}
	}
}

func ownerText(w writerJSON) string {
	switch {
	case w.Flow != "":
		return "appends through flow " + w.Flow
	case w.Ownership == "column":
		return fmt.Sprintf("owns %s = '%s'", w.Column, w.WriterID)
	case w.Ownership == "where":
		return "owns where " + w.Where
	case w.Ownership == "view":
		return "defines the view (its SQL, no rows)"
	}
	return "owns the whole table"
}

func readerText(r readerJSON) string {
	s := "reads " + r.Kind
	if r.FromNode != "" {
		s += " " + r.FromNode
	}
	if r.AsStream {
		s += ", stream"
	}
	if r.SkipChangeCommits {
		s += ", skipChangeCommits"
	}
	return s
}
