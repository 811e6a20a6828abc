package sink

import (
	"context"
	"fmt"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/merge"
	"github.com/laktory/workbench/workspace"
)

// Merge is a MERGE sink of a task (merge_cdc_options, see package merge).
type Merge struct {
	// Delta is the table's sink: its task, definition, pending reset and
	// resets (a MERGE sink resets as a Delta sink does).
	Delta
	// Plan plans the merge of the batch in the relation rel whose columns
	// are cols (delete_where translated for the session's engine).
	Plan func(ctx context.Context, rel string, cols []engine.Column) (*merge.Plan, error)
	// Merged, when set, runs after the MERGE commit of a batch.
	Merged func()
	// Done adds what a batch's merge did to the task's summary.
	Done func(merge.Result)
}

// Write implements Sink: it merges the batch, a batch of changes, into
// the table as Laktory 0.13.1 does on Spark: the empty target table is
// created in a commit of its own first (kept when the merge fails), then
// SCD type 1 commits one MERGE, SCD type 2 a MERGE closing the current
// versions and an append of the new ones. A micro-batch of a streaming
// flow records txn(appId, batch) on its last commit and is skipped when
// the table has it (foreachBatch, exactly once). Conflicts are retried on
// a fresh snapshot.
func (m *Merge) Write(ctx context.Context, b Batch) (int64, error) {
	sk, t, label, path := m.Sink, m.Task, m.Label, m.Path
	cols, err := t.Columns(ctx, quoteIdent(b.Rel))
	if err != nil {
		return 0, WriteError(t, label, err)
	}
	plan, err := m.Plan(ctx, b.Rel, cols)
	if err != nil {
		return 0, WriteError(t, label, err)
	}
	def, err := m.Definition()
	if err != nil {
		return 0, err
	}
	// A FULL refresh truncating the table does it now: the merge reads the
	// table.
	if m.Pending != nil && m.Pending() {
		if err := m.CommitPending(ctx); err != nil {
			return 0, err
		}
	}
	attempt := 0
	e := &merge.Exec{Session: t.Session(), Path: path,
		BeforeCommit: func(string) { t.BeforeCommit(attempt) },
		AfterCommit: func(step string) {
			if step == merge.StepMerge && m.Merged != nil {
				m.Merged()
			}
		}}
	err = t.Retry(ctx, label, func(a int) error {
		attempt = a
		start := time.Now()
		// One writer of the run creates the table (see Delta.Write).
		defer t.LockCreate(sk.Table)()
		res, err := e.Create(ctx, plan, def)
		if err != nil {
			return err
		}
		if res != nil {
			t.Created(sk.Table)
			CommitOperation(t, label, path, res, "the MERGE target, before its first merge", time.Since(start))
		}
		return nil
	})
	if err != nil {
		return 0, WriteError(t, label, err)
	}
	txn := merge.Txn{AppID: b.AppID, Version: b.Version}
	var total merge.Result
	err = t.Retry(ctx, label, func(a int) error {
		attempt = a
		start := time.Now()
		res, err := e.Merge(ctx, plan, txn)
		for _, c := range res.Commits {
			CommitOperation(t, label, path, c, mergeDetail(sk, b, c), time.Since(start))
		}
		if res.Skipped {
			t.Note("write", fmt.Sprintf("batch %d of %s is already in %s: skipped", b.Version, b.AppID, label))
		}
		total.Inserted += res.Inserted
		total.Updated += res.Updated
		total.Deleted += res.Deleted
		return err
	})
	if err != nil {
		return 0, WriteError(t, label, err)
	}
	if m.Done != nil {
		m.Done(total)
	}
	return total.Inserted + total.Updated + total.Deleted, nil
}

// mergeDetail describes a commit of a merge in the history, with the rows
// it inserted, updated and deleted (the versions an SCD type 2 append
// adds).
func mergeDetail(sk *workspace.Sink, b Batch, c *delta.CommitResult) string {
	d := fmt.Sprintf("MERGE, SCD type %d", sk.MergeCDC.SCDType)
	if b.AppID != "" {
		d += fmt.Sprintf(", batch %d of flow %s", b.Version, b.Flow)
	}
	if m := c.Merge; m != nil {
		return d + fmt.Sprintf(": %d inserted, %d updated, %d deleted", m.Inserted, m.Updated, m.Deleted)
	}
	return d + fmt.Sprintf(": %d versions added", c.Metrics.AddedRows)
}
