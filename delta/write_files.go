package delta

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/google/uuid"
)

// This file writes data files: a SELECT with the table's logical columns
// goes through DuckDB's COPY ... (FORMAT parquet, RETURN_STATS), straight
// into the table folder, and each file DuckDB reports becomes an add
// action with Delta stats.
//
// Folder names of partitioned tables are DuckDB's PARTITION_BY names of
// the partition values serialized as Delta serializes them: they are byte
// for byte the Hive-style names delta-rs writes (it escapes the same
// characters, e.g. "a b" -> "a%20b", "A/A" -> "A%2FA"; null is
// __HIVE_DEFAULT_PARTITION__). Spark escapes fewer characters, but every
// reader takes the path from the log, not from the folder name. File names
// are part-<n>-<write id>-<uuid>-c000.zstd.parquet: unique, and the
// write id finds the files of a failed write for clean-up.

// statsStringPrefix is how many characters of a string min value stats
// keep (Spark's default); a longer max value is left out, as a truncated
// max would not be an upper bound.
const statsStringPrefix = 32

// defaultNumIndexedCols is Spark's delta.dataSkippingNumIndexedCols.
const defaultNumIndexedCols = 32

// Parquet encoding. Data files are written by DuckDB's COPY, then
// finished by finishDataFile (parquet_encode.go). In DuckDB 1.5 a column
// chunk is dictionary-encoded (RLE/bit-packed indices) when its distinct
// values fit in DICTIONARY_SIZE_LIMIT entries (and, for strings,
// STRING_DICTIONARY_PAGE_SIZE_LIMIT bytes); otherwise PARQUET_VERSION V1
// writes it PLAIN, and V2 DELTA_BINARY_PACKED for integers, dates,
// timestamps and decimals of up to 18 digits (a few bits a value for ids
// and timestamps, where PLAIN takes 8 bytes), DELTA_LENGTH_BYTE_ARRAY for
// strings and binary, BYTE_STREAM_SPLIT for floats and doubles, PLAIN
// for booleans and wider decimals. Spark 4.2, delta-rs and Polars 1.32
// read DELTA_BINARY_PACKED and DELTA_LENGTH_BYTE_ARRAY; Spark's
// vectorized reader refuses BYTE_STREAM_SPLIT (scripts/interop/
// spark_check.sh --only ours_encodings; TestInteropEncodings). COPY
// cannot choose per column, so a table with a float or double column is
// written V1 (PLAIN after its dictionaries, as delta-rs and Spark do) and
// any other table V2. Measured on the column shapes of
// scripts/bench/shapes_vs_deltars.sh.
const (
	// dictionaryEntries is the largest DICTIONARY_SIZE_LIMIT: a chunk of up
	// to 65,536 distinct values is dictionary-encoded, as delta-rs and
	// Spark do below their 1 MiB dictionary pages (131,072 longs). DuckDB
	// allocates each column of a row group a hash table of twice the
	// limit, whatever the data (2-3 MiB at 65,536), so wide tables get a
	// smaller limit (dictionaryLimit).
	dictionaryEntries = 65536
	// dictionaryBudget bounds those hash tables for one row group (per
	// thread): 64 bytes per entry and column.
	dictionaryBudget = 96 << 20
	// maxRowGroupRows is the most rows of a row group: a dictionary per
	// 1.3 million rows where delta-rs writes one per 1,048,576 (arrow-rs'
	// row groups): DuckDB's threads each cut their own row groups, so a
	// limit of 1,048,576 left a third, small one (a third dictionary) in
	// 2M-row writes.
	maxRowGroupRows = 1310720
	// maxWideDecimalRowGroupRows is the most rows of a row group with a
	// decimal of more than 18 digits (16-byte FIXED_LEN_BYTE_ARRAY, PLAIN):
	// DuckDB writes one page per column chunk, and those pages compress
	// 3-7% worse past 16 MiB (1,048,576 values).
	maxWideDecimalRowGroupRows = 1<<20 - 8192
	// rowGroupBudget bounds the rows DuckDB buffers per thread for a row
	// group (estimated from the schema, rowGroupRows). A write's peak memory
	// grows with it: 4M rows of id, symbol, ts, price, qty, notional took
	// 70 MB with 122,880-row groups, 108 MB at 32 MiB (377k rows, 0.975x
	// delta-rs' bytes), 169 MB at this budget (0.956x). At 32 MiB the
	// shared table of scripts/bench/pipeline_vs_laktory.sh (the writer
	// column too: 238k-row groups) took 1.08x the bytes of Laktory's
	// Polars sink: each row group repeats the dictionaries of its price
	// and notional columns, 18 times where Polars writes 4.
	rowGroupBudget = 64 << 20
	// minRowGroupRows is DuckDB's default row group, the fewest rows a
	// wide table's row groups get.
	minRowGroupRows = 122880
	// stringDictionaryBytes is STRING_DICTIONARY_PAGE_SIZE_LIMIT: a string
	// chunk whose distinct values take more falls back (DuckDB's default
	// is 1 GB).
	stringDictionaryBytes = 4 << 20
)

// parquetOptions are the COPY options of data files of a table of the
// given (data) columns. Bloom filters are off: none of delta-rs, Spark or
// Polars writes them, data skipping uses the log's stats, and they cost
// bytes (3-15% of the matrix's dictionary-encoded shapes) and CPU. Pages
// are compressed with zstd at level 1 (Polars' write_parquet writes zstd
// too; Spark 4.2, delta-rs and Polars read it): the 4M-row shared table
// of scripts/bench/pipeline_vs_laktory.sh takes 26.0 MB instead of 57.4
// with snappy for about the same CPU (2.18 s against 2.09, DuckDB's COPY
// of the step alone at load 20); level 3 took 16.4 MB but 25% more CPU.
func parquetOptions(cols []*StructField, targetFileSize int64) []string {
	version := "V2"
	if slices.ContainsFunc(cols, func(f *StructField) bool { return hasLeaf(f.Type, isFloat) }) {
		version = "V1"
	}
	return []string{"FORMAT parquet", "COMPRESSION zstd", "COMPRESSION_LEVEL 1", "PARQUET_VERSION " + version, "WRITE_BLOOM_FILTER false",
		"ROW_GROUP_SIZE " + strconv.Itoa(rowGroupRows(cols, targetFileSize)),
		"DICTIONARY_SIZE_LIMIT " + strconv.Itoa(dictionaryLimit(leafCount(cols))),
		"STRING_DICTIONARY_PAGE_SIZE_LIMIT " + strconv.Itoa(stringDictionaryBytes)}
}

func isFloat(dt DataType) bool { return dt == FloatType || dt == DoubleType }

func isWideDecimal(dt DataType) bool { d, ok := dt.(DecimalType); return ok && d.Precision > 18 }

// hasLeaf says whether dt, or a type nested in it, satisfies leaf.
func hasLeaf(dt DataType, leaf func(DataType) bool) bool {
	switch t := dt.(type) {
	case *StructType:
		return slices.ContainsFunc(t.Fields, func(f *StructField) bool { return hasLeaf(f.Type, leaf) })
	case *ArrayType:
		return hasLeaf(t.ElementType, leaf)
	case *MapType:
		return hasLeaf(t.KeyType, leaf) || hasLeaf(t.ValueType, leaf)
	}
	return leaf(dt)
}

// leafCount is the number of leaf columns (column chunks per row group).
func leafCount(cols []*StructField) int {
	var count func(DataType) int
	count = func(dt DataType) int {
		switch t := dt.(type) {
		case *StructType:
			n := 0
			for _, f := range t.Fields {
				n += count(f.Type)
			}
			return n
		case *ArrayType:
			return count(t.ElementType)
		case *MapType:
			return count(t.KeyType) + count(t.ValueType)
		}
		return 1
	}
	n := 0
	for _, f := range cols {
		n += count(f.Type)
	}
	return n
}

// dictionaryLimit is DICTIONARY_SIZE_LIMIT for a table of n leaf columns: as
// many entries as dictionaryBudget allows, a power of two (DuckDB sizes
// its hash tables by the next one up), at most dictionaryEntries and at
// least 8,192.
func dictionaryLimit(n int) int {
	limit := dictionaryEntries
	for limit > 8192 && limit*64*max(n, 1) > dictionaryBudget {
		limit /= 2
	}
	return limit
}

// rowGroupRows is ROW_GROUP_SIZE for a table of the given columns: the
// rows of rowGroupBudget at the columns' estimated width in DuckDB's
// vectors, and no more than a target file holds at that width (DuckDB
// cuts files between row groups), within [minRowGroupRows,
// maxRowGroupRows].
func rowGroupRows(cols []*StructField, targetFileSize int64) int {
	width := 0
	for _, f := range cols {
		width += valueWidth(f.Type)
	}
	width = max(width, 1)
	rows := int64(rowGroupBudget / width)
	if targetFileSize > 0 {
		rows = min(rows, targetFileSize/int64(width))
	}
	most := int64(maxRowGroupRows)
	if slices.ContainsFunc(cols, func(f *StructField) bool { return hasLeaf(f.Type, isWideDecimal) }) {
		most = maxWideDecimalRowGroupRows
	}
	return int(min(max(rows, minRowGroupRows), most))
}

// valueWidth estimates the bytes a value of dt takes in DuckDB's vectors
// (strings: 16 bytes and their text; lists and maps: a few elements).
func valueWidth(dt DataType) int {
	switch t := dt.(type) {
	case DecimalType:
		if t.Precision > 18 {
			return 17
		}
		return 9
	case PrimitiveType:
		switch t {
		case StringType, BinaryType:
			return 48
		case IntegerType, DateType, FloatType, ShortType, ByteType, BooleanType:
			return 5
		}
		return 9
	case *StructType:
		w := 1
		for _, f := range t.Fields {
			w += valueWidth(f.Type)
		}
		return w
	case *ArrayType:
		return 17 + 4*valueWidth(t.ElementType)
	case *MapType:
		return 17 + 4*(valueWidth(t.KeyType)+valueWidth(t.ValueType))
	}
	return 16
}

// writeData writes the rows of logicalSQL (a SELECT returning the view's
// columns under their logical names and types, in schema order) as data
// files of the table and returns their add actions.
func (tx *Transaction) writeData(ctx context.Context, q Querier, logicalSQL string) (adds []*Add, err error) {
	s := tx.view
	physical, err := physicalSelect(s, logicalSQL)
	if err != nil {
		return nil, err
	}
	if tx.creating && !tx.remote() {
		// DuckDB makes the folder it writes to, not its parents.
		if err := tx.mkdirCreating(tx.root); err != nil {
			return nil, fmt.Errorf("write data files to table %s: %w", tx.root, err)
		}
	}
	// A remote table's files are written in its staging folder, and
	// uploaded before the commit (store_txn.go).
	wroot, err := tx.writeRoot()
	if err != nil {
		return nil, err
	}
	writeID := uuid.NewString()[:8]
	var dataCols []*StructField
	for _, f := range s.schema.Fields {
		if !s.isPartitionColumn(f.Name) {
			dataCols = append(dataCols, f)
		}
	}
	opts := append(parquetOptions(dataCols, tx.targetFileSize()), "RETURN_STATS", "APPEND",
		"FILENAME_PATTERN "+quoteString("part-{i}-"+writeID+"-{uuid}-c000.zstd"))
	pfs := s.partitionFields()
	if len(pfs) > 0 {
		names := make([]string, len(pfs))
		for i, pf := range pfs {
			names[i] = quoteIdent(pf.PhysicalName(s.mapping))
		}
		opts = append(opts, "PARTITION_BY ("+strings.Join(names, ", ")+")")
	} else {
		// One file at a time, cut at the target size: the threads encode
		// row groups in parallel and DuckDB appends them to the file (as
		// fast as one file per thread), so a write gives as few files
		// as its size allows and a rewritten file stays one file.
		opts = append(opts, "FILE_SIZE_BYTES "+strconv.FormatInt(tx.targetFileSize(), 10))
	}
	if s.mapping != ColumnMappingNone {
		if ids := fieldIDsSQL(s); ids != "" {
			opts = append(opts, "FIELD_IDS "+ids)
		}
	}
	copySQL := "COPY (" + physical + ") TO " + quoteString(wroot) + " (" + strings.Join(opts, ", ") + ")"
	defer tx.watchWrite(writeID, len(pfs) > 0)(&adds, &err)
	rows, err := q.QueryContext(ctx, copySQL)
	if err != nil {
		tx.removeFailedWrite(len(pfs), writeID)
		return nil, fmt.Errorf("write data files to table %s: %w", tx.root, err)
	}
	defer rows.Close()
	leaves := statsLeaves(s)
	now := time.Now().UnixMilli()
	fail := func(err error) ([]*Add, error) {
		rows.Close()
		tx.removeFailedWrite(len(pfs), writeID)
		return nil, err
	}
	for rows.Next() {
		var (
			filename         string
			count, size, ftr uint64
			colStats, parts  any
		)
		if err := rows.Scan(&filename, &count, &size, &ftr, &colStats, &parts); err != nil {
			return fail(fmt.Errorf("write data files to table %s: reading COPY statistics: %w", tx.root, err))
		}
		rel, err := filepath.Rel(wroot, filename)
		if err != nil || strings.HasPrefix(rel, "..") {
			return fail(fmt.Errorf("write data files to table %s: DuckDB wrote %s outside the table", tx.root, filename))
		}
		if count == 0 {
			RemoveFile(filename) // DuckDB writes an empty file for an empty result
			continue
		}
		fileSize, err := finishDataFile(filename, int64(size))
		if err != nil {
			return fail(fmt.Errorf("write data files to table %s: %w", tx.root, err))
		}
		pv := map[string]*string{}
		pk, pvals := orderedMapEntries(parts)
		for i, k := range pk {
			name, _ := k.(string)
			if v, ok := pvals[i].(string); ok {
				pv[name] = &v
			} else {
				pv[name] = nil
			}
		}
		for _, pf := range pfs { // every partition column is listed
			if _, ok := pv[pf.PhysicalName(s.mapping)]; !ok {
				pv[pf.PhysicalName(s.mapping)] = nil
			}
		}
		stats, err := statsJSON(int64(count), leaves, colStats)
		if err != nil {
			return fail(fmt.Errorf("write data files to table %s: %w", tx.root, err))
		}
		adds = append(adds, &Add{Path: EncodeLogPath(filepath.ToSlash(rel)), PartitionValues: pv, Size: fileSize,
			ModificationTime: now, DataChange: true, Stats: stats})
	}
	if err := rows.Err(); err != nil {
		return fail(fmt.Errorf("write data files to table %s: %w", tx.root, err))
	}
	return adds, nil
}

// targetFileSize is the size unpartitioned data files are cut at.
func (tx *Transaction) targetFileSize() int64 {
	if tx.opts.TargetFileSize > 0 {
		return tx.opts.TargetFileSize
	}
	if v, ok := tx.view.metadata.Configuration[PropTargetFileSize]; ok {
		if n, err := ParseByteSize(v); err == nil && n > 0 {
			return n
		}
	}
	return DefaultTargetFileSize
}

// ParseByteSize parses a size in bytes: "134217728", "128mb", "1gb", "512 KiB".
func ParseByteSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1}} {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return n * mult, nil
}

// removeFailedWrite deletes the files of a failed write (and, when
// creating the table, the partition folders left empty).
func (tx *Transaction) removeFailedWrite(depth int, writeID string) {
	wroot, _ := tx.writeRoot()
	dirs := removeWriteFiles(wroot, depth, writeID)
	if tx.creating {
		tx.removeEmptyDataDirs(dirs)
	}
}

// removeWriteFiles deletes the files of a failed write (named with its
// write id) from the table folder and its partition folders, and returns
// the folders it deleted files from.
func removeWriteFiles(root string, depth int, writeID string) []string {
	var dirs []string
	marker := "-" + writeID + "-"
	var walk func(dir string, d int)
	walk = func(dir string, d int) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.IsDir() && d > 0 && !strings.HasPrefix(name, "_") && !strings.HasPrefix(name, "."):
				walk(filepath.Join(dir, name), d-1)
			case !e.IsDir() && strings.Contains(name, marker):
				if RemoveFile(filepath.Join(dir, name)) == nil && (len(dirs) == 0 || dirs[len(dirs)-1] != dir) {
					dirs = append(dirs, dir)
				}
			}
		}
	}
	walk(root, depth)
	return dirs
}

// physicalSelect wraps a logical SELECT into the one whose columns are
// written: data columns under their physical names (nested struct fields
// too, under column mapping) and partition columns as their serialized
// partition values (VARCHAR, NULL for null and for the empty string).
func physicalSelect(s *Snapshot, logicalSQL string) (string, error) {
	var cols []string
	var parts []string
	for _, f := range s.schema.Fields {
		src := "__l." + quoteIdent(f.Name)
		phys := quoteIdent(f.PhysicalName(s.mapping))
		if s.isPartitionColumn(f.Name) {
			e, err := partitionValueSQL(src, f.Type)
			if err != nil {
				return "", fmt.Errorf("table %s, partition column %s: %w", s.root, f.Name, err)
			}
			parts = append(parts, e+" AS "+phys)
			continue
		}
		cols = append(cols, physicalExpr(src, f.Type, s.mapping, 0)+" AS "+phys)
	}
	cols = append(cols, parts...)
	return "SELECT " + strings.Join(cols, ", ") + " FROM (" + logicalSQL + "\n) AS __l", nil
}

// partitionValueSQL serializes a partition column as Delta's partition
// value strings: dates YYYY-MM-DD, timestamps ISO 8601 in UTC
// ("2024-01-02T03:04:05.678901Z", unambiguous for every reader),
// timestamp_ntz "2024-01-02 03:04:05.678901" (delta-rs refuses the ISO
// form there), booleans true/false, numbers as DuckDB prints them; the
// empty string becomes NULL (as Spark does).
func partitionValueSQL(expr string, dt DataType) (string, error) {
	switch t := dt.(type) {
	case DecimalType:
		return "CAST(" + expr + " AS VARCHAR)", nil
	case PrimitiveType:
		switch t {
		case StringType:
			return "NULLIF(" + expr + ", '')", nil
		case LongType, IntegerType, ShortType, ByteType, FloatType, DoubleType, BooleanType:
			return "CAST(" + expr + " AS VARCHAR)", nil
		case DateType:
			return "strftime(" + expr + ", '%Y-%m-%d')", nil
		case TimestampType:
			return "strftime(timezone('UTC', " + expr + "), '%Y-%m-%dT%H:%M:%S.%fZ')", nil
		case TimestampNTZType:
			return "strftime(" + expr + ", '%Y-%m-%d %H:%M:%S.%f')", nil
		}
	}
	return "", fmt.Errorf("%w: type %s cannot be a partition column", ErrInvalidSchema, dt.TypeName())
}

// physicalExpr renames the nested struct fields of a logical value to
// their physical names (column mapping); other values are returned as is.
func physicalExpr(expr string, dt DataType, mode ColumnMappingMode, depth int) string {
	if mode == ColumnMappingNone || !hasStruct(dt) {
		return expr
	}
	switch t := dt.(type) {
	case *StructType:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = quoteIdent(f.PhysicalName(mode)) + " := " + physicalExpr(expr+"."+quoteIdent(f.Name), f.Type, mode, depth)
		}
		return "CASE WHEN " + expr + " IS NULL THEN NULL ELSE struct_pack(" + strings.Join(parts, ", ") + ") END"
	case *ArrayType:
		x := fmt.Sprintf("__w%d", depth)
		return "list_transform(" + expr + ", " + x + " -> " + physicalExpr(x, t.ElementType, mode, depth+1) + ")"
	case *MapType:
		x := fmt.Sprintf("__w%d", depth)
		return "map_from_entries(list_transform(map_entries(" + expr + "), " + x + " -> struct_pack(key := " +
			physicalExpr(x+".key", t.KeyType, mode, depth+1) + ", value := " + physicalExpr(x+".value", t.ValueType, mode, depth+1) + ")))"
	}
	return expr
}

// fieldIDsSQL is the FIELD_IDS option of COPY: the column mapping ids of
// the data columns and their nested struct fields.
func fieldIDsSQL(s *Snapshot) string {
	var entries []string
	for _, f := range s.schema.Fields {
		if s.isPartitionColumn(f.Name) {
			continue
		}
		if e := fieldIDEntry(f.Type, f, s.mapping); e != "" {
			entries = append(entries, quoteString(f.PhysicalName(s.mapping))+": "+e)
		}
	}
	if len(entries) == 0 {
		return ""
	}
	return "{" + strings.Join(entries, ", ") + "}"
}

// fieldIDEntry is the FIELD_IDS value of one field (f may be nil for list
// elements and map keys/values, which have no id of their own).
func fieldIDEntry(dt DataType, f *StructField, mode ColumnMappingMode) string {
	id := int64(-1)
	if f != nil {
		if n, ok := f.ColumnMappingID(); ok {
			id = n
		}
	}
	var nested []string
	switch t := dt.(type) {
	case *StructType:
		for _, c := range t.Fields {
			if e := fieldIDEntry(c.Type, c, mode); e != "" {
				nested = append(nested, quoteString(c.PhysicalName(mode))+": "+e)
			}
		}
	case *ArrayType:
		if e := fieldIDEntry(t.ElementType, nil, mode); e != "" {
			nested = append(nested, "element: "+e)
		}
	case *MapType:
		if e := fieldIDEntry(t.KeyType, nil, mode); e != "" {
			nested = append(nested, "key: "+e)
		}
		if e := fieldIDEntry(t.ValueType, nil, mode); e != "" {
			nested = append(nested, "value: "+e)
		}
	}
	switch {
	case len(nested) == 0 && id < 0:
		return ""
	case len(nested) == 0:
		return strconv.FormatInt(id, 10)
	case id >= 0:
		nested = append([]string{"__duckdb_field_id: " + strconv.FormatInt(id, 10)}, nested...)
	}
	return "{" + strings.Join(nested, ", ") + "}"
}

// statLeaf is a leaf column that gets statistics.
type statLeaf struct {
	key  string   // DuckDB's column_statistics key: quoted physical path
	path []string // physical names, outermost first
	dt   DataType // nil: counted for indexing but no stats (arrays, maps)
}

// statsLeaves lists the leaf columns of the data files that get stats:
// the first delta.dataSkippingNumIndexedCols (default 32, -1 for all)
// leaves in schema order, or the columns of delta.dataSkippingStatsColumns
// when it is set.
func statsLeaves(s *Snapshot) []statLeaf {
	var all []statLeaf
	var walk func(dt DataType, path []string, logical string)
	selected := statsColumnSet(s.metadata.Configuration[PropDataSkippingStatsCols])
	walk = func(dt DataType, path []string, logical string) {
		switch t := dt.(type) {
		case *StructType:
			for _, f := range t.Fields {
				walk(f.Type, append(append([]string(nil), path...), f.PhysicalName(s.mapping)), logical+"."+strings.ToLower(f.Name))
			}
			return
		case *ArrayType, *MapType:
			all = append(all, statLeaf{})
			return
		}
		if selected != nil && !selected[logical[1:]] && !selected[strings.SplitN(logical[1:], ".", 2)[0]] {
			return
		}
		quoted := make([]string, len(path))
		for i, p := range path {
			quoted[i] = quoteIdent(p)
		}
		all = append(all, statLeaf{key: strings.Join(quoted, "."), path: path, dt: dt})
	}
	for _, f := range s.schema.Fields {
		if s.isPartitionColumn(f.Name) {
			continue
		}
		walk(f.Type, []string{f.PhysicalName(s.mapping)}, "."+strings.ToLower(f.Name))
	}
	n := defaultNumIndexedCols
	if v, err := strconv.Atoi(strings.TrimSpace(s.metadata.Configuration[PropDataSkippingNumIndexed])); err == nil {
		n = v
	}
	if selected == nil && n >= 0 && len(all) > n {
		all = all[:n]
	}
	out := all[:0]
	for _, l := range all {
		if l.dt != nil {
			out = append(out, l)
		}
	}
	return out
}

// statsColumnSet parses delta.dataSkippingStatsColumns (comma-separated,
// optionally backquoted, case-insensitive); nil when unset.
func statsColumnSet(v string) map[string]bool {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	out := map[string]bool{}
	for _, c := range strings.Split(v, ",") {
		c = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(c), "`", ""))
		if c != "" {
			out[c] = true
		}
	}
	return out
}

// statsJSON builds the stats string of an add from DuckDB's
// column_statistics: numRecords, then minValues, maxValues and nullCount
// nested like the (physical) schema. Dates are YYYY-MM-DD, timestamps ISO
// 8601 in milliseconds (UTC with a Z for timestamp; no zone for
// timestamp_ntz; the max rounded up to the next millisecond so it stays an
// upper bound), decimals exact numbers; booleans and binary get only
// null counts, NaN bounds are left out.
func statsJSON(numRecords int64, leaves []statLeaf, colStats any) (string, error) {
	keys, vals := orderedMapEntries(colStats)
	byKey := make(map[string]any, len(keys))
	for i, k := range keys {
		if ks, ok := k.(string); ok {
			byKey[ks] = vals[i]
		}
	}
	minV, maxV, nulls := map[string]any{}, map[string]any{}, map[string]any{}
	for _, l := range leaves {
		sk, sv := orderedMapEntries(byKey[l.key])
		st := make(map[string]string, len(sk))
		for i, k := range sk {
			ks, _ := k.(string)
			vs, _ := sv[i].(string)
			st[ks] = vs
		}
		if nc, err := strconv.ParseInt(st["null_count"], 10, 64); err == nil {
			setPath(nulls, l.path, nc)
		}
		if v, ok := statValueJSON(l.dt, st["min"], false); ok && st["min"] != "" {
			setPath(minV, l.path, v)
		}
		if v, ok := statValueJSON(l.dt, st["max"], true); ok && st["max"] != "" {
			setPath(maxV, l.path, v)
		}
	}
	b, err := json.Marshal(struct {
		NumRecords int64          `json:"numRecords"`
		MinValues  map[string]any `json:"minValues"`
		MaxValues  map[string]any `json:"maxValues"`
		NullCount  map[string]any `json:"nullCount"`
	}{numRecords, minV, maxV, nulls})
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// setPath sets m[path[0]][path[1]]... = v, creating nested maps.
func setPath(m map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

// statValueJSON converts a DuckDB stats value (text) to its Delta stats
// JSON value; ok is false when the value is left out.
func statValueJSON(dt DataType, text string, isMax bool) (any, bool) {
	if text == "" {
		return nil, false
	}
	switch t := dt.(type) {
	case DecimalType:
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return nil, false
		}
		return json.Number(text), true
	case PrimitiveType:
		switch t {
		case LongType, IntegerType, ShortType, ByteType:
			if _, err := strconv.ParseInt(text, 10, 64); err != nil {
				return nil, false
			}
			return json.Number(text), true
		case FloatType, DoubleType:
			f, err := strconv.ParseFloat(text, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, false
			}
			return f, true
		case StringType:
			if utf8.RuneCountInString(text) <= statsStringPrefix {
				return text, true
			}
			if isMax {
				return nil, false
			}
			r := []rune(text)
			return string(r[:statsStringPrefix]), true
		case DateType:
			if _, err := time.Parse("2006-01-02", text); err != nil {
				return nil, false
			}
			return text, true
		case TimestampType, TimestampNTZType:
			ts, err := parseTimestamp(text, t == TimestampType)
			if err != nil {
				return nil, false
			}
			ms := ts.Truncate(time.Millisecond)
			if isMax && !ms.Equal(ts) {
				ms = ms.Add(time.Millisecond)
			}
			if t == TimestampType {
				return ms.UTC().Format("2006-01-02T15:04:05.000Z"), true
			}
			return ms.Format("2006-01-02T15:04:05.000"), true
		}
	}
	return nil, false
}

// orderedMapEntries returns the keys and values of a DuckDB MAP value as
// the driver scans it (nil gives nothing).
func orderedMapEntries(v any) ([]any, []any) {
	switch m := v.(type) {
	case duckdb.OrderedMap:
		return m.Keys(), m.Values()
	case *duckdb.OrderedMap:
		return m.Keys(), m.Values()
	case duckdb.Map:
		return orderedMapEntries(map[any]any(m))
	case map[any]any:
		var ks, vs []any
		for k, x := range m {
			ks = append(ks, k)
			vs = append(vs, x)
		}
		return ks, vs
	}
	return nil, nil
}
