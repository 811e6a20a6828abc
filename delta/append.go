package delta

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// WriteMetrics describe the data files one Append or Overwrite wrote.
type WriteMetrics struct {
	Files int   `json:"files"`
	Rows  int64 `json:"rows"`
	Bytes int64 `json:"bytes"`
}

// constraintMarker starts the messages of the error() calls that enforce
// constraints, to recognise them in DuckDB's error.
const constraintMarker = "laktory constraint violation: "

// Append stages the rows of a DuckDB query (run on q, so it may use the
// connection's temporary views) as new data files of the table. Query
// columns match table columns by name (case-insensitively) and are cast
// to the table's types when that is lossless (see castable); table
// columns the query lacks are written as NULL. A query column the table
// lacks fails with ErrSchemaMismatch unless WriteOptions.MergeSchema is
// set (then it becomes a new nullable column, a metaData change of this
// commit). Rows breaking a NOT NULL column, a column invariant or a CHECK
// constraint fail with ErrConstraintViolation and write nothing. For a
// table being created without a schema, the first Append defines it.
func (tx *Transaction) Append(ctx context.Context, q Querier, query string) (WriteMetrics, error) {
	if err := tx.usable(); err != nil {
		return WriteMetrics{}, err
	}
	if tx.skipped {
		return WriteMetrics{}, nil
	}
	tx.q = q
	cols, err := QueryColumns(ctx, q, query)
	if err != nil {
		return WriteMetrics{}, fmt.Errorf("append to table %s: %w", tx.root, err)
	}
	if tx.creating && len(tx.view.schema.Fields) == 0 {
		schema := &StructType{}
		for _, c := range cols {
			schema.Fields = append(schema.Fields, &StructField{Name: c.Name, Type: c.Type, Nullable: true})
		}
		if err := tx.define(schema, tx.def); err != nil {
			return WriteMetrics{}, err
		}
	}
	logical, err := tx.planAppend(cols, query, tx.opts.MergeSchema)
	if err != nil {
		return WriteMetrics{}, err
	}
	adds, err := tx.writeData(ctx, q, logical)
	if err != nil {
		if strings.Contains(err.Error(), constraintMarker) {
			return WriteMetrics{}, fmt.Errorf("%w: %v", ErrConstraintViolation, err)
		}
		return WriteMetrics{}, err
	}
	tx.addFiles(adds)
	tx.kinds = append(tx.kinds, opAppend)
	return writeMetrics(adds), nil
}

func writeMetrics(adds []*Add) WriteMetrics {
	var m WriteMetrics
	for _, a := range adds {
		m.Files++
		m.Bytes += a.Size
		if n, ok := a.NumRecords(); ok {
			m.Rows += n
		}
	}
	return m
}

// planAppend matches the query's columns to the table's (merging new
// columns into the schema when allowed) and returns the logical SELECT:
// every table column, in schema order, under its name and type, with
// constraint checks.
func (tx *Transaction) planAppend(cols []QueryColumn, query string, merge bool) (string, error) {
	s := tx.view
	seen := map[string]string{}
	var added []*StructField
	for _, c := range cols {
		if other, dup := seen[strings.ToLower(c.Name)]; dup {
			return "", fmt.Errorf("%w: table %s: the query has columns %q and %q, which differ only in case", ErrSchemaMismatch, tx.root, other, c.Name)
		}
		seen[strings.ToLower(c.Name)] = c.Name
		f := s.schema.Field(c.Name)
		if f == nil {
			if !merge {
				return "", fmt.Errorf("%w: table %s has no column %q (query type %s); add it with schema merging, or drop it from the query (table columns: %s)",
					ErrSchemaMismatch, tx.root, c.Name, c.DuckDBType, strings.Join(s.schema.FieldNames(), ", "))
			}
			added = append(added, &StructField{Name: c.Name, Type: c.Type, Nullable: true})
			continue
		}
		if !castable(c.Type, f.Type) {
			return "", fmt.Errorf("%w: table %s, column %q: the query gives %s, which does not fit the column's type %s (%s) without loss; cast it in the query",
				ErrSchemaMismatch, tx.root, c.Name, c.DuckDBType, f.Type.TypeName(), duckTypeName(f.Type))
		}
	}
	if len(added) > 0 {
		if err := tx.mergeColumns(added); err != nil {
			return "", err
		}
		s = tx.view
	}
	byName := map[string]string{}
	for _, c := range cols {
		byName[strings.ToLower(c.Name)] = c.Name
	}
	sel := make([]string, 0, len(s.schema.Fields))
	for _, f := range s.schema.Fields {
		t, err := DuckDBType(f.Type)
		if err != nil {
			return "", fmt.Errorf("table %s, column %s: %w", tx.root, f.Name, err)
		}
		src := "NULL"
		if qn, ok := byName[strings.ToLower(f.Name)]; ok {
			src = "__q." + quoteIdent(qn)
		}
		sel = append(sel, "CAST("+src+" AS "+t+") AS "+quoteIdent(f.Name))
	}
	logical := "SELECT " + strings.Join(sel, ", ") + " FROM (" + query + "\n) AS __q"
	if checks := constraintChecks(s); len(checks) > 0 {
		logical = "SELECT * FROM (" + logical + ") AS __c WHERE " + strings.Join(checks, " AND ")
	}
	return logical, nil
}

// mergeColumns adds new nullable columns to the view's schema: a
// metaData action (and a protocol upgrade when a column needs a feature,
// e.g. timestamp_ntz) in this commit.
func (tx *Transaction) mergeColumns(added []*StructField) error {
	s := tx.view
	schema := &StructType{Fields: append(append([]*StructField(nil), s.schema.Fields...), added...)}
	m := s.Metadata()
	if m.Configuration == nil {
		m.Configuration = map[string]string{}
	}
	if s.mapping != ColumnMappingNone {
		schema = assignColumnMapping(schema, m.Configuration)
	}
	if err := validateSchema(schema, m.PartitionColumns, tx.root, s.mapping != ColumnMappingNone); err != nil {
		return err
	}
	m.SchemaString = schema.String()
	p := s.Protocol()
	if usesType(schema, TimestampNTZType) {
		if up, changed := withTimestampNTZ(p); changed {
			p = up
			tx.protocol = &p
		}
	}
	if tx.protocol != nil {
		tx.protocol = &p
	}
	tx.metadata = &m
	tx.view = s.derive(&p, &m, schema, nil)
	return nil
}

// constraintChecks are WHERE conditions that raise an error naming the
// constraint for the first row that breaks a NOT NULL column, a column
// invariant (delta.invariants: violated unless TRUE) or a CHECK
// constraint (delta.constraints.<name>: violated when FALSE).
func constraintChecks(s *Snapshot) []string {
	var checks []string
	raise := func(cond, msg string) {
		checks = append(checks, "(CASE WHEN "+cond+" THEN error("+quoteString(constraintMarker+msg)+") ELSE true END)")
	}
	for _, f := range s.schema.Fields {
		if !f.Nullable {
			raise(quoteIdent(f.Name)+" IS NULL", fmt.Sprintf("table %s: column %s is NOT NULL but a row has NULL", s.root, f.Name))
		}
	}
	walkFields(s.schema, "", func(path string, f *StructField) {
		raw, ok := f.Metadata[metaInvariants].(string)
		if !ok {
			return
		}
		var inv struct {
			Expression struct {
				Expression string `json:"expression"`
			} `json:"expression"`
		}
		if json.Unmarshal([]byte(raw), &inv) == nil && inv.Expression.Expression != "" {
			e := inv.Expression.Expression
			raise("("+e+") IS NOT TRUE", fmt.Sprintf("table %s: invariant of column %s (%s) is not true for a row", s.root, path, e))
		}
	})
	var names []string
	for k := range s.metadata.Configuration {
		if strings.HasPrefix(k, PropConstraintPrefix) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		e := s.metadata.Configuration[k]
		raise("("+e+") IS FALSE", fmt.Sprintf("table %s: CHECK constraint %s (%s) is false for a row", s.root, strings.TrimPrefix(k, PropConstraintPrefix), e))
	}
	return checks
}

// Overwrite stages the replacement of every row of the table by the rows
// of query: all live files are removed and the query is appended (as
// Append, in the same commit). With WriteOptions.OverwriteSchema the
// table schema becomes the query's (partition columns and properties are
// kept). It fails with ErrAppendOnly on an append-only table.
func (tx *Transaction) Overwrite(ctx context.Context, q Querier, query string) (WriteMetrics, error) {
	if err := tx.usable(); err != nil {
		return WriteMetrics{}, err
	}
	if tx.skipped {
		return WriteMetrics{}, nil
	}
	if err := tx.checkRemovable("overwrite"); err != nil {
		return WriteMetrics{}, err
	}
	tx.q = q
	if tx.opts.OverwriteSchema && !tx.creating {
		if err := tx.replaceSchema(ctx, q, query); err != nil {
			return WriteMetrics{}, err
		}
	}
	tx.removeAll()
	tx.kinds = append(tx.kinds, opOverwrite)
	return tx.Append(ctx, q, query)
}

// replaceSchema makes the query's columns the table schema.
func (tx *Transaction) replaceSchema(ctx context.Context, q Querier, query string) error {
	schema, err := QuerySchema(ctx, q, query)
	if err != nil {
		return fmt.Errorf("overwrite table %s: %w", tx.root, err)
	}
	s := tx.view
	m := s.Metadata()
	if m.Configuration == nil {
		m.Configuration = map[string]string{}
	}
	// Keep the columns' nullability and mapping when name and type stay.
	for i, f := range schema.Fields {
		if old := s.schema.Field(f.Name); old != nil && sameType(old.Type, f.Type) {
			schema.Fields[i] = old
		}
	}
	if s.mapping != ColumnMappingNone {
		schema = assignColumnMapping(schema, m.Configuration)
	}
	if err := validateSchema(schema, m.PartitionColumns, tx.root, s.mapping != ColumnMappingNone); err != nil {
		return err
	}
	m.SchemaString = schema.String()
	p := s.Protocol()
	if usesType(schema, TimestampNTZType) {
		if up, changed := withTimestampNTZ(p); changed {
			p = up
			tx.protocol = &p
		}
	}
	tx.metadata = &m
	tx.view = s.derive(&p, &m, schema, nil)
	return nil
}

// Truncate stages the removal of every live file (the schema, properties
// and table id stay). It fails with ErrAppendOnly on an append-only
// table.
func (tx *Transaction) Truncate(ctx context.Context) (DeleteMetrics, error) {
	if err := tx.usable(); err != nil {
		return DeleteMetrics{}, err
	}
	if tx.skipped {
		return DeleteMetrics{}, nil
	}
	if err := tx.checkRemovable("truncate"); err != nil {
		return DeleteMetrics{}, err
	}
	m := tx.removeAll()
	tx.kinds = append(tx.kinds, opTruncate)
	return m, nil
}

// removeAll removes every live file of the view and marks the whole
// table as read.
func (tx *Transaction) removeAll() DeleteMetrics {
	files := tx.view.files
	var m DeleteMetrics
	m.PartitionOnly = true
	for _, f := range files {
		m.FilesRemoved++
		m.BytesRemoved += f.Size
		if n, ok := f.NumRecords(); ok {
			m.DeletedRows += n
		}
	}
	tx.metrics.DeletedRows += m.DeletedRows
	tx.readWholeTable = true
	tx.removeFiles(files)
	return m
}

// checkRemovable refuses data-removing operations on append-only tables
// and on tables whose change data feed would need change files.
func (tx *Transaction) checkRemovable(op string) error {
	s := tx.view
	if strings.EqualFold(s.metadata.Configuration[PropAppendOnly], "true") {
		return fmt.Errorf("%w: cannot %s table %s; remove the property to allow it", ErrAppendOnly, op, tx.root)
	}
	if s.cdfEnabled() {
		return fmt.Errorf("%w: cannot %s table %s: it has %s=true and laktory does not write change data files",
			ErrUnsupportedFeature, op, tx.root, PropEnableChangeDataFeed)
	}
	return nil
}
