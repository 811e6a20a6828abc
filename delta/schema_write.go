package delta

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// invalidColumnChars are the characters Spark refuses in column names of
// tables without column mapping (parquet cannot store them safely).
const invalidColumnChars = " ,;{}()\n\t="

// validateSchema checks a new table schema: at least one column, unique
// names (case-insensitively, nested fields too), names Spark accepts
// (unless column mapping is on), and partition columns that exist, are
// distinct, are of a primitive type other than binary, and leave at least
// one data column.
func validateSchema(schema *StructType, partitionColumns []string, root string, mapping bool) error {
	if len(schema.Fields) == 0 {
		return fmt.Errorf("%w: table %s: the schema has no column", ErrInvalidSchema, root)
	}
	if err := checkFieldNames(schema, "", root, mapping); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, pc := range partitionColumns {
		f := schema.Field(pc)
		if f == nil {
			return fmt.Errorf("%w: table %s: partition column %q is not a column (columns: %s)",
				ErrInvalidSchema, root, pc, strings.Join(schema.FieldNames(), ", "))
		}
		if seen[strings.ToLower(pc)] {
			return fmt.Errorf("%w: table %s: partition column %q is listed twice", ErrInvalidSchema, root, pc)
		}
		seen[strings.ToLower(pc)] = true
		if _, err := partitionValueSQL("x", f.Type); err != nil {
			return fmt.Errorf("table %s, partition column %s: %w", root, pc, err)
		}
	}
	if len(partitionColumns) >= len(schema.Fields) {
		return fmt.Errorf("%w: table %s: every column is a partition column; keep at least one data column", ErrInvalidSchema, root)
	}
	return nil
}

func checkFieldNames(st *StructType, prefix, root string, mapping bool) error {
	seen := map[string]string{}
	for _, f := range st.Fields {
		path := f.Name
		if prefix != "" {
			path = prefix + "." + f.Name
		}
		if f.Name == "" {
			return fmt.Errorf("%w: table %s: a column of %q has an empty name", ErrInvalidSchema, root, prefix)
		}
		if other, dup := seen[strings.ToLower(f.Name)]; dup {
			return fmt.Errorf("%w: table %s: columns %q and %q differ only in case (Delta column names are case-insensitive)",
				ErrInvalidSchema, root, other, path)
		}
		seen[strings.ToLower(f.Name)] = path
		if !mapping && strings.ContainsAny(f.Name, invalidColumnChars) {
			return fmt.Errorf("%w: table %s: column name %q contains one of ' ,;{}()\\n\\t=', which Spark refuses without column mapping; rename it (AS ...) or create the table with %s=name",
				ErrInvalidSchema, root, path, PropColumnMappingMode)
		}
		var nested *StructType
		switch t := f.Type.(type) {
		case *StructType:
			nested = t
		case *ArrayType:
			nested, _ = t.ElementType.(*StructType)
		case *MapType:
			nested, _ = t.ValueType.(*StructType)
		}
		if nested != nil {
			if err := checkFieldNames(nested, path, root, mapping); err != nil {
				return err
			}
		}
	}
	return nil
}

// assignColumnMapping returns a copy of schema where every field (nested
// ones too) without column mapping metadata gets a new id (after
// maxColumnId) and a physical name "col-<uuid>"; props'
// delta.columnMapping.maxColumnId is updated.
func assignColumnMapping(schema *StructType, props map[string]string) *StructType {
	next, _ := strconv.ParseInt(props[PropColumnMappingMaxID], 10, 64)
	var copyType func(dt DataType) DataType
	copyStruct := func(st *StructType) *StructType {
		out := &StructType{Fields: make([]*StructField, len(st.Fields))}
		for i, f := range st.Fields {
			md := make(map[string]any, len(f.Metadata)+2)
			for k, v := range f.Metadata {
				md[k] = v
			}
			if _, ok := md[MetaColumnMappingID]; !ok {
				next++
				md[MetaColumnMappingID] = next
				md[MetaColumnMappingPhysicalName] = "col-" + uuid.NewString()
			}
			out.Fields[i] = &StructField{Name: f.Name, Type: copyType(f.Type), Nullable: f.Nullable, Metadata: md}
		}
		return out
	}
	copyType = func(dt DataType) DataType {
		switch t := dt.(type) {
		case *StructType:
			return copyStruct(t)
		case *ArrayType:
			return &ArrayType{ElementType: copyType(t.ElementType), ContainsNull: t.ContainsNull}
		case *MapType:
			return &MapType{KeyType: copyType(t.KeyType), ValueType: copyType(t.ValueType), ValueContainsNull: t.ValueContainsNull}
		}
		return dt
	}
	out := copyStruct(schema)
	props[PropColumnMappingMaxID] = strconv.FormatInt(next, 10)
	return out
}

// QueryColumn is a column of a DuckDB query: its name, DuckDB type and
// the Delta type that stores it.
type QueryColumn struct {
	Name       string
	DuckDBType string
	Type       DataType
}

// QueryColumns describes the columns of a DuckDB query (DESCRIBE), with
// the Delta type of each (see ParseDuckDBType). It fails with
// ErrSchemaMismatch for a type Delta cannot store.
func QueryColumns(ctx context.Context, q Querier, query string) ([]QueryColumn, error) {
	rows, err := q.QueryContext(ctx, "DESCRIBE ("+query+"\n)")
	if err != nil {
		return nil, fmt.Errorf("describe query: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []QueryColumn
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		name, _ := vals[0].(string)
		typ, _ := vals[1].(string)
		dt, err := ParseDuckDBType(typ)
		if err != nil {
			return nil, fmt.Errorf("%w: column %q: %v", ErrSchemaMismatch, name, err)
		}
		out = append(out, QueryColumn{Name: name, DuckDBType: typ, Type: dt})
	}
	return out, rows.Err()
}

// QuerySchema is the Delta schema of a DuckDB query's columns (every
// column nullable), for creating a table from a query.
func QuerySchema(ctx context.Context, q Querier, query string) (*StructType, error) {
	cols, err := QueryColumns(ctx, q, query)
	if err != nil {
		return nil, err
	}
	st := &StructType{}
	for _, c := range cols {
		st.Fields = append(st.Fields, &StructField{Name: c.Name, Type: c.Type, Nullable: true})
	}
	return st, nil
}

// Castable reports whether an append casts values of type from to a
// column of type to (see castable); otherwise it fails with
// ErrSchemaMismatch.
func Castable(from, to DataType) bool { return castable(from, to) }

// castable reports whether values of the query type from fit the table
// type to without loss: equal types (nullability aside), integer
// widening, integers to decimals wide enough and to double, float to
// double, decimal widening, date to timestamp_ntz, timestamp and
// timestamp_ntz both ways (read in UTC), NULL to anything.
func castable(from, to DataType) bool {
	if from == VoidType {
		return true
	}
	switch f := from.(type) {
	case PrimitiveType:
		if t, ok := to.(PrimitiveType); ok {
			if f == t {
				return true
			}
			ints := map[PrimitiveType]int{ByteType: 1, ShortType: 2, IntegerType: 3, LongType: 4}
			if fi, ok := ints[f]; ok {
				if ti, ok := ints[t]; ok {
					return fi <= ti
				}
				return t == DoubleType || (t == FloatType && fi <= 2)
			}
			switch {
			case f == FloatType && t == DoubleType:
				return true
			case f == DateType && t == TimestampNTZType:
				return true
			case (f == TimestampType || f == TimestampNTZType) && (t == TimestampType || t == TimestampNTZType):
				return true
			}
			return false
		}
		if t, ok := to.(DecimalType); ok {
			digits := map[PrimitiveType]int{ByteType: 3, ShortType: 5, IntegerType: 10, LongType: 20}[f]
			return digits > 0 && t.Precision-t.Scale >= digits
		}
	case DecimalType:
		if t, ok := to.(DecimalType); ok {
			return t.Scale >= f.Scale && t.Precision-t.Scale >= f.Precision-f.Scale
		}
		return to == DoubleType
	case *ArrayType:
		if t, ok := to.(*ArrayType); ok {
			return sameType(f.ElementType, t.ElementType)
		}
	case *MapType:
		if t, ok := to.(*MapType); ok {
			return sameType(f.KeyType, t.KeyType) && sameType(f.ValueType, t.ValueType)
		}
	case *StructType:
		if t, ok := to.(*StructType); ok {
			return sameType(f, t)
		}
	}
	return false
}

// sameType compares two types, nullability and field metadata aside
// (struct field names compare case-insensitively).
func sameType(a, b DataType) bool {
	switch x := a.(type) {
	case *StructType:
		y, ok := b.(*StructType)
		if !ok || len(x.Fields) != len(y.Fields) {
			return false
		}
		for i, f := range x.Fields {
			if !strings.EqualFold(f.Name, y.Fields[i].Name) || !sameType(f.Type, y.Fields[i].Type) {
				return false
			}
		}
		return true
	case *ArrayType:
		y, ok := b.(*ArrayType)
		return ok && sameType(x.ElementType, y.ElementType)
	case *MapType:
		y, ok := b.(*MapType)
		return ok && sameType(x.KeyType, y.KeyType) && sameType(x.ValueType, y.ValueType)
	}
	return a == b
}

// duckTypeName is the DuckDB type of a Delta type, or its Delta name when
// it has none (for messages).
func duckTypeName(dt DataType) string {
	if t, err := DuckDBType(dt); err == nil {
		return t
	}
	return dt.TypeName()
}
