package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/merge"
	"github.com/laktory/workbench/runner/sink"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// foreachRowsPerPartition is the number of rows above which a ForEach
// sink's batch is split into more partitions (sink.RowsPerPartition).
const foreachRowsPerPartition = sink.RowsPerPartition

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

// writeSink writes the rows of relation rel to a sink (package sink) and
// returns the number of rows written.
func (x *taskExec) writeSink(ctx context.Context, sp *sinkPlan, rel string, b microBatch) (int64, error) {
	s, err := x.sinkOf(sp)
	if err != nil {
		return 0, err
	}
	if !sp.sink.IsDelta() {
		x.rec.touch(sp) // a Delta sink's is its commit (BeforeCommit)
	}
	sb := sink.Batch{Rel: rel, AppID: b.appID, Version: b.version, Flow: b.flowName()}
	var bp *batchPublisher
	if fileSink := !sp.sink.IsDelta() && sp.sink.Kind != workspace.SinkForEach && sp.sink.Kind != workspace.SinkPipelineView; fileSink {
		if cp := b.cp; cp != nil {
			// The files a micro-batch adds are recorded before they are
			// moved into place: a replay removes those a crash left
			// (flowRun.unpublish).
			sb.Publishing = func(files []string) error { return cp.WriteSinkFiles(b.version, files) }
		} else if sp.lockDir != "" {
			// A batch append's too, beside the writer's checkpoint: the
			// next run removes those a crash left (unpublishBatches).
			if err := x.rec.unpublishBatches(sp); err != nil {
				return 0, err
			}
			bp = &batchPublisher{x: x, sp: sp}
			sb.Publishing = bp.publishing
		}
	}
	if sk := sp.sink; sk.Kind == workspace.SinkForEach {
		sb.Flow = FlowName(x.tp.pipeline, x.tp.node, sk)
		if b.flow == nil {
			x.sinkDefinition(&flowPlan{name: sb.Flow, sink: sp})
		} else {
			sb.Flow = b.flow.name
		}
		if b.flow != nil && b.flow.update {
			if sb.Query, err = x.updatedRows(ctx, rel, b); err != nil {
				return 0, err
			}
			sb.Update = true
		}
	}
	n, err := s.Write(ctx, sb)
	if bp != nil {
		err = bp.done(err)
	}
	return n, err
}

// resetSink resets a sink before (or instead of) writing it.
func (x *taskExec) resetSink(ctx context.Context, sp *sinkPlan) error {
	x.rec.touch(sp)
	if sp.sink.IsView() {
		return x.dropView(ctx, sp)
	}
	if !sp.sink.IsDelta() {
		if err := x.rec.unpublishBatches(sp); err != nil {
			return err
		}
		return filesSink(x, sp).Reset(ctx)
	}
	return x.deltaSink(sp).Reset(ctx)
}

// sinkOf is the sink sp plans, for the task.
func (x *taskExec) sinkOf(sp *sinkPlan) (sink.Sink, error) {
	sk := sp.sink
	switch {
	case sk.Kind == workspace.SinkPipelineView:
		return pipelineView{}, nil
	case sk.Kind == workspace.SinkForEach:
		w, err := x.foreachSink(sk)
		if err != nil {
			return nil, err
		}
		return &sink.ForEach{Task: sinkTask{x}, Sink: sk, Writers: w, Store: rowStore{local.NewRowStore(x.run.r.db)}, Parallel: x.run.r.cfg.Parallel}, nil
	case sk.IsMerge():
		d := x.deltaSink(sp)
		// A FULL refresh truncating the table does it before the merge
		// reads the table.
		d.CommitPending = func(ctx context.Context) error { return x.commitDeferred(ctx, sp) }
		return &sink.Merge{Delta: *d,
			Plan: func(ctx context.Context, rel string, cols []engine.Column) (*merge.Plan, error) {
				return x.mergePlan(ctx, sp, rel, cols)
			},
			Merged: func() { delta.FailPoint(FailMergeMerged) },
			Done:   func(r merge.Result) { x.mergeDone(sp, r) }}, nil
	case sk.IsDelta():
		return x.deltaSink(sp), nil
	}
	return filesSink(x, sp), nil
}

// filesSink is the file sink sp plans, writing where the task's path
// check resolved its file or folder.
func filesSink(x *taskExec, sp *sinkPlan) *sink.Files {
	return &sink.Files{Task: sinkTask{x}, Sink: sp.sink, Path: x.sinkPath(sp)}
}

// deltaSink is the Delta sink sp plans, with the reset it plans.
func (x *taskExec) deltaSink(sp *sinkPlan) *sink.Delta {
	d := &sink.Delta{Task: sinkTask{x}, Sink: sp.sink, Writer: sp.writer,
		Path: x.sinkPath(sp), Label: tableLabel(sp), DropHint: dropOnce(x.run.Plan.snap, sp.sink.Table, x.tp.pipeline.Name, x.tp.node.Name),
		Definition: func() (delta.TableDefinition, error) { return x.tableDefinition(sp) },
		Pending:    func() bool { return x.deferred[sp] },
		CommitPending: func(ctx context.Context) error {
			delta.FailPoint(FailRefreshStaged)
			if err := x.commitDeferred(ctx, sp); err != nil {
				return err
			}
			delta.FailPoint(FailRefreshDeleted)
			return nil
		},
	}
	if w := sp.writer; w != nil && w.Ownership == workspace.OwnerWhere {
		d.Where = func(cols []engine.Column) string {
			return x.s.where(w.Where, w.Backend, w.SparkConf, duckColumns(fromEngine(cols)))
		}
	}
	r := sink.DeltaReset{Meta: x.rec.meta(sp),
		Deleted: func(rows int64, version *int64) { x.log.deletion(sp, rows, version) }}
	switch sp.reset {
	case resetDeleteOwn:
		r.Kind, r.Predicate = sink.ResetDeleteOwn, func(ctx context.Context) (string, error) { return x.ownRows(ctx, sp) }
	case resetTruncate:
		r.Kind = sink.ResetTruncate
	case resetDrop:
		r.Kind = sink.ResetDrop
	case resetTableDrop, resetTableTrunc:
		r.Kind, r.Whole = sink.ResetWhole, func(ctx context.Context) error { return x.resetWholeTable(ctx, sp) }
	}
	d.Resets = r
	return d
}

// ownRows is the predicate of the writer's rows on its table as it is
// now, as the session's engine reads it. Unless the run allows it, it
// fails when deleting them would also delete another writer's rows:
// counted again on the table as it is now (rows may have arrived since
// the plan).
func (x *taskExec) ownRows(ctx context.Context, sp *sinkPlan) (string, error) {
	var schema *delta.StructType
	ts, err := loadTable(ctx, x.sinkPath(sp))
	if err == nil && ts != nil {
		schema = ts.Schema()
	}
	pred := x.s.ownerPredicate(sp.writer, schema)
	if ts != nil && !x.run.Plan.Request.AllowOverlap {
		_, own := ownerPredicate(x.run.r.sql, sp.writer, schema)
		if ov := x.run.r.overlaps(ctx, ts, sp, own); len(ov) > 0 {
			return "", fmt.Errorf("%w: node '%s': deleting the rows of %s from %s would also delete %s matching writer %s (where %s): nothing was deleted; make the predicates disjoint, or acknowledge it (laktory run --delete-overlapping)",
				ErrOverlap, x.tp.node.Name, ownerLabel(sp.writer), tableLabel(sp), rowsText(ov[0].Rows), ov[0].Writer, ov[0].Where)
		}
	}
	return pred, nil
}

// dropTable drops the table of a Delta sink (sink.Delta.Drop).
func (x *taskExec) dropTable(ctx context.Context, sp *sinkPlan) error {
	return x.deltaSink(sp).Drop(ctx)
}

// commitOperation records a Delta commit to the table of sp.
func (x *taskExec) commitOperation(sp *sinkPlan, res *delta.CommitResult, detail string, d time.Duration) {
	sink.CommitOperation(sinkTask{x}, tableLabel(sp), x.sinkPath(sp), res, detail, d)
}

// writeError names the node and table of a failed write.
func (x *taskExec) writeError(sp *sinkPlan, err error) error {
	return sink.WriteError(sinkTask{x}, tableLabel(sp), err)
}

// sinkMode is a sink's effective mode (sink.Mode).
func sinkMode(sk *workspace.Sink) string { return sink.Mode(sk) }

// sinkQuery is the SELECT a Delta sink writes from rel (sink.Query).
func sinkQuery(sp *sinkPlan, rel string, cols []column) string {
	backend := ""
	if sp.sink != nil {
		backend = sp.sink.Backend
	}
	return sink.Query(sp.writer, backend, rel, toEngine(cols))
}

// whereViolationsSQL counts the rows of rel outside a `where` predicate.
func whereViolationsSQL(pred, rel string) string { return sink.WhereViolationsSQL(pred, rel) }

// dropOnce is the command that drops table (once) and runs its writers
// again (validate.ResetTableCommand: all of them, so none is left without
// its rows), else that of writer pipeline.node (sink.DropOnce).
func dropOnce(snap *workspace.Snapshot, table workspace.TableID, pipeline, node string) string {
	if snap != nil {
		if t := snap.Table(table); t != nil && len(t.Writers) > 0 {
			return validate.ResetTableCommand(t, "DROP")
		}
	}
	return sink.DropOnce(pipeline, node)
}

func toEngine(cols []column) []engine.Column {
	out := make([]engine.Column, len(cols))
	for i, c := range cols {
		out[i] = engine.Column{Name: c.Name, Type: c.Type}
	}
	return out
}

func fromEngine(cols []engine.Column) []column {
	out := make([]column, len(cols))
	for i, c := range cols {
		out[i] = column{Name: c.Name, Type: c.Type}
	}
	return out
}

// tableDefinition is how a sink creates its table: the declared schema
// (writer column first for a writer-column shared sink; nil lets the
// first append define it) and the partitionBy columns. A sink declaring
// neither takes them from another writer of the table that does, so the
// table gets its full schema whichever writer creates it.
func (x *taskExec) tableDefinition(sp *sinkPlan) (delta.TableDefinition, error) {
	sk := sp.sink
	schema, parts := sk.Schema, sk.PartitionBy()
	if sp.table != nil {
		for _, w := range sp.table.Writers {
			o := x.run.Plan.snap.Sink(w)
			if o == nil {
				continue
			}
			if (schema == nil || len(schema.Columns) == 0) && o.Schema != nil {
				schema = o.Schema
			}
			if len(parts) == 0 {
				parts = o.PartitionBy()
			}
		}
	}
	def := delta.TableDefinition{PartitionColumns: parts}
	if sk.Metadata != nil {
		def.Description = sk.Metadata.Comment
		def.Properties = sk.Metadata.Properties
	}
	if schema == nil || len(schema.Columns) == 0 {
		return def, nil
	}
	st := &delta.StructType{}
	if w := sp.writer; w != nil && w.Ownership == workspace.OwnerColumn {
		st.Fields = append(st.Fields, &delta.StructField{Name: w.Column, Type: delta.PrimitiveType("string"), Nullable: true})
	}
	for _, c := range schema.Columns {
		if w := sp.writer; w != nil && w.Ownership == workspace.OwnerColumn && strings.EqualFold(c.Name, w.Column) {
			continue
		}
		dt, err := delta.ParseDuckDBType(dialect.DuckDBTypeName(c.Type))
		if err != nil {
			return def, fmt.Errorf("%w: sink %s: column %s has the type %q, which is not a known type: %w", ErrSink, sk.Describe(), c.Name, c.Type, err)
		}
		st.Fields = append(st.Fields, &delta.StructField{Name: c.Name, Type: dt, Nullable: c.Nullable})
	}
	def.Schema = st
	return def, nil
}

// mergePlan plans the merge of rel, whose columns are cols: on the local
// engine, delete_where translated to DuckDB SQL over them by the node's
// SQL dialect (Spark SQL for PYSPARK nodes, the DuckDB pass-through for
// POLARS ones); on Spark, Spark SQL as written. An SCD
// type 1 delete_where that Laktory's text replacement would change is
// rejected by validation (it is run as written).
func (x *taskExec) mergePlan(ctx context.Context, sp *sinkPlan, rel string, cols []engine.Column) (*merge.Plan, error) {
	o := sp.sink.MergeCDC
	// On Spark the merge is Laktory's own, in Spark SQL: delete_where as
	// written (the run's dialects pass it through).
	batch := merge.Batch{Relation: rel, Spark: x.s.native}
	for _, c := range cols {
		batch.Columns = append(batch.Columns, merge.Column{Name: c.Name, Type: c.Type})
	}
	if o.DeleteWhere != "" {
		c := newCompiler(x.s, x.run.Plan.snap, x.run, x.run.dialects(), x.tp.pipeline, x.tp.node)
		var err error
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

// foreachSink returns the engine of a ForEach sink: the Go sink the
// program registered under its name (Config.ForEach), else the writer its
// YAML declares. One per run and sink, shared by the flows writing it.
func (x *taskExec) foreachSink(sk *workspace.Sink) (*foreach.Sink, error) {
	p, n := x.tp.pipeline, x.tp.node
	name := foreachName(n, sk)
	if s, ok := x.run.r.cfg.ForEach[name]; ok && s != nil {
		return s, nil
	}
	key := p.Name + "/foreach:" + name
	if s, ok := x.run.sinks.Load(key); ok {
		return s.(*foreach.Sink), nil
	}
	s, err := foreach.FromSpec(sk.ForEach, n.Name, foreach.Options{Dir: filepath.Dir(p.File), Parallelism: x.run.r.cfg.Parallel})
	if err != nil {
		return nil, fmt.Errorf("%w: node '%s' of pipeline '%s': %w", ErrSink, n.Name, p.Name, err)
	}
	actual, _ := x.run.sinks.LoadOrStore(key, s)
	return actual.(*foreach.Sink), nil
}

// rowStore is the local engine's row store as a ForEach sink takes it.
type rowStore struct{ *local.RowStore }

func (r rowStore) Stage(ctx context.Context, s engine.Session, src string) (sink.StagedRows, error) {
	st, err := r.RowStore.Stage(ctx, s, src)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// sinkTask is a task as its sinks see it (sink.Task).
type sinkTask struct{ x *taskExec }

func (t sinkTask) Names() (string, string) { return t.x.tp.pipeline.Name, t.x.tp.node.Name }
func (t sinkTask) Session() engine.Session { return t.x.s.e }
func (t sinkTask) Guard() delta.Guard      { return t.x.run.guard }

func (t sinkTask) Columns(ctx context.Context, rel string) ([]engine.Column, error) {
	cs, err := t.x.s.columns(ctx, rel)
	if err != nil {
		return nil, err
	}
	return toEngine(cs), nil
}

func (t sinkTask) Retry(ctx context.Context, table string, op func(attempt int) error) error {
	return t.x.withRetries(ctx, table, op)
}

func (t sinkTask) BeforeCommit(attempt int) {
	t.x.rec.touch(nil)
	if h := t.x.run.r.cfg.beforeCommit; h != nil {
		h(t.x.t.Key, attempt)
	}
}

func (t sinkTask) Progress(phase string, rows int64) { t.x.log.progress(phase, rows) }

func (t sinkTask) Note(phase, message string) {
	t.x.run.emit(Event{Kind: EventTaskProgress, Task: t.x.t.Key, Phase: phase, Message: message})
}

// WriteProgress reports how far the data files of a write to table are
// written, as task_progress events of phase write: rows (of the files
// finished) and bytes so far.
func (t sinkTask) WriteProgress(table string) (func(delta.WriteProgress), time.Duration) {
	x := t.x
	return func(p delta.WriteProgress) {
		if !p.Done {
			x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "write", Table: table, Rows: p.Rows, Bytes: p.Bytes})
		}
	}, x.run.r.cfg.progressEvery
}

func (t sinkTask) Operation(op history.Operation) { t.x.log.operation(op) }

func (t sinkTask) LockCreate(table workspace.TableID) func() { return t.x.run.lockCreate(table) }

func (t sinkTask) Created(table workspace.TableID) { t.x.run.created.Store(table, true) }

// resetWholeTable drops or truncates a shared table once per run, from the
// first of its writers' tasks that gets there: it locks the checkpoints of
// every writer of the table in the run's pipelines (so none is running),
// resets the table, then those checkpoints. The other tasks wait for it.
func (x *taskExec) resetWholeTable(ctx context.Context, sp *sinkPlan) error {
	wr := sp.whole
	x.run.resetMu.Lock()
	tr, ok := x.run.resets[wr.table]
	if !ok {
		tr = &tableReset{}
		x.run.resets[wr.table] = tr
	}
	x.run.resetMu.Unlock()
	first := false
	tr.once.Do(func() {
		first = true
		tr.by = x.t.Key
		tr.err = x.doWholeReset(ctx, sp)
	})
	if !first {
		if tr.err != nil {
			return fmt.Errorf("%w: table %s was to be reset by task %s, which failed: %w", ErrSink, tableLabel(sp), tr.by, tr.err)
		}
		x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "reset", Message: fmt.Sprintf("table %s and the checkpoints of its writers were reset by task %s", tableLabel(sp), tr.by)})
	}
	return tr.err
}

// doWholeReset does a whole-table reset: it records its intent beside
// every checkpoint it resets (a run owning one of them finishes the reset
// after a crash), drops or truncates the table (the truncate carries the
// intent's marker), resets the checkpoints, then clears the intents.
func (x *taskExec) doWholeReset(ctx context.Context, sp *sinkPlan) error {
	wr := sp.whole
	for _, cp := range wr.checkpoints {
		if err := x.run.locks.Lock(cp, true); err != nil {
			return err
		}
	}
	cps := x.run.Plan.resettable(wr.checkpoints...)
	in := x.run.newIntent(ctx, x.t, sp, validate.RefreshReset, x.sinkPath(sp))
	in.Whole = "TRUNCATE"
	if wr.drop {
		in.Whole = "DROP"
	}
	if len(cps) > 0 {
		x.run.flushHistory()
	}
	for _, cp := range cps {
		if err := writeIntent(cp, in); err != nil {
			return err
		}
	}
	delta.FailPoint(FailWholeIntent)
	var err error
	if wr.drop {
		err = x.dropTable(ctx, sp)
	} else {
		err = x.deltaSink(sp).Truncate(ctx, in.marker())
	}
	if err != nil {
		return err
	}
	delta.FailPoint(FailWholeReset)
	if err := x.removeCheckpoints(wr.table, cps); err != nil {
		return err
	}
	delta.FailPoint(FailWholeDone)
	for _, cp := range cps {
		if err := clearIntent(cp); err != nil {
			return err
		}
	}
	if wr.declarative {
		// Every flow of the table starts over: forget them.
		label := tableLabel(sp)
		x.run.record(func(c context.Context) error { return x.run.store.ForgetFlows(c, label) })
	}
	return nil
}
