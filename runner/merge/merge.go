// Package merge is the change data capture of Laktory's MERGE sinks
// (merge_cdc_options, Laktory 0.13.1's DataSinkMergeCDCOptions): what one
// batch of changes does to the target table, as DuckDB SQL and Delta MERGE
// specifications that copy Laktory on Spark step for step.
//
// SCD type 1 is one MERGE: the batch is deduplicated per key (the latest
// order_by wins), then a matched key is updated when the change's order_by
// is strictly greater than the row's, deleted when delete_where holds
// (whatever the order), and an unmatched one is inserted unless it is a
// delete.
//
// SCD type 2 is a MERGE and an append: every change gets its validity
// (start = its order_by, end = the next change of the key in the batch)
// and the hash of its update columns; changes already in the table (same
// key and hash, anywhere in the history) are dropped; the MERGE closes the
// current version of each key whose latest change is new, at the key's
// smallest order_by in the batch; the append adds the new versions but the
// deletes.
//
// The package builds SQL only: the caller (the runner) reads the batch,
// scans the table and commits.
package merge

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
)

// Errors of a plan.
var (
	// ErrOptions: the options do not fit the batch (a key, order_by or
	// included column the batch lacks).
	ErrOptions = errors.New("merge_cdc_options do not fit the batch")
	// ErrUnhashable: an SCD type 2 update column has a type Spark's
	// concat_ws does not take.
	ErrUnhashable = errors.New("column cannot be hashed")
	// ErrTargetColumns: the table lacks a column the MERGE sets or reads.
	ErrTargetColumns = errors.New("the table lacks a column of the MERGE")
)

// Column is a column of a relation; Type is its DuckDB type.
type Column struct {
	Name, Type string
}

// Batch is one batch of changes.
type Batch struct {
	// Relation is the DuckDB relation (a view or table name) holding it.
	Relation string
	Columns  []Column
	// DeleteWhere is delete_where as a DuckDB SQL boolean over the
	// batch's columns ("" for none). For SCD type 1 it is the expression
	// as written: Laktory's text replacement must have kept it as written
	// (workspace.MergeCDC.DeleteWhereAsWritten).
	DeleteWhere string
	// Spark: the SQL is for the Spark engine, which runs Laktory's merge
	// natively (Spark SQL, Spark's types in Columns, delete_where as
	// written, the hash with Spark's own sha2 and concat_ws); otherwise it
	// is DuckDB SQL that computes what Spark does.
	Spark bool
}

// Plan is the merge of one batch.
type Plan struct {
	o      *workspace.MergeCDC
	b      Batch
	keys   []Column
	update []Column
	order  *Column
}

// Helper columns of the SQL.
const (
	deleteCol = "__laktory_delete"
	rankCol   = "__laktory_rank"
)

// New checks the options against the batch's columns and plans its
// merge.
func New(o *workspace.MergeCDC, b Batch) (*Plan, error) {
	p := &Plan{o: o, b: b}
	find := func(what, name string) (Column, error) {
		for _, c := range b.Columns {
			if strings.EqualFold(c.Name, name) {
				return c, nil
			}
		}
		return Column{}, fmt.Errorf("%w: %s %q is not a column of the batch (its columns: %s)", ErrOptions, what, name, strings.Join(p.names(b.Columns), ", "))
	}
	if len(o.PrimaryKeys) == 0 {
		return nil, fmt.Errorf("%w: primary_keys is empty", ErrOptions)
	}
	for _, k := range o.PrimaryKeys {
		c, err := find("primary key", k)
		if err != nil {
			return nil, err
		}
		p.keys = append(p.keys, c)
	}
	names := p.names(b.Columns)
	for _, u := range o.UpdateColumns(names) {
		c, err := find("included column", u)
		if err != nil {
			return nil, err
		}
		p.update = append(p.update, c)
	}
	if o.OrderBy != "" {
		c, err := find("order_by", o.OrderBy)
		if err != nil {
			return nil, err
		}
		p.order = &c
	}
	if o.SCDType == 2 && p.order == nil {
		return nil, fmt.Errorf("%w: SCD type 2 needs order_by", ErrOptions)
	}
	return p, nil
}

func (p *Plan) names(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// TargetColumns are the columns of the table to create before the first
// merge, as Laktory's _init_target does: the keys, the update columns,
// then for SCD type 2 __hash_cols (a string), start and end (typed like
// order_by).
func (p *Plan) TargetColumns() []Column {
	cols := append(slices.Clone(p.keys), p.update...)
	if p.o.SCDType == 2 {
		hash := "VARCHAR"
		if p.b.Spark {
			hash = "string"
		}
		cols = append(cols, Column{workspace.HashColumn, hash}, Column{p.o.StartAt, p.order.Type}, Column{p.o.EndAt, p.order.Type})
	}
	return cols
}

// keys are the MERGE's key equalities.
func (p *Plan) mergeKeys() []delta.MergeKey {
	out := make([]delta.MergeKey, len(p.keys))
	for i, k := range p.keys {
		out[i] = delta.MergeKey{Target: k.Name, Source: k.Name, NullSafe: p.o.NullEqualsNull}
	}
	return out
}

// checkTarget fails when the table lacks one of cols.
func checkTarget(target []string, cols ...string) error {
	for _, c := range cols {
		if !slices.ContainsFunc(target, func(t string) bool { return strings.EqualFold(t, c) }) {
			return fmt.Errorf("%w: the table has no column %q (its columns: %s). Laktory's MERGE sets every column of the batch and Delta's MERGE does not add columns (Spark fails the same way unless spark.databricks.delta.schema.autoMerge.enabled is set): add the column to the table, or drop it from the batch",
				ErrTargetColumns, c, strings.Join(target, ", "))
		}
	}
	return nil
}

func q(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// deleteFlag is the SELECT item telling a change that is a delete.
func (p *Plan) deleteFlag() string {
	if p.b.DeleteWhere == "" {
		return "false AS " + deleteCol
	}
	return "coalesce((" + p.b.DeleteWhere + "\n), false) AS " + deleteCol
}

// SCD1 is the MERGE of the batch into a table with the given columns.
func (p *Plan) SCD1(target []string) (delta.MergeSpec, error) {
	set := make([]delta.MergeAssignment, 0, len(p.update))
	need := p.names(p.keys)
	for _, c := range p.update {
		e := "source." + q(c.Name)
		if p.o.IgnoreNullUpdates {
			e = "coalesce(source." + q(c.Name) + ", target." + q(c.Name) + ")"
		}
		set = append(set, delta.MergeAssignment{Column: c.Name, Expr: e})
		need = append(need, c.Name)
	}
	if p.order != nil {
		need = append(need, p.order.Name)
	}
	if err := checkTarget(target, need...); err != nil {
		return delta.MergeSpec{}, err
	}
	// The latest change per key (without order_by: the first one read;
	// Spark's dropDuplicates keeps any one).
	order := "1"
	if p.order != nil {
		order = q(p.order.Name) + " DESC NULLS LAST"
	}
	kept := "* EXCLUDE (" + rankCol + ")"
	if p.b.Spark {
		kept = strings.Join(append(quoteAll(p.names(p.b.Columns)), deleteCol), ", ")
	}
	source := "SELECT " + kept + " FROM (SELECT *, " + p.deleteFlag() + ", row_number() OVER (PARTITION BY " +
		strings.Join(quoteAll(p.names(p.keys)), ", ") + " ORDER BY " + order + ") AS " + rankCol + " FROM " + q(p.b.Relation) + ") AS __b WHERE " + rankCol + " = 1"
	notDelete := "NOT source." + deleteCol
	update := delta.MergeClause{Action: delta.MergeUpdate, Set: set}
	var conds []string
	if p.b.DeleteWhere != "" {
		conds = append(conds, notDelete)
	}
	if p.order != nil {
		conds = append(conds, "source."+q(p.order.Name)+" > target."+q(p.order.Name))
	}
	update.Condition = strings.Join(conds, " AND ")
	spec := delta.MergeSpec{Source: source, Keys: p.mergeKeys(), Matched: []delta.MergeClause{update}}
	insert := delta.MergeClause{Action: delta.MergeInsert}
	for _, c := range append(slices.Clone(p.keys), p.update...) {
		insert.Set = append(insert.Set, delta.MergeAssignment{Column: c.Name, Expr: "source." + q(c.Name)})
	}
	if p.b.DeleteWhere != "" {
		insert.Condition = notDelete
		spec.Matched = append(spec.Matched, delta.MergeClause{Action: delta.MergeDelete, Condition: "source." + deleteCol})
	}
	spec.NotMatched = []delta.MergeClause{insert}
	return spec, nil
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = q(n)
	}
	return out
}

// firstCol is the column holding a key's smallest order_by in the batch
// (Laktory's index_fist: "<order_by>_first").
func (p *Plan) firstCol() string { return p.order.Name + "_first" }

// hash is the SQL of __hash_cols: sha2(concat_ws('~', update columns as
// Spark strings), 256).
func (p *Plan) hash() (string, error) {
	if p.b.Spark {
		// Laktory's own: F.sha2(F.concat_ws("~", *update columns), 256).
		return "sha2(concat_ws('~'" + strings.Join(append([]string{""}, quoteAll(p.names(p.update))...), ", ") + "), 256)", nil
	}
	parts := make([]string, 0, len(p.update))
	for _, c := range p.update {
		s, err := sparkString(q(c.Name), c.Type)
		if err != nil {
			return "", fmt.Errorf("column %q: %w", c.Name, err)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "sha256('')", nil
	}
	return "sha256(concat_ws('~', " + strings.Join(parts, ", ") + "))", nil
}

// SCD2KeyColumns are the columns of the table the changes are checked
// against: the keys and __hash_cols.
func (p *Plan) SCD2KeyColumns() []string { return append(p.names(p.keys), workspace.HashColumn) }

// SCD2Changes is the SQL of the batch's new changes (Laktory's
// upsert_or_delete) given targetKeys, a relation of the table's rows
// (SCD2KeyColumns of at least every row whose keys are in the batch): the
// batch's columns, start, end (the next change of the key in the batch),
// <order_by>_first, __hash_cols and the delete flag, without the changes
// whose keys and hash the table already has.
func (p *Plan) SCD2Changes(targetKeys string, target []string) (string, error) {
	if err := checkTarget(target, append(p.SCD2KeyColumns(), p.o.StartAt, p.o.EndAt)...); err != nil {
		return "", err
	}
	hash, err := p.hash()
	if err != nil {
		return "", err
	}
	ob, keys := q(p.order.Name), strings.Join(quoteAll(p.names(p.keys)), ", ")
	added := []string{p.o.StartAt, p.o.EndAt, workspace.HashColumn, p.firstCol(), deleteCol}
	var keep []string
	for _, c := range p.b.Columns {
		if !slices.ContainsFunc(added, func(a string) bool { return strings.EqualFold(a, c.Name) }) {
			keep = append(keep, q(c.Name))
		}
	}
	// The hash reads the batch's columns as they are (withColumn replaces
	// start and end first: a batch column of those names is replaced).
	changes := "SELECT " + strings.Join(keep, ", ") + ", " + ob + " AS " + q(p.o.StartAt) +
		", lag(" + ob + ") OVER (PARTITION BY " + keys + " ORDER BY " + ob + " DESC NULLS LAST) AS " + q(p.o.EndAt) +
		", " + hash + " AS " + q(workspace.HashColumn) +
		", min(" + ob + ") OVER (PARTITION BY " + keys + ") AS " + q(p.firstCol()) +
		", " + p.deleteFlag() + " FROM " + q(p.b.Relation)
	eq := " = "
	if p.o.NullEqualsNull {
		eq = " IS NOT DISTINCT FROM "
	}
	var on []string
	for _, c := range p.SCD2KeyColumns() {
		on = append(on, "c."+q(c)+eq+"t."+q(c))
	}
	// The table's rows are never deletes: a delete is always new.
	on = append(on, "NOT c."+deleteCol)
	anti := " ANTI JOIN "
	if p.b.Spark {
		anti = " LEFT ANTI JOIN "
	}
	return "SELECT c.* FROM (" + changes + ") AS c" + anti + "(SELECT " + strings.Join(quoteAll(p.SCD2KeyColumns()), ", ") + " FROM " + targetKeys +
		") AS t ON " + strings.Join(on, " AND "), nil
}

// SCD2Merge is the MERGE closing the current versions of the keys whose
// latest change (in changes, a relation of SCD2Changes) is new, at the
// key's smallest order_by in the batch.
func (p *Plan) SCD2Merge(changes string) delta.MergeSpec {
	return delta.MergeSpec{
		Source:          "SELECT * FROM " + q(changes) + " WHERE " + q(p.o.EndAt) + " IS NULL",
		Keys:            p.mergeKeys(),
		TargetCondition: "target." + q(p.o.EndAt) + " IS NULL",
		Matched: []delta.MergeClause{{Action: delta.MergeUpdate,
			Set: []delta.MergeAssignment{{Column: p.o.EndAt, Expr: "source." + q(p.firstCol())}}}},
	}
}

// SCD2Append is the SQL of the versions to append: the new changes but
// the deletes, with the keys, the update columns, start, end and
// __hash_cols.
func (p *Plan) SCD2Append(changes string) string {
	cols := append(p.names(p.keys), p.names(p.update)...)
	cols = append(cols, p.o.StartAt, p.o.EndAt, workspace.HashColumn)
	return "SELECT " + strings.Join(quoteAll(cols), ", ") + " FROM " + q(changes) + " WHERE NOT " + deleteCol
}
