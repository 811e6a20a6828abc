package polarsread

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// NDJSONSchema is the query reading JSON lines files (from, a DuckDB list
// of paths) with a declared schema as pl.scan_ndjson(schema=...) reads
// them (Laktory 0.13.1 passes a POLARS source's schema so): each declared
// column by name (absent keys null, other keys dropped), its values
// converted as polars' deserializer converts them, failing with polars'
// message where polars fails:
//
//   - Boolean: JSON true and false only (`cannot parse '0' as Boolean`);
//   - Int32, Int64, UInt32, UInt64, Int128: integers in range, floats
//     truncated toward zero, true and false as 1 and 0; text fails
//     (`cannot parse '5' as Int64`), so does a value beyond the dtype;
//   - Float32, Float64: numbers, true and false as 1.0 and 0.0; text fails;
//   - String: text as it is, numbers as Rust prints them (3.0 is "3",
//     2e3 "2000"), true and false, arrays and objects as polars writes
//     them (`[1, 2]`, `{"x": 1}`);
//   - Date: text in the forms polars infers for a date (2024-02-29,
//     2024-3-7, 31/01/2024, 2024.02.29); a number fails;
//   - Datetime: a date (year first with - / or ., or day first) alone
//     (midnight) or with a time after a T (a fraction of 1 to 9 digits)
//     or a space (3, 6 or 9 digits), the fraction past microseconds
//     dropped, in UTC unless the dtype says `time_zone: null`; an offset
//     or Z converts to UTC; `time_unit: ms` truncates to milliseconds,
//     `ns` keeps nanoseconds (without a time zone: a zoned one of another
//     unit than us is ErrUnsupported);
//   - Decimal: polars 1.32.0 fails on every value that is not null.
//
// The dtypes polars panics on (LK222) and those validate refuses are
// ErrPolars; Categorical, Object (binary), Array, List, Struct, Duration
// and Time, which local runs do not hold as polars does, ErrUnsupported.
func NDJSONSchema(from string, cols []workspace.Column) (string, error) {
	decl := make([]string, len(cols))
	sel := make([]string, len(cols))
	for i, c := range cols {
		conv, err := ndjsonColumn("j"+fmt.Sprint(i), c)
		if err != nil {
			return "", err
		}
		decl[i] = sqlString(c.Name) + ": 'JSON'"
		sel[i] = conv + " AS " + ident(c.Name)
	}
	j := make([]string, len(cols))
	for i, c := range cols {
		j[i] = ident(c.Name) + " AS j" + fmt.Sprint(i)
	}
	return fmt.Sprintf("SELECT %s FROM (SELECT %s FROM read_json(%s, format = 'newline_delimited', columns = {%s}))",
		strings.Join(sel, ", "), strings.Join(j, ", "), from, strings.Join(decl, ", ")), nil
}

// floatMax32Half is the smallest double Rust's `as f32` rounds to infinity.
const floatMax32Half = "3.4028235677973366e38"

func ndjsonColumn(j string, c workspace.Column) (string, error) {
	if c.DType == nil {
		return "", fmt.Errorf("%w: column '%s' of the schema has no dtype", ErrUnsupported, c.Name)
	}
	name := validate.LaktoryDType(c.DType.Name)
	jt := "json_type(" + j + ")"
	// text is the value as polars' messages show it.
	text := "CASE WHEN " + jt + " = 'VARCHAR' THEN json_extract_string(" + j + ", '$') ELSE CAST(" + j + " AS VARCHAR) END"
	fail := func(dtype string) string {
		return "error('cannot parse ''' || " + text + " || ''' as " + dtype + "')"
	}
	isInt := jt + " IN ('BIGINT', 'UBIGINT')"
	var expr string
	switch name {
	case "Boolean":
		expr = "CASE WHEN " + jt + " = 'BOOLEAN' THEN CAST(" + j + " AS BOOLEAN) ELSE " + fail(name) + " END"
	case "Int32", "Int64", "UInt32", "UInt64", "Int128":
		t := map[string]string{"Int32": "INTEGER", "Int64": "BIGINT", "UInt32": "UINTEGER", "UInt64": "UBIGINT", "Int128": "HUGEINT"}[name]
		expr = "CASE WHEN " + isInt + " THEN coalesce(TRY_CAST(CAST(" + j + " AS VARCHAR) AS " + t + "), " + fail(name) + ")" +
			" WHEN " + jt + " = 'DOUBLE' THEN coalesce(TRY_CAST(trunc(CAST(" + j + " AS DOUBLE)) AS " + t + "), " + fail(name) + ")" +
			" WHEN " + jt + " = 'BOOLEAN' THEN CAST(CAST(" + j + " AS BOOLEAN) AS " + t + ")" +
			" ELSE " + fail(name) + " END"
	case "Float64", "Float32":
		d := "CAST(CAST(" + j + " AS VARCHAR) AS DOUBLE)"
		if name == "Float32" {
			d = "(CASE WHEN abs(" + d + ") >= " + floatMax32Half + " THEN CAST(sign(" + d + ") * 'inf'::DOUBLE AS FLOAT) ELSE CAST(" + d + " AS FLOAT) END)"
		}
		t := map[string]string{"Float32": "FLOAT", "Float64": "DOUBLE"}[name]
		expr = "CASE WHEN " + isInt + " OR " + jt + " = 'DOUBLE' THEN CAST(" + d + " AS " + t + ")" +
			" WHEN " + jt + " = 'BOOLEAN' THEN CAST(CAST(" + j + " AS BOOLEAN) AS " + t + ")" +
			" ELSE " + fail(name) + " END"
	case "String":
		// Rust's Display of a double: its shortest digits, never an
		// exponent, no ".0" (polars_float_text with unbounded limits).
		float := "regexp_replace(polars_float_text(CAST(CAST(" + j + " AS DOUBLE) AS VARCHAR), 400, -400), '\\.0$', '')"
		// An array or an object as polars writes it: ", " and ": "
		// between items, strings unescaped in their quotes, numbers as
		// Rust prints them (2.0 is 2, 1e-7 0.0000001).
		nested := "array_to_string(list_transform(regexp_extract_all(CAST(" + j + " AS VARCHAR), '\"(?:[^\"\\\\]|\\\\.)*\"|[,:\\[\\]{}]|[^\",:\\[\\]{}]+'), " +
			"t -> CASE WHEN t = ',' THEN ', ' WHEN t = ':' THEN ': ' WHEN t LIKE '\"%' THEN '\"' || json_extract_string(CAST(t AS JSON), '$') || '\"'" +
			" WHEN regexp_full_match(trim(t), '-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?') AND regexp_matches(t, '[.eE]')" +
			" THEN regexp_replace(polars_float_text(CAST(CAST(trim(t) AS DOUBLE) AS VARCHAR), 400, -400), '\\.0$', '') ELSE trim(t) END), '')"
		expr = "CASE " + jt + " WHEN 'VARCHAR' THEN json_extract_string(" + j + ", '$') WHEN 'DOUBLE' THEN " + float +
			" WHEN 'ARRAY' THEN " + nested + " WHEN 'OBJECT' THEN " + nested + " ELSE CAST(" + j + " AS VARCHAR) END"
	case "Date":
		s := "json_extract_string(" + j + ", '$')"
		expr = "CASE WHEN " + jt + " = 'VARCHAR' AND regexp_full_match(" + s + ", '[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}|[0-9]{1,2}[-/.][0-9]{1,2}[-/.][0-9]{4}')" +
			" THEN coalesce(CAST(TRY_STRPTIME(" + s + ", ['%Y-%m-%d', '%Y/%m/%d', '%Y.%m.%d', '%d-%m-%Y', '%d/%m/%Y', '%d.%m.%Y']) AS DATE), " + fail(name) + ")" +
			" ELSE " + fail(name) + " END"
	case "Datetime":
		// A date (year first: - / .; or day first) and, after a T, a time
		// with a fraction of 1 to 9 digits; after a space only 3, 6 or 9
		// (polars' datetime patterns); an offset or Z in UTC.
		s := "json_extract_string(" + j + ", '$')"
		zone := "(Z|[+-][0-9]{2}:?[0-9]{2})?"
		if c.DType.NoTimeZone {
			zone = ""
		}
		// Year first; day first takes no zone, and a fraction of 3, 6 or
		// 9 digits after a T too.
		ymd := "[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}"
		dmy := "[0-9]{1,2}[-/.][0-9]{1,2}[-/.][0-9]{4}"
		clock := "[0-9]{1,2}:[0-9]{2}(:[0-9]{2}"
		frac369 := "(\\.([0-9]{3}|[0-9]{6}|[0-9]{9}))?)?"
		form := ymd + "(T" + clock + "(\\.[0-9]{1,9})?)?" + zone + "| " + clock + frac369 + zone + ")?|" +
			dmy + "([T ]" + clock + frac369 + ")?"
		norm := "regexp_replace(regexp_replace(regexp_replace(" + s + ", '^([0-9]{1,2})[-/.]([0-9]{1,2})[-/.]([0-9]{4})', '\\3-\\2-\\1'), " +
			"'^([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})', '\\1-\\2-\\3'), '(\\.[0-9]{6})[0-9]+', '\\1')"
		conv := "TRY_CAST(" + norm + " AS TIMESTAMP)"
		switch unit := c.DType.TimeUnit; {
		case unit == "" || unit == "us":
		case !c.DType.NoTimeZone || (unit != "ms" && unit != "ns"):
			// Local runs hold zoned datetimes in microseconds only.
			return "", fmt.Errorf("%w: column '%s' of the schema is a Datetime of time_unit %s with a time zone, which local runs do not hold", ErrUnsupported, c.Name, unit)
		case unit == "ms":
			// polars truncates the fraction to milliseconds.
			conv = "CAST(date_trunc('millisecond', " + conv + ") AS TIMESTAMP_MS)"
		default:
			// Nanoseconds: every digit of the fraction kept.
			norm = strings.Replace(norm, "'(\\.[0-9]{6})[0-9]+'", "'(\\.[0-9]{9})[0-9]+'", 1)
			conv = "TRY_CAST(" + norm + " AS TIMESTAMP_NS)"
		}
		if !c.DType.NoTimeZone {
			conv = "CASE WHEN regexp_matches(" + s + ", '(Z|[+-][0-9]{2}:?[0-9]{2})$') THEN TRY_CAST(" + norm + " AS TIMESTAMPTZ) ELSE timezone('UTC', " + conv + ") END"
		}
		expr = "CASE WHEN " + jt + " = 'VARCHAR' AND regexp_full_match(" + s + ", '" + form + "')" +
			" THEN coalesce(" + conv + ", " + fail(name) + ") ELSE " + fail(name) + " END"
	case "Decimal":
		kind := "CASE " + jt + " WHEN 'UBIGINT' THEN 'UInt64' WHEN 'BIGINT' THEN 'Int64' WHEN 'DOUBLE' THEN 'Float64' WHEN 'BOOLEAN' THEN 'Boolean' WHEN 'VARCHAR' THEN 'String' ELSE 'Object' END"
		expr = "CAST(error('unexpected value while building Series of type Decimal(Some(38), Some(0)); found value of type ' || " + kind + " || ': ' || CAST(" + j + " AS VARCHAR)) AS DECIMAL(38,0))"
	case "Int8", "Int16", "UInt8", "UInt16":
		return "", fmt.Errorf("%w: polars 1.32.0 panics reading JSON lines into %s (column '%s'): unexpected dtype when deserializing ndjson", ErrPolars, name, c.Name)
	default:
		return "", fmt.Errorf("%w: column '%s' of the schema is a %s, which local runs do not read from JSON lines as polars does", ErrUnsupported, c.Name, c.DType.Name)
	}
	return "CASE WHEN " + j + " IS NULL THEN NULL ELSE " + expr + " END", nil
}
