package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/schemaflow"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// writeOptions are the write options of a sink: new columns are merged
// into the table (writers adding different columns), and OVERWRITE may
// replace the schema.
func writeOptions(sk *workspace.Sink) delta.WriteOptions {
	return delta.WriteOptions{MergeSchema: true, OverwriteSchema: sinkMode(sk) == workspace.ModeOverwrite}
}

// writeProgress reports how far the data files of a write to table are
// written, as task_progress events of phase write: rows (of the files
// finished) and bytes so far.
func (x *taskExec) writeProgress(table string) func(delta.WriteProgress) {
	return func(p delta.WriteProgress) {
		if !p.Done {
			x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "write", Table: table, Rows: p.Rows, Bytes: p.Bytes})
		}
	}
}

// sinkQuery is the SELECT a Delta sink writes from rel (whose columns are
// cols): for a writer-column shared sink, the writer id comes first
// (replacing a column of that name). It is SQL both engines read.
func sinkQuery(sp *sinkPlan, rel string, cols []column) string {
	w := sp.writer
	owner := w != nil && w.Ownership == workspace.OwnerColumn
	var out []string
	if owner {
		out = append(out, fmt.Sprintf("CAST(%s AS STRING) AS %s", quoteString(w.WriterID), quoteIdent(w.Column)))
	}
	cast, backend := false, ""
	if sp.sink != nil {
		backend = sp.sink.Backend
	}
	for _, c := range cols {
		if owner && strings.EqualFold(c.Name, w.Column) {
			continue
		}
		e := quoteIdent(c.Name)
		if t := schemaflow.SinkType(backend, c.Type); t != c.Type {
			e, cast = fmt.Sprintf("CAST(%s AS %s) AS %s", e, t, e), true
		}
		out = append(out, e)
	}
	if !owner && !cast {
		return "SELECT * FROM " + quoteIdent(rel)
	}
	return fmt.Sprintf("SELECT %s FROM %s", strings.Join(out, ", "), quoteIdent(rel))
}

// checkWhere fails when rows of rel fall outside the writer's `where`
// predicate: a FULL refresh of the writer would never delete them.
func (x *taskExec) checkWhere(ctx context.Context, sp *sinkPlan, rel string) error {
	w := sp.writer
	var bad int64
	cs, err := x.s.columns(ctx, quoteIdent(rel))
	if err != nil {
		return fmt.Errorf("%w: node '%s' of pipeline '%s': check the rows against `shared.where: %s`: %w", ErrOwnership, w.Node, w.Pipeline, w.Where, err)
	}
	pred := x.s.where(w.Where, w.Backend, w.SparkConf, duckColumns(cs))
	q := whereViolationsSQL(pred, rel)
	if err := x.s.e.QueryRow(ctx, q, &bad); err != nil {
		return fmt.Errorf("%w: node '%s' of pipeline '%s': check the rows against `shared.where: %s`: %w", ErrOwnership, w.Node, w.Pipeline, w.Where, err)
	}
	if bad == 0 {
		return nil
	}
	example := x.exampleRow(ctx, fmt.Sprintf("SELECT * FROM %s WHERE %s IS NOT TRUE LIMIT 1", quoteIdent(rel), pred))
	return fmt.Errorf("%w: node '%s' of pipeline '%s' produced %d rows that do not match its `shared.where: %s` (e.g. %s); a FULL refresh of the writer would never delete them, so nothing was written to %s. Fix the transformer (or the predicate) so every row the writer writes matches it",
		ErrOwnership, w.Node, w.Pipeline, bad, w.Where, example, tableLabel(sp))
}

// whereViolationsSQL counts the rows of rel outside a `where` predicate
// (an expression in brackets).
func whereViolationsSQL(pred, rel string) string {
	return fmt.Sprintf("SELECT count(*) FILTER (WHERE %s IS NOT TRUE) FROM %s", pred, quoteIdent(rel))
}

// exampleRow renders the first row of a query as {col: value, ...}, read
// through the engine (Session.Rows: the same text on both engines).
func (x *taskExec) exampleRow(ctx context.Context, q string) string {
	rows, err := x.s.e.Rows(ctx, q)
	if err != nil {
		return "a row"
	}
	defer rows.Close()
	b, err := rows.Next()
	if err != nil || b == nil {
		return "a row"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var parts []string
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "a row"
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return "a row"
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return "a row"
		}
		text := "NULL"
		switch v := v.(type) {
		case nil:
		case string:
			text = v
		case json.Number, bool:
			text = fmt.Sprint(v)
		default:
			m, _ := json.Marshal(v)
			text = string(m)
		}
		parts = append(parts, fmt.Sprint(k)+": "+text)
	}
	return "{" + strings.Join(parts, ", ") + "}"
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

// writeDelta writes rel to a Delta sink: creating the table when needed,
// appending or overwriting (a FULL refresh of a shared sink deleted the
// writer's rows in a commit of its own before, as Laktory does, so
// streaming readers see a delete, then an append). A micro-batch of a
// flow commits with txn(appId = the flow id, version = the batch id) and is
// skipped when the table already has it. Conflicts are retried on a fresh
// snapshot.
func (x *taskExec) writeDelta(ctx context.Context, sp *sinkPlan, rel string, b microBatch) (int64, error) {
	sk := sp.sink
	path, label, mode := x.resolved(string(sk.Table)), tableLabel(sp), sinkMode(sk)
	if sp.writer != nil && sp.writer.Ownership == workspace.OwnerWhere {
		if err := x.checkWhere(ctx, sp, rel); err != nil {
			return 0, err
		}
	}
	var cols []column
	if sp.writer != nil && sp.writer.Ownership == workspace.OwnerColumn || sk.Backend == "POLARS" {
		var err error
		if cols, err = x.s.columns(ctx, quoteIdent(rel)); err != nil {
			return 0, x.writeError(sp, err)
		}
	}
	query := sinkQuery(sp, rel, cols)
	def, err := x.tableDefinition(sp)
	if err != nil {
		return 0, err
	}
	opts := writeOptions(sk)
	opts.Progress, opts.ProgressInterval = x.writeProgress(path), x.run.r.cfg.progressEvery
	var written int64
	err = x.withRetries(ctx, label, func(attempt int) error {
		start := time.Now()
		snap, err := loadTable(ctx, path)
		if err != nil {
			return err
		}
		if snap == nil {
			// One writer of the run creates the table; the others wait
			// for it, then append: writers of a new table do not race to
			// create it (and retry).
			defer x.run.lockCreate(sk.Table)()
			if snap, err = loadTable(ctx, path); err != nil {
				return err
			}
		}
		if snap == nil {
			// The transaction makes the table's folder, and removes it again
			// when the create fails or loses the race.
			x.run.created.Store(sk.Table, true)
		} else {
			if err := x.checkLegacy(sp, snap); err != nil {
				return err
			}
			switch mode {
			case modeError:
				return fmt.Errorf("%w: node '%s': table %s already exists and the sink's mode is %s (use APPEND or OVERWRITE)", ErrSink, x.tp.node.Name, label, sk.Mode)
			case modeIgnore:
				x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "write", Message: fmt.Sprintf("table %s exists and the sink's mode is IGNORE: not written", label)})
				return nil
			}
		}
		tx, err := x.s.e.Begin(ctx, path, snap, def, opts)
		if err != nil {
			return err
		}
		if b.appID != "" {
			appID := b.appID
			done, err := tx.SetAppTransaction(appID, b.version)
			if err != nil {
				tx.Abort()
				return err
			}
			if done {
				tx.Abort()
				x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "write",
					Message: fmt.Sprintf("batch %d of %s is already in %s: skipped", b.version, appID, label)})
				return nil
			}
		}
		if mode == workspace.ModeOverwrite && snap != nil {
			err = tx.Overwrite(ctx, query)
		} else {
			err = tx.Append(ctx, query)
		}
		if err != nil {
			tx.Abort()
			return err
		}
		// The new data is written (staged): now the FULL refresh's delete
		// of the writer's rows commits, then this append, rebased on it.
		if x.deferred[sp] {
			delta.FailPoint(FailRefreshStaged)
			if err := x.commitDeferred(ctx, sp); err != nil {
				tx.Abort()
				return err
			}
			delta.FailPoint(FailRefreshDeleted)
		}
		x.progress("commit", tx.AddedRows())
		if h := x.run.r.cfg.beforeCommit; h != nil {
			h(x.t.Key, attempt)
		}
		res, err := tx.Commit(ctx)
		if err != nil {
			return err
		}
		written = res.Metrics.AddedRows
		detail := mode
		if b.appID != "" {
			detail += fmt.Sprintf(", batch %d of flow %s", b.version, b.flowName())
		}
		x.commitOperation(sp, res, detail, time.Since(start))
		return nil
	})
	if err != nil {
		// A create that failed left nothing: the transaction removes the
		// folders it made.
		return 0, x.writeError(sp, err)
	}
	return written, nil
}

// checkLegacy fails the write of a writer-column shared sink to a table
// that has no writer column.
func (x *taskExec) checkLegacy(sp *sinkPlan, snap *delta.Snapshot) error {
	w := sp.writer
	if w == nil || w.Ownership != workspace.OwnerColumn || snap.Schema().Field(w.Column) != nil {
		return nil
	}
	return fmt.Errorf("%w: table %s has no `%s` column: it was written before it was shared (or by writers owning rows with `where`), so node '%s' of pipeline '%s' cannot write its rows with their writer id. Drop it once, then run normally (%s)",
		ErrLegacyTable, tableLabel(sp), w.Column, w.Node, w.Pipeline, dropOnce(w.Pipeline, w.Node))
}

// writeError names the node and table of a failed write.
func (x *taskExec) writeError(sp *sinkPlan, err error) error {
	if errorsIsAny(err, ErrLegacyTable, ErrOwnership, ErrSink, ErrConflict) {
		return err
	}
	return fmt.Errorf("%w: node '%s' of pipeline '%s', table %s: %w", ErrSink, x.tp.node.Name, x.tp.pipeline.Name, tableLabel(sp), err)
}

func committedVersion(res *delta.CommitResult) *int64 {
	if res == nil || !res.Committed {
		return nil
	}
	v := res.Version
	return &v
}

// commitOperation records a Delta commit.
func (x *taskExec) commitOperation(sp *sinkPlan, res *delta.CommitResult, detail string, d time.Duration) {
	if res == nil || !res.Committed {
		return
	}
	op, ok := mergeRows(res)
	if !ok {
		op = history.Operation{RowsAdded: res.Metrics.AddedRows, RowsDeleted: res.Metrics.DeletedRows}
	}
	op.Table, op.Path, op.Version, op.Operation, op.Detail = tableLabel(sp), string(sp.sink.Table), committedVersion(res), res.Operation, detail
	op.FilesAdded, op.FilesRemoved, op.Duration = int64(res.Metrics.AddedFiles), int64(res.Metrics.RemovedFiles), d
	x.operation(op)
}

// resetDelta resets a Delta sink as planned: delete the writer's rows
// (RESET of a shared sink), truncate or drop the table, or reset the
// whole shared table once per run.
func (x *taskExec) resetDelta(ctx context.Context, sp *sinkPlan) error {
	label := tableLabel(sp)
	switch sp.reset {
	case resetDeleteOwn:
		var schema *delta.StructType
		ts, err := loadTable(ctx, string(sp.sink.Table))
		if err == nil && ts != nil {
			schema = ts.Schema()
		}
		pred := x.s.ownerPredicate(sp.writer, schema)
		if ts != nil && !x.run.Plan.Request.AllowOverlap {
			// Counted again on the table as it is now: rows may have
			// arrived since the plan.
			_, own := ownerPredicate(x.run.r.sql, sp.writer, schema)
			if ov := x.run.r.overlaps(ctx, ts, sp, own); len(ov) > 0 {
				return fmt.Errorf("%w: node '%s': deleting the rows of %s from %s would also delete %s matching writer %s (where %s): nothing was deleted; make the predicates disjoint, or acknowledge it (laktory run --delete-overlapping)",
					ErrOverlap, x.tp.node.Name, ownerLabel(sp.writer), label, rowsText(ov[0].Rows), ov[0].Writer, ov[0].Where)
			}
		}
		return x.commitReset(ctx, sp, "DELETE "+pred, x.rec.meta(sp), func(tx engine.Txn) error {
			return tx.Delete(ctx, pred)
		}, true)
	case resetTruncate:
		return x.commitReset(ctx, sp, "TRUNCATE", x.rec.meta(sp), truncate(ctx), false)
	case resetDrop:
		return x.dropTable(ctx, sp)
	case resetTableDrop, resetTableTrunc:
		return x.resetWholeTable(ctx, sp)
	}
	return fmt.Errorf("%w: %s: unknown reset", ErrSink, label)
}

// commitReset commits one reset operation with retries, marked with meta
// (commitInfo.userMetadata, the refresh's marker); a table that does not
// exist has nothing to reset.
func (x *taskExec) commitReset(ctx context.Context, sp *sinkPlan, detail, meta string, op func(engine.Txn) error, isDelete bool) error {
	path, label := string(sp.sink.Table), tableLabel(sp)
	err := x.withRetries(ctx, label, func(attempt int) error {
		start := time.Now()
		snap, err := loadTable(ctx, path)
		if err != nil || snap == nil {
			if isDelete && err == nil {
				x.deletion(sp, 0, nil)
			}
			return err
		}
		tx, err := x.s.e.Begin(ctx, path, snap, delta.TableDefinition{}, delta.WriteOptions{UserMetadata: meta})
		if err != nil {
			return err
		}
		if err := op(tx); err != nil {
			tx.Abort()
			return err
		}
		if h := x.run.r.cfg.beforeCommit; h != nil {
			h(x.t.Key, attempt)
		}
		res, err := tx.Commit(ctx)
		if err != nil {
			return err
		}
		x.commitOperation(sp, res, detail, time.Since(start))
		if isDelete {
			x.deletion(sp, res.Metrics.DeletedRows, committedVersion(res))
		}
		return nil
	})
	if err != nil {
		return x.writeError(sp, err)
	}
	return nil
}

// dropTable removes a Delta table's folder, which the run's guard must
// allow (strictly inside the workspace, the lake or a configured root).
func (x *taskExec) dropTable(ctx context.Context, sp *sinkPlan) error {
	path := string(sp.sink.Table)
	snap, _ := loadTable(ctx, path) // a table that cannot be read is dropped all the same
	var rows int64
	if snap != nil {
		rows, _ = snap.NumRecords()
	}
	start := time.Now()
	if err := delta.DropTable(ctx, path, x.run.guard); err != nil {
		if errors.Is(err, delta.ErrProtectedPath) || errors.Is(err, delta.ErrOutsideRoots) {
			err = fmt.Errorf("%w: %w", ErrSink, err)
		}
		return x.writeError(sp, err)
	}
	x.operation(history.Operation{Table: tableLabel(sp), Path: path, Operation: "DROP", Detail: "reset", RowsDeleted: rows, Duration: time.Since(start)})
	return nil
}

func truncate(ctx context.Context) func(engine.Txn) error {
	return func(tx engine.Txn) error { return tx.Truncate(ctx) }
}

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
	cps := existing(wr.checkpoints...)
	in := x.run.newIntent(ctx, x.t, sp, validate.RefreshReset)
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
		err = x.commitReset(ctx, sp, "TRUNCATE", in.marker(), truncate(ctx), false)
	}
	if err != nil {
		return err
	}
	delta.FailPoint(FailWholeReset)
	if err := x.removeCheckpoints(string(wr.table), cps); err != nil {
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

// dropOnce is the command that drops the table of a writer (its RESET with
// DROP) and the normal run of its pipeline after it.
func dropOnce(pipeline, node string) string {
	return human.RunCommand(pipeline, []string{node}, validate.RefreshReset, "DROP") + " && " + human.RunCommand(pipeline, nil, "", "")
}
