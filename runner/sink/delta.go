package sink

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/schemaflow"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// ResetKind is how a sink is reset before (or instead of) writing it.
type ResetKind int

// Resets of a sink.
const (
	ResetNone      ResetKind = iota
	ResetDeleteOwn           // delete the writer's rows (a shared sink)
	ResetTruncate            // truncate the table
	ResetDrop                // drop the table (or the file sink's files)
	ResetWhole               // the whole shared table, once per run (DeltaReset.Whole)
)

// DeltaReset is how a Delta sink resets, as the runner planned it.
type DeltaReset struct {
	Kind ResetKind
	// Predicate is the predicate of the writer's rows on the table as it
	// is now (ResetDeleteOwn); it fails when deleting them would delete
	// another writer's rows.
	Predicate func(ctx context.Context) (string, error)
	// Meta marks the reset's commit (commitInfo.userMetadata: the
	// refresh's intent), "" for none.
	Meta string
	// Deleted records the rows a reset deleted for the writer.
	Deleted func(rows int64, version *int64)
	// Whole resets the whole table (ResetWhole): the runner does it once
	// per run, with Truncate or Drop.
	Whole func(ctx context.Context) error
}

// Delta is a Delta sink of a task: appends and overwrites of its table,
// and the resets of its refreshes.
type Delta struct {
	Task Task
	Sink *workspace.Sink
	// Writer is the writer's ownership of its rows in a shared table (nil
	// when the sink is not shared).
	Writer *workspace.Writer
	// Path is the table's folder as the task's path check resolved it
	// (links resolved then): every operation of the sink (scan, write,
	// delete, truncate, merge, drop) uses it, never the declared path, so a
	// link flipped since cannot lead one of them elsewhere. Label names the
	// table in messages.
	Path, Label string
	// DropHint is the command that drops the table once and runs its
	// writers again ("": DropOnce of the writer).
	DropHint string
	// Definition is how the sink creates its table.
	Definition func() (delta.TableDefinition, error)
	// Where is the writer's `where` predicate as the session's engine
	// reads it over the batch's columns (a writer owning rows by `where`).
	Where func(cols []engine.Column) string
	// Pending reports a reset of the writer's rows that a FULL refresh
	// defers to its first commit of new data; CommitPending commits it
	// (the new data staged, before its commit).
	Pending       func() bool
	CommitPending func(ctx context.Context) error
	Resets        DeltaReset
}

// WriteOptions are the write options of a sink: new columns are merged
// into the table (writers adding different columns), and OVERWRITE may
// replace the schema.
func WriteOptions(sk *workspace.Sink) delta.WriteOptions {
	return delta.WriteOptions{MergeSchema: true, OverwriteSchema: Mode(sk) == workspace.ModeOverwrite}
}

// Query is the SELECT a Delta sink writes from rel (whose columns are
// cols): for a writer-column shared sink, the writer id comes first
// (replacing a column of that name); a POLARS sink's columns are cast to
// the types Polars writes. It is SQL both engines read.
func Query(w *workspace.Writer, backend, rel string, cols []engine.Column) string {
	owner := w != nil && w.Ownership == workspace.OwnerColumn
	var out []string
	if owner {
		out = append(out, fmt.Sprintf("CAST(%s AS STRING) AS %s", quoteString(w.WriterID), quoteIdent(w.Column)))
	}
	cast := false
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
func (d *Delta) checkWhere(ctx context.Context, rel string) error {
	w, s := d.Writer, d.Task.Session()
	var bad int64
	cs, err := d.Task.Columns(ctx, quoteIdent(rel))
	if err != nil {
		return fmt.Errorf("%w: node '%s' of pipeline '%s': check the rows against `shared.where: %s`: %w", ErrOwnership, w.Node, w.Pipeline, w.Where, err)
	}
	pred := d.Where(cs)
	if err := s.QueryRow(ctx, WhereViolationsSQL(pred, rel), &bad); err != nil {
		return fmt.Errorf("%w: node '%s' of pipeline '%s': check the rows against `shared.where: %s`: %w", ErrOwnership, w.Node, w.Pipeline, w.Where, err)
	}
	if bad == 0 {
		return nil
	}
	example := exampleRow(ctx, s, fmt.Sprintf("SELECT * FROM %s WHERE %s IS NOT TRUE LIMIT 1", quoteIdent(rel), pred))
	return fmt.Errorf("%w: node '%s' of pipeline '%s' produced %d rows that do not match its `shared.where: %s` (e.g. %s); a FULL refresh of the writer would never delete them, so nothing was written to %s. Fix the transformer (or the predicate) so every row the writer writes matches it",
		ErrOwnership, w.Node, w.Pipeline, bad, w.Where, example, d.Label)
}

// WhereViolationsSQL counts the rows of rel outside a `where` predicate
// (an expression in brackets).
func WhereViolationsSQL(pred, rel string) string {
	return fmt.Sprintf("SELECT count(*) FILTER (WHERE %s IS NOT TRUE) FROM %s", pred, quoteIdent(rel))
}

// exampleRow renders the first row of a query as {col: value, ...}, read
// through the engine (Session.Rows: the same text on both engines).
func exampleRow(ctx context.Context, s engine.Session, q string) string {
	rows, err := s.Rows(ctx, q)
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

// Write implements Sink: it writes the batch to the table, creating it
// when needed, appending or overwriting (a FULL refresh of a shared sink
// deleted the writer's rows in a commit of its own before, as Laktory
// does, so streaming readers see a delete, then an append). A micro-batch
// of a flow commits with txn(appId = the flow id, version = the batch id)
// and is skipped when the table already has it. Conflicts are retried on
// a fresh snapshot.
func (d *Delta) Write(ctx context.Context, b Batch) (int64, error) {
	sk, t := d.Sink, d.Task
	path, label, mode := d.Path, d.Label, Mode(sk)
	if d.Writer != nil && d.Writer.Ownership == workspace.OwnerWhere {
		if err := d.checkWhere(ctx, b.Rel); err != nil {
			return 0, err
		}
	}
	var cols []engine.Column
	if d.Writer != nil && d.Writer.Ownership == workspace.OwnerColumn || sk.Backend == "POLARS" {
		var err error
		if cols, err = t.Columns(ctx, quoteIdent(b.Rel)); err != nil {
			return 0, WriteError(t, label, err)
		}
	}
	query := Query(d.Writer, sk.Backend, b.Rel, cols)
	def, err := d.Definition()
	if err != nil {
		return 0, err
	}
	opts := WriteOptions(sk)
	opts.Progress, opts.ProgressInterval = t.WriteProgress(path)
	// Appends to a table that does not exist yet write their files side
	// by side where the engine joins a concurrent create: the first
	// commit creates the table, the others append to it.
	if j, ok := t.Session().(engine.CreateJoiner); ok && j.JoinsCreates() && mode == workspace.ModeAppend && b.AppID == "" && (d.Pending == nil || !d.Pending()) {
		opts.JoinCreate = true
	}
	var written int64
	err = t.Retry(ctx, label, func(attempt int) error {
		start := time.Now()
		snap, err := loadTable(ctx, path)
		if err != nil {
			return err
		}
		if snap == nil && !opts.JoinCreate {
			// One writer of the run creates the table; the others wait
			// for it, then append: writers of a new table do not race to
			// create it (and retry).
			defer t.LockCreate(sk.Table)()
			if snap, err = loadTable(ctx, path); err != nil {
				return err
			}
		}
		if snap == nil {
			// The transaction makes the table's folder, and removes it again
			// when the create fails or loses the race.
			t.Created(sk.Table)
		} else {
			if err := d.checkLegacy(snap); err != nil {
				return err
			}
			switch mode {
			case ModeError:
				_, node := t.Names()
				return fmt.Errorf("%w: node '%s': table %s already exists and the sink's mode is %s (use APPEND or OVERWRITE)", ErrSink, node, label, sk.Mode)
			case ModeIgnore:
				t.Note("write", fmt.Sprintf("table %s exists and the sink's mode is IGNORE: not written", label))
				return nil
			}
		}
		tx, err := t.Session().Begin(ctx, path, snap, def, opts)
		if err != nil {
			return err
		}
		if b.AppID != "" {
			done, err := tx.SetAppTransaction(b.AppID, b.Version)
			if err != nil {
				tx.Abort()
				return err
			}
			if done {
				tx.Abort()
				t.Note("write", fmt.Sprintf("batch %d of %s is already in %s: skipped", b.Version, b.AppID, label))
				return nil
			}
		}
		if (mode == workspace.ModeOverwrite || mode == ModeComplete) && snap != nil {
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
		if d.Pending != nil && d.Pending() {
			if err := d.CommitPending(ctx); err != nil {
				tx.Abort()
				return err
			}
		}
		t.Progress("commit", tx.AddedRows())
		t.BeforeCommit(attempt)
		res, err := tx.Commit(ctx)
		if err != nil {
			return err
		}
		written = res.Metrics.AddedRows
		detail := mode
		if b.AppID != "" {
			detail += fmt.Sprintf(", batch %d of flow %s", b.Version, b.Flow)
		}
		CommitOperation(t, label, path, res, detail, time.Since(start))
		return nil
	})
	if err != nil {
		// A create that failed left nothing: the transaction removes the
		// folders it made.
		return 0, WriteError(t, label, err)
	}
	return written, nil
}

// checkLegacy fails the write of a writer-column shared sink to a table
// that has no writer column.
func (d *Delta) checkLegacy(snap *delta.Snapshot) error {
	w := d.Writer
	if w == nil || w.Ownership != workspace.OwnerColumn || snap.Schema().Field(w.Column) != nil {
		return nil
	}
	return fmt.Errorf("%w: table %s has no `%s` column: it was written before it was shared (or by writers owning rows with `where`), so node '%s' of pipeline '%s' cannot write its rows with their writer id. Drop it once, then run normally (%s)",
		ErrLegacyTable, d.Label, w.Column, w.Node, w.Pipeline, cmpOr(d.DropHint, DropOnce(w.Pipeline, w.Node)))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// DropOnce is the command that drops the table of a writer (its RESET with
// DROP) and the normal run of its pipeline after it.
func DropOnce(pipeline, node string) string {
	return human.RunCommand(pipeline, []string{node}, validate.RefreshReset, "DROP") + " && " + human.RunCommand(pipeline, nil, "", "")
}

// Reset implements Sink: the writer's rows deleted, the table truncated
// or dropped, or the whole shared table reset (by the runner, once per
// run), as planned.
func (d *Delta) Reset(ctx context.Context) error {
	r := d.Resets
	switch r.Kind {
	case ResetNone:
		return nil
	case ResetDeleteOwn:
		pred, err := r.Predicate(ctx)
		if err != nil {
			return err
		}
		return d.commitReset(ctx, "DELETE "+pred, r.Meta, func(tx engine.Txn) error {
			return tx.Delete(ctx, pred)
		}, true)
	case ResetTruncate:
		return d.Truncate(ctx, r.Meta)
	case ResetDrop:
		return d.Drop(ctx)
	case ResetWhole:
		return r.Whole(ctx)
	}
	return fmt.Errorf("%w: %s: unknown reset", ErrSink, d.Label)
}

// Truncate truncates the table in a commit marked meta.
func (d *Delta) Truncate(ctx context.Context, meta string) error {
	return d.commitReset(ctx, "TRUNCATE", meta, func(tx engine.Txn) error { return tx.Truncate(ctx) }, false)
}

// commitReset commits one reset operation with retries, marked with meta
// (commitInfo.userMetadata, the refresh's marker); a table that does not
// exist has nothing to reset.
func (d *Delta) commitReset(ctx context.Context, detail, meta string, op func(engine.Txn) error, isDelete bool) error {
	t := d.Task
	path, label := d.Path, d.Label
	err := t.Retry(ctx, label, func(attempt int) error {
		start := time.Now()
		snap, err := loadTable(ctx, path)
		if err != nil || snap == nil {
			if isDelete && err == nil {
				d.Resets.Deleted(0, nil)
			}
			return err
		}
		tx, err := t.Session().Begin(ctx, path, snap, delta.TableDefinition{}, delta.WriteOptions{UserMetadata: meta})
		if err != nil {
			return err
		}
		if err := op(tx); err != nil {
			tx.Abort()
			return err
		}
		t.BeforeCommit(attempt)
		res, err := tx.Commit(ctx)
		if err != nil {
			return err
		}
		CommitOperation(t, label, path, res, detail, time.Since(start))
		if isDelete {
			d.Resets.Deleted(res.Metrics.DeletedRows, committedVersion(res))
		}
		return nil
	})
	if err != nil {
		return WriteError(t, label, err)
	}
	return nil
}

// Drop removes the table's folder (Path, as the task's check resolved
// it), which the run's guard must still allow (strictly inside the
// workspace, the lake or a configured root).
func (d *Delta) Drop(ctx context.Context) error {
	t := d.Task
	path := d.Path
	snap, _ := loadTable(ctx, path) // a table that cannot be read is dropped all the same
	var rows int64
	if snap != nil {
		rows, _ = snap.NumRecords()
	}
	start := time.Now()
	if err := delta.DropTable(ctx, path, t.Guard()); err != nil {
		if errors.Is(err, delta.ErrProtectedPath) || errors.Is(err, delta.ErrOutsideRoots) {
			err = fmt.Errorf("%w: %w", ErrSink, err)
		}
		return WriteError(t, d.Label, err)
	}
	t.Operation(history.Operation{Table: d.Label, Path: path, Operation: "DROP", Detail: "reset", RowsDeleted: rows, Duration: time.Since(start)})
	return nil
}
