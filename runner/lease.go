package runner

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
)

// Leases of bucket tables. Spark's commits to a bucket table are not
// conditional (docs/object-storage.md), so nothing in the commit protocol
// keeps a workbench commit from landing in a Spark commit's window and
// being overwritten. A run on the Spark engine therefore takes the lease
// of every bucket table one of its tasks writes (resets included) before
// the task changes anything, and holds it until the run ends
// (delta.AcquireLease: renewed every TTL/3, released at the end); every
// workbench commit to a bucket table checks the lease first and is
// refused while another run holds it (delta.ErrLeaseHeld), and the run
// taking the lease waits for the workbench commits in flight. A lease a
// killed run left is waited for until it expires, or taken over at once
// with Request.TakeLease; a lease the run loses (its renewal failing, or
// taken over) cancels the run, which fails naming the loss.

// leaseTable takes the lease of sp's table for a Spark-engine run when
// the table is in a bucket (once per run and table).
func (x *taskExec) leaseTable(ctx context.Context, sp *sinkPlan) error {
	run := x.run
	info := run.engine.Info()
	if info.Name == engine.Local || !sp.sink.IsDelta() || sp.sink.Table == "" {
		return nil
	}
	root := x.sinkPath(sp)
	if !delta.IsRemoteLocation(root) {
		return nil
	}
	run.leaseMu.Lock()
	defer run.leaseMu.Unlock()
	if run.leases.Get(root) != nil {
		return nil
	}
	host, _ := os.Hostname()
	what := fmt.Sprintf("run %d on the Spark engine", run.ID)
	if info.Remote != "" {
		what += " (" + info.Remote + ")"
	}
	l, err := delta.AcquireLease(ctx, root, delta.LeaseOwner{Host: host, Workspace: run.Plan.snap.Dir, PID: os.Getpid(), Run: what},
		delta.LeaseOptions{TTL: run.r.cfg.LeaseTTL, TakeOver: run.Plan.Request.TakeLease, Notify: x.log.note,
			OnLost: func(err error) { run.cancel(err) }})
	if err != nil {
		return fmt.Errorf("%w: node '%s': the lease of %s: %w", ErrSink, x.tp.node.Name, tableLabel(sp), err)
	}
	run.leases.Add(l)
	return nil
}

// releaseLeases releases the run's leases; the error is a lease lost
// before the end.
func (run *Run) releaseLeases() error {
	var errs []error
	for _, l := range run.leases.All() {
		if err := l.Release(context.Background()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
