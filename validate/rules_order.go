package validate

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// runOrder warns about the reads across pipelines a run of all of them
// cannot order: each orders its reader after the writer of the table (or
// view) it reads (runner: a run's tasks), except a read that would close a
// cycle, which does not wait (LK240). Laktory orders none: it runs each
// pipeline on its own (docs/running.md, "Order across pipelines").
func (c *checker) runOrder() {
	fixed := map[string][]string{}
	var reads []workspace.ReadEdge
	for _, p := range c.snap.Pipelines {
		if p.DAG == nil || p.DAG.Cycle != nil {
			continue // LK172
		}
		for _, e := range p.DAG.Edges {
			fixed[p.Name+"."+e.From] = append(fixed[p.Name+"."+e.From], p.Name+"."+e.To)
		}
		for _, n := range p.Nodes {
			reads = append(reads, c.snap.CrossReads(p, n)...)
			within := c.snap.PipelineReads(p, n) // Laktory's order: never a cycle
			if p.Declarative() {
				within = c.snap.TableReads(p, n)
			}
			for _, e := range within {
				fixed[e.From] = append(fixed[e.From], e.To)
				if e.Before && !e.Stream {
					c.diags = append(c.diags, readBeforeWrite(c.snap, p, e))
				}
			}
		}
	}
	_, broken := workspace.OrderReads(fixed, reads)
	for _, b := range broken {
		c.diags = append(c.diags, CrossCycle(c.snap, b))
	}
}

// CrossCycle is the warning about a read across pipelines left out of a
// run's order because it closes a cycle (LK240); the runner's plan says
// the same of its tasks.
func CrossCycle(snap *workspace.Snapshot, b workspace.BrokenRead) Diagnostic {
	label := string(b.Table)
	if t := snap.Table(b.Table); t != nil {
		label = t.Label()
	}
	if b.Before {
		return workspace.NewDiagnostic(b.Pos, Warning, CodeCrossCycle,
			fmt.Sprintf("%s reads %s before %s writes it, as Laktory runs their pipeline, but the run cannot make %s wait for that read: the reads form a cycle (%s)",
				b.From, label, b.To, b.To, strings.Join(b.Cycle, " -> ")),
			"run the pipelines one at a time in the order the data needs (laktory run PIPELINE), or remove one read of the cycle")
	}
	return workspace.NewDiagnostic(b.Pos, Warning, CodeCrossCycle,
		fmt.Sprintf("%s reads %s, which %s writes, but a run of both cannot wait for it: the reads across pipelines form a cycle (%s). %s reads %s as the last run left it (on a first run it does not exist yet and the read fails); Laktory runs each pipeline on its own and orders none of these reads",
			b.To, label, b.From, strings.Join(b.Cycle, " -> "), b.To, label),
		"run the pipelines one at a time in the order the data needs (laktory run PIPELINE), or remove one read of the cycle")
}

// readBeforeWrite is the warning about a node reading a table a node its
// pipeline runs later writes (LK242): Laktory runs the nodes one at a time
// in DAG order, where a table_name source is no edge, and the run does the
// same (docs/running.md, "Order within a pipeline").
func readBeforeWrite(snap *workspace.Snapshot, p *workspace.Pipeline, e workspace.ReadEdge) Diagnostic {
	label := string(e.Table)
	if t := snap.Table(e.Table); t != nil {
		label = t.Label()
	}
	reader, writer := e.From[len(p.Name)+1:], e.To[len(p.Name)+1:]
	return workspace.NewDiagnostic(e.Pos, Warning, CodeReadBeforeWrite,
		fmt.Sprintf("node %s reads %s, which node %s of pipeline %s writes, but runs before it: a table_name source is no dependency of Laktory's DAG, which runs %s first, so it reads %s as the last run left it, and on a first run it does not exist yet and the run fails",
			reader, label, writer, p.Name, reader, label),
		fmt.Sprintf("add depends_on: [%s] to node %s to read what %s writes, or declare %s before %s", writer, reader, writer, writer, reader))
}
