package foreach_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync/atomic"
	"testing"

	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/workspace"
)

// jsonLines returns n order rows as JSON lines (about 120 bytes a row).
func jsonLines(start, n int) []byte {
	var b bytes.Buffer
	for i := start; i < start+n; i++ {
		fmt.Fprintf(&b, `{"order_id":%d,"customer":"c-%d","amount":"%d.%02d","status":"shipped","ts":"2024-01-02T03:04:05.000000Z"}`+"\n", i, i%977, i%500, i%100)
	}
	return b.Bytes()
}

// benchWrite writes parts×per rows per iteration through sink and reports
// rows/s.
func benchWrite(b *testing.B, sink *foreach.Sink, parts, per int) {
	b.Helper()
	data := make([][]byte, parts)
	for p := range data {
		data[p] = jsonLines(p*per, per)
	}
	b.SetBytes(int64(len(data[0]) * parts))
	b.ReportAllocs()
	epoch := int64(0)
	for b.Loop() {
		epoch++
		ps := make([]foreach.Partition, parts)
		for p := range ps {
			ps[p] = foreach.Partition{ID: int64(p), Rows: foreach.Lines(bytes.NewReader(data[p]))}
		}
		res, err := sink.Write(context.Background(), foreach.Batch{Flow: "bench", EpochID: epoch}, ps)
		if err != nil {
			b.Fatal(err)
		}
		if res.Rows != int64(parts*per) {
			b.Fatalf("rows %d", res.Rows)
		}
	}
	b.ReportMetric(float64(parts*per)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCommandSink: rows to `cat` (its stdout is discarded), one
// process per partition.
func BenchmarkCommandSink(b *testing.B) {
	if _, err := exec.LookPath("cat"); err != nil {
		b.Skip("no cat")
	}
	sink, err := foreach.FromSpec(&workspace.ForEach{Command: []string{"cat"}}, "bench", foreach.Options{Parallelism: 4})
	if err != nil {
		b.Fatal(err)
	}
	benchWrite(b, sink, 4, 100_000)
}

// BenchmarkCommandSinkFromDuckDB: rows read from DuckDB with RowJSON (one
// query per partition) to `cat`: the path of a streaming micro-batch.
func BenchmarkCommandSinkFromDuckDB(b *testing.B) {
	if _, err := exec.LookPath("cat"); err != nil {
		b.Skip("no cat")
	}
	db := openDuckDB(b)
	if _, err := db.Exec(`CREATE TABLE batch AS SELECT range AS order_id, 'c-' || (range % 977) AS customer,
		(range % 50000 / 100)::DECIMAL(10,2) AS amount, 'shipped' AS status,
		TIMESTAMPTZ '2024-01-02 03:04:05+00' + INTERVAL (range) SECOND AS ts FROM range(400000)`); err != nil {
		b.Fatal(err)
	}
	query := "SELECT " + foreach.RowJSON(describe(b, db, "batch")) + " FROM batch WHERE order_id % 4 = ?"
	sink, err := foreach.FromSpec(&workspace.ForEach{Command: []string{"cat"}}, "bench", foreach.Options{Parallelism: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	epoch := int64(0)
	for b.Loop() {
		epoch++
		ps := make([]foreach.Partition, 4)
		for p := range ps {
			ps[p] = foreach.Partition{ID: int64(p), Open: foreach.Query(db, query, p)}
		}
		res, err := sink.Write(context.Background(), foreach.Batch{Flow: "bench", EpochID: epoch}, ps)
		if err != nil || res.Rows != 400_000 {
			b.Fatal(res.Rows, err)
		}
	}
	b.ReportMetric(400_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkHTTPSink: one PUT per row to a loopback server, one keep-alive
// connection per partition.
func BenchmarkHTTPSink(b *testing.B) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	sink, err := foreach.FromSpec(&workspace.ForEach{HTTP: &workspace.HTTPWriter{URL: srv.URL + "/orders/{order_id}"}}, "bench", foreach.Options{Parallelism: 4})
	if err != nil {
		b.Fatal(err)
	}
	benchWrite(b, sink, 4, 2_500)
	b.ReportMetric(float64(conns.Load())/float64(b.N), "conns/batch")
}

// BenchmarkGoWriter: a per-row Go function reading one column.
func BenchmarkGoWriter(b *testing.B) {
	var sum atomic.Int64
	sink := foreach.New("bench", func(context.Context, foreach.Target) (foreach.Writer, error) {
		return foreach.WriterFunc(func(_ context.Context, r foreach.Row) error {
			if v, ok := r.Get("status"); ok {
				sum.Add(int64(len(v)))
			}
			return nil
		}), nil
	}, foreach.Options{Parallelism: 4})
	benchWrite(b, sink, 4, 100_000)
}
