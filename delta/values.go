package delta

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// HiveDefaultPartition is the directory value Hive, Spark and delta-rs use
// for a null partition value. A partitionValues entry that is null, empty
// or equal to it reads as NULL.
const HiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// value is a typed scalar of a primitive Delta type, used to prune files:
// int64 (integers), float64, *big.Rat (decimals), string, bool, []byte,
// time.Time (dates and timestamps: UTC; timestamp_ntz as its wall clock in
// UTC). A nil value is SQL NULL.
type value any

// parsePartitionValue parses a partitionValues string as type dt
// (see "Partition Value Serialization" in the protocol).
func parsePartitionValue(dt DataType, raw *string) (value, error) {
	if raw == nil || *raw == "" || *raw == HiveDefaultPartition {
		return nil, nil
	}
	s := *raw
	if dt == StringType {
		return s, nil
	}
	if dt == BinaryType {
		return []byte(s), nil
	}
	return parseScalar(dt, strings.TrimSpace(s))
}

// parseScalar parses the text form of a value of a primitive type (as
// partition values, stats of dates/timestamps and SQL literals write it).
func parseScalar(dt DataType, s string) (value, error) {
	switch t := dt.(type) {
	case DecimalType:
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return nil, fmt.Errorf("%q is not a decimal", s)
		}
		return r, nil
	case PrimitiveType:
		switch t {
		case StringType:
			return s, nil
		case BinaryType:
			return []byte(s), nil
		case LongType, IntegerType, ShortType, ByteType:
			bits := map[PrimitiveType]int{LongType: 64, IntegerType: 32, ShortType: 16, ByteType: 8}[t]
			n, err := strconv.ParseInt(s, 10, bits)
			if err != nil {
				return nil, fmt.Errorf("%q is not a %s", s, t)
			}
			return n, nil
		case FloatType, DoubleType:
			switch strings.ToLower(s) {
			case "nan":
				return math.NaN(), nil
			case "infinity", "inf", "+infinity":
				return math.Inf(1), nil
			case "-infinity", "-inf":
				return math.Inf(-1), nil
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not a %s", s, t)
			}
			return f, nil
		case BooleanType:
			switch strings.ToLower(s) {
			case "true":
				return true, nil
			case "false":
				return false, nil
			}
			return nil, fmt.Errorf("%q is not a boolean", s)
		case DateType:
			d, err := time.Parse("2006-01-02", s)
			if err != nil {
				return nil, fmt.Errorf("%q is not a date (YYYY-MM-DD)", s)
			}
			return d, nil
		case TimestampType, TimestampNTZType:
			ts, err := parseTimestamp(s, t == TimestampType)
			if err != nil {
				return nil, err
			}
			return ts, nil
		}
	}
	return nil, fmt.Errorf("type %s has no scalar values", dt.TypeName())
}

// parseTimestamp accepts "YYYY-MM-DD HH:MM:SS[.ffffff]" (read as UTC), the
// same with a 'T', and ISO 8601 with a zone ("Z", "+01:00"). For
// timestamp_ntz a zone is refused.
func parseTimestamp(s string, withZone bool) (time.Time, error) {
	layouts := []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"}
	for _, l := range layouts {
		if ts, err := time.Parse(l, s); err == nil {
			return ts.UTC(), nil
		}
	}
	if withZone {
		for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z0700", "2006-01-02 15:04:05.999999999Z07", "2006-01-02T15:04:05.999999999Z07"} {
			if ts, err := time.Parse(l, s); err == nil {
				return ts.UTC(), nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])", s)
}

// sqlLiteral renders v, of type dt, as a DuckDB SQL literal of dt's
// DuckDB type.
func sqlLiteral(dt DataType, v value) (string, error) {
	duck, err := DuckDBType(dt)
	if err != nil {
		return "", err
	}
	if v == nil {
		return "CAST(NULL AS " + duck + ")", nil
	}
	switch x := v.(type) {
	case string:
		return "CAST(" + quoteString(x) + " AS " + duck + ")", nil
	case []byte:
		return "unhex('" + hex.EncodeToString(x) + "')", nil
	case int64:
		return "CAST(" + strconv.FormatInt(x, 10) + " AS " + duck + ")", nil
	case float64:
		return "CAST('" + strconv.FormatFloat(x, 'g', -1, 64) + "' AS " + duck + ")", nil
	case *big.Rat:
		d := dt.(DecimalType)
		return "CAST('" + x.FloatString(d.Scale) + "' AS " + duck + ")", nil
	case bool:
		return strconv.FormatBool(x), nil
	case time.Time:
		switch dt {
		case DateType:
			return "DATE '" + x.Format("2006-01-02") + "'", nil
		case TimestampType:
			return "TIMESTAMPTZ '" + x.Format("2006-01-02 15:04:05.999999") + "+00'", nil
		default:
			return "TIMESTAMP '" + x.Format("2006-01-02 15:04:05.999999") + "'", nil
		}
	}
	return "", fmt.Errorf("no SQL literal for %T", v)
}

// statValue converts a min/max stats entry (json.Number or string) to a
// value of type dt. ok is false when the entry is absent or unusable.
func statValue(dt DataType, raw any) (value, bool) {
	switch x := raw.(type) {
	case json.Number:
		switch t := dt.(type) {
		case DecimalType:
			r, ok := new(big.Rat).SetString(x.String())
			return r, ok
		case PrimitiveType:
			switch t {
			case LongType, IntegerType, ShortType, ByteType:
				n, err := x.Int64()
				return n, err == nil
			case FloatType, DoubleType:
				f, err := x.Float64()
				return f, err == nil && !math.IsNaN(f)
			}
		}
	case string:
		if dt == StringType {
			return x, true
		}
		v, err := parseScalar(dt, x)
		if f, isFloat := v.(float64); isFloat && math.IsNaN(f) {
			return nil, false
		}
		return v, err == nil
	case bool:
		if dt == BooleanType {
			return x, true
		}
	}
	return nil, false
}

// compareValues compares two non-nil values of one type: -1, 0, +1; ok is
// false when they are not comparable (mixed types, NaN).
func compareValues(a, b value) (int, bool) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmpOrdered(x, y), true
		case float64:
			return compareFloat(float64(x), y)
		case *big.Rat:
			return new(big.Rat).SetInt64(x).Cmp(y), true
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return compareFloat(x, y)
		case int64:
			return compareFloat(x, float64(y))
		case *big.Rat:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, false
			}
			return new(big.Rat).SetFloat64(x).Cmp(y), true
		}
	case *big.Rat:
		switch y := b.(type) {
		case *big.Rat:
			return x.Cmp(y), true
		case int64:
			return x.Cmp(new(big.Rat).SetInt64(y)), true
		case float64:
			if math.IsNaN(y) || math.IsInf(y, 0) {
				return 0, false
			}
			return x.Cmp(new(big.Rat).SetFloat64(y)), true
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, true
			case !x:
				return -1, true
			default:
				return 1, true
			}
		}
	case time.Time:
		if y, ok := b.(time.Time); ok {
			return x.Compare(y), true
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return strings.Compare(string(x), string(y)), true
		}
	}
	return 0, false
}

func compareFloat(a, b float64) (int, bool) {
	if math.IsNaN(a) || math.IsNaN(b) {
		return 0, false
	}
	return cmpOrdered(a, b), true
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
