package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/merge"
	"github.com/laktory/workbench/workspace"
)

// MergeSummary is what a task's MERGE sink did over a run (every batch of
// a streaming flow summed). For SCD type 2, Inserted are the versions
// appended and Updated the versions closed.
type MergeSummary struct {
	Table    string `json:"table"`
	SCDType  int    `json:"scd_type"`
	Inserted int64  `json:"rows_inserted"`
	Updated  int64  `json:"rows_updated"`
	Deleted  int64  `json:"rows_deleted"`
}

// writeMerge merges rel, a batch of changes, into a MERGE sink
// (merge_cdc_options, see runner/merge), as Laktory 0.13.1 does on Spark:
// the empty target table is created in a commit of its own first (kept
// when the merge fails), then SCD type 1 commits one MERGE, SCD type 2 a
// MERGE closing the current versions and an append of the new ones. A
// micro-batch of a streaming flow records txn(appId, batch) on its last
// commit and is skipped when the table has it (foreachBatch, exactly
// once). Conflicts are retried on a fresh snapshot.
func (x *taskExec) writeMerge(ctx context.Context, sp *sinkPlan, rel string, b microBatch) (int64, error) {
	sk := sp.sink
	label := tableLabel(sp)
	plan, err := x.mergePlan(ctx, sp, rel)
	if err != nil {
		return 0, x.writeError(sp, err)
	}
	def, err := x.tableDefinition(sp)
	if err != nil {
		return 0, err
	}
	// A FULL refresh truncating the table does it now: the merge reads the
	// table.
	if err := x.commitDeferred(ctx, sp); err != nil {
		return 0, err
	}
	attempt := 0
	e := &merge.Exec{Session: x.s.e, Path: string(sk.Table),
		BeforeCommit: func(string) {
			if h := x.run.r.cfg.beforeCommit; h != nil {
				h(x.t.Key, attempt)
			}
		},
		AfterCommit: func(step string) {
			if step == merge.StepMerge {
				delta.FailPoint(FailMergeMerged)
			}
		}}
	err = x.withRetries(ctx, label, func(a int) error {
		attempt = a
		start := time.Now()
		// One writer of the run creates the table (see writeDelta).
		defer x.run.lockCreate(sk.Table)()
		res, err := e.Create(ctx, plan, def)
		if err != nil {
			return err
		}
		if res != nil {
			x.run.created.Store(sk.Table, true)
			x.commitOperation(sp, res, "the MERGE target, before its first merge", time.Since(start))
		}
		return nil
	})
	if err != nil {
		return 0, x.writeError(sp, err)
	}
	txn := merge.Txn{AppID: b.appID, Version: b.version}
	var total merge.Result
	err = x.withRetries(ctx, label, func(a int) error {
		attempt = a
		start := time.Now()
		res, err := e.Merge(ctx, plan, txn)
		for _, c := range res.Commits {
			x.commitOperation(sp, c, mergeDetail(sk, b, c), time.Since(start))
		}
		if res.Skipped {
			x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "write",
				Message: fmt.Sprintf("batch %d of %s is already in %s: skipped", b.version, b.appID, label)})
		}
		total.Inserted += res.Inserted
		total.Updated += res.Updated
		total.Deleted += res.Deleted
		return err
	})
	if err != nil {
		return 0, x.writeError(sp, err)
	}
	x.mergeDone(sp, total)
	return total.Inserted + total.Updated + total.Deleted, nil
}

// mergePlan plans the merge of rel: its columns, and delete_where
// translated to DuckDB SQL over them by the node's SQL dialect (Spark SQL
// for PYSPARK nodes, the DuckDB pass-through for POLARS ones). An SCD
// type 1 delete_where that
// Laktory's text replacement would change is rejected by validation (it
// is run as written).
func (x *taskExec) mergePlan(ctx context.Context, sp *sinkPlan, rel string) (*merge.Plan, error) {
	o := sp.sink.MergeCDC
	cols, err := x.s.columns(ctx, quoteIdent(rel))
	if err != nil {
		return nil, err
	}
	batch := merge.Batch{Relation: rel}
	for _, c := range cols {
		batch.Columns = append(batch.Columns, merge.Column{Name: c.Name, Type: c.Type})
	}
	if o.DeleteWhere != "" {
		c := newCompiler(x.s, x.run.Plan.snap, x.run, x.run.r.cfg.Dialect, x.tp.pipeline, x.tp.node)
		batch.DeleteWhere, err = c.translate(ctx, deleteWhereKind(o), o.DeleteWhere, rel,
			origin{what: "merge_cdc_options.delete_where of " + sp.sink.Describe(), at: o.At("delete_where"), exact: true})
		if err != nil {
			return nil, err
		}
	}
	p, err := merge.New(o, batch)
	if err != nil {
		return nil, fmt.Errorf("%w: node '%s' of pipeline '%s', %s: %w", ErrSink, x.tp.node.Name, x.tp.pipeline.Name, sp.sink.Describe(), err)
	}
	return p, nil
}

// deleteWhereKind is what delete_where is in Laktory 0.13.1's merge: with
// SCD type 1 a condition of Spark's MERGE (whenMatchedDelete and the
// update's and insert's conditions: boolean, row by row, deterministic);
// with SCD type 2 a column of the source (withColumn("__to_delete")),
// where a window is allowed.
func deleteWhereKind(o *workspace.MergeCDC) dialect.Kind {
	if o.SCDType == 2 {
		return dialect.Expression
	}
	return dialect.Predicate
}

// mergeDetail describes a commit of a merge in the history, with the rows
// it inserted, updated and deleted (the versions an SCD type 2 append
// adds).
func mergeDetail(sk *workspace.Sink, b microBatch, c *delta.CommitResult) string {
	d := fmt.Sprintf("MERGE, SCD type %d", sk.MergeCDC.SCDType)
	if b.appID != "" {
		d += fmt.Sprintf(", batch %d of flow %s", b.version, b.flowName())
	}
	if m := c.Merge; m != nil {
		return d + fmt.Sprintf(": %d inserted, %d updated, %d deleted", m.Inserted, m.Updated, m.Deleted)
	}
	return d + fmt.Sprintf(": %d versions added", c.Metrics.AddedRows)
}

// mergeDone adds a merge's rows to the task's summary of its MERGE sink.
func (x *taskExec) mergeDone(sp *sinkPlan, r merge.Result) {
	label := tableLabel(sp)
	for i := range x.sum.Merges {
		if m := &x.sum.Merges[i]; m.Table == label {
			m.Inserted += r.Inserted
			m.Updated += r.Updated
			m.Deleted += r.Deleted
			return
		}
	}
	x.sum.Merges = append(x.sum.Merges, MergeSummary{Table: label, SCDType: sp.sink.MergeCDC.SCDType,
		Inserted: r.Inserted, Updated: r.Updated, Deleted: r.Deleted})
}

// mergeRows are the rows a MERGE commit inserted, updated and deleted.
func mergeRows(res *delta.CommitResult) (history.Operation, bool) {
	if res.Merge == nil {
		return history.Operation{}, false
	}
	return history.Operation{RowsAdded: res.Merge.Inserted, RowsUpdated: res.Merge.Updated, RowsDeleted: res.Merge.Deleted}, true
}
