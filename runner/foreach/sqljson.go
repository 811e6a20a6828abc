package foreach

import (
	"strings"
)

// Column is a column of the relation a micro-batch is read from: its name
// and its DuckDB type as DESCRIBE shows it.
type Column struct {
	Name string
	Type string
}

// RowJSON returns a DuckDB expression that evaluates to each row as one
// compact JSON object (VARCHAR) with the columns in order and their types
// kept as writers expect them, where DuckDB's to_json does otherwise:
//
//   - TIMESTAMP WITH TIME ZONE: RFC 3339 in UTC, 2024-01-02T03:04:05.000000Z
//   - TIMESTAMP (and _S, _MS, _NS): 2024-01-02T03:04:05.000000 (RFC 3339
//     without an offset: the column has no time zone; _NS keeps 9 digits)
//   - DECIMAL: a string with the exact digits ("12.30"), as numbers would
//     lose precision in most JSON readers
//   - DOUBLE/FLOAT: numbers, NaN and infinities as "NaN", "Infinity",
//     "-Infinity" (JSON has no such numbers); FLOAT keeps its short form
//   - BLOB: a base64 string
//
// Other types keep to_json's form: integers (HUGEINT too) as numbers,
// BOOLEAN, DATE "2024-01-02", TIME, UUID, VARCHAR, and nested values
// (LIST, STRUCT, MAP) whose members are not converted. Use it as
// `SELECT ` + RowJSON(cols) + ` FROM relation`.
func RowJSON(cols []Column) string {
	if len(cols) == 0 {
		return "'{}'"
	}
	var b strings.Builder
	b.WriteString("to_json({")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteLiteral(c.Name))
		b.WriteString(": ")
		b.WriteString(jsonValue(quoteIdent(c.Name), c.Type))
	}
	b.WriteString("})::VARCHAR")
	return b.String()
}

// jsonValue converts the column expression x of DuckDB type typ to what
// its JSON member should hold.
func jsonValue(x, typ string) string {
	t := strings.ToUpper(strings.TrimSpace(typ))
	switch {
	case t == "TIMESTAMP WITH TIME ZONE" || t == "TIMESTAMPTZ":
		return "strftime(" + x + " AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ')"
	case t == "TIMESTAMP_NS":
		return "strftime(" + x + ", '%Y-%m-%dT%H:%M:%S.%n')"
	case t == "TIMESTAMP" || t == "TIMESTAMP_S" || t == "TIMESTAMP_MS" || t == "DATETIME":
		return "strftime(" + x + ", '%Y-%m-%dT%H:%M:%S.%f')"
	case strings.HasPrefix(t, "DECIMAL") || strings.HasPrefix(t, "NUMERIC"):
		return "CAST(" + x + " AS VARCHAR)"
	case t == "DOUBLE" || t == "FLOAT8" || t == "FLOAT" || t == "REAL" || t == "FLOAT4":
		num := "to_json(" + x + ")"
		if t == "FLOAT" || t == "REAL" || t == "FLOAT4" {
			num = "to_json(CAST(CAST(" + x + " AS VARCHAR) AS DOUBLE))"
		}
		return "CASE WHEN isnan(" + x + `) THEN '"NaN"'::JSON WHEN isinf(` + x + ") AND " + x + ` > 0 THEN '"Infinity"'::JSON WHEN isinf(` + x + `) THEN '"-Infinity"'::JSON ELSE ` + num + " END"
	case t == "BLOB" || t == "BYTEA" || t == "VARBINARY":
		return "to_base64(" + x + ")"
	}
	return x
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
