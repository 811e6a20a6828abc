package delta

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// DeleteMetrics describe what one Delete (or Truncate) did.
type DeleteMetrics struct {
	DeletedRows  int64 `json:"deletedRows"`
	CopiedRows   int64 `json:"copiedRows"`
	FilesRemoved int   `json:"filesRemoved"`
	FilesAdded   int   `json:"filesAdded"`
	BytesRemoved int64 `json:"bytesRemoved"`
	BytesAdded   int64 `json:"bytesAdded"`
	// PartitionOnly is true when whole files were removed without reading
	// them (a predicate over partition columns only, or Truncate).
	PartitionOnly bool `json:"partitionOnly"`
	// FilesScanned counts the files read to find the matching rows: those
	// whose partition values or stats neither rule out a match nor prove
	// that every row matches.
	FilesScanned int `json:"filesScanned"`
	// DeletionVectors counts the files that kept some rows and got (or
	// extended) a deletion vector instead of being rewritten.
	DeletionVectors int           `json:"deletionVectors"`
	ScanTime        time.Duration `json:"scanTime"`
	RewriteTime     time.Duration `json:"rewriteTime"`
}

// deleteFileCol names the file position column of delete scans.
const deleteFileCol = "__laktory_delete_file"

// Delete stages the deletion of the rows for which predicate (a DuckDB
// SQL boolean expression over the table's columns, partition columns
// included: =, IN, BETWEEN, LIKE, functions...) is TRUE:
//
//   - a predicate over partition columns only is evaluated by DuckDB on
//     each file's partition values: matching files are removed whole,
//     without reading them;
//   - otherwise files are pruned by partition values and min/max stats,
//     files whose stats prove that every row matches are removed
//     without reading them, the remaining ones are scanned for matching
//     rows, files whose rows all match are removed, and each file with
//     some matching rows is rewritten keeping the rows where the
//     predicate IS NOT TRUE (NULL keeps the row), in new files of the
//     same commit.
//
// Nothing is staged when no row matches (a transaction with nothing else
// then commits nothing). The predicate becomes a read predicate of the
// transaction: a concurrent commit adding files that may hold matching
// rows makes Commit fail with ErrConcurrentAppend. An empty or invalid
// predicate fails with ErrInvalidPredicate; an append-only table with
// ErrAppendOnly.
func (tx *Transaction) Delete(ctx context.Context, q Querier, predicate string) (DeleteMetrics, error) {
	var m DeleteMetrics
	if err := tx.usable(); err != nil {
		return m, err
	}
	if tx.skipped {
		return m, nil
	}
	if err := tx.checkRemovable("delete from"); err != nil {
		return m, err
	}
	s := tx.view
	info, matches, err := tx.planDelete(ctx, q, s, predicate)
	if err != nil {
		return m, err
	}
	tx.q = q
	tx.readPredicates = append(tx.readPredicates, info)
	tx.kinds = append(tx.kinds, opDelete)
	start := time.Now()
	if info.partitionOnly {
		m.PartitionOnly = true
		var gone []*Add
		for i, f := range s.files {
			if matches[i] {
				gone = append(gone, f)
				tx.readFiles[f.Key()] = true
			}
		}
		n, err := countFileRows(ctx, q, s, gone)
		if err != nil {
			return m, err
		}
		m.DeletedRows = n
		m.ScanTime = time.Since(start)
		tx.finishDelete(&m, gone, nil)
		return m, nil
	}

	candidates := s.pruneFiles(s.files, info.sql)
	for _, f := range candidates {
		tx.readFiles[f.Key()] = true
	}
	// Files whose stats prove that all their rows match go unread (the
	// usual shared sink: each writer's rows in its own files).
	whole, candidates := s.splitAllMatching(candidates, info.sql)
	for _, f := range whole {
		n, _ := f.NumRecords()
		m.DeletedRows += n
	}
	if s.writesDeletionVectors() {
		// Files this transaction wrote itself are rewritten: they are not
		// in the table yet.
		own := func(f *Add) bool { return slices.Contains(tx.adds, f) }
		committed := slices.DeleteFunc(slices.Clone(candidates), own)
		candidates = slices.DeleteFunc(candidates, func(f *Add) bool { return !own(f) })
		if len(committed) > 0 {
			m.FilesScanned += len(committed)
			dvWhole, err := tx.deleteWithDVs(ctx, q, s, committed, info.sql, &m)
			if err != nil {
				return m, err
			}
			whole = append(whole, dvWhole...)
		}
	}
	if len(candidates) == 0 {
		m.ScanTime = time.Since(start)
		if m.DeletedRows > 0 {
			tx.finishDelete(&m, whole, nil)
		}
		return m, nil
	}
	m.FilesScanned += len(candidates)
	// The rows of each candidate that match, and all its rows, grouped by
	// the file's position (an integer: grouping by path costs 4x more).
	scan, err := s.fileIndexScanSQL(ctx, nil, candidates, deleteFileCol, "")
	if err != nil {
		return m, err
	}
	rows, err := q.QueryContext(ctx, "SELECT "+deleteFileCol+", count(*) FILTER (WHERE ("+info.sql+"\n)), count(*) FROM ("+
		scan+"\n) AS __d GROUP BY 1 HAVING count(*) FILTER (WHERE ("+info.sql+"\n)) > 0")
	if err != nil {
		return m, fmt.Errorf("delete from table %s: finding the files that hold rows matching %q: %w", tx.root, info.sql, err)
	}
	var partial []*Add
	for rows.Next() {
		var i, matched, total int64
		if err := rows.Scan(&i, &matched, &total); err != nil {
			rows.Close()
			return m, err
		}
		if i < 0 || i >= int64(len(candidates)) {
			continue
		}
		f := candidates[i]
		m.DeletedRows += matched
		if matched == total {
			whole = append(whole, f)
		} else {
			partial = append(partial, f)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return m, err
	}
	m.ScanTime = time.Since(start)
	rewriteStart := time.Now()
	adds, err := tx.rewriteFiles(ctx, q, s, partial, info.sql)
	if err != nil {
		return m, err
	}
	m.RewriteTime = time.Since(rewriteStart)
	tx.finishDelete(&m, append(whole, partial...), adds)
	return m, nil
}

// rewriteFiles writes, for each file, its rows for which pred IS NOT
// TRUE into new files. Each file is rewritten on its own, so the new files
// keep the old ones' locality (a file holding one writer's rows is
// replaced by files holding only that writer's rows), which keeps stats
// pruning and conflict checks precise for later operations.
func (tx *Transaction) rewriteFiles(ctx context.Context, q Querier, s *Snapshot, files []*Add, pred string) ([]*Add, error) {
	var adds []*Add
	fail := func(err error) ([]*Add, error) {
		for _, a := range adds {
			if p, perr := resolveTablePath(tx.root, a.Path); perr == nil {
				RemoveFile(p)
			}
		}
		return nil, err
	}
	for _, f := range files {
		keep, err := s.ScanSQL(ctx, ScanOptions{Files: []*Add{f}})
		if err != nil {
			return fail(err)
		}
		written, err := tx.writeData(ctx, q, "SELECT * FROM ("+keep+"\n) AS __d WHERE ("+pred+"\n) IS NOT TRUE")
		if err != nil {
			return fail(fmt.Errorf("delete from table %s: rewriting %s: %w", tx.root, f.Path, err))
		}
		adds = append(adds, written...)
	}
	return adds, nil
}

// planDelete checks and analyses the predicate. A simple predicate over
// partition columns is evaluated in Go on the files' partition values;
// any other goes through DuckDB (analyzePredicate). matches tells, per
// live file of s, whether a partition-only predicate is TRUE for it.
func (tx *Transaction) planDelete(ctx context.Context, q Querier, s *Snapshot, predicate string) (*predicateInfo, []bool, error) {
	if gp := goPartitionPredicate(s, predicate); gp != nil {
		if matches, ok := evalPartitions(s, gp, s.files); ok {
			return &predicateInfo{sql: strings.TrimSpace(predicate), parsed: gp, partitionOnly: true, goEval: true}, matches, nil
		}
	}
	return analyzePredicate(ctx, q, s, predicate, s.files)
}

// finishDelete stages the removes and adds of a delete and its metrics.
func (tx *Transaction) finishDelete(m *DeleteMetrics, gone, adds []*Add) {
	for _, f := range gone {
		m.FilesRemoved++
		m.BytesRemoved += f.Size
	}
	wm := writeMetrics(adds)
	m.FilesAdded, m.BytesAdded, m.CopiedRows = wm.Files, wm.Bytes, wm.Rows
	tx.metrics.DeletedRows += m.DeletedRows
	tx.metrics.CopiedRows += m.CopiedRows
	tx.removeFiles(gone)
	tx.addFiles(adds)
}

// countRows counts the live rows of files: from stats, scanning only the
// files without them.
func countFileRows(ctx context.Context, q Querier, s *Snapshot, files []*Add) (int64, error) {
	var n int64
	var unknown []*Add
	for _, f := range files {
		if r, ok := f.NumRecords(); ok {
			n += r
		} else {
			unknown = append(unknown, f)
		}
	}
	if len(unknown) == 0 {
		return n, nil
	}
	scan, err := s.ScanSQL(ctx, ScanOptions{Files: unknown})
	if err != nil {
		return 0, err
	}
	var c int64
	if err := queryRow(ctx, q, "SELECT count(*) FROM ("+scan+"\n) AS __c", &c); err != nil {
		return 0, fmt.Errorf("table %s: counting rows: %w", s.root, err)
	}
	return n + c, nil
}
