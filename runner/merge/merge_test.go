package merge

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/workspace"
)

func testConn(t *testing.T) *sql.Conn {
	t.Helper()
	db, err := delta.OpenDuckDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// applyBatch merges one batch (a DuckDB query) into the table at path, as
// the runner does: plan, create the table when missing, merge.
func applyBatch(t *testing.T, conn *sql.Conn, path string, o *workspace.MergeCDC, query, deleteWhere string, txn Txn) (Result, error) {
	t.Helper()
	ctx := context.Background()
	rel := fmt.Sprintf("batch_%d", len(path)+int(txn.Version))
	if _, err := conn.ExecContext(ctx, "CREATE OR REPLACE TEMP TABLE "+q(rel)+" AS "+query); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(ctx, "DESCRIBE "+q(rel))
	if err != nil {
		t.Fatal(err)
	}
	var cols []Column
	for rows.Next() {
		var name, typ string
		var a, b, c, d sql.NullString
		if err := rows.Scan(&name, &typ, &a, &b, &c, &d); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, Column{name, typ})
	}
	rows.Close()
	p, err := New(o, Batch{Relation: rel, Columns: cols, DeleteWhere: deleteWhere})
	if err != nil {
		return Result{}, err
	}
	e := &Exec{Session: &local.Session{Conn: conn}, Path: path}
	if _, err := e.Create(ctx, p, delta.TableDefinition{}); err != nil {
		return Result{}, err
	}
	return e.Merge(ctx, p, txn)
}

// tableText is the table's rows as sorted "a|b|c" strings of its columns
// in order, and its column names.
func tableText(t *testing.T, conn *sql.Conn, path string) ([]string, []string) {
	t.Helper()
	s, err := delta.LoadSnapshot(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	scan, err := s.ScanSQL(context.Background(), delta.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, n := range s.Schema().FieldNames() {
		exprs = append(exprs, "coalesce(CAST("+q(n)+" AS VARCHAR), 'NULL')")
	}
	rows, err := conn.QueryContext(context.Background(), "SELECT concat_ws('|', "+strings.Join(exprs, ", ")+") FROM ("+scan+")")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	slices.Sort(out)
	return out, s.Schema().FieldNames()
}

func operations(t *testing.T, path string) []string {
	t.Helper()
	tbl, err := delta.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := tbl.History(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, c := range h {
		ops = append(ops, c.Operation)
	}
	slices.Reverse(ops)
	return ops
}

const changes = "SELECT * FROM (VALUES %s) AS s(id, v, seq, op)"

func batch(rows string) string {
	return fmt.Sprintf(changes, rows)
}

// The expected tables and commits are Laktory 0.13.1's on Spark 4.2 with
// Delta 4.4 for the same batches.
func TestSCD1(t *testing.T) {
	conn := testConn(t)
	path := filepath.Join(t.TempDir(), "t")
	o := &workspace.MergeCDC{PrimaryKeys: []string{"id"}, OrderBy: "seq", SCDType: 1, DeleteWhere: "op = 'D'"}
	for i, b := range []string{
		"(1, 'a', 1, 'I'), (2, 'b', 1, 'I'), (1, 'a2', 2, 'U')",
		"(1, 'a2', 2, 'U'), (2, NULL, 1, 'D')",
		"(1, 'a2', 2, 'U')",
	} {
		if _, err := applyBatch(t, conn, path, o, batch(b), o.DeleteWhere, Txn{}); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
	rows, cols := tableText(t, conn, path)
	if !slices.Equal(rows, []string{"1|a2|2|U"}) || !slices.Equal(cols, []string{"id", "v", "seq", "op"}) {
		t.Fatalf("rows %v, columns %v", rows, cols)
	}
	// A MERGE commit per batch, also for the one that changes nothing.
	if ops := operations(t, path); !slices.Equal(ops, []string{"CREATE TABLE", "MERGE", "MERGE", "MERGE"}) {
		t.Fatalf("operations %v", ops)
	}
}

func TestSCD2(t *testing.T) {
	conn := testConn(t)
	path := filepath.Join(t.TempDir(), "t")
	o := &workspace.MergeCDC{PrimaryKeys: []string{"id"}, OrderBy: "seq", SCDType: 2, DeleteWhere: "op = 'D'",
		StartAt: workspace.DefaultStartAtColumn, EndAt: workspace.DefaultEndAtColumn}
	for i, b := range []string{
		"(1, 'a', 1, 'I'), (2, 'b', 1, 'I'), (1, 'a2', 2, 'U')",
		"(1, 'a3', 3, 'U'), (2, NULL, 4, 'D')",
		"(1, 'a3', 3, 'U'), (2, NULL, 4, 'D')",
	} {
		if _, err := applyBatch(t, conn, path, o, batch(b), o.DeleteWhere, Txn{}); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
	rows, cols := tableText(t, conn, path)
	want := []string{
		"1|a2|2|U|29439490d7a324e2dac81f40950e60a2dc639d84adce808ed93243dadb2cfad1|2|3",
		"1|a3|3|U|1e09a0bf2d12e3bd1b2425fbf876b3a837c866268498b911c3b89f8778ac2ac8|3|NULL",
		"1|a|1|I|a196e1194533733f1eb6c0d39d93200469ff85e8a578e33051af6f3af79cdd72|1|2",
		"2|b|1|I|033894accdd40f34eaa665e06edb40e580b1f8253cdfe0f34ae4f299f57f98de|1|4",
	}
	if !slices.Equal(rows, want) || !slices.Equal(cols, []string{"id", "v", "seq", "op", "__hash_cols", "__start_at", "__end_at"}) {
		t.Fatalf("rows %v\nwant %v\ncolumns %v", rows, want, cols)
	}
	// The first batch closes nothing: no MERGE commit; the replay commits
	// nothing.
	if ops := operations(t, path); !slices.Equal(ops, []string{"CREATE TABLE", "WRITE", "MERGE", "WRITE"}) {
		t.Fatalf("operations %v", ops)
	}
}

func TestStreamingTxn(t *testing.T) {
	for _, scd := range []int{1, 2} {
		t.Run(fmt.Sprint("SCD", scd), func(t *testing.T) {
			conn := testConn(t)
			path := filepath.Join(t.TempDir(), "t")
			o := &workspace.MergeCDC{PrimaryKeys: []string{"id"}, OrderBy: "seq", SCDType: scd, StartAt: "s", EndAt: "e"}
			txn := Txn{AppID: "flow", Version: 0}
			// NULL keys are inserted again by every merge of a batch (NULL
			// = NULL is not true): a replayed micro-batch must be skipped.
			b := batch("(NULL::INTEGER, 'n', 1, 'I'), (1, 'a', 1, 'I')")
			if _, err := applyBatch(t, conn, path, o, b, "", txn); err != nil {
				t.Fatal(err)
			}
			res, err := applyBatch(t, conn, path, o, b, "", txn)
			if err != nil || !res.Skipped || len(res.Commits) != 0 {
				t.Fatalf("replay: %+v, %v", res, err)
			}
			if rows, _ := tableText(t, conn, path); len(rows) != 2 {
				t.Fatalf("rows %v", rows)
			}
			txn.Version = 1
			if res, err = applyBatch(t, conn, path, o, b, "", txn); err != nil || res.Skipped {
				t.Fatalf("next batch: %+v, %v", res, err)
			}
			if rows, _ := tableText(t, conn, path); len(rows) != 3 {
				t.Fatalf("the next batch inserts the NULL key again: rows %v", rows)
			}
		})
	}
}

func TestPlanErrors(t *testing.T) {
	conn := testConn(t)
	for _, tc := range []struct {
		name string
		o    workspace.MergeCDC
		want error
	}{
		{"unknown key", workspace.MergeCDC{PrimaryKeys: []string{"nope"}, SCDType: 1}, ErrOptions},
		{"unknown order_by", workspace.MergeCDC{PrimaryKeys: []string{"id"}, OrderBy: "ts", SCDType: 1}, ErrOptions},
		{"unknown included column", workspace.MergeCDC{PrimaryKeys: []string{"id"}, IncludeColumns: []string{"x"}, SCDType: 1}, ErrOptions},
		{"SCD2 without order_by", workspace.MergeCDC{PrimaryKeys: []string{"id"}, SCDType: 2}, ErrOptions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := applyBatch(t, conn, filepath.Join(t.TempDir(), "t"), &tc.o, batch("(1, 'a', 1, 'I')"), "", Txn{})
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
	// A batch column the table lacks: Delta's MERGE does not add it.
	path := filepath.Join(t.TempDir(), "t")
	o := &workspace.MergeCDC{PrimaryKeys: []string{"id"}, SCDType: 1}
	if _, err := applyBatch(t, conn, path, o, batch("(1, 'a', 1, 'I')"), "", Txn{}); err != nil {
		t.Fatal(err)
	}
	_, err := applyBatch(t, conn, path, o, "SELECT 1 AS id, 'x' AS extra", "", Txn{})
	if !errors.Is(err, ErrTargetColumns) || !strings.Contains(err.Error(), `"extra"`) {
		t.Fatalf("new column: %v", err)
	}
}

// The texts are what Spark 4.2 gives for concat_ws('~', value).
func TestSparkString(t *testing.T) {
	conn := testConn(t)
	for _, tc := range []struct{ value, typ, want string }{
		{"1.0", "DOUBLE", "1.0"},
		{"1e7", "DOUBLE", "1.0E7"},
		{"1e-3", "DOUBLE", "0.001"},
		{"1e-4", "DOUBLE", "1.0E-4"},
		{"123456789.123", "DOUBLE", "1.23456789123E8"},
		{"0.1::DOUBLE + 0.2::DOUBLE", "DOUBLE", "0.30000000000000004"},
		{"'NaN'", "DOUBLE", "NaN"},
		{"'-Infinity'", "DOUBLE", "-Infinity"},
		{"1.5", "FLOAT", "1.5"},
		{"0.1", "FLOAT", "0.1"},
		{"1e10", "FLOAT", "1.0E10"},
		{"1.5", "DECIMAL(10,2)", "1.50"},
		{"0", "DECIMAL(10,3)", "0.000"},
		{"-0.5", "DECIMAL(5,1)", "-0.5"},
		{"'2024-01-02 03:04:05'", "TIMESTAMP WITH TIME ZONE", "2024-01-02 03:04:05"},
		{"'2024-01-02 03:04:05.5'", "TIMESTAMP WITH TIME ZONE", "2024-01-02 03:04:05.5"},
		{"'2024-01-02 03:04:05.123456'", "TIMESTAMP WITH TIME ZONE", "2024-01-02 03:04:05.123456"},
		{"'2024-01-02 03:04:05.120'", "TIMESTAMP", "2024-01-02 03:04:05.12"},
		{"'2024-01-02'", "DATE", "2024-01-02"},
		{"true", "BOOLEAN", "true"},
		{"5", "TINYINT", "5"},
		{"9223372036854775807", "BIGINT", "9223372036854775807"},
		{"'hi'", "BLOB", "hi"},
		{"['a', NULL, 'b']", "VARCHAR[]", "a~b"},
		{"[1, 2]", "INTEGER[]", "1~2"},
	} {
		expr, err := sparkString("CAST("+tc.value+" AS "+tc.typ+")", tc.typ)
		if err != nil {
			t.Fatal(err)
		}
		var got sql.NullString
		if err := conn.QueryRowContext(context.Background(), "SELECT concat_ws('~', "+expr+")").Scan(&got); err != nil {
			t.Fatalf("%s %s: %v", tc.value, tc.typ, err)
		}
		if got.String != tc.want {
			t.Errorf("%s as %s: %q, Spark gives %q", tc.value, tc.typ, got.String, tc.want)
		}
	}
	for _, typ := range []string{"STRUCT(a INTEGER)", "MAP(VARCHAR, INTEGER)", "VARCHAR[][]", "INTERVAL"} {
		if _, err := sparkString("x", typ); !errors.Is(err, ErrUnhashable) {
			t.Errorf("%s: %v", typ, err)
		}
	}
}
