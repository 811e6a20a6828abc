package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/watch"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// watchRuns is laktory run --watch after its first run: a new or changed
// landing file, or a saved pipeline that validates, runs the nodes it
// affects (within the first run's selection when --pipeline or --select
// narrowed it) incrementally, debounced, one run at a time, until Ctrl-C.
func (a *app) watchRuns(r *runner.Runner, snap *workspace.Snapshot, first *runner.Plan, out io.Writer, f runFlags, info engine.Info) error {
	events, err := workspace.Watch(a.ctx, snap, workspace.WatchOptions{})
	if err != nil {
		return fmt.Errorf("watch the workspace: %w", err)
	}
	data, err := watch.WatchSources(a.ctx, snap)
	if err != nil {
		return err
	}
	var only func(pl, node string) bool
	if len(f.pipelines)+len(f.selectors) > 0 {
		only = func(pl, node string) bool { return slices.Contains(first.Selection[pl], node) }
	}
	q := watch.Queue{Debounce: watch.DefaultDebounce}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	waiting := func() { fmt.Fprintf(out, "\nWatching %s: waiting for changes (Ctrl-C stops)\n", snap.Dir) }
	waiting()
	add := func(c watch.Change) {
		sel, why := watch.Affected(c)
		sel = sel.Within(only)
		if len(sel) == 0 {
			for _, w := range why {
				fmt.Fprintln(out, "watch: "+w)
			}
			return
		}
		q.Add(sel, why, time.Now())
		timer.Reset(q.Wait(time.Now()))
	}
	for {
		select {
		case <-a.ctx.Done():
			return nil
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			if ev.Err != nil {
				fmt.Fprintf(a.stderr, "laktory: watching the workspace: %v\n", ev.Err)
			}
			if ev.Snapshot == nil {
				continue
			}
			old := snap
			snap = ev.Snapshot
			data.Update(snap)
			add(watch.Change{Old: old, New: snap, Paths: ev.Changed, Diagnostics: validate.Check(snap, validate.Options{SQL: r.SQL()})})
		case paths, ok := <-data.Changes():
			if !ok {
				return nil
			}
			add(watch.Change{New: snap, Paths: paths})
		case <-timer.C:
			sel, why, ok := q.Next(time.Now())
			if !ok {
				timer.Reset(q.Wait(time.Now()))
				continue
			}
			fmt.Fprintf(out, "\nChanged: %s: running %s\n", strings.Join(why, ", "), sel)
			req := sel.Request()
			req.Parallel = f.parallel
			plan, err := r.Plan(a.ctx, snap, req)
			switch {
			case err != nil:
				a.planRejected(snap, snap.Dir, err, false) //nolint:errcheck // reported; the watch goes on
			case plan.Destructive():
				// Nobody is there to confirm a change on save.
				printPlan(out, snap, plan, a.color(out), true, warnings{})
				fmt.Fprintf(out, "watch: not run: this run of %s would delete or reset what is listed above, and a watch does not ask: stop the watch and confirm it with laktory run\n", sel)
			default:
				shown := warnings{}
				printPlan(out, snap, plan, a.color(out), false, shown)
				if _, err := a.execute(r, plan, out, false, shown, info); err != nil {
					fmt.Fprintf(a.stderr, "laktory: %v\n", err)
				}
			}
			q.Done()
			if q.Queued() {
				timer.Reset(q.Wait(time.Now()))
			} else if a.ctx.Err() == nil {
				waiting()
			}
		}
	}
}
