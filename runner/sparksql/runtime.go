package sparksql

import (
	"errors"
	"regexp"
	"strings"
)

// ErrRuntime marks the errors Spark raises while running a query
// (division by zero, malformed casts, overflow, ...).
var ErrRuntime = errors.New("Spark runtime error")

// RunError is an error raised while running translated SQL, with the
// class Spark raises for it.
type RunError struct {
	Class string
	Msg   string
	Err   error // DuckDB's error
}

func (e *RunError) Error() string { return "[" + e.Class + "] " + e.Msg }

// Unwrap gives ErrRuntime and DuckDB's error.
func (e *RunError) Unwrap() []error { return []error{ErrRuntime, e.Err} }

var (
	ourClass  = regexp.MustCompile(`\[([A-Z_][A-Z0-9_]*(?:\.[A-Z_][A-Z0-9_]*)*|[A-Z][A-Za-z]*Exception)\] ?(.*)`)
	duckKinds = []struct {
		re    *regexp.Regexp
		class string
		msg   string
	}{
		{regexp.MustCompile(`Overflow in (?:addition|subtraction|multiplication|negation|division) of INT(?:8|16) `), "BINARY_ARITHMETIC_OVERFLOW", "a tinyint or smallint operation caused overflow. Use `try_add` to ignore overflow problem and return NULL."},
		{regexp.MustCompile(`Overflow in (?:addition|subtraction|multiplication|negation|division)|Overflow on abs|Overflow in ABS|out of range for INT|Overflow in cast|Failed to cast decimal value`), "ARITHMETIC_OVERFLOW", "overflow. Use 'try_add' to tolerate overflow and return NULL instead."},
		{regexp.MustCompile(`Could not convert string '([^']*)' to`), "CAST_INVALID_INPUT", "The value '$1' cannot be cast because it is malformed. Use `try_cast` to tolerate malformed input and return NULL instead."},
		{regexp.MustCompile(`(?:Could not cast value|Casting value) .* to (?:type )?DECIMAL|to DECIMAL\(.*out of range`), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", "a value cannot be represented in the decimal type. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, and return NULL instead."},
		{regexp.MustCompile(`value is out of range for the destination type|can't be cast because the value is out of range`), "CAST_OVERFLOW", "a value cannot be cast due to an overflow. Use `try_cast` to tolerate overflow and return NULL instead."},
		{regexp.MustCompile(`Map keys must be unique|Duplicate keys? .*map`), "DUPLICATED_MAP_KEY", "Duplicate map key was found, please check the input data."},
		{regexp.MustCompile(`Map keys can not be NULL|map key.*NULL`), "NULL_MAP_KEY", "Cannot use null as map key."},
		{regexp.MustCompile(`could not convert blob to UTF8 string`), "MALFORMED_CHARACTER_CODING", "Invalid value found when performing `decode` with UTF-8"},
		{regexp.MustCompile(`More than one row returned by a subquery`), "SCALAR_SUBQUERY_TOO_MANY_ROWS", "More than one row returned by a subquery used as an expression."},
		{regexp.MustCompile(`(?i)date out of range|Date field value out of range|make_date|Timestamp field value out of range`), "DATETIME_FIELD_OUT_OF_BOUNDS", "a date or time field is out of its valid range."},
		{regexp.MustCompile(`(?i)zone .* not found|Unknown TimeZone`), "INVALID_TIMEZONE", "The time zone is not valid."},
	}
)

// RuntimeError maps an error DuckDB raised while running translated SQL
// to the error Spark raises, with its class (errors.Is(err, ErrRuntime)).
// Errors without a Spark counterpart are returned unchanged.
func RuntimeError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if m := ourClass.FindStringSubmatch(msg); m != nil && strings.Contains(msg, "Invalid Input Error") {
		return &RunError{Class: m[1], Msg: strings.TrimSpace(m[2]), Err: err}
	}
	for _, k := range duckKinds {
		if sm := k.re.FindStringSubmatch(msg); sm != nil {
			out := k.msg
			if len(sm) > 1 {
				out = strings.ReplaceAll(out, "$1", sm[1])
			}
			return &RunError{Class: k.class, Msg: out, Err: err}
		}
	}
	return err
}
