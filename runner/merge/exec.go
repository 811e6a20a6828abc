package merge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
)

// Steps of a merge, for BeforeCommit.
const (
	StepCreate = "create" // the empty table, before the first merge
	StepMerge  = "merge"  // the MERGE commit
	StepAppend = "append" // SCD type 2: the append of the new versions
)

// Exec merges batches into one Delta table through an engine's session
// (one attempt per call: the caller retries conflicts, which
// delta.IsRetryable tells).
type Exec struct {
	// Session is the engine session holding the batch's relation.
	Session engine.Session
	Path    string
	// WriteOptions of the commits (MergeSchema is ignored: a MERGE adds
	// no column; a micro-batch's commits are foreachBatch writes).
	WriteOptions delta.WriteOptions
	// BeforeCommit and AfterCommit, when set, run before and after each
	// commit with its step.
	BeforeCommit, AfterCommit func(step string)
}

// Txn marks the micro-batch of a streaming flow: its commits record
// txn(AppID, Version), and a batch the table already has is skipped. The
// zero Txn is a batch run.
type Txn struct {
	AppID   string
	Version int64
}

// Result is what one merge committed.
type Result struct {
	// Commits are the commits made, in order (for SCD type 2, the MERGE
	// when it closed versions, then the append).
	Commits []*delta.CommitResult
	// Skipped: the table already has the micro-batch.
	Skipped bool
	// Rows inserted, updated and deleted (SCD type 2: the versions
	// appended and the versions closed).
	Inserted, Updated, Deleted int64
}

func (e *Exec) beforeCommit(step string) {
	if e.BeforeCommit != nil {
		e.BeforeCommit(step)
	}
}

// Create creates the empty target table in a commit of its own when the
// path holds no table, as Laktory does before its first merge: the plan's
// TargetColumns, with def's description and properties (Laktory's target
// is never partitioned). It returns nil when the table exists.
func (e *Exec) Create(ctx context.Context, p *Plan, def delta.TableDefinition) (*delta.CommitResult, error) {
	if _, err := delta.LoadSnapshot(ctx, e.Path); err == nil {
		return nil, nil
	} else if !errors.Is(err, delta.ErrNotDeltaTable) {
		return nil, err
	}
	st := &delta.StructType{}
	for _, c := range p.TargetColumns() {
		parse := delta.ParseDuckDBType
		if p.b.Spark {
			parse = sparkType
		}
		dt, err := parse(c.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s of type %s: %w", c.Name, c.Type, err)
		}
		st.Fields = append(st.Fields, &delta.StructField{Name: c.Name, Type: dt, Nullable: true})
	}
	def.Schema, def.PartitionColumns = st, nil
	tx, err := e.Session.Begin(ctx, e.Path, nil, def, e.WriteOptions)
	if err != nil {
		return nil, err
	}
	e.beforeCommit(StepCreate)
	return tx.Commit(ctx)
}

// Merge merges the planned batch into the table (which must exist).
func (e *Exec) Merge(ctx context.Context, p *Plan, txn Txn) (Result, error) {
	snap, err := delta.LoadSnapshot(ctx, e.Path)
	if err != nil {
		return Result{}, err
	}
	if txn.AppID != "" {
		if v, ok := snap.AppTransactionVersion(txn.AppID); ok && v >= txn.Version {
			return Result{Skipped: true}, nil
		}
	}
	if p.o.SCDType == 2 {
		return e.scd2(ctx, p, snap, txn)
	}
	return e.scd1(ctx, p, snap, txn)
}

func (e *Exec) begin(ctx context.Context, snap *delta.Snapshot, txn Txn) (engine.Txn, error) {
	opts := e.WriteOptions
	opts.MergeSchema, opts.ForEachBatch = false, true
	tx, err := e.Session.Begin(ctx, e.Path, snap, delta.TableDefinition{}, opts)
	if err != nil {
		return nil, err
	}
	if txn.AppID != "" {
		if _, err := tx.SetAppTransaction(txn.AppID, txn.Version); err != nil {
			tx.Abort()
			return nil, err
		}
	}
	return tx, nil
}

// commit commits tx; the rows a MERGE changed are the commit's when the
// engine reports them there (m: those Txn.Merge returned).
func (e *Exec) commit(ctx context.Context, tx engine.Txn, step string, res *Result, m *delta.MergeMetrics) error {
	e.beforeCommit(step)
	c, err := tx.Commit(ctx)
	if err != nil {
		return err
	}
	if m != nil && c.Merge != nil {
		*m = *c.Merge
	}
	if c.Committed {
		res.Commits = append(res.Commits, c)
	}
	if e.AfterCommit != nil {
		e.AfterCommit(step)
	}
	return nil
}

func (e *Exec) scd1(ctx context.Context, p *Plan, snap *delta.Snapshot, txn Txn) (Result, error) {
	var res Result
	spec, err := p.SCD1(snap.Schema().FieldNames())
	if err != nil {
		return res, err
	}
	tx, err := e.begin(ctx, snap, txn)
	if err != nil {
		return res, err
	}
	m, err := tx.Merge(ctx, spec)
	if err != nil {
		tx.Abort()
		return res, err
	}
	err = e.commit(ctx, tx, StepMerge, &res, &m)
	res.Inserted, res.Updated, res.Deleted = m.Inserted, m.Updated, m.Deleted
	return res, err
}

// scd2 closes the current versions (a MERGE), then appends the new ones,
// in two commits as Laktory does. The micro-batch's txn goes to the last
// commit that has something: the append, or the MERGE when nothing is
// appended (a replay after a crash between the two redoes the MERGE, which
// then finds nothing to close, and the append).
func (e *Exec) scd2(ctx context.Context, p *Plan, snap *delta.Snapshot, txn Txn) (Result, error) {
	var res Result
	tx, err := e.begin(ctx, snap, Txn{})
	if err != nil {
		return res, err
	}
	keys, err := tx.KeyScan(ctx, p.b.Relation, p.mergeKeys(), p.SCD2KeyColumns())
	if err != nil {
		tx.Abort()
		return res, err
	}
	changesSQL, err := p.SCD2Changes("("+keys+")", snap.Schema().FieldNames())
	if err != nil {
		tx.Abort()
		return res, err
	}
	changes := "__laktory_changes_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:12]
	if err := e.Session.CreateTable(ctx, changes, changesSQL); err != nil {
		tx.Abort()
		return res, fmt.Errorf("merge into table %s: the batch's new changes: %w", e.Path, err)
	}
	defer e.Session.Exec(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+q(changes)) //nolint:errcheck // best effort: the session drops it at its end
	var appended int64
	if err := e.Session.QueryRow(ctx, "SELECT count(*) FROM ("+p.SCD2Append(changes)+")", &appended); err != nil {
		tx.Abort()
		return res, err
	}
	if appended == 0 && txn.AppID != "" {
		if _, err := tx.SetAppTransaction(txn.AppID, txn.Version); err != nil {
			tx.Abort()
			return res, err
		}
	}
	m, err := tx.Merge(ctx, p.SCD2Merge(changes))
	if err != nil {
		tx.Abort()
		return res, err
	}
	err = e.commit(ctx, tx, StepMerge, &res, &m)
	res.Updated = m.Updated
	if err != nil {
		return res, err
	}
	if appended == 0 {
		return res, nil
	}
	snap, err = delta.LoadSnapshot(ctx, e.Path)
	if err != nil {
		return res, err
	}
	tx, err = e.begin(ctx, snap, txn)
	if err != nil {
		return res, err
	}
	if err := tx.Append(ctx, p.SCD2Append(changes)); err != nil {
		tx.Abort()
		return res, err
	}
	res.Inserted = appended
	return res, e.commit(ctx, tx, StepAppend, &res, nil)
}
