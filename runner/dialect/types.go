package dialect

import (
	"fmt"
	"regexp"
	"strings"
)

var decimalType = regexp.MustCompile(`^(?i)decimal\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$`)

// DuckDBTypeName maps a declared column type (Spark, Delta or narwhals
// spelling, as a sink or source `schema` writes it) to a DuckDB type;
// unknown names pass through as DuckDB types.
func DuckDBTypeName(t string) string {
	s := strings.TrimSpace(t)
	if m := decimalType.FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("DECIMAL(%s,%s)", m[1], m[2])
	}
	switch strings.ToLower(s) {
	case "string", "str", "utf8", "varchar", "text":
		return "VARCHAR"
	case "byte", "tinyint", "int8":
		return "TINYINT"
	case "short", "smallint", "int16", "uint8":
		return "SMALLINT"
	case "int", "integer", "int32", "uint16":
		return "INTEGER"
	case "long", "bigint", "int64", "uint32":
		return "BIGINT"
	case "float", "float32", "real":
		return "FLOAT"
	case "double", "float64":
		return "DOUBLE"
	case "bool", "boolean":
		return "BOOLEAN"
	case "date":
		return "DATE"
	case "timestamp", "datetime":
		return "TIMESTAMPTZ"
	case "timestamp_ntz":
		return "TIMESTAMP"
	case "binary":
		return "BLOB"
	case "decimal":
		return "DECIMAL(10,0)"
	}
	return s
}
