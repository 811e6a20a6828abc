package delta

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/google/uuid"
)

// This file is MERGE INTO: the rows of a source query are matched to the
// table's rows on key columns, and clauses update or delete the matched
// rows and insert the unmatched source rows, in one commit.
//
// Only the files that can hold a source key are read (their partition
// values and min/max stats are joined with the source's keys), and only
// the columns the match needs; only the files holding a row a clause
// changes are rewritten, each on its own: a new file holds the rows of
// one old file, so its min/max stats are as tight (the rows' order within
// the file may change: sorting them again would cost a third more). Spark's
// MERGE also rewrites files whose matched rows no clause changes; the rows
// are the same.

// MergeAction is what a MERGE clause does.
type MergeAction string

// MERGE clause actions.
const (
	MergeUpdate MergeAction = "update"
	MergeDelete MergeAction = "delete"
	MergeInsert MergeAction = "insert"
)

// MergeKey is one equality of the MERGE condition: target.Target =
// source.Source, or <=> (NULL equals NULL) when NullSafe.
type MergeKey struct {
	Target, Source string
	NullSafe       bool
}

// MergeAssignment sets a target column to a DuckDB SQL expression over
// source.<column> and (for updates) target.<column>.
type MergeAssignment struct {
	Column string
	Expr   string
}

// MergeClause is a WHEN [NOT] MATCHED clause.
type MergeClause struct {
	Action MergeAction
	// Condition is a DuckDB SQL boolean over source.<column> and, for
	// matched clauses, target.<column>; "" applies the clause to every
	// row that reaches it.
	Condition string
	// Set: for an update, the columns it changes (the others keep their
	// values); for an insert, the values of the new row (the other columns
	// are NULL).
	Set []MergeAssignment
}

// MergeSpec is a MERGE INTO.
type MergeSpec struct {
	// Source is a DuckDB SELECT (it may read the connection's temporary
	// objects); its columns are source.<name> in conditions and
	// expressions.
	Source string
	// Keys are the equalities of the ON condition (at least one).
	Keys []MergeKey
	// TargetCondition is a further conjunct of the ON condition over
	// target.<column> only ("" for none), e.g. "target.x IS NULL".
	TargetCondition string
	// Matched are the WHEN MATCHED clauses (MergeUpdate or MergeDelete):
	// the first whose condition is TRUE applies. NotMatched are the WHEN
	// NOT MATCHED clauses (MergeInsert), likewise.
	Matched    []MergeClause
	NotMatched []MergeClause
}

// MergeMetrics describe what one Merge did (Spark's MERGE metrics).
type MergeMetrics struct {
	SourceRows int64 `json:"numSourceRows"`
	Inserted   int64 `json:"numTargetRowsInserted"`
	Updated    int64 `json:"numTargetRowsUpdated"`
	Deleted    int64 `json:"numTargetRowsDeleted"`
	// Copied are unchanged rows of rewritten files.
	Copied       int64 `json:"numTargetRowsCopied"`
	FilesAdded   int   `json:"numTargetFilesAdded"`
	FilesRemoved int   `json:"numTargetFilesRemoved"`
	BytesAdded   int64 `json:"numTargetBytesAdded"`
	BytesRemoved int64 `json:"numTargetBytesRemoved"`
	// DeletionVectors are the files that got a (new) deletion vector
	// marking their updated and deleted rows, instead of being rewritten
	// (tables with delta.enableDeletionVectors=true).
	DeletionVectors int `json:"numTargetDeletionVectorsAdded"`
	// FilesScanned are the files read to find the matches: those whose
	// partition values or stats can hold a source key.
	FilesScanned int `json:"filesScanned"`
	// Matched reports whether any source row matched a target row.
	Matched         bool          `json:"matched"`
	MaterializeTime time.Duration `json:"materializeSourceTime"`
	ScanTime        time.Duration `json:"scanTime"`
	RewriteTime     time.Duration `json:"rewriteTime"`
}

// ErrMergeMultipleMatches is Delta's
// DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE: several source
// rows match one target row and a clause would change it.
var ErrMergeMultipleMatches = errors.New("DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE: multiple source rows matched the same target row")

// Names of the merge's helper columns.
const (
	mergeSIDCol    = "__laktory_sid"
	mergeFileCol   = "__laktory_mfile"
	mergeRowCol    = "__laktory_mrow"
	mergeClauseCol = "__laktory_clause"
)

// mergeInfo is what the commitInfo of a MERGE tells.
type mergeInfo struct {
	predicate  string
	matched    []MergeClause
	notMatched []MergeClause
	m          MergeMetrics
	// touched: Spark would write a commit (a source row matched a target
	// row, or rows were inserted) even when no file changes.
	touched bool
}

// Merge stages a MERGE INTO of spec into the table (see MergeSpec). It
// materializes the source in a temporary table of conn (dropped before
// Merge returns), finds the files that can hold a source key, joins their
// key columns with the source, fails with ErrMergeMultipleMatches as Delta
// does when several source rows match one target row (unless the only
// matched clause is an unconditional delete), rewrites the files holding
// updated or deleted rows and writes the inserted rows to new files.
// Written values are cast to the columns' types and checked against the
// table's constraints (ErrConstraintViolation). A column the spec names
// that the table lacks fails with ErrSchemaMismatch.
//
// The files read become read files of the transaction, and the source
// keys' ranges a read predicate: a concurrent commit removing a read file
// fails Commit with ErrConcurrentDeleteRead, one adding a file that may
// hold a source key with ErrConcurrentAppend. When a source row matched a
// target row or rows were inserted, the transaction commits even if no
// file changed, as Spark's MERGE does.
func (tx *Transaction) Merge(ctx context.Context, conn *sql.Conn, spec MergeSpec) (MergeMetrics, error) {
	var m MergeMetrics
	if err := tx.usable(); err != nil {
		return m, err
	}
	if tx.skipped {
		return m, nil
	}
	if tx.merge != nil {
		return m, fmt.Errorf("merge into table %s: a transaction holds one MERGE", tx.root)
	}
	if err := tx.checkMergeSpec(spec); err != nil {
		return m, err
	}
	if len(spec.Matched) > 0 {
		if err := tx.checkRemovable("merge into"); err != nil {
			return m, err
		}
	}
	tx.q = conn
	mg := &merger{tx: tx, conn: conn, spec: spec, s: tx.view, id: strings.ReplaceAll(uuid.NewString()[:8], "-", "")}
	defer mg.dropTemps()
	if err := mg.run(ctx, &m); err != nil {
		return MergeMetrics{}, err
	}
	return m, nil
}

// checkMergeSpec checks the spec's columns against the table.
func (tx *Transaction) checkMergeSpec(spec MergeSpec) error {
	s := tx.view
	if len(spec.Keys) == 0 {
		return fmt.Errorf("%w: merge into table %s: the MERGE condition needs at least one key", ErrInvalidPredicate, tx.root)
	}
	has := func(what, col string) error {
		if s.schema.Field(col) == nil {
			return fmt.Errorf("%w: merge into table %s: %s %q is not a column of the table (columns: %s)",
				ErrSchemaMismatch, tx.root, what, col, strings.Join(s.schema.FieldNames(), ", "))
		}
		return nil
	}
	for _, k := range spec.Keys {
		if err := has("key", k.Target); err != nil {
			return err
		}
	}
	for _, c := range append(slices.Clone(spec.Matched), spec.NotMatched...) {
		for _, a := range c.Set {
			if err := has("the "+string(c.Action)+" clause sets", a.Column); err != nil {
				return err
			}
		}
	}
	for _, c := range spec.Matched {
		if c.Action != MergeUpdate && c.Action != MergeDelete {
			return fmt.Errorf("merge into table %s: a WHEN MATCHED clause updates or deletes, not %s", tx.root, c.Action)
		}
	}
	for _, c := range spec.NotMatched {
		if c.Action != MergeInsert {
			return fmt.Errorf("merge into table %s: a WHEN NOT MATCHED clause inserts, not %s", tx.root, c.Action)
		}
	}
	return nil
}

// merger runs one Merge.
type merger struct {
	tx    *Transaction
	conn  *sql.Conn
	spec  MergeSpec
	s     *Snapshot
	id    string
	temps []string
}

func (mg *merger) temp(name string) string { return "__laktory_merge_" + mg.id + "_" + name }

func (mg *merger) exec(ctx context.Context, q string) error {
	_, err := mg.conn.ExecContext(ctx, q)
	return err
}

func (mg *merger) dropTemps() {
	for _, t := range mg.temps {
		mg.conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+quoteIdent(t))
	}
}

func (mg *merger) fail(what string, err error) error {
	return fmt.Errorf("merge into table %s: %s: %w", mg.tx.root, what, err)
}

func (mg *merger) run(ctx context.Context, m *MergeMetrics) error {
	tx, spec := mg.tx, mg.spec
	start := time.Now()
	src := mg.temp("source")
	mg.temps = append(mg.temps, src)
	if err := mg.exec(ctx, "CREATE TEMP TABLE "+quoteIdent(src)+" AS SELECT (row_number() OVER () - 1)::BIGINT AS "+mergeSIDCol+
		", * FROM ("+spec.Source+"\n) AS __s"); err != nil {
		return mg.fail("reading the source", err)
	}
	if err := queryRow(ctx, mg.conn, "SELECT count(*) FROM "+quoteIdent(src), &m.SourceRows); err != nil {
		return mg.fail("counting the source rows", err)
	}
	m.MaterializeTime = time.Since(start)

	start = time.Now()
	candidates, err := mg.candidateFiles(ctx, src)
	if err != nil {
		return err
	}
	m.FilesScanned = len(candidates)
	for _, f := range candidates {
		tx.readFiles[f.Key()] = true
	}
	pred, err := mg.keyRangePredicate(ctx, src)
	if err != nil {
		return err
	}
	tx.readPredicates = append(tx.readPredicates, &predicateInfo{sql: pred, parsed: parsePredicate(pred)})

	matches := mg.temp("matches")
	mg.temps = append(mg.temps, matches)
	if err := mg.findMatches(ctx, src, matches, candidates); err != nil {
		return err
	}
	if err := mg.checkMultipleMatches(ctx, matches); err != nil {
		return err
	}
	touched, err := mg.touchedFiles(ctx, matches, candidates, m)
	if err != nil {
		return err
	}
	m.ScanTime = time.Since(start)

	start = time.Now()
	var adds []*Add
	abort := func(err error) error {
		for _, a := range adds {
			if p, perr := resolveTablePath(tx.root, a.Path); perr == nil {
				RemoveFile(p) //nolint:errcheck // best effort: a data file of the aborted merge
			}
		}
		return err
	}
	var gone []*Add
	var dvs []dvUpdate
	if mg.s.writesDeletionVectors() && len(touched) > 0 {
		gone, dvs, adds, err = mg.markRows(ctx, src, matches, candidates, touched)
		if err != nil {
			return abort(err)
		}
	} else {
		var goneRows int64
		for _, i := range touched {
			if err := ctx.Err(); err != nil {
				return abort(err)
			}
			written, err := mg.rewrite(ctx, src, matches, candidates[i], i)
			if err != nil {
				return abort(err)
			}
			adds = append(adds, written...)
			gone = append(gone, candidates[i])
			if n, ok := candidates[i].NumRecords(); ok {
				goneRows += n
			}
		}
		m.Copied = max(goneRows-m.Updated-m.Deleted, 0)
	}
	if len(spec.NotMatched) > 0 {
		written, n, err := mg.insert(ctx, src, matches)
		if err != nil {
			return abort(err)
		}
		adds = append(adds, written...)
		m.Inserted = n
	}
	descs, err := tx.writeDeletionVectors(dvs)
	if err != nil {
		return abort(err)
	}
	m.RewriteTime = time.Since(start)

	for _, f := range gone {
		m.FilesRemoved++
		m.BytesRemoved += f.Size
	}
	wm := writeMetrics(adds)
	m.FilesAdded, m.BytesAdded, m.DeletionVectors = wm.Files, wm.Bytes, len(dvs)
	tx.metrics.DeletedRows += m.Deleted
	tx.metrics.CopiedRows += m.Copied
	tx.stageDVUpdates(dvs, descs)
	tx.removeFiles(gone)
	tx.addFiles(adds)
	tx.kinds = append(tx.kinds, opMerge)
	tx.merge = &mergeInfo{predicate: mg.onText(), matched: spec.Matched, notMatched: spec.NotMatched, m: *m,
		touched: m.Matched || m.Inserted > 0}
	return nil
}

// candidateFiles are the live files that can hold a source row's keys:
// for every key, the source value lies within the file's partition value
// or min/max stats (or is NULL, the key null-safe and the file holds
// NULLs). Files lacking what is needed to tell are candidates.
func (mg *merger) candidateFiles(ctx context.Context, src string) ([]*Add, error) {
	s, keys := mg.s, mg.spec.Keys
	if len(s.files) == 0 {
		return nil, nil
	}
	var always []int
	var rows []string
	for i, f := range s.files {
		facts := &fileFacts{s: s, add: f}
		row := []string{strconv.Itoa(i)}
		bounded := true
		for _, k := range keys {
			dt, r := facts.column(k.Target)
			lo, hi := r.min, r.max
			if r.exact {
				lo, hi = r.v, r.v
			}
			if !r.known || (!r.allNull && !r.exact && (lo == nil || hi == nil)) {
				bounded = false
				break
			}
			loSQL, err1 := sqlLiteral(dt, lo)
			hiSQL, err2 := sqlLiteral(dt, hi)
			if err1 != nil || err2 != nil {
				bounded = false
				break
			}
			nulls := !r.noNull
			if r.exact {
				nulls = r.v == nil
			}
			row = append(row, loSQL, hiSQL, strconv.FormatBool(nulls))
		}
		if !bounded {
			always = append(always, i)
			continue
		}
		rows = append(rows, "("+strings.Join(row, ", ")+")")
	}
	pick := map[int]bool{}
	for _, i := range always {
		pick[i] = true
	}
	if len(rows) > 0 {
		cols := []string{"i"}
		var conds []string
		for j, k := range keys {
			lo, hi, n := fmt.Sprintf("lo%d", j), fmt.Sprintf("hi%d", j), fmt.Sprintf("n%d", j)
			cols = append(cols, lo, hi, n)
			sk := "s." + quoteIdent(k.Source)
			c := sk + " >= f." + lo + " AND " + sk + " <= f." + hi
			if k.NullSafe {
				c = "((" + c + ") OR (" + sk + " IS NULL AND f." + n + "))"
			}
			conds = append(conds, c)
		}
		q := "SELECT DISTINCT f.i FROM (VALUES " + strings.Join(rows, ", ") + ") AS f(" + strings.Join(cols, ", ") + ") JOIN " +
			quoteIdent(src) + " AS s ON " + strings.Join(conds, " AND ")
		r, err := mg.conn.QueryContext(ctx, q)
		if err != nil {
			return nil, mg.fail("finding the files that can hold the source's keys", err)
		}
		for r.Next() {
			var i int
			if err := r.Scan(&i); err != nil {
				r.Close()
				return nil, err
			}
			pick[i] = true
		}
		r.Close()
		if err := r.Err(); err != nil {
			return nil, mg.fail("finding the files that can hold the source's keys", err)
		}
	}
	var out []*Add
	for i, f := range s.files {
		if pick[i] {
			out = append(out, f)
		}
	}
	return out, nil
}

// keyRangePredicate is the read predicate of the merge over the target's
// key columns: each key between the source's smallest and largest value
// (or NULL, for a null-safe key whose source holds NULLs). Keys whose type
// has no literal form the pruning parser reads are left out (a concurrent
// file then conflicts on the other keys alone).
func (mg *merger) keyRangePredicate(ctx context.Context, src string) (string, error) {
	var sel []string
	for _, k := range mg.spec.Keys {
		sk := quoteIdent(k.Source)
		sel = append(sel, "CAST(min("+sk+") AS VARCHAR)", "CAST(max("+sk+") AS VARCHAR)", "bool_or("+sk+" IS NULL)")
	}
	vals := make([]sql.NullString, 2*len(mg.spec.Keys))
	nulls := make([]sql.NullBool, len(mg.spec.Keys))
	dest := make([]any, 0, 3*len(mg.spec.Keys))
	for j := range mg.spec.Keys {
		dest = append(dest, &vals[2*j], &vals[2*j+1], &nulls[j])
	}
	if err := queryRow(ctx, mg.conn, "SELECT "+strings.Join(sel, ", ")+" FROM "+quoteIdent(src), dest...); err != nil {
		return "", mg.fail("reading the source's key ranges", err)
	}
	var conj []string
	for j, k := range mg.spec.Keys {
		col := quoteIdent(k.Target)
		lo, okLo := predicateLiteral(mg.s.schema.Field(k.Target).Type, vals[2*j])
		hi, okHi := predicateLiteral(mg.s.schema.Field(k.Target).Type, vals[2*j+1])
		hasNull := k.NullSafe && nulls[j].Valid && nulls[j].Bool
		var c string
		switch {
		case !vals[2*j].Valid && !hasNull:
			return "false", nil // no source key can match
		case !vals[2*j].Valid:
			c = col + " IS NULL"
		case okLo && okHi:
			c = col + " >= " + lo + " AND " + col + " <= " + hi
			if hasNull {
				c = "(" + c + " OR " + col + " IS NULL)"
			}
		default:
			continue
		}
		conj = append(conj, c)
	}
	if len(conj) == 0 {
		return "true", nil
	}
	return strings.Join(conj, " AND "), nil
}

// predicateLiteral renders a value DuckDB printed as a literal the pruning
// parser reads, for the types it compares.
func predicateLiteral(dt DataType, v sql.NullString) (string, bool) {
	if !v.Valid {
		return "", false
	}
	switch dt {
	case ByteType, ShortType, IntegerType, LongType, FloatType, DoubleType:
		return v.String, true
	case StringType:
		return quoteString(v.String), true
	case DateType:
		return "DATE " + quoteString(v.String), true
	case TimestampNTZType:
		return "TIMESTAMP " + quoteString(v.String), true
	case TimestampType:
		return "TIMESTAMPTZ " + quoteString(v.String), true
	}
	if _, ok := dt.(DecimalType); ok {
		return v.String, true
	}
	return "", false
}

// onSQL is the ON condition as DuckDB SQL.
func (mg *merger) onSQL() string {
	var parts []string
	for _, k := range mg.spec.Keys {
		op := " = "
		if k.NullSafe {
			op = " IS NOT DISTINCT FROM "
		}
		parts = append(parts, "target."+quoteIdent(k.Target)+op+"source."+quoteIdent(k.Source))
	}
	if c := strings.TrimSpace(mg.spec.TargetCondition); c != "" {
		parts = append(parts, "("+c+")")
	}
	return strings.Join(parts, " AND ")
}

// onText is the ON condition as commitInfo shows it (Spark's notation).
func (mg *merger) onText() string {
	var parts []string
	if c := strings.TrimSpace(mg.spec.TargetCondition); c != "" {
		parts = append(parts, c)
	}
	for _, k := range mg.spec.Keys {
		op := " = "
		if k.NullSafe {
			op = " <=> "
		}
		parts = append(parts, "(target."+k.Target+op+"source."+k.Source+")")
	}
	return strings.Join(parts, " AND ")
}

// clauseCase is the CASE telling which clause (by index) applies to a
// row, NULL for none.
func clauseCase(cs []MergeClause) string {
	if len(cs) == 0 {
		return "CAST(NULL AS INTEGER)"
	}
	var b strings.Builder
	b.WriteString("CASE")
	for i, c := range cs {
		cond := strings.TrimSpace(c.Condition)
		if cond == "" {
			cond = "true"
		}
		fmt.Fprintf(&b, " WHEN (%s) THEN %d", cond, i)
	}
	b.WriteString(" END")
	return b.String()
}

// matchedOnly: the merge has no WHEN NOT MATCHED clause; then, as in
// Delta, only the matches a matched clause applies to count.
func (mg *merger) matchedOnly() bool { return len(mg.spec.NotMatched) == 0 }

// findMatches joins the candidates' rows (the columns the ON condition
// and the matched clauses read) with the source into the table matches:
// file, row, source row and the matched clause that applies.
func (mg *merger) findMatches(ctx context.Context, src, matches string, candidates []*Add) error {
	cols, err := mg.targetColumns(ctx)
	if err != nil {
		return err
	}
	scan, err := mg.rowScanSQL(ctx, cols, candidates)
	if err != nil {
		return err
	}
	q := "CREATE TEMP TABLE " + quoteIdent(matches) + " AS SELECT target." + mergeFileCol + ", target." + mergeRowCol +
		", source." + mergeSIDCol + ", " + clauseCase(mg.spec.Matched) + " AS " + mergeClauseCol +
		" FROM (" + scan + "\n) AS target JOIN " + quoteIdent(src) + " AS source ON " + mg.onSQL()
	if mg.matchedOnly() {
		q = "CREATE TEMP TABLE " + quoteIdent(matches) + " AS SELECT * FROM (" + strings.TrimPrefix(q, "CREATE TEMP TABLE "+quoteIdent(matches)+" AS ") +
			") AS __m WHERE " + mergeClauseCol + " IS NOT NULL"
	}
	if err := mg.exec(ctx, q); err != nil {
		return mg.fail("matching the source rows to the table's rows", err)
	}
	return nil
}

// targetColumns are the target columns the ON condition and the matched
// clauses' conditions read, in schema order: the keys and the columns
// DuckDB's parser finds as target.<column> in the conditions. When the
// parser cannot tell, every column.
func (mg *merger) targetColumns(ctx context.Context) ([]string, error) {
	need := map[string]bool{}
	for _, k := range mg.spec.Keys {
		need[strings.ToLower(k.Target)] = true
	}
	texts := []string{mg.spec.TargetCondition}
	for _, c := range mg.spec.Matched {
		texts = append(texts, c.Condition)
	}
	for _, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		var tree string
		if err := queryRow(ctx, mg.conn, "SELECT CAST(json_serialize_sql("+quoteString("SELECT * FROM t WHERE "+t)+") AS VARCHAR)", &tree); err != nil {
			return nil, nil
		}
		var doc any
		if json.Unmarshal([]byte(tree), &doc) != nil {
			return nil, nil
		}
		walkExpr(doc, func(n map[string]any) {
			if n["class"] != "COLUMN_REF" {
				return
			}
			names, _ := n["column_names"].([]any)
			if len(names) >= 2 {
				if q, _ := names[0].(string); strings.EqualFold(q, "target") {
					if c, ok := names[1].(string); ok {
						need[strings.ToLower(c)] = true
					}
				}
			}
		})
	}
	var cols []string
	for _, f := range mg.s.schema.Fields {
		if need[strings.ToLower(f.Name)] {
			cols = append(cols, f.Name)
		}
	}
	return cols, nil
}

// rowScanSQL scans files (cols; nil for every column) with each row's file
// (its position in files) and row position.
func (mg *merger) rowScanSQL(ctx context.Context, cols []string, files []*Add) (string, error) {
	return mg.s.fileIndexScanSQL(ctx, cols, files, mergeFileCol, mergeRowCol)
}

// checkMultipleMatches fails when several source rows match one target
// row, unless the only matched clause is an unconditional delete (Delta's
// rule: the result would depend on which source row wins).
func (mg *merger) checkMultipleMatches(ctx context.Context, matches string) error {
	ms := mg.spec.Matched
	if len(ms) == 0 || (len(ms) == 1 && ms[0].Action == MergeDelete && strings.TrimSpace(ms[0].Condition) == "") {
		return nil
	}
	var n int64
	if err := queryRow(ctx, mg.conn, "SELECT count(*) FROM (SELECT 1 FROM "+quoteIdent(matches)+" GROUP BY "+mergeFileCol+", "+mergeRowCol+
		" HAVING count(*) > 1) AS __d", &n); err != nil {
		return mg.fail("checking for target rows matched more than once", err)
	}
	if n > 0 {
		return fmt.Errorf("%w: merge into table %s: %d target rows are matched by more than one source row, and a clause would change them in possibly conflicting ways; keep one source row per key (deduplicate the source)",
			ErrMergeMultipleMatches, mg.tx.root, n)
	}
	return nil
}

// touchedFiles counts the updated and deleted rows and returns the
// positions (in candidates) of the files holding them.
func (mg *merger) touchedFiles(ctx context.Context, matches string, candidates []*Add, m *MergeMetrics) ([]int, error) {
	var updates, deletes []string
	for i, c := range mg.spec.Matched {
		if c.Action == MergeUpdate {
			updates = append(updates, strconv.Itoa(i))
		} else {
			deletes = append(deletes, strconv.Itoa(i))
		}
	}
	in := func(ids []string) string {
		if len(ids) == 0 {
			return "false"
		}
		return mergeClauseCol + " IN (" + strings.Join(ids, ", ") + ")"
	}
	var n int64
	if err := queryRow(ctx, mg.conn, "SELECT count(*) FROM "+quoteIdent(matches), &n); err != nil {
		return nil, mg.fail("counting the matches", err)
	}
	m.Matched = n > 0
	// Distinct target rows: an unconditional delete may match a row more
	// than once.
	rows, err := mg.conn.QueryContext(ctx, "SELECT "+mergeFileCol+", count(DISTINCT "+mergeRowCol+") FILTER (WHERE "+in(updates)+
		"), count(DISTINCT "+mergeRowCol+") FILTER (WHERE "+in(deletes)+") FROM "+quoteIdent(matches)+
		" WHERE "+mergeClauseCol+" IS NOT NULL GROUP BY 1 ORDER BY 1")
	if err != nil {
		return nil, mg.fail("finding the files to rewrite", err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var i, u, d int64
		if err := rows.Scan(&i, &u, &d); err != nil {
			return nil, err
		}
		if i < 0 || i >= int64(len(candidates)) {
			return nil, fmt.Errorf("merge into table %s: a match names file %d of %d", mg.tx.root, i, len(candidates))
		}
		m.Updated += u
		m.Deleted += d
		out = append(out, int(i))
	}
	return out, rows.Err()
}

// valueSQL is the SELECT list writing the table's columns: for each
// column, the expression of the clause (by index in cs, from clauseCol)
// that sets it, else keep (the target's value, or NULL), cast to the
// column's type.
func (mg *merger) valueSQL(cs []MergeClause, clauseCol, keep string) (string, error) {
	var sel []string
	for _, f := range mg.s.schema.Fields {
		t, err := DuckDBType(f.Type)
		if err != nil {
			return "", fmt.Errorf("table %s, column %s: %w", mg.tx.root, f.Name, err)
		}
		var whens []string
		for i, c := range cs {
			for _, a := range c.Set {
				if strings.EqualFold(a.Column, f.Name) {
					whens = append(whens, fmt.Sprintf(" WHEN %d THEN CAST((%s) AS %s)", i, a.Expr, t))
				}
			}
		}
		base := "CAST(NULL AS " + t + ")"
		if keep != "" {
			base = keep + "." + quoteIdent(f.Name)
		}
		e := base
		if len(whens) > 0 {
			e = "CASE " + clauseCol + strings.Join(whens, "") + " ELSE " + base + " END"
		}
		sel = append(sel, e+" AS "+quoteIdent(f.Name))
	}
	return strings.Join(sel, ", "), nil
}

// checked adds the table's constraint checks to a logical SELECT.
func (mg *merger) checked(logical string) string {
	if checks := constraintChecks(mg.s); len(checks) > 0 {
		return "SELECT * FROM (" + logical + ") AS __c WHERE " + strings.Join(checks, " AND ")
	}
	return logical
}

func (mg *merger) write(ctx context.Context, logical, what string) ([]*Add, error) {
	adds, err := mg.tx.writeData(ctx, mg.conn, mg.checked(logical))
	if err != nil {
		if strings.Contains(err.Error(), constraintMarker) {
			return nil, fmt.Errorf("%w: %v", ErrConstraintViolation, err)
		}
		return nil, mg.fail(what, err)
	}
	return adds, nil
}

// rewrite writes file f (position i of the candidates) again with its
// updated rows changed and its deleted rows left out.
func (mg *merger) rewrite(ctx context.Context, src, matches string, f *Add, i int) ([]*Add, error) {
	scan, err := mg.rowScanSQL(ctx, nil, []*Add{f})
	if err != nil {
		return nil, err
	}
	sel, err := mg.valueSQL(mg.spec.Matched, "a."+mergeClauseCol, "target")
	if err != nil {
		return nil, err
	}
	var deletes []string
	for j, c := range mg.spec.Matched {
		if c.Action == MergeDelete {
			deletes = append(deletes, strconv.Itoa(j))
		}
	}
	where := ""
	if len(deletes) > 0 {
		where = " WHERE a." + mergeClauseCol + " IS NULL OR a." + mergeClauseCol + " NOT IN (" + strings.Join(deletes, ", ") + ")"
	}
	q := "SELECT " + sel + " FROM (" + scan + "\n) AS target LEFT JOIN (SELECT * FROM " + quoteIdent(matches) +
		" WHERE " + mergeFileCol + " = " + strconv.Itoa(i) + " AND " + mergeClauseCol + " IS NOT NULL) AS a ON a." + mergeRowCol + " = target." + mergeRowCol +
		" LEFT JOIN " + quoteIdent(src) + " AS source ON source." + mergeSIDCol + " = a." + mergeSIDCol + where
	return mg.write(ctx, q, "rewriting "+f.Path)
}

// markRows changes the touched files (positions in candidates) of a
// table with deletion vectors: their updated and deleted rows are marked in
// a deletion vector and the updated rows are written to new files, in the
// files' row order. A file whose every live row changes is removed
// instead (gone).
func (mg *merger) markRows(ctx context.Context, src, matches string, candidates []*Add, touched []int) (gone []*Add, dvs []dvUpdate, adds []*Add, err error) {
	mask := strconv.Itoa(1<<dvBlockBits - 1)
	rows, err := mg.conn.QueryContext(ctx, "SELECT "+mergeFileCol+", "+mergeRowCol+" >> "+strconv.Itoa(dvBlockBits)+
		", CAST(bitstring_agg(CAST("+mergeRowCol+" & "+mask+" AS INTEGER), 0, "+mask+") AS BLOB) FROM "+quoteIdent(matches)+
		" WHERE "+mergeClauseCol+" IS NOT NULL GROUP BY 1, 2")
	if err != nil {
		return nil, nil, nil, mg.fail("collecting the changed rows", err)
	}
	marked := map[int]*roaring64.Bitmap{}
	for rows.Next() {
		var i, block int64
		var b []byte
		if err := rows.Scan(&i, &block, &b); err != nil {
			rows.Close()
			return nil, nil, nil, err
		}
		bm := marked[int(i)]
		if bm == nil {
			bm = roaring64.New()
			marked[int(i)] = bm
		}
		addBitString(bm, uint64(block)<<dvBlockBits, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, nil, mg.fail("collecting the changed rows", err)
	}
	files := make([]*Add, len(touched))
	pos := make([]string, len(touched))
	for j, i := range touched {
		f, bm := candidates[i], marked[i]
		files[j], pos[j] = f, strconv.Itoa(i)
		if live, ok := f.NumRecords(); ok && live == int64(bm.GetCardinality()) {
			gone = append(gone, f)
			continue
		}
		if f.DeletionVector != nil {
			old, err := LoadDeletionVector(mg.s.root, f.DeletionVector)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("table %s, deletion vector of %s: %w", mg.s.root, f.Path, err)
			}
			bm.Or(old)
		}
		dvs = append(dvs, dvUpdate{old: f, deleted: bm})
	}
	var updates []string
	for j, c := range mg.spec.Matched {
		if c.Action == MergeUpdate {
			updates = append(updates, strconv.Itoa(j))
		}
	}
	if len(updates) == 0 {
		return gone, dvs, nil, nil
	}
	scan, err := mg.rowScanSQL(ctx, nil, files)
	if err != nil {
		return nil, nil, nil, err
	}
	sel, err := mg.valueSQL(mg.spec.Matched, "a."+mergeClauseCol, "target")
	if err != nil {
		return nil, nil, nil, err
	}
	file := "[" + strings.Join(pos, ", ") + "][target." + mergeFileCol + " + 1]"
	q := "SELECT " + sel + " FROM (" + scan + "\n) AS target JOIN (SELECT * FROM " + quoteIdent(matches) + " WHERE " + mergeClauseCol +
		" IN (" + strings.Join(updates, ", ") + ")) AS a ON a." + mergeFileCol + " = " + file + " AND a." + mergeRowCol + " = target." + mergeRowCol +
		" JOIN " + quoteIdent(src) + " AS source ON source." + mergeSIDCol + " = a." + mergeSIDCol +
		" ORDER BY target." + mergeFileCol + ", target." + mergeRowCol
	adds, err = mg.write(ctx, q, "writing the updated rows")
	return gone, dvs, adds, err
}

// insert writes the source rows no target row matched that an insert
// clause applies to, and returns their count.
func (mg *merger) insert(ctx context.Context, src, matches string) ([]*Add, int64, error) {
	sel, err := mg.valueSQL(mg.spec.NotMatched, "source."+mergeClauseCol, "")
	if err != nil {
		return nil, 0, err
	}
	rel := mg.temp("inserts")
	mg.temps = append(mg.temps, rel)
	q := "CREATE TEMP TABLE " + quoteIdent(rel) + " AS SELECT " + sel + " FROM (SELECT source.*, " + clauseCase(mg.spec.NotMatched) + " AS " + mergeClauseCol +
		" FROM " + quoteIdent(src) + " AS source WHERE source." + mergeSIDCol + " NOT IN (SELECT " + mergeSIDCol + " FROM " + quoteIdent(matches) +
		")) AS source WHERE source." + mergeClauseCol + " IS NOT NULL"
	if err := mg.exec(ctx, q); err != nil {
		return nil, 0, mg.fail("selecting the rows to insert", err)
	}
	var n int64
	if err := queryRow(ctx, mg.conn, "SELECT count(*) FROM "+quoteIdent(rel), &n); err != nil {
		return nil, 0, err
	}
	if n == 0 {
		return nil, 0, nil
	}
	adds, err := mg.write(ctx, "SELECT * FROM "+quoteIdent(rel), "writing the inserted rows")
	return adds, n, err
}

// mergeCommitInfo fills a MERGE's operationParameters and
// operationMetrics as Spark names them.
func (mi *mergeInfo) commitInfo(params, metrics map[string]any, m OperationMetrics) {
	clauses := func(cs []MergeClause) string {
		out := make([]map[string]string, 0, len(cs))
		for _, c := range cs {
			e := map[string]string{"actionType": string(c.Action)}
			if cond := strings.TrimSpace(c.Condition); cond != "" {
				e["predicate"] = cond
			}
			out = append(out, e)
		}
		return jsonNoEscape(out)
	}
	params["predicate"] = jsonNoEscape([]string{mi.predicate})
	params["matchedPredicates"] = clauses(mi.matched)
	params["notMatchedPredicates"] = clauses(mi.notMatched)
	params["notMatchedBySourcePredicates"] = "[]"
	mm := mi.m
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	var matchedUpdated, matchedDeleted = mm.Updated, mm.Deleted
	for k, v := range map[string]int64{
		"numSourceRows": mm.SourceRows, "numTargetRowsInserted": mm.Inserted, "numTargetRowsUpdated": mm.Updated,
		"numTargetRowsMatchedUpdated": matchedUpdated, "numTargetRowsNotMatchedBySourceUpdated": 0,
		"numTargetRowsDeleted": mm.Deleted, "numTargetRowsMatchedDeleted": matchedDeleted, "numTargetRowsNotMatchedBySourceDeleted": 0,
		"numTargetRowsCopied": mm.Copied, "numOutputRows": mm.Inserted + mm.Updated + mm.Copied,
		"numTargetFilesAdded": int64(m.AddedFiles), "numTargetFilesRemoved": int64(m.RemovedFiles),
		"numTargetBytesAdded": m.AddedBytes, "numTargetBytesRemoved": m.RemovedBytes, "numTargetChangeFilesAdded": 0,
		"numTargetDeletionVectorsAdded": int64(m.DVsAdded), "numTargetDeletionVectorsRemoved": 0, "numTargetDeletionVectorsUpdated": int64(m.DVsUpdated),
		"materializeSourceTimeMs": mm.MaterializeTime.Milliseconds(), "scanTimeMs": mm.ScanTime.Milliseconds(),
		"rewriteTimeMs": mm.RewriteTime.Milliseconds(),
	} {
		metrics[k] = itoa(v)
	}
}

// KeyScanSQL returns a scan of the table's columns cols (nil: every
// column) over the files that can hold a key of the relation rel (a table
// or view of conn whose columns keys name by Source), as Merge finds them,
// and records those files and the keys' ranges as read by the transaction:
// a query joining rel with it on the keys sees every row it could match,
// and a concurrent commit changing them conflicts.
func (tx *Transaction) KeyScanSQL(ctx context.Context, conn *sql.Conn, rel string, keys []MergeKey, cols []string) (string, error) {
	if err := tx.usable(); err != nil {
		return "", err
	}
	if err := tx.checkMergeSpec(MergeSpec{Keys: keys}); err != nil {
		return "", err
	}
	tx.q = conn
	mg := &merger{tx: tx, conn: conn, spec: MergeSpec{Keys: keys}, s: tx.view}
	files, err := mg.candidateFiles(ctx, rel)
	if err != nil {
		return "", err
	}
	pred, err := mg.keyRangePredicate(ctx, rel)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		tx.readFiles[f.Key()] = true
	}
	tx.readPredicates = append(tx.readPredicates, &predicateInfo{sql: pred, parsed: parsePredicate(pred)})
	if files == nil {
		files = []*Add{} // none, not every file
	}
	return tx.view.ScanSQL(ctx, ScanOptions{Columns: cols, Files: files})
}
