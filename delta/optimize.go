package delta

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// OptimizeOptions tune Optimize.
type OptimizeOptions struct {
	// MinFileSize: files smaller than this (bytes) are compacted; 0 takes
	// the target file size (WriteOptions.TargetFileSize, the table's
	// delta.targetFileSize, else DefaultTargetFileSize).
	MinFileSize int64
}

// OptimizeMetrics describe what one Optimize did.
type OptimizeMetrics struct {
	FilesRemoved int   `json:"filesRemoved"`
	FilesAdded   int   `json:"filesAdded"`
	BytesRemoved int64 `json:"bytesRemoved"`
	BytesAdded   int64 `json:"bytesAdded"`
	Rows         int64 `json:"rows"`
	// PurgedRows are the rows that deletion vectors hid and that the
	// rewrite dropped; DeletionVectorsRemoved the files that had one.
	PurgedRows             int64 `json:"purgedRows"`
	DeletionVectorsRemoved int   `json:"deletionVectorsRemoved"`
	// Partitions counts the partitions (1 for an unpartitioned table)
	// where files were compacted.
	Partitions int `json:"partitions"`
}

// Optimize stages the compaction of the table's small files and the purge
// of the rows deletion vectors hide, as Delta's OPTIMIZE does: per
// partition, the files smaller than OptimizeOptions.MinFileSize and the
// files with a deletion vector are packed into bins of up to the target
// file size, and each bin of two files or more (or holding a file with a
// DV) is rewritten into new files of the same partition. The commit
// changes no data (dataChange false on its adds and removes), so
// streaming readers skip it. It reads the files it rewrites: a concurrent
// commit removing one of them makes Commit fail with a retryable conflict,
// while concurrent appends do not conflict. Nothing is staged when there
// is nothing to compact.
func (tx *Transaction) Optimize(ctx context.Context, q Querier, opts OptimizeOptions) (OptimizeMetrics, error) {
	var m OptimizeMetrics
	if err := tx.usable(); err != nil {
		return m, err
	}
	if tx.creating || tx.skipped {
		return m, nil
	}
	tx.q = q
	target := tx.targetFileSize()
	minSize := opts.MinFileSize
	if minSize <= 0 {
		minSize = target
	}
	s := tx.view
	bins, parts := optimizeBins(s, minSize, target)
	for _, bin := range bins {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		scan, err := s.ScanSQL(ctx, ScanOptions{Files: bin})
		if err != nil {
			return m, err
		}
		adds, err := tx.writeData(ctx, q, scan)
		if err != nil {
			return m, fmt.Errorf("optimize table %s: %w", tx.root, err)
		}
		for _, a := range adds {
			a.DataChange = false
		}
		for _, f := range bin {
			tx.readFiles[f.Key()] = true
			m.FilesRemoved++
			m.BytesRemoved += f.Size
			if f.DeletionVector != nil {
				m.DeletionVectorsRemoved++
				m.PurgedRows += f.DeletionVector.Cardinality
			}
		}
		tx.removeFiles(bin)
		for _, f := range bin {
			tx.removes[f.Key()].DataChange = false
		}
		tx.addFiles(adds)
		wm := writeMetrics(adds)
		m.FilesAdded += wm.Files
		m.BytesAdded += wm.Bytes
		m.Rows += wm.Rows
		tx.optimized = append(tx.optimized, adds...)
	}
	m.Partitions = parts
	if m.FilesRemoved > 0 {
		tx.kinds = append(tx.kinds, opOptimize)
	}
	return m, nil
}

// optimizeBins groups the files to compact: per partition (in the order
// of their values), the files below minSize and those with a deletion
// vector, by path, packed greedily into bins of at most target bytes; a
// bin of one file without a DV is left alone. parts counts the partitions
// with a bin.
func optimizeBins(s *Snapshot, minSize, target int64) (bins [][]*Add, parts int) {
	pfs := s.partitionFields()
	byPart := map[string][]*Add{}
	for _, f := range s.files {
		if f.Size >= minSize && f.DeletionVector == nil {
			continue
		}
		var key strings.Builder
		for _, pf := range pfs {
			v, ok := f.PartitionValues[pf.PhysicalName(s.mapping)]
			if !ok {
				v = f.PartitionValues[pf.Name]
			}
			if v == nil {
				key.WriteString("\x01")
			} else {
				key.WriteString("\x02" + *v)
			}
			key.WriteByte(0)
		}
		byPart[key.String()] = append(byPart[key.String()], f)
	}
	keys := make([]string, 0, len(byPart))
	for k := range byPart {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		files := byPart[k]
		before := len(bins)
		slices.SortFunc(files, func(a, b *Add) int { return strings.Compare(a.Path, b.Path) })
		var bin []*Add
		var size int64
		flush := func() {
			if len(bin) > 1 || len(bin) == 1 && bin[0].DeletionVector != nil {
				bins = append(bins, bin)
			}
			bin, size = nil, 0
		}
		for _, f := range files {
			if len(bin) > 0 && size+f.Size > target {
				flush()
			}
			bin = append(bin, f)
			size += f.Size
		}
		flush()
		if len(bins) > before {
			parts++
		}
	}
	return bins, parts
}

// Optimize compacts the small files of the table at root and purges the
// rows its deletion vectors hide (see Transaction.Optimize). When there is
// nothing to compact nothing is committed.
func Optimize(ctx context.Context, q Querier, root string, opts OptimizeOptions, wopts WriteOptions) (*CommitResult, OptimizeMetrics, error) {
	var m OptimizeMetrics
	res, err := oneShot(ctx, root, wopts, func(tx *Transaction) error {
		var err error
		m, err = tx.Optimize(ctx, q, opts)
		return err
	})
	return res, m, err
}

// optimizeMetrics fills the commitInfo metrics of an OPTIMIZE as Spark
// names them (file sizes are the added files').
func (tx *Transaction) optimizeMetrics(metrics map[string]any) {
	m := tx.metrics
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	metrics["numRemovedFiles"] = itoa(int64(m.RemovedFiles))
	metrics["numAddedFiles"] = itoa(int64(m.AddedFiles))
	metrics["numRemovedBytes"] = itoa(m.RemovedBytes)
	metrics["numAddedBytes"] = itoa(m.AddedBytes)
	metrics["numDeletionVectorsRemoved"] = itoa(int64(m.DVsRemoved))
	sizes := make([]int64, 0, len(tx.optimized))
	for _, a := range tx.optimized {
		sizes = append(sizes, a.Size)
	}
	slices.Sort(sizes)
	at := func(p float64) string {
		if len(sizes) == 0 {
			return "0"
		}
		return itoa(sizes[int(p*float64(len(sizes)-1))])
	}
	metrics["minFileSize"], metrics["p25FileSize"], metrics["p50FileSize"] = at(0), at(0.25), at(0.5)
	metrics["p75FileSize"], metrics["maxFileSize"] = at(0.75), at(1)
}
