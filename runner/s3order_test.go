package runner

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// inLaktoryOrder is a request of the tests that compare a run on a bucket
// lake with the same run on a local one (TestS3LakeDemo): its tasks run
// one at a time, in the plan's order, as Laktory runs a pipeline's nodes,
// so that nothing in the comparison depends on timing.
func inLaktoryOrder(req Request) Request {
	req.Parallel = 1
	return req
}

// TestDemoVersionsDoNotDependOnTiming: the demo's first run, then a run
// with nothing new, in two workspaces, one where feed_b commits before
// feed_a's task ends (so before gld_prices_a plans its batch), one where
// feed_b waits until gld_prices_a has planned its batch: with tasks in
// parallel, every table is at the same version in both. gld_prices_a
// streams feed_a's rows of the shared table prices, which feed_b also
// writes and is no dependency of it in the DAG; Laktory runs feed_b first
// (declaration order), so its stream reads feed_b's commit in the same
// batch, and the plan orders the two the same way (PipelineReads, a
// streaming node_name read of a shared table): the second order cannot
// happen (its gate times out). Fails without that edge: gld_prices_a at
// version 1 in the second workspace, 0 in the first, with the same rows
// (an empty batch of the next run), the "versions in the bucket and
// locally disagree" of TestS3LakeDemo under -race.
func TestDemoVersionsDoNotDependOnTiming(t *testing.T) {
	type gate struct {
		once sync.Once
		ch   chan struct{}
	}
	open := func(g *gate) { g.once.Do(func() { close(g.ch) }) }
	wait := func(g *gate) {
		select {
		case <-g.ch:
		case <-time.After(2 * time.Second): // the other task runs after this one
		}
	}
	versions := map[string][]int64{}
	rows := map[string][][]string{}
	modes := []string{"feed_b commits first", "feed_b commits after gld_prices_a planned"}
	for _, mode := range modes {
		dir := workspacetest.Demo(t)
		g := &gate{ch: make(chan struct{})}
		r := testRunner(t, func(c *Config) {
			c.afterStep = func(task, flow, step string, batch int64) {
				first := mode == modes[0]
				switch {
				case first && strings.HasSuffix(task, ".feed_b") && step == stepSink:
					open(g)
				case first && strings.HasSuffix(task, ".feed_a") && step == stepSink:
					wait(g)
				case !first && strings.HasSuffix(task, ".gld_prices_a") && step == stepOffsets:
					open(g)
				case !first && strings.HasSuffix(task, ".feed_b") && step == stepOffsets:
					wait(g)
				}
			}
		})
		snap := workspacetest.LoadDir(t, dir, workspace.Options{})
		local := &ws{t: t, dir: dir}
		for _, step := range []string{"first run", "nothing new"} {
			mustRun(t, r, snap, Request{})
			for _, name := range demoTables {
				versions[mode] = append(versions[mode], version(t, local.table(name)))
			}
			if step == "nothing new" {
				rows[mode] = query(t, r, local.table("gld_prices_a"), "SELECT count(*) FROM t")
			}
		}
	}
	a, b := versions[modes[0]], versions[modes[1]]
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("after the %s, %s is at version %d when %s, %d when %s (gld_prices_a rows: %v, %v)",
				[]string{"first run", "nothing new"}[i/len(demoTables)], demoTables[i%len(demoTables)], a[i], modes[0], b[i], modes[1], rows[modes[0]], rows[modes[1]])
		}
	}
}
