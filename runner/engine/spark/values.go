package spark

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"github.com/laktory/workbench/delta"
)

// quoteIdent quotes an identifier: the engine's sessions read double
// quotes as identifiers (spark.sql.ansi.doubleQuotedIdentifiers).
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a Spark SQL string literal (backslash escapes).
func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// scan stores the values of a row into dest as database/sql's Scan does
// for the types the runner reads: integers, booleans (nullable), strings,
// string maps and any.
func scan(row []any, dest []any) error {
	if len(row) < len(dest) {
		return fmt.Errorf("spark: %d columns, %d destinations", len(row), len(dest))
	}
	for i, d := range dest {
		v := row[i]
		switch p := d.(type) {
		case *any:
			*p = v
		case *int64:
			n, err := toInt(v)
			if err != nil {
				return err
			}
			*p = n
		case *bool:
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("spark: column %d is %T, not a boolean", i, v)
			}
			*p = b
		case **bool:
			if v == nil {
				*p = nil
				continue
			}
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("spark: column %d is %T, not a boolean", i, v)
			}
			*p = &b
		case *string:
			if v == nil {
				*p = ""
				continue
			}
			*p = fmt.Sprint(v)
		case *map[string]string:
			m := map[string]string{}
			rv := reflect.ValueOf(v)
			if rv.Kind() == reflect.Map {
				for _, k := range rv.MapKeys() {
					m[fmt.Sprint(k.Interface())] = fmt.Sprint(rv.MapIndex(k).Interface())
				}
			}
			*p = m
		default:
			return fmt.Errorf("spark: cannot scan into %T", d)
		}
	}
	return nil
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int:
		return int64(x), nil
	case *big.Int:
		return x.Int64(), nil
	case nil:
		return 0, nil
	}
	return 0, fmt.Errorf("spark: %T is not an integer", v)
}

// conflictSentinel maps Delta's error classes of lost commit races to the
// conflicts of package delta (nil for other classes).
func conflictSentinel(class string) error {
	top, _, _ := strings.Cut(class, ".")
	switch top {
	case "DELTA_CONCURRENT_APPEND", "DELTA_CONCURRENT_WRITE": // WRITE: new data since the transaction read the table
		return delta.ErrConcurrentAppend
	case "DELTA_CONCURRENT_DELETE_READ":
		return delta.ErrConcurrentDeleteRead
	case "DELTA_CONCURRENT_DELETE_DELETE":
		return delta.ErrConcurrentDeleteDelete
	case "DELTA_CONCURRENT_TRANSACTION":
		return delta.ErrConcurrentTransaction
	case "DELTA_METADATA_CHANGED", "DELTA_PATH_EXISTS": // PATH_EXISTS: another writer created the new table first (writeNew)
		return delta.ErrMetadataChanged
	case "DELTA_PROTOCOL_CHANGED":
		return delta.ErrProtocolChanged
	}
	return nil
}
