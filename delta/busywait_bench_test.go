package delta

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// BenchmarkCallerWait measures what the calling thread's busy wait costs
// (docs/performance.md): DuckDB 1.5's PendingQueryResult::ExecuteInternal,
// which the driver runs every query through, loops without waiting while
// the query's remaining tasks run on DuckDB's workers (duckdb/duckdb#22178).
// The rewrite of a delete (the COPY writeData runs for it, with the scan's
// SQL, over a 2M-row table of one file) runs three ways on one connection:
//
//   - driver: as the product runs it, DuckDB's default threads;
//   - loop: the same statement through the pending-result C API, the
//     caller executing tasks and sleeping 200 us when none is available
//     (what a driver without the busy wait would do);
//   - threads=1: the driver with one thread (no worker to wait for).
//
// The loop reaches the driver's connection through reflection: it is a
// measurement, not a way to run queries.
func BenchmarkCallerWait(b *testing.B) {
	ctx := context.Background()
	db := benchDB(b)
	loadBenchSource(b, db, "", 2_000_000)
	base := writeBenchBase(b, db, false)
	s := mustSnapshot(b, base)
	keep, err := s.ScanSQL(ctx, ScanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	phys, err := physicalSelect(s, "SELECT * FROM ("+keep+"\n) AS __d WHERE (writer = 'w3') IS NOT TRUE")
	if err != nil {
		b.Fatal(err)
	}
	opts := strings.Join(parquetOptions(s.Schema().Fields, DefaultTargetFileSize), ", ")
	copyTo := func(out string) string {
		return "COPY (" + phys + ") TO " + quoteString(out) + " (" + opts + ", RETURN_STATS)"
	}
	for _, mode := range []string{"driver", "loop", "threads=1"} {
		b.Run(mode, func(b *testing.B) {
			conn, err := db.Conn(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			if mode == "threads=1" {
				if _, err := conn.ExecContext(ctx, "SET threads = 1"); err != nil {
					b.Fatal(err)
				}
				defer conn.ExecContext(ctx, "RESET threads") //nolint:errcheck // benchmark
			}
			var cpu cpuMeter
			defer cpu.report(b)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				q := copyTo(filepath.Join(b.TempDir(), "f.parquet"))
				cpu.startTimer(b)
				if mode == "loop" {
					err = execWaiting(conn, q)
				} else {
					_, err = conn.ExecContext(ctx, q)
				}
				cpu.stopTimer(b)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// execWaiting runs q on conn through the pending-result API, executing
// tasks and sleeping when none is available.
func execWaiting(conn *sql.Conn, q string) error {
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*duckdb.Conn)
		if !ok {
			return errors.New("not a DuckDB connection")
		}
		field := reflect.ValueOf(c).Elem().FieldByName("conn")
		mc := *(*mapping.Connection)(unsafe.Pointer(field.UnsafeAddr()))
		var st mapping.PreparedStatement
		defer mapping.DestroyPrepare(&st)
		if mapping.Prepare(mc, q, &st) == mapping.StateError {
			return errors.New(mapping.PrepareError(st))
		}
		var p mapping.PendingResult
		defer mapping.DestroyPending(&p)
		if mapping.PendingPrepared(st, &p) == mapping.StateError {
			return errors.New(mapping.PendingError(p))
		}
		for {
			s := mapping.PendingExecuteTask(p)
			if mapping.PendingExecutionIsFinished(s) || s == mapping.PendingStateResultReady || s == mapping.PendingStateError {
				break
			}
			if s == mapping.PendingStateNoTasksAvailable {
				time.Sleep(200 * time.Microsecond)
			}
		}
		var res mapping.Result
		defer mapping.DestroyResult(&res)
		if mapping.ExecutePending(p, &res) == mapping.StateError {
			return errors.New(mapping.ResultError(&res))
		}
		return nil
	})
}
