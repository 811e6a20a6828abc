package dialect

import (
	"fmt"
	"regexp"
	"strings"
)

var decimalType = regexp.MustCompile(`^(?i)decimal\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$`)

// typeNames maps the spellings of a declared column type (Spark, Delta or
// narwhals, lower case) to its DuckDB and its Spark SQL type. Unsigned
// integers widen to the next signed type on both engines.
var typeNames = map[string][2]string{
	"string": {"VARCHAR", "STRING"}, "str": {"VARCHAR", "STRING"}, "utf8": {"VARCHAR", "STRING"},
	"varchar": {"VARCHAR", "STRING"}, "text": {"VARCHAR", "STRING"},
	"byte": {"TINYINT", "TINYINT"}, "tinyint": {"TINYINT", "TINYINT"}, "int8": {"TINYINT", "TINYINT"},
	"short": {"SMALLINT", "SMALLINT"}, "smallint": {"SMALLINT", "SMALLINT"}, "int16": {"SMALLINT", "SMALLINT"},
	"uint8": {"SMALLINT", "SMALLINT"},
	"int":   {"INTEGER", "INT"}, "integer": {"INTEGER", "INT"}, "int32": {"INTEGER", "INT"}, "uint16": {"INTEGER", "INT"},
	"long": {"BIGINT", "BIGINT"}, "bigint": {"BIGINT", "BIGINT"}, "int64": {"BIGINT", "BIGINT"}, "uint32": {"BIGINT", "BIGINT"},
	"float": {"FLOAT", "FLOAT"}, "float32": {"FLOAT", "FLOAT"}, "real": {"FLOAT", "FLOAT"},
	"double": {"DOUBLE", "DOUBLE"}, "float64": {"DOUBLE", "DOUBLE"},
	"bool": {"BOOLEAN", "BOOLEAN"}, "boolean": {"BOOLEAN", "BOOLEAN"},
	"date":      {"DATE", "DATE"},
	"timestamp": {"TIMESTAMPTZ", "TIMESTAMP"}, "datetime": {"TIMESTAMPTZ", "TIMESTAMP"},
	"timestamp_ntz": {"TIMESTAMP", "TIMESTAMP_NTZ"},
	"binary":        {"BLOB", "BINARY"},
	"decimal":       {"DECIMAL(10,0)", "DECIMAL(10,0)"},
}

// DuckDBTypeName maps a declared column type (Spark, Delta or narwhals
// spelling, as a sink or source `schema` writes it) to a DuckDB type;
// unknown names pass through as DuckDB types.
func DuckDBTypeName(t string) string { return typeName(t, 0) }

// SparkTypeName maps a declared column type, as DuckDBTypeName does, to
// the Spark SQL type of the same values (a DDL column list's type);
// unknown names pass through as Spark types.
func SparkTypeName(t string) string { return typeName(t, 1) }

func typeName(t string, engine int) string {
	s := strings.TrimSpace(t)
	if m := decimalType.FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("DECIMAL(%s,%s)", m[1], m[2])
	}
	if n, ok := typeNames[strings.ToLower(s)]; ok {
		return n[engine]
	}
	return s
}
