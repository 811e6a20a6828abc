package local

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	duckdb "github.com/duckdb/duckdb-go/v2"
)

// ErrIPCType: an Arrow IPC file holds a column of a type local runs do
// not read (polars' Time, Duration, Categorical, ...).
var ErrIPCType = errors.New("an Arrow IPC column type local runs do not read")

// ipcMu serializes loads: two reads of one file load it once.
var ipcMu sync.Mutex

// LoadIPC reads an Arrow IPC file (polars' write_ipc: the Feather v2
// file format) with arrow-go into a table of the database's in-memory
// catalog, which every connection sees, and returns the table's name
// (memory.main."lk_ipc_..."). The table is named after the file's path,
// size and modification time, so reading an unchanged file again reuses
// it; a changed file is loaded anew and its previous table dropped. q is
// the session's connection or the database.
func LoadIPC(ctx context.Context, q Querier, path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	key := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d", path, st.Size(), st.ModTime().UnixNano())))
	pathKey := sha256.Sum256([]byte(path))
	prefix := "lk_ipc_" + hex.EncodeToString(pathKey[:6]) + "_"
	name := prefix + hex.EncodeToString(key[:8])
	rel := "memory.main." + quoteIdent(name)
	ipcMu.Lock()
	defer ipcMu.Unlock()
	conn, done, err := rawConn(ctx, q)
	if err != nil {
		return "", err
	}
	defer done()
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'memory' AND schema_name = 'main' AND table_name = ?", name).Scan(&n); err != nil {
		return "", err
	}
	if n > 0 {
		return rel, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	rd, err := ipc.NewFileReader(f)
	if err != nil {
		return "", fmt.Errorf("%s is not an Arrow IPC file: %w", path, err)
	}
	defer rd.Close()
	schema := rd.Schema()
	defs := make([]string, schema.NumFields())
	for i, fd := range schema.Fields() {
		t, err := duckType(fd.Type)
		if err != nil {
			return "", fmt.Errorf("%s, column %s: %w", path, fd.Name, err)
		}
		defs[i] = quoteIdent(fd.Name) + " " + t
	}
	// Previous loads of the file, which changed since.
	rows, err := conn.QueryContext(ctx, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'memory' AND schema_name = 'main' AND starts_with(table_name, ?)", prefix)
	if err != nil {
		return "", err
	}
	var stale []string
	for rows.Next() {
		var s string
		if rows.Scan(&s) == nil {
			stale = append(stale, s)
		}
	}
	rows.Close()
	for _, s := range stale {
		conn.ExecContext(ctx, "DROP TABLE IF EXISTS memory.main."+quoteIdent(s)) //nolint:errcheck // best effort
	}
	tmp := name + "_loading"
	if _, err := conn.ExecContext(ctx, "CREATE OR REPLACE TABLE memory.main."+quoteIdent(tmp)+" ("+strings.Join(defs, ", ")+")"); err != nil {
		return "", err
	}
	err = conn.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), "memory", "main", tmp)
		if err != nil {
			return err
		}
		var aerr error
		for b := 0; b < rd.NumRecords() && aerr == nil; b++ {
			if err := ctx.Err(); err != nil {
				aerr = err
				break
			}
			rec, err := rd.RecordBatch(b)
			if err != nil {
				aerr = err
				break
			}
			vals := make([]driver.Value, rec.NumCols())
			for r := 0; r < int(rec.NumRows()) && aerr == nil; r++ {
				for c := range vals {
					vals[c] = ipcValue(rec.Column(c), r)
				}
				aerr = a.AppendRow(vals...)
			}
		}
		return errors.Join(aerr, a.Close())
	})
	if err == nil {
		_, err = conn.ExecContext(ctx, "ALTER TABLE memory.main."+quoteIdent(tmp)+" RENAME TO "+quoteIdent(name))
	}
	if err != nil {
		conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS memory.main."+quoteIdent(tmp)) //nolint:errcheck // best effort
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return rel, nil
}

// rawConn is a connection of q (itself when it is one).
func rawConn(ctx context.Context, q Querier) (*sql.Conn, func(), error) {
	switch x := q.(type) {
	case *sql.Conn:
		return x, func() {}, nil
	case *sql.DB:
		c, err := x.Conn(ctx)
		if err != nil {
			return nil, nil, err
		}
		return c, func() { c.Close() }, nil
	}
	return nil, nil, fmt.Errorf("local engine: cannot load Arrow IPC files through a %T", q)
}

// duckType is the DuckDB type of an Arrow type, as polars' dtypes map to
// DuckDB's elsewhere (String VARCHAR, Int64 BIGINT, Datetime(us)
// TIMESTAMP, with a time zone TIMESTAMPTZ, ...).
func duckType(t arrow.DataType) (string, error) {
	switch tt := t.(type) {
	case *arrow.Int8Type:
		return "TINYINT", nil
	case *arrow.Int16Type:
		return "SMALLINT", nil
	case *arrow.Int32Type:
		return "INTEGER", nil
	case *arrow.Int64Type:
		return "BIGINT", nil
	case *arrow.Uint8Type:
		return "UTINYINT", nil
	case *arrow.Uint16Type:
		return "USMALLINT", nil
	case *arrow.Uint32Type:
		return "UINTEGER", nil
	case *arrow.Uint64Type:
		return "UBIGINT", nil
	case *arrow.Float32Type:
		return "FLOAT", nil
	case *arrow.Float64Type:
		return "DOUBLE", nil
	case *arrow.BooleanType:
		return "BOOLEAN", nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return "VARCHAR", nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return "BLOB", nil
	case *arrow.Date32Type:
		return "DATE", nil
	case *arrow.TimestampType:
		if tt.TimeZone != "" {
			return "TIMESTAMPTZ", nil
		}
		return "TIMESTAMP", nil
	case *arrow.Decimal128Type:
		if tt.Precision > 38 {
			break
		}
		return fmt.Sprintf("DECIMAL(%d, %d)", tt.Precision, tt.Scale), nil
	case *arrow.ListType:
		e, err := duckType(tt.Elem())
		return e + "[]", err
	case *arrow.LargeListType:
		e, err := duckType(tt.Elem())
		return e + "[]", err
	case *arrow.StructType:
		parts := make([]string, tt.NumFields())
		for i, f := range tt.Fields() {
			e, err := duckType(f.Type)
			if err != nil {
				return "", err
			}
			parts[i] = quoteIdent(f.Name) + " " + e
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")", nil
	}
	return "", fmt.Errorf("%w: %s", ErrIPCType, t)
}

// ipcValue is row r of an Arrow array as the appender takes it.
func ipcValue(a arrow.Array, r int) driver.Value {
	if a.IsNull(r) {
		return nil
	}
	switch x := a.(type) {
	case *array.Int8:
		return x.Value(r)
	case *array.Int16:
		return x.Value(r)
	case *array.Int32:
		return x.Value(r)
	case *array.Int64:
		return x.Value(r)
	case *array.Uint8:
		return x.Value(r)
	case *array.Uint16:
		return x.Value(r)
	case *array.Uint32:
		return x.Value(r)
	case *array.Uint64:
		return x.Value(r)
	case *array.Float32:
		return x.Value(r)
	case *array.Float64:
		return x.Value(r)
	case *array.Boolean:
		return x.Value(r)
	case *array.String:
		return x.Value(r)
	case *array.LargeString:
		return x.Value(r)
	case *array.StringView:
		return x.Value(r)
	case *array.Binary:
		return append([]byte(nil), x.Value(r)...)
	case *array.LargeBinary:
		return append([]byte(nil), x.Value(r)...)
	case *array.BinaryView:
		return append([]byte(nil), x.Value(r)...)
	case *array.Date32:
		return x.Value(r).ToTime()
	case *array.Timestamp:
		unit := x.DataType().(*arrow.TimestampType).Unit
		return x.Value(r).ToTime(unit).UTC()
	case *array.Decimal128:
		dt := x.DataType().(*arrow.Decimal128Type)
		return duckdb.Decimal{Width: uint8(dt.Precision), Scale: uint8(dt.Scale), Value: x.Value(r).BigInt()}
	case *array.List:
		s, e := x.ValueOffsets(r)
		return sliceValues(x.ListValues(), int(s), int(e))
	case *array.LargeList:
		s, e := x.ValueOffsets(r)
		return sliceValues(x.ListValues(), int(s), int(e))
	case *array.Struct:
		st := x.DataType().(*arrow.StructType)
		m := make(map[string]any, st.NumFields())
		for i, f := range st.Fields() {
			m[f.Name] = ipcValue(x.Field(i), r)
		}
		return m
	}
	return nil
}

func sliceValues(a arrow.Array, s, e int) []any {
	out := make([]any, 0, e-s)
	for i := s; i < e; i++ {
		out = append(out, ipcValue(a, i))
	}
	return out
}
