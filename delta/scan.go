package delta

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ScanOptions tells a scan what to read.
type ScanOptions struct {
	// Columns are the logical column names to return, in this order; nil
	// returns every column of the schema.
	Columns []string
	// Where is an optional DuckDB SQL boolean expression over logical
	// column names. Rows for which it is not TRUE are dropped, and files
	// whose partition values or min/max stats show that no row can match
	// are not read at all.
	Where string
	// Files restricts the scan to these files of the snapshot (nil: every
	// live file). The write path uses it to read the files a delete
	// touches.
	Files []*Add
	// FileColumn, when set, adds a VARCHAR column of that name holding the
	// log path (Add.Path) of the file each row comes from.
	FileColumn string
}

// Names of the helper columns and CTE of scan SQL.
const (
	scanPartCol   = "__laktory_p"    // + partition column index
	scanPathCol   = "__laktory_path" // the log path, for ScanOptions.FileColumn
	scanIndexCol  = "__laktory_idx"  // the file's position, for fileIndexScanSQL
	scanRowCol    = "__laktory_row"  // the row's position in its file, for fileIndexScanSQL
	scanNoDataCol = "__laktory_none" // placeholder when a table has no data column
	scanDVCTE     = "__laktory_dv"
)

// scanFile is a file of a scan, resolved on disk.
type scanFile struct {
	add     *Add
	abs     string
	parts   []value     // typed partition values, in partition column order
	deleted [][2]uint64 // DV deleted rows as inclusive ranges (nil: no DV)
}

// PruneFiles returns the live files (ordered as Files) that may hold a row
// for which where is TRUE, judged from partition values and min/max stats;
// the others certainly hold none. An empty where returns every file.
func (s *Snapshot) PruneFiles(where string) []*Add {
	return s.pruneFiles(s.files, where)
}

func (s *Snapshot) pruneFiles(files []*Add, where string) []*Add {
	pred := parsePredicate(where)
	if _, all := pred.(truePred); all {
		return append([]*Add(nil), files...)
	}
	out := make([]*Add, 0, len(files))
	for _, f := range files {
		if pred.mayMatch(&fileFacts{s: s, add: f}) {
			out = append(out, f)
		}
	}
	return out
}

// splitAllMatching splits files into those whose partition values and
// stats prove that every row makes where TRUE, and the others. Files with
// a deletion vector (whose stats may count deleted rows) or without a row
// count are never in all.
func (s *Snapshot) splitAllMatching(files []*Add, where string) (all, rest []*Add) {
	pred := parsePredicate(where)
	for _, f := range files {
		if _, counted := f.NumRecords(); counted && f.DeletionVector == nil && pred.allMatch(&fileFacts{s: s, add: f}) {
			all = append(all, f)
		} else {
			rest = append(rest, f)
		}
	}
	return all, rest
}

// ScanSQL returns a DuckDB SELECT that reads the snapshot's rows: the
// files' data columns under their logical names and types (column mapping
// applied, columns missing from older files as NULL), partition columns
// typed from the log (NULL for null, empty or __HIVE_DEFAULT_PARTITION__),
// rows deleted by deletion vectors left out, and the options' projection,
// filter and file restriction applied. The SQL references no temporary
// object, so it runs on any connection of any database and can be wrapped
// (SELECT ... FROM (<sql>) ...) or turned into a view. It reads the
// deletion vectors and checks that every data file exists, so a missing
// file fails here (ErrMissingDataFile) rather than in DuckDB. Timestamps
// stored without a zone (INT96) are read in the session time zone, which
// OpenDuckDB sets to UTC.
func (s *Snapshot) ScanSQL(ctx context.Context, opts ScanOptions) (string, error) {
	cols, err := s.projection(opts.Columns)
	if err != nil {
		return "", err
	}
	files := opts.Files
	if files == nil {
		files = s.files
	}
	files = s.pruneFiles(files, opts.Where)
	sfs, err := s.resolveFiles(ctx, files)
	if err != nil {
		return "", err
	}
	return s.buildScanSQL(cols, sfs, opts, "", "")
}

// fileIndexScanSQL is ScanSQL over files (no filter, no pruning) with a
// BIGINT column indexCol holding the position in files of the file each
// row comes from (cheaper to group by than a path) and, when rowCol is
// set, a BIGINT column rowCol holding the row's index in its data file
// (the row index deletion vectors count).
func (s *Snapshot) fileIndexScanSQL(ctx context.Context, cols []string, files []*Add, indexCol, rowCol string) (string, error) {
	fields, err := s.projection(cols)
	if err != nil {
		return "", err
	}
	sfs, err := s.resolveFiles(ctx, files)
	if err != nil {
		return "", err
	}
	return s.buildScanSQL(fields, sfs, ScanOptions{}, indexCol, rowCol)
}

// CreateView creates (or replaces) the temporary view name on conn over
// ScanSQL(opts). The view lives as long as the connection.
func (s *Snapshot) CreateView(ctx context.Context, conn *sql.Conn, name string, opts ScanOptions) error {
	q, err := s.ScanSQL(ctx, opts)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "CREATE OR REPLACE TEMP VIEW "+quoteIdent(name)+" AS "+q); err != nil {
		return fmt.Errorf("create view %s over table %s: %w", name, s.root, err)
	}
	return nil
}

// Count counts the rows the scan would return: from the file statistics
// when no Where is given and every file has them, else by scanning (only
// the files the Where does not rule out).
func (s *Snapshot) Count(ctx context.Context, q Querier, opts ScanOptions) (int64, error) {
	if opts.Where == "" {
		if n, ok := s.NumRecords(); ok {
			return n, nil
		}
	}
	text, err := s.ScanSQL(ctx, ScanOptions{Where: opts.Where, Files: opts.Files})
	if err != nil {
		return 0, err
	}
	var n int64
	if err := queryRow(ctx, q, "SELECT count(*) FROM ("+text+"\n) AS __n", &n); err != nil {
		return 0, fmt.Errorf("count the rows of table %s, version %d: %w", s.root, s.version, err)
	}
	return n, nil
}

// Query runs the scan on q (a *sql.DB, *sql.Conn or *sql.Tx of a DuckDB
// database, e.g. from OpenDuckDB) and returns its rows, for Go code that
// needs the values (previews, the CLI). limit > 0 caps the row count.
func (s *Snapshot) Query(ctx context.Context, q Querier, opts ScanOptions, limit int) (*sql.Rows, error) {
	text, err := s.ScanSQL(ctx, opts)
	if err != nil {
		return nil, err
	}
	if limit > 0 {
		text = "SELECT * FROM (" + text + ") LIMIT " + strconv.Itoa(limit)
	}
	rows, err := q.QueryContext(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("scan table %s, version %d: %w", s.root, s.version, err)
	}
	return rows, nil
}

// projection resolves the requested logical columns (nil: all).
func (s *Snapshot) projection(names []string) ([]*StructField, error) {
	if names == nil {
		return s.schema.Fields, nil
	}
	out := make([]*StructField, 0, len(names))
	for _, n := range names {
		f := s.schema.Field(n)
		if f == nil {
			return nil, fmt.Errorf("%w %q in table %s (columns: %s)", ErrUnknownColumn, n, s.root, strings.Join(s.schema.FieldNames(), ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

// partitionFields are the schema fields of the partition columns, in
// partition column order.
func (s *Snapshot) partitionFields() []*StructField {
	out := make([]*StructField, 0, len(s.metadata.PartitionColumns))
	for _, pc := range s.metadata.PartitionColumns {
		out = append(out, s.schema.Field(pc))
	}
	return out
}

// resolveFiles locates the files on disk, types their partition values and
// loads their deletion vectors.
func (s *Snapshot) resolveFiles(ctx context.Context, files []*Add) ([]scanFile, error) {
	pfs := s.partitionFields()
	out := make([]scanFile, 0, len(files))
	locals, fetchErrs := fetchFiles(ctx, s.root, files)
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		abs, err := locals[i], fetchErrs[i]
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: table %s, version %d lists %s, which does not exist (was it deleted or vacuumed by hand?)",
					ErrMissingDataFile, s.root, s.version, f.Path)
			}
			return nil, fmt.Errorf("version %d: %w", s.version, err)
		}
		if _, err := os.Stat(abs); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: table %s, version %d lists %s, which does not exist on disk (was it deleted or vacuumed by hand?)",
					ErrMissingDataFile, s.root, s.version, abs)
			}
			return nil, err
		}
		sf := scanFile{add: f, abs: abs, parts: make([]value, len(pfs))}
		for i, pf := range pfs {
			raw, ok := f.PartitionValues[pf.PhysicalName(s.mapping)]
			if !ok {
				raw = f.PartitionValues[pf.Name]
			}
			v, err := parsePartitionValue(pf.Type, raw)
			if err != nil {
				return nil, fmt.Errorf("%w: table %s, version %d, file %s, column %s: %v",
					ErrInvalidPartitionValue, s.root, s.version, f.Path, pf.Name, err)
			}
			sf.parts[i] = v
		}
		if f.DeletionVector != nil {
			bm, err := LoadDeletionVector(s.root, f.DeletionVector)
			if err != nil {
				return nil, fmt.Errorf("table %s, version %d, deletion vector of %s: %w", s.root, s.version, f.Path, err)
			}
			sf.deleted = bitmapRanges(bm.ToArray())
		}
		out = append(out, sf)
	}
	return out, nil
}

// bitmapRanges folds sorted row indexes into inclusive ranges.
func bitmapRanges(rows []uint64) [][2]uint64 {
	out := [][2]uint64{}
	for _, r := range rows {
		if n := len(out); n > 0 && out[n-1][1]+1 == r {
			out[n-1][1] = r
			continue
		}
		out = append(out, [2]uint64{r, r})
	}
	return out
}

// buildScanSQL writes the scan query. Shape:
//
//	WITH __laktory_dv(f, r) AS (...)  -- (file index, deleted row) when files have deletion vectors
//	SELECT <projection> FROM (
//	  SELECT <data columns as logical>, <partition columns>[, path] FROM (
//	    SELECT <typed NULLs for every column> WHERE false     -- schema: missing columns -> NULL
//	    UNION ALL BY NAME SELECT *, [<values>][file_index + 1] AS __laktory_p0, ...
//	                      FROM read_parquet([files without DV], ...)
//	    UNION ALL BY NAME SELECT d.*, ... FROM read_parquet([files with DV], file_row_number = true) d
//	                      ANTI JOIN __laktory_dv x ON d.file_index = x.f AND d.file_row_number = x.r
//	  ) d
//	) WHERE <where>
//
// Per-file values (partition values, paths) are constant lists indexed by
// read_parquet's file_index, so rows need no join; a value shared by every
// file is a plain literal. indexCol, when set, adds a BIGINT column with
// the position in files of each row's file; rowCol, when set, a BIGINT
// column with the row's index in its data file.
func (s *Snapshot) buildScanSQL(cols []*StructField, files []scanFile, opts ScanOptions, indexCol, rowCol string) (string, error) {
	pfs := s.partitionFields()
	var dataFields []*StructField
	for _, f := range s.schema.Fields {
		if !s.isPartitionColumn(f.Name) {
			dataFields = append(dataFields, f)
		}
	}
	constant := make([]bool, len(pfs))
	for i := range pfs {
		constant[i] = true
		for _, f := range files[min(1, len(files)):] {
			if !sameValue(f.parts[i], files[0].parts[i]) {
				constant[i] = false
				break
			}
		}
	}
	pathConstant := len(files) <= 1
	var plain, withDV []scanFile
	for _, f := range files {
		if f.deleted != nil {
			withDV = append(withDV, f)
		} else {
			plain = append(plain, f)
		}
	}

	var b strings.Builder
	if len(withDV) > 0 {
		b.WriteString("WITH " + scanDVCTE + "(f, r) AS (SELECT f, unnest(r) FROM (VALUES ")
		for j, f := range withDV {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%d, %s)", j, rangesSQL(f.deleted))
		}
		b.WriteString(") AS v(f, r))\n")
	}

	// Outer projection.
	b.WriteString("SELECT ")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(c.Name))
	}
	if opts.FileColumn != "" {
		b.WriteString(", " + quoteIdent(opts.FileColumn))
	}
	if indexCol != "" {
		b.WriteString(", " + quoteIdent(indexCol))
	}
	if rowCol != "" {
		b.WriteString(", " + quoteIdent(rowCol))
	}
	b.WriteString(" FROM (\n  SELECT ")

	// Middle: logical names and types.
	var mid []string
	for _, f := range dataFields {
		e, err := logicalExpr("d."+quoteIdent(f.PhysicalName(s.mapping)), f.Type, s.mapping, 0)
		if err != nil {
			return "", fmt.Errorf("table %s, column %s: %w", s.root, f.Name, err)
		}
		mid = append(mid, e+" AS "+quoteIdent(f.Name))
	}
	for i, pf := range pfs {
		e := fmt.Sprintf("d.%s%d", scanPartCol, i)
		if constant[i] {
			var v value
			if len(files) > 0 {
				v = files[0].parts[i]
			}
			lit, err := sqlLiteral(pf.Type, v)
			if err != nil {
				return "", err
			}
			e = lit
		}
		mid = append(mid, e+" AS "+quoteIdent(pf.Name))
	}
	if opts.FileColumn != "" {
		e := "d." + scanPathCol
		if pathConstant {
			e = "CAST(NULL AS VARCHAR)"
			if len(files) == 1 {
				e = quoteString(files[0].add.Path)
			}
		}
		mid = append(mid, e+" AS "+quoteIdent(opts.FileColumn))
	}
	if indexCol != "" {
		e := "d." + scanIndexCol
		if len(files) <= 1 {
			e = "CAST(0 AS BIGINT)"
		}
		mid = append(mid, e+" AS "+quoteIdent(indexCol))
	}
	if rowCol != "" {
		mid = append(mid, "d."+scanRowCol+" AS "+quoteIdent(rowCol))
	}
	b.WriteString(strings.Join(mid, ", "))
	b.WriteString("\n  FROM (\n    ")

	// Inner: the typed schema branch, then the files.
	var typed []string
	for _, f := range dataFields {
		t, err := duckType(f.Type, s.mapping)
		if err != nil {
			return "", fmt.Errorf("table %s, column %s: %w", s.root, f.Name, err)
		}
		typed = append(typed, "CAST(NULL AS "+t+") AS "+quoteIdent(f.PhysicalName(s.mapping)))
	}
	for i, pf := range pfs {
		if !constant[i] {
			t, err := DuckDBType(pf.Type)
			if err != nil {
				return "", err
			}
			typed = append(typed, fmt.Sprintf("CAST(NULL AS %s) AS %s%d", t, scanPartCol, i))
		}
	}
	if opts.FileColumn != "" && !pathConstant {
		typed = append(typed, "CAST(NULL AS VARCHAR) AS "+scanPathCol)
	}
	if indexCol != "" && len(files) > 1 {
		typed = append(typed, "CAST(NULL AS BIGINT) AS "+scanIndexCol)
	}
	if rowCol != "" {
		typed = append(typed, "CAST(NULL AS BIGINT) AS "+scanRowCol)
	}
	position := make(map[*Add]int, len(files))
	for i, f := range files {
		position[f.add] = i
	}
	if len(typed) == 0 {
		typed = append(typed, "NULL AS "+scanNoDataCol)
	}
	b.WriteString("SELECT " + strings.Join(typed, ", ") + " WHERE false")
	schemaArg, err := s.fileSchemaArg(dataFields)
	if err != nil {
		return "", err
	}
	for _, g := range s.scanGroups(plain, withDV) {
		branch, dv := g.files, g.dv
		var extra []string
		for i, pf := range pfs {
			if constant[i] {
				continue
			}
			lits := make([]string, len(branch))
			for j, f := range branch {
				lit, err := sqlLiteral(pf.Type, f.parts[i])
				if err != nil {
					return "", err
				}
				lits[j] = lit
			}
			extra = append(extra, fmt.Sprintf("[%s][d.file_index::BIGINT + 1] AS %s%d", strings.Join(lits, ", "), scanPartCol, i))
		}
		if opts.FileColumn != "" && !pathConstant {
			paths := make([]string, len(branch))
			for j, f := range branch {
				paths[j] = quoteString(f.add.Path)
			}
			extra = append(extra, "["+strings.Join(paths, ", ")+"][d.file_index::BIGINT + 1] AS "+scanPathCol)
		}
		if indexCol != "" && len(files) > 1 {
			e := "d.file_index::BIGINT"
			if len(branch) != len(files) || position[branch[0].add] != 0 {
				pos := make([]string, len(branch))
				for j, f := range branch {
					pos[j] = strconv.Itoa(position[f.add])
				}
				e = "[" + strings.Join(pos, ", ") + "][" + e + " + 1]"
			}
			extra = append(extra, e+" AS "+scanIndexCol)
		}
		sel := "d.*"
		if (dv || rowCol != "") && schemaArg == "" {
			sel = "d.* EXCLUDE (file_row_number)"
		}
		if rowCol != "" {
			extra = append(extra, "d.file_row_number AS "+scanRowCol)
		}
		if len(extra) > 0 {
			sel += ", " + strings.Join(extra, ", ")
		}
		b.WriteString("\n    UNION ALL BY NAME SELECT " + sel + " FROM " + readParquetSQL(branch, dv || rowCol != "", schemaArg) + " AS d")
		if dv {
			idx := "d.file_index::BIGINT"
			if g.dvOffset > 0 {
				idx += " + " + strconv.Itoa(g.dvOffset)
			}
			b.WriteString(" ANTI JOIN " + scanDVCTE + " AS x ON " + idx + " = x.f AND d.file_row_number = x.r")
		}
	}
	b.WriteString("\n  ) AS d\n) AS t")
	if w := strings.TrimSpace(opts.Where); w != "" {
		b.WriteString("\nWHERE (" + w + "\n)")
	}
	return b.String(), nil
}

// scanGroup is the files of one read_parquet call of a scan.
type scanGroup struct {
	files    []scanFile
	dv       bool // files have deletion vectors (and withDV holds them from dvOffset)
	dvOffset int
}

// scanGroups splits a scan's files into read_parquet calls: one for the
// files without deletion vectors and one for those with, or, when a column
// of the table has widened (typeWidening), one call per file. read_parquet
// with union_by_name promotes a column that differs between files (float
// in old files, double in new ones) itself, and then checks pushed-down
// filters against the old files in their narrow type (a FLOAT 0.1 is not
// > 0.1; a DATE 2024-01-02 is not < TIMESTAMP '2024-01-02 00:00:01'),
// dropping rows. One file per call leaves the promotion to the scan's
// UNION ALL BY NAME with the typed schema branch, where filters see the
// table's types.
func (s *Snapshot) scanGroups(plain, withDV []scanFile) []scanGroup {
	if !s.hasWidenedColumn() {
		var gs []scanGroup
		if len(plain) > 0 {
			gs = append(gs, scanGroup{files: plain})
		}
		if len(withDV) > 0 {
			gs = append(gs, scanGroup{files: withDV, dv: true})
		}
		return gs
	}
	gs := make([]scanGroup, 0, len(plain)+len(withDV))
	for i := range plain {
		gs = append(gs, scanGroup{files: plain[i : i+1]})
	}
	for i := range withDV {
		gs = append(gs, scanGroup{files: withDV[i : i+1], dv: true, dvOffset: i})
	}
	return gs
}

// hasWidenedColumn reports whether a column of the table (at any depth)
// records type changes.
func (s *Snapshot) hasWidenedColumn() bool {
	return s.schema != nil && someType(s.schema, func(t DataType) bool {
		st, ok := t.(*StructType)
		return ok && slices.ContainsFunc(st.Fields, func(f *StructField) bool {
			_, widened := f.Metadata[MetaTypeChanges]
			return widened
		})
	})
}

// sameValue reports whether two partition values are equal (NULLs equal).
func sameValue(a, b value) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	c, ok := compareValues(a, b)
	return ok && c == 0
}

// fileSchemaArg is read_parquet's schema argument for the table's data
// columns (physical names and types): DuckDB then binds the scan to it
// without opening every file first, as union_by_name does (which costs
// as much CPU as reading the columns of a thousand small files), matches
// each file's columns by name, reads a column a file lacks (one written
// before the column was added) as NULL and casts the others to the
// table's types. It is empty, and the scan unions the files by name,
// for a table without data columns, with a void column, or with a
// widened column (see scanGroups).
func (s *Snapshot) fileSchemaArg(dataFields []*StructField) (string, error) {
	if len(dataFields) == 0 || s.hasWidenedColumn() {
		return "", nil
	}
	entries := make([]string, len(dataFields))
	for i, f := range dataFields {
		if f.Type == VoidType {
			return "", nil
		}
		t, err := duckType(f.Type, s.mapping)
		if err != nil {
			return "", fmt.Errorf("table %s, column %s: %w", s.root, f.Name, err)
		}
		name := quoteString(f.PhysicalName(s.mapping))
		entries[i] = name + ": {name: " + name + ", type: " + quoteString(t) + ", default_value: NULL}"
	}
	return "MAP {" + strings.Join(entries, ", ") + "}", nil
}

// readParquetSQL is a read_parquet call over files: bound to schemaArg
// (see fileSchemaArg) or, when it is empty, with union_by_name. With
// rowNumber, the rows' file_row_number can be selected (a column of d.*
// under union_by_name, a virtual column with a schema).
func readParquetSQL(files []scanFile, rowNumber bool, schemaArg string) string {
	var b strings.Builder
	b.WriteString("read_parquet([")
	for i, f := range files {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteString(duckDBLiteralPath(f.abs)))
	}
	b.WriteString("], hive_partitioning = false")
	if schemaArg != "" {
		b.WriteString(", schema = " + schemaArg)
	} else {
		b.WriteString(", union_by_name = true")
		if rowNumber {
			b.WriteString(", file_row_number = true")
		}
	}
	b.WriteString(")")
	return b.String()
}

// duckDBLiteralPath escapes the glob characters of a path (*, ?, [) as
// one-character classes, so that DuckDB reads exactly that file and not
// every file the path would match as a pattern.
func duckDBLiteralPath(p string) string {
	if !strings.ContainsAny(p, "*?[") {
		return p
	}
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '*', '?', '[':
			b.WriteString("[" + string(r) + "]")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// rangesSQL renders deleted row ranges as a BIGINT[] expression.
func rangesSQL(ranges [][2]uint64) string {
	var parts []string
	var singles []string
	flush := func() {
		if len(singles) > 0 {
			parts = append(parts, "["+strings.Join(singles, ",")+"]::BIGINT[]")
			singles = nil
		}
	}
	for _, r := range ranges {
		if r[1]-r[0] >= 3 {
			flush()
			parts = append(parts, fmt.Sprintf("range(%d, %d)", r[0], r[1]+1))
			continue
		}
		for x := r[0]; x <= r[1]; x++ {
			singles = append(singles, strconv.FormatUint(x, 10))
		}
	}
	flush()
	switch len(parts) {
	case 0:
		return "[]::BIGINT[]"
	case 1:
		return parts[0]
	}
	return "flatten([" + strings.Join(parts, ", ") + "])"
}

// logicalExpr converts a column read from data files (expr, with physical
// nested names under column mapping) to its logical names and type.
func logicalExpr(expr string, dt DataType, mode ColumnMappingMode, depth int) (string, error) {
	logical, err := DuckDBType(dt)
	if err != nil {
		return "", err
	}
	if mode == ColumnMappingNone || !hasStruct(dt) {
		return "CAST(" + expr + " AS " + logical + ")", nil
	}
	inner, err := renameNested(expr, dt, mode, depth)
	if err != nil {
		return "", err
	}
	return "CAST(" + inner + " AS " + logical + ")", nil
}

// renameNested rebuilds nested values with logical field names.
func renameNested(expr string, dt DataType, mode ColumnMappingMode, depth int) (string, error) {
	if !hasStruct(dt) {
		return expr, nil
	}
	switch t := dt.(type) {
	case *StructType:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			e, err := renameNested(expr+"."+quoteIdent(f.PhysicalName(mode)), f.Type, mode, depth)
			if err != nil {
				return "", err
			}
			parts[i] = quoteIdent(f.Name) + " := " + e
		}
		return "CASE WHEN " + expr + " IS NULL THEN NULL ELSE struct_pack(" + strings.Join(parts, ", ") + ") END", nil
	case *ArrayType:
		x := fmt.Sprintf("__x%d", depth)
		e, err := renameNested(x, t.ElementType, mode, depth+1)
		if err != nil {
			return "", err
		}
		return "list_transform(" + expr + ", " + x + " -> " + e + ")", nil
	case *MapType:
		x := fmt.Sprintf("__x%d", depth)
		k, err := renameNested(x+".key", t.KeyType, mode, depth+1)
		if err != nil {
			return "", err
		}
		v, err := renameNested(x+".value", t.ValueType, mode, depth+1)
		if err != nil {
			return "", err
		}
		return "map_from_entries(list_transform(map_entries(" + expr + "), " + x + " -> struct_pack(key := " + k + ", value := " + v + ")))", nil
	}
	return expr, nil
}

// hasStruct reports whether dt is, or nests, a struct.
func hasStruct(dt DataType) bool {
	return someType(dt, func(t DataType) bool {
		_, ok := t.(*StructType)
		return ok
	})
}
