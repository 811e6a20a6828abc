package merge

import (
	"fmt"
	"strings"
)

// sparkString is the DuckDB SQL of a value of DuckDB type typ as Spark
// casts it to a string for concat_ws (the text SCD type 2 hashes): decimals
// with their scale, doubles and floats as Java's Double.toString and
// Float.toString print them (1.0, 1.0E7, 1.0E-4, NaN, Infinity), booleans
// true/false, timestamps yyyy-MM-dd HH:mm:ss[.ffffff] without trailing
// zeros (in UTC: Spark uses its session time zone), binary as UTF-8 text.
// Arrays of such values are flattened into concat_ws's list (their NULL
// elements skipped); structs, maps and nested arrays are an error, as in
// Spark.
func sparkString(expr, typ string) (string, error) {
	t := strings.ToUpper(strings.TrimSpace(typ))
	switch {
	case strings.HasSuffix(t, "[]"):
		elem := strings.TrimSuffix(t, "[]")
		if strings.HasSuffix(elem, "[]") || strings.HasPrefix(elem, "STRUCT") || strings.HasPrefix(elem, "MAP") {
			return "", fmt.Errorf("%w: concat_ws takes strings and arrays of strings, not %s", ErrUnhashable, typ)
		}
		s, err := sparkString("__x", elem)
		if err != nil {
			return "", err
		}
		// An array without non-NULL elements adds nothing, not "".
		return fmt.Sprintf("CASE WHEN len(list_filter(%[1]s, __x -> __x IS NOT NULL)) > 0 THEN array_to_string(list_transform(%[1]s, __x -> %[2]s), '~') END", expr, s), nil
	case t == "VARCHAR" || strings.HasPrefix(t, "VARCHAR("):
		return expr, nil
	case t == "BOOLEAN" || t == "DATE" || strings.HasPrefix(t, "DECIMAL") || isInteger(t):
		return "CAST(" + expr + " AS VARCHAR)", nil
	case t == "DOUBLE" || t == "FLOAT" || t == "REAL":
		return javaFloat(expr), nil
	case t == "TIMESTAMP" || t == "TIMESTAMP_NS" || t == "TIMESTAMP_MS" || t == "TIMESTAMP_S":
		return "strftime(CAST(" + expr + " AS TIMESTAMP), '%Y-%m-%d %H:%M:%S') || " + fraction("CAST("+expr+" AS TIMESTAMP)"), nil
	case t == "TIMESTAMP WITH TIME ZONE" || t == "TIMESTAMPTZ":
		utc := "timezone('UTC', " + expr + ")"
		return "strftime(" + utc + ", '%Y-%m-%d %H:%M:%S') || " + fraction(utc), nil
	case t == "BLOB":
		return "decode(" + expr + ")", nil
	}
	return "", fmt.Errorf("%w: no Spark string form for the type %s", ErrUnhashable, typ)
}

// fraction is a timestamp's fractional seconds as Spark prints them: "" or
// "." and up to six digits without trailing zeros.
func fraction(ts string) string {
	return "CASE WHEN microsecond(" + ts + ") % 1000000 = 0 THEN '' ELSE '.' || rtrim(lpad(CAST(microsecond(" + ts + ") % 1000000 AS VARCHAR), 6, '0'), '0') END"
}

func isInteger(t string) bool {
	switch t {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT":
		return true
	}
	return false
}

// javaFloat prints a DOUBLE or FLOAT as Java's toString does, from
// DuckDB's shortest text of the value: plain notation with at least one
// fraction digit when 1e-3 <= |x| < 1e7, else d.dddE±n.
func javaFloat(x string) string {
	// __s is DuckDB's text of |x| ("123.45", "0.001", "1e+20", "1.5e-07");
	// __de is [digits without leading or trailing zeros, decimal exponent
	// of the first digit]; __e that exponent.
	digits := `list_transform([CAST(abs(` + x + `) AS VARCHAR)], __s -> CASE
		WHEN contains(__s, 'e') THEN [coalesce(nullif(rtrim(replace(split_part(__s, 'e', 1), '.', ''), '0'), ''), '0'), CAST(CAST(split_part(__s, 'e', 2) AS INTEGER) AS VARCHAR)]
		WHEN split_part(__s, '.', 1) <> '0' THEN [coalesce(nullif(rtrim(split_part(__s, '.', 1) || split_part(__s, '.', 2), '0'), ''), '0'), CAST(length(split_part(__s, '.', 1)) - 1 AS VARCHAR)]
		ELSE [rtrim(ltrim(split_part(__s, '.', 2), '0'), '0'), CAST(length(ltrim(split_part(__s, '.', 2), '0')) - length(split_part(__s, '.', 2)) - 1 AS VARCHAR)]
		END)[1]`
	format := `list_transform([` + digits + `], __de -> list_transform([CAST(__de[2] AS INTEGER)], __e -> CASE
		WHEN __e >= -3 AND __e < 7 AND __e >= 0 AND length(__de[1]) <= __e + 1 THEN rpad(__de[1], __e + 1, '0') || '.0'
		WHEN __e >= -3 AND __e < 7 AND __e >= 0 THEN substring(__de[1], 1, __e + 1) || '.' || substring(__de[1], __e + 2)
		WHEN __e >= -3 AND __e < 7 THEN '0.' || repeat('0', -__e - 1) || __de[1]
		ELSE substring(__de[1], 1, 1) || '.' || CASE WHEN length(__de[1]) > 1 THEN substring(__de[1], 2) ELSE '0' END || 'E' || CAST(__e AS VARCHAR)
		END)[1])[1]`
	return `CASE WHEN isnan(` + x + `) THEN 'NaN' WHEN isinf(` + x + `) AND ` + x + ` > 0 THEN 'Infinity' WHEN isinf(` + x + `) THEN '-Infinity'
		WHEN ` + x + ` = 0 THEN CASE WHEN signbit(` + x + `) THEN '-0.0' ELSE '0.0' END
		ELSE CASE WHEN ` + x + ` < 0 THEN '-' ELSE '' END || ` + format + ` END`
}
