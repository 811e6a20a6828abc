package polarsread

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// JSONSchema is the query reading JSON files (from, a DuckDB list of
// paths: an array of objects, or one object) with a declared schema as
// pl.read_json(schema=...) reads them (Laktory 0.13.1 passes a POLARS JSON
// source's schema so). Each declared column by name (absent keys null,
// other keys dropped); polars' JSON deserializer converts values otherwise
// than its JSON lines reader (NDJSONSchema):
//
//   - integers (Int8 to UInt64): JSON integers, NULL beyond the dtype;
//     floats truncated toward zero (NULL beyond it); true and false as 1
//     and 0; text, arrays and objects fail (`error deserializing value
//     "String("5")" as numeric`);
//   - Float32, Float64: numbers, true and false; the rest fails;
//   - Boolean: true and false only;
//   - String: text, numbers as Rust prints them (3.0 is "3"), true and
//     false; arrays and objects fail;
//   - Date: a number of days since 1970-01-01 (floats truncated, true 1,
//     NULL beyond Int32); text fails;
//   - Datetime in UTC (Laktory's Datetime): text of a date, a T, t or a
//     space, a time with seconds, an optional fraction (digits past
//     microseconds dropped) and Z or an offset (±HH:MM or ±HHMM, maybe
//     after a space), converted to UTC; other text is NULL; numbers fail;
//   - Datetime without a time zone: text of a date and a time (seconds
//     and fraction optional), whatever zone follows it ignored; other text
//     is NULL; numbers fail. 60 seconds carry a minute in both;
//   - a number JSON cannot hold (beyond Int64 and UInt64 for integers,
//     1e400) fails the file (polars' InvalidNumber).
//
// Decimal, Categorical, Binary, Object, Int128 and UInt128 make polars
// 1.32.0 panic (`not yet implemented`): ErrPolars. Duration, Time, List,
// Struct, Array and a Datetime of another unit than us are ErrUnsupported.
func JSONSchema(from string, cols []workspace.Column) (string, error) {
	decl := make([]string, len(cols))
	sel := make([]string, len(cols))
	j := make([]string, len(cols))
	for i, c := range cols {
		conv, err := jsonColumn("j"+fmt.Sprint(i), c)
		if err != nil {
			return "", err
		}
		decl[i] = sqlString(c.Name) + ": 'JSON'"
		sel[i] = conv + " AS " + ident(c.Name)
		j[i] = ident(c.Name) + " AS j" + fmt.Sprint(i)
	}
	return fmt.Sprintf("SELECT %s FROM (SELECT %s FROM read_json(%s, format = 'auto', columns = {%s}))",
		strings.Join(sel, ", "), strings.Join(j, ", "), from, strings.Join(decl, ", ")), nil
}

func jsonColumn(j string, c workspace.Column) (string, error) {
	if c.DType == nil {
		return "", fmt.Errorf("%w: column '%s' of the schema has no dtype", ErrUnsupported, c.Name)
	}
	name := validate.LaktoryDType(c.DType.Name)
	jt := "json_type(" + j + ")"
	raw := "CAST(" + j + " AS VARCHAR)"
	str := "json_extract_string(" + j + ", '$')"
	// The value as polars' message shows it (simd-json's Debug).
	shown := "CASE " + jt + " WHEN 'VARCHAR' THEN 'String(\"' || " + str + " || '\")'" +
		" WHEN 'BOOLEAN' THEN 'Static(Bool(' || " + raw + " || '))'" +
		" WHEN 'UBIGINT' THEN 'Static(U64(' || " + raw + " || '))'" +
		" WHEN 'BIGINT' THEN (CASE WHEN " + raw + " LIKE '-%' THEN 'Static(I64(' ELSE 'Static(U64(' END) || " + raw + " || '))'" +
		" WHEN 'DOUBLE' THEN 'Static(F64(' || " + raw + " || '))'" +
		" WHEN 'ARRAY' THEN 'Array(' || " + raw + " || ')' ELSE 'Object(' || " + raw + " || ')' END"
	fail := func(as string) string {
		return "error('error deserializing value \"' || " + shown + " || '\" as " + as + ".')"
	}
	isInt := jt + " IN ('BIGINT', 'UBIGINT')"
	d := "CAST(" + raw + " AS DOUBLE)"
	var expr string
	switch name {
	case "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64":
		t := map[string]string{"Int8": "TINYINT", "Int16": "SMALLINT", "Int32": "INTEGER", "Int64": "BIGINT",
			"UInt8": "UTINYINT", "UInt16": "USMALLINT", "UInt32": "UINTEGER", "UInt64": "UBIGINT"}[name]
		expr = "CASE WHEN " + isInt + " THEN TRY_CAST(" + raw + " AS " + t + ")" +
			" WHEN " + jt + " = 'DOUBLE' THEN TRY_CAST(trunc(" + d + ") AS " + t + ")" +
			" WHEN " + jt + " = 'BOOLEAN' THEN CAST(CAST(" + j + " AS BOOLEAN) AS " + t + ")" +
			" ELSE " + fail("numeric") + " END"
	case "Float64", "Float32":
		v := d
		if name == "Float32" {
			v = "(CASE WHEN abs(" + d + ") >= " + floatMax32Half + " THEN CAST(sign(" + d + ") * 'inf'::DOUBLE AS FLOAT) ELSE CAST(" + d + " AS FLOAT) END)"
		}
		t := map[string]string{"Float32": "FLOAT", "Float64": "DOUBLE"}[name]
		expr = "CASE WHEN " + isInt + " OR " + jt + " = 'DOUBLE' THEN CAST(" + v + " AS " + t + ")" +
			" WHEN " + jt + " = 'BOOLEAN' THEN CAST(CAST(" + j + " AS BOOLEAN) AS " + t + ")" +
			" ELSE " + fail("numeric") + " END"
	case "Boolean":
		expr = "CASE WHEN " + jt + " = 'BOOLEAN' THEN CAST(" + j + " AS BOOLEAN) ELSE " + fail("boolean") + " END"
	case "String":
		float := "regexp_replace(polars_float_text(CAST(" + d + " AS VARCHAR), 400, -400), '\\.0$', '')"
		expr = "CASE " + jt + " WHEN 'VARCHAR' THEN " + str + " WHEN 'DOUBLE' THEN " + float +
			" WHEN 'ARRAY' THEN " + fail("string") + " WHEN 'OBJECT' THEN " + fail("string") + " ELSE " + raw + " END"
	case "Date":
		days := "CASE WHEN " + isInt + " THEN TRY_CAST(" + raw + " AS INTEGER) WHEN " + jt + " = 'DOUBLE' THEN TRY_CAST(trunc(" + d + ") AS INTEGER)" +
			" WHEN " + jt + " = 'BOOLEAN' THEN CAST(CAST(" + j + " AS BOOLEAN) AS INTEGER) END"
		expr = "CASE WHEN " + jt + " IN ('BIGINT', 'UBIGINT', 'DOUBLE', 'BOOLEAN') THEN TRY_CAST(DATE '1970-01-01' + " + days + " AS DATE)" +
			" ELSE " + fail("numeric") + " END"
	case "Datetime":
		if u := c.DType.TimeUnit; u != "" && u != "us" {
			return "", fmt.Errorf("%w: column '%s' of the schema is a Datetime of time_unit %s, which local runs do not read from JSON as polars does", ErrUnsupported, c.Name, u)
		}
		date := `\+?([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})[Tt ]([01]?[0-9]|2[0-3]):([0-5][0-9])`
		part := func(k int) string {
			return "regexp_extract(" + str + ", '^" + date + "', " + fmt.Sprint(k) + ")"
		}
		// The minute (a valid date and time of day), then the seconds
		// added: polars carries 60 seconds into the next minute.
		minute := "TRY_CAST(" + part(1) + " || '-' || lpad(" + part(2) + ", 2, '0') || '-' || lpad(" + part(3) + ", 2, '0') || ' ' || lpad(" + part(4) + ", 2, '0') || ':' || " + part(5) + " || ':00' AS TIMESTAMP)"
		var conv, match string
		if c.DType.NoTimeZone {
			// The seconds and fraction, if any; a zone after them ignored.
			rest := `(:([0-5][0-9]|60)(\.([0-9]+))?)?`
			secs := "regexp_extract(" + str + ", '^" + date + rest + "', 7)"
			frac := "regexp_extract(" + str + ", '^" + date + rest + "', 9)"
			tail := "regexp_replace(" + str + ", '^" + date + rest + "', '')"
			match = "regexp_matches(" + str + ", '^" + date + "')"
			conv = "CASE WHEN NOT regexp_full_match(" + tail + ", '( ?(Z|z|[+-][0-9]{2}(:?[0-9]{2})?))?|,[0-9]+(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)?')" +
				" THEN error('the datetime ''' || " + str + " || ''' of column " + strings.ReplaceAll(c.Name, "'", "''") + " is not read locally as polars reads it')" +
				" ELSE " + minute + " + to_microseconds(CAST(coalesce(nullif(" + secs + ", ''), '0') AS BIGINT) * 1000000 + CAST(rpad(substr(" + frac + ", 1, 6), 6, '0') AS BIGINT)) END"
		} else {
			full := `^` + date + `:([0-5][0-9]|60)(\.([0-9]+))? ?(Z|z|[+-][0-9]{2}:?[0-9]{2})$`
			ext := func(k int) string { return "regexp_extract(" + str + ", '" + full + "', " + fmt.Sprint(k) + ")" }
			off := ext(9)
			sign := "CASE WHEN " + off + " LIKE '-%' THEN -1 ELSE 1 END"
			offDigits := "replace(substr(" + off + ", 2), ':', '')"
			offMin := "CASE WHEN upper(" + off + ") = 'Z' THEN 0 ELSE " + sign + " * (CAST(substr(" + offDigits + ", 1, 2) AS INTEGER) * 60 + CAST(substr(" + offDigits + ", 3, 2) AS INTEGER)) END"
			match = "regexp_full_match(" + str + ", '" + full + "')"
			local := minute + " + to_microseconds(CAST(" + ext(6) + " AS BIGINT) * 1000000 + CAST(rpad(substr(" + ext(8) + ", 1, 6), 6, '0') AS BIGINT))"
			conv = "timezone('UTC', " + local + " - to_minutes(" + offMin + "))"
		}
		expr = "CASE WHEN " + jt + " <> 'VARCHAR' THEN " + fail("timestamp") + " WHEN " + match + " THEN " + conv + " END"
	case "Decimal", "Categorical", "Binary", "Object", "Int128", "UInt128":
		return "", fmt.Errorf("%w: polars 1.32.0 panics reading JSON into %s (column '%s'): not yet implemented", ErrPolars, name, c.Name)
	default:
		return "", fmt.Errorf("%w: column '%s' of the schema is a %s, which local runs do not read from JSON as polars does", ErrUnsupported, c.Name, c.DType.Name)
	}
	// A number JSON cannot hold fails the file.
	invalid := jt + " = 'DOUBLE' AND (regexp_full_match(" + raw + ", '-?[0-9]+') OR isinf(" + d + "))"
	return "CASE WHEN " + j + " IS NULL THEN NULL WHEN " + invalid + " THEN error('InvalidNumber: polars cannot read the number ' || " + raw + ") ELSE " + expr + " END", nil
}
