package foreach_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/runner/foreach"
)

func openDuckDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "?autoinstall_known_extensions=false")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// describe returns the columns of a relation.
func describe(t testing.TB, q foreach.Querier, rel string) []foreach.Column {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), "SELECT column_name, column_type FROM (DESCRIBE "+rel+")")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []foreach.Column
	for rows.Next() {
		var c foreach.Column
		if err := rows.Scan(&c.Name, &c.Type); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	return cols
}

// TestRowJSON: rows read from DuckDB through RowJSON keep their types:
// numbers as numbers, timestamps as RFC 3339, decimals as exact strings.
func TestRowJSON(t *testing.T) {
	ctx := context.Background()
	conn, err := openDuckDB(t).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		`SET TimeZone = 'America/New_York'`,
		`CREATE TABLE t AS SELECT * FROM (VALUES
			(1, 12345678901234567890::HUGEINT, 1.5::DOUBLE, 0.1::FLOAT, 12.30::DECIMAL(10,2), 123456789012345678901234567.5::DECIMAL(38,1),
			 TIMESTAMP '2024-01-02 03:04:05.123456', TIMESTAMPTZ '2024-01-02 03:04:05+02', TIMESTAMP_NS '2024-01-02 03:04:05.123456789',
			 DATE '2024-01-02', 'a"b' || chr(10) || 'c', true, [1, 2], {'x': 1}, '\x00\xff'::BLOB),
			(2, NULL, 'nan'::DOUBLE, 'inf'::FLOAT, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
			(3, -1, '-inf'::DOUBLE, -2.5::FLOAT, -0.05::DECIMAL(10,2), 0::DECIMAL(38,1), TIMESTAMP '1999-12-31 23:59:59', TIMESTAMPTZ '2000-01-01 00:00:00.5+00',
			 TIMESTAMP_NS '2000-01-01 00:00:00', DATE '2000-01-01', '', false, [], {'x': NULL}, ''::BLOB)
		) v(id, "big", "d", "f", "dec", "bigdec", "ts", "tstz", "ts_ns", "dt", "it's ""s""", "b", "l", "st", "bl")`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	cols := describe(t, conn, "t")
	rows, err := conn.QueryContext(ctx, "SELECT "+foreach.RowJSON(cols)+" FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var mu sync.Mutex
	sink := foreach.New("s", foreach.Func(func(_ context.Context, r foreach.Row) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.String())
		return nil
	}), foreach.Options{})
	res, err := sink.Write(ctx, foreach.Batch{EpochID: 1}, []foreach.Partition{{ID: 0, Rows: foreach.SQLRows(rows)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"id":1,"big":12345678901234567890,"d":1.5,"f":0.1,"dec":"12.30","bigdec":"123456789012345678901234567.5",` +
			`"ts":"2024-01-02T03:04:05.123456","tstz":"2024-01-02T01:04:05.000000Z","ts_ns":"2024-01-02T03:04:05.123456789",` +
			`"dt":"2024-01-02","it's \"s\"":"a\"b\nc","b":true,"l":[1,2],"st":{"x":1},"bl":"AP8="}`,
		`{"id":2,"big":null,"d":"NaN","f":"Infinity","dec":null,"bigdec":null,"ts":null,"tstz":null,"ts_ns":null,"dt":null,"it's \"s\"":null,"b":null,"l":null,"st":null,"bl":null}`,
		`{"id":3,"big":-1,"d":"-Infinity","f":-2.5,"dec":"-0.05","bigdec":"0.0","ts":"1999-12-31T23:59:59.000000","tstz":"2000-01-01T00:00:00.500000Z",` +
			`"ts_ns":"2000-01-01T00:00:00.000000000","dt":"2000-01-01","it's \"s\"":"","b":false,"l":[],"st":{"x":null},"bl":""}`,
	}
	if res.Rows != 3 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows (%d)\n%s\nwant\n%s", res.Rows, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(got) > 0 {
		row, _ := foreach.ParseRow([]byte(got[0]))
		ts, _ := row.Text("tstz")
		if _, err := time.Parse(time.RFC3339Nano, ts); err != nil {
			t.Errorf("TIMESTAMPTZ %q is not RFC 3339: %v", ts, err)
		}
	}
	if foreach.RowJSON(nil) != "'{}'" {
		t.Error("no columns: an empty object")
	}
}

// TestQueryPartitions: partitions read by Query run their queries when
// they start, in parallel on a pool.
func TestQueryPartitions(t *testing.T) {
	db := openDuckDB(t)
	if _, err := db.Exec(`CREATE TABLE batch AS SELECT range AS id, 'n' || range AS name FROM range(1000)`); err != nil {
		t.Fatal(err)
	}
	query := "SELECT " + foreach.RowJSON(describe(t, db, "batch")) + " FROM batch WHERE id % 4 = ?"
	parts := make([]foreach.Partition, 4)
	for i := range parts {
		parts[i] = foreach.Partition{ID: int64(i), Open: foreach.Query(db, query, i)}
	}
	var mu sync.Mutex
	seen := map[int64][]string{}
	sink := foreach.New("s", func(_ context.Context, tg foreach.Target) (foreach.Writer, error) {
		return foreach.WriterFunc(func(_ context.Context, r foreach.Row) error {
			id, _ := r.Get("id")
			mu.Lock()
			seen[tg.PartitionID] = append(seen[tg.PartitionID], string(id))
			mu.Unlock()
			return nil
		}), nil
	}, foreach.Options{Parallelism: 4})
	res, err := sink.Write(context.Background(), foreach.Batch{EpochID: 1}, parts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 1000 {
		t.Errorf("rows %d", res.Rows)
	}
	for p, ids := range seen {
		if len(ids) != 250 || res.Partitions[p].Rows != 250 {
			t.Errorf("partition %d: %d rows", p, len(ids))
		}
		for _, id := range ids {
			var n int64
			fmt.Sscan(id, &n)
			if n%4 != p {
				t.Errorf("row %s in partition %d", id, p)
			}
		}
	}
	// A query that fails fails its partition.
	_, err = sink.Write(context.Background(), foreach.Batch{EpochID: 2}, []foreach.Partition{{ID: 0, Open: foreach.Query(db, "SELECT nope FROM batch")}})
	if err == nil || !strings.Contains(err.Error(), "cannot read rows") {
		t.Errorf("error %v", err)
	}
	// A query returning DuckDB's JSON type (decoded by the driver) is explained.
	_, err = sink.Write(context.Background(), foreach.Batch{EpochID: 3}, []foreach.Partition{{ID: 0, Open: foreach.Query(db, "SELECT to_json(b) FROM batch b")}})
	if err == nil || !strings.Contains(err.Error(), "one text column holding the row's JSON") {
		t.Errorf("error %v", err)
	}
}
