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
			if !p.Declarative() {
				continue
			}
			for _, e := range c.snap.TableReads(p, n) {
				fixed[e.From] = append(fixed[e.From], e.To)
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
	return workspace.NewDiagnostic(b.Pos, Warning, CodeCrossCycle,
		fmt.Sprintf("%s reads %s, which %s writes, but a run of both cannot wait for it: the reads across pipelines form a cycle (%s). %s reads %s as the last run left it (on a first run it does not exist yet and the read fails); Laktory runs each pipeline on its own and orders none of these reads",
			b.To, label, b.From, strings.Join(b.Cycle, " -> "), b.To, label),
		"run the pipelines one at a time in the order the data needs (laktory run PIPELINE), or remove one read of the cycle")
}
