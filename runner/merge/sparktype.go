package merge

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/delta"
)

// sparkPrimitives are Spark SQL's names of the primitive types (as
// DataType.simpleString prints them, and their aliases) with their Delta
// names.
var sparkPrimitives = map[string]delta.PrimitiveType{
	"bigint": delta.LongType, "long": delta.LongType, "int": delta.IntegerType, "integer": delta.IntegerType,
	"smallint": delta.ShortType, "short": delta.ShortType, "tinyint": delta.ByteType, "byte": delta.ByteType,
	"string": delta.StringType, "varchar": delta.StringType, "double": delta.DoubleType, "float": delta.FloatType,
	"real": delta.FloatType, "boolean": delta.BooleanType, "binary": delta.BinaryType, "date": delta.DateType,
	"timestamp": delta.TimestampType, "timestamp_ntz": delta.TimestampNTZType,
}

// sparkType parses a Spark SQL type name (bigint, decimal(10,2),
// array<string>, struct<a:int,b:string>, map<string,int>) into its Delta
// type: the columns of a batch on the Spark engine.
func sparkType(name string) (delta.DataType, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if p, ok := sparkPrimitives[n]; ok {
		return p, nil
	}
	switch {
	case strings.HasPrefix(n, "varchar(") || strings.HasPrefix(n, "char("):
		return delta.StringType, nil
	case strings.HasPrefix(n, "decimal"):
		return delta.ParseTypeName(strings.ReplaceAll(n, " ", ""))
	case strings.HasPrefix(n, "array<") && strings.HasSuffix(n, ">"):
		el, err := sparkType(name[len("array<") : len(name)-1])
		if err != nil {
			return nil, err
		}
		return &delta.ArrayType{ElementType: el, ContainsNull: true}, nil
	case strings.HasPrefix(n, "map<") && strings.HasSuffix(n, ">"):
		kv := splitTop(name[len("map<"):len(name)-1], ',')
		if len(kv) != 2 {
			break
		}
		k, err := sparkType(kv[0])
		if err != nil {
			return nil, err
		}
		v, err := sparkType(kv[1])
		if err != nil {
			return nil, err
		}
		return &delta.MapType{KeyType: k, ValueType: v, ValueContainsNull: true}, nil
	case strings.HasPrefix(n, "struct<") && strings.HasSuffix(n, ">"):
		st := &delta.StructType{}
		for _, f := range splitTop(name[len("struct<"):len(name)-1], ',') {
			fname, ftype, ok := strings.Cut(f, ":")
			if !ok {
				return nil, fmt.Errorf("%w: struct field %q of %q", delta.ErrInvalidSchema, f, name)
			}
			dt, err := sparkType(ftype)
			if err != nil {
				return nil, err
			}
			st.Fields = append(st.Fields, &delta.StructField{Name: strings.Trim(strings.TrimSpace(fname), "`"), Type: dt, Nullable: true})
		}
		return st, nil
	}
	return nil, fmt.Errorf("%w: unknown Spark type %q", delta.ErrInvalidSchema, name)
}

// splitTop splits s at sep outside <> and ().
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}
