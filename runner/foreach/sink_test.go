package foreach_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/foreach"
)

// rowsOf returns n JSON rows {"id": start+i, "name": "n<id>"}.
func rowsOf(start, n int) []string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf(`{"id":%d,"name":"n%d"}`, start+i, start+i)
	}
	return rows
}

// partitions returns n partitions of per rows each, ids 0..n-1, row ids
// unique across partitions.
func partitions(n, per int) []foreach.Partition {
	parts := make([]foreach.Partition, n)
	for i := range parts {
		parts[i] = foreach.Partition{ID: int64(i), Rows: foreach.JSONRows(rowsOf(i*per, per)...)}
	}
	return parts
}

// recorder is a Go writer recording its calls.
type recorder struct {
	open      func(pid, epoch int64) (bool, error)
	process   func(ctx context.Context, row foreach.Row) error
	pid, ep   int64
	opened    bool
	rows      []string
	closedErr error
	closes    int
	closeErr  error
}

func (r *recorder) Open(pid, epoch int64) (bool, error) {
	r.pid, r.ep, r.opened = pid, epoch, true
	if r.open != nil {
		return r.open(pid, epoch)
	}
	return true, nil
}

func (r *recorder) Process(ctx context.Context, row foreach.Row) error {
	if r.process != nil {
		if err := r.process(ctx, row); err != nil {
			return err
		}
	}
	r.rows = append(r.rows, row.String())
	return nil
}

func (r *recorder) Close(err error) error {
	r.closes++
	r.closedErr = err
	return r.closeErr
}

// recorders makes a recorder per partition with mod applied, and keeps them.
type recorders struct {
	mu  sync.Mutex
	all map[int64]*recorder
	mod func(*recorder)
}

func (rs *recorders) factory(_ context.Context, t foreach.Target) (foreach.Writer, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.all == nil {
		rs.all = map[int64]*recorder{}
	}
	if rs.all[t.PartitionID] != nil {
		return nil, fmt.Errorf("a second writer for partition %d", t.PartitionID)
	}
	r := &recorder{}
	if rs.mod != nil {
		rs.mod(r)
	}
	rs.all[t.PartitionID] = r
	return r, nil
}

func TestGoWriterPerPartition(t *testing.T) {
	rs := &recorders{}
	sink := foreach.New("orders", rs.factory, foreach.Options{Parallelism: 3})
	res, err := sink.Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 7}, partitions(4, 5))
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 20 || len(res.Partitions) != 4 {
		t.Fatalf("result %+v", res)
	}
	for i, p := range res.Partitions {
		r := rs.all[int64(i)]
		if p.ID != int64(i) || p.Rows != 5 || p.Skipped || p.Err != nil {
			t.Errorf("partition %d: %+v", i, p)
		}
		if r == nil || r.pid != int64(i) || r.ep != 7 || r.closes != 1 || r.closedErr != nil {
			t.Fatalf("writer of partition %d: %+v", i, r)
		}
		if want := rowsOf(i*5, 5); strings.Join(r.rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("partition %d rows %v, want %v", i, r.rows, want)
		}
	}
}

func TestGoWriterOpenFalseSkips(t *testing.T) {
	read := atomic.Int64{}
	rs := &recorders{mod: func(r *recorder) {
		r.open = func(pid, epoch int64) (bool, error) { return pid%2 == 0, nil }
	}}
	parts := partitions(4, 3)
	for i := range parts {
		src := parts[i].Rows
		parts[i].Rows = nil
		parts[i].Open = func(context.Context) (foreach.Source, error) { read.Add(1); return src, nil }
	}
	res, err := foreach.New("s", rs.factory, foreach.Options{}).Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 1}, parts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 6 {
		t.Errorf("rows %d, want 6", res.Rows)
	}
	if read.Load() != 2 {
		t.Errorf("%d sources opened, want 2: skipped partitions must not be read", read.Load())
	}
	for i, p := range res.Partitions {
		skipped := i%2 == 1
		r := rs.all[int64(i)]
		if p.Skipped != skipped || (len(r.rows) == 0) != skipped || r.closes != 1 || r.closedErr != nil {
			t.Errorf("partition %d: %+v, writer %+v", i, p, r)
		}
	}
}

func TestGoWriterCloseGetsTheError(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		mod      func(*recorder)
		parts    []foreach.Partition
		wantIs   []error
		wantRows int64
		wantMsg  string
	}{
		{
			name: "process fails",
			mod: func(r *recorder) {
				r.process = func(_ context.Context, row foreach.Row) error {
					if v, _ := row.Get("id"); string(v) == "2" {
						return boom
					}
					return nil
				}
			},
			parts:    []foreach.Partition{{ID: 9, Rows: foreach.JSONRows(rowsOf(0, 5)...)}},
			wantIs:   []error{boom},
			wantRows: 2,
			wantMsg:  `ForEach sink "s", flow "f", epoch 3, partition 9 (after 2 rows): row 3: boom`,
		},
		{
			name:    "open fails",
			mod:     func(r *recorder) { r.open = func(int64, int64) (bool, error) { return false, boom } },
			parts:   []foreach.Partition{{ID: 9, Rows: foreach.JSONRows(rowsOf(0, 5)...)}},
			wantIs:  []error{boom},
			wantMsg: `ForEach sink "s", flow "f", epoch 3, partition 9: boom`,
		},
		{
			name:     "bad row",
			parts:    []foreach.Partition{{ID: 9, Rows: foreach.JSONRows(`{"id":1}`, `[1,2]`)}},
			wantIs:   []error{foreach.ErrRow},
			wantRows: 1,
			wantMsg:  "row 2: invalid row: not a JSON object: [1,2]",
		},
		{
			name:     "source fails",
			parts:    []foreach.Partition{{ID: 9, Rows: foreach.Lines(io.MultiReader(strings.NewReader("{\"id\":1}\n"), errReader{boom}))}},
			wantIs:   []error{foreach.ErrSource, boom},
			wantRows: 1,
			wantMsg:  "cannot read rows: after row 1: boom",
		},
		{
			name: "source cannot open",
			parts: []foreach.Partition{{ID: 9, Open: func(context.Context) (foreach.Source, error) {
				return nil, boom
			}}},
			wantIs:  []error{foreach.ErrSource, boom},
			wantMsg: "cannot read rows: boom",
		},
		{
			name:    "close fails",
			mod:     func(r *recorder) { r.closeErr = boom },
			parts:   []foreach.Partition{{ID: 9, Rows: foreach.JSONRows(rowsOf(0, 2)...)}},
			wantIs:  []error{boom},
			wantMsg: "(after 2 rows): boom",
			// Process succeeded for both rows: they count.
			wantRows: 2,
		},
		{
			name: "panic",
			mod: func(r *recorder) {
				r.process = func(context.Context, foreach.Row) error { panic("kaput") }
			},
			parts:   []foreach.Partition{{ID: 9, Rows: foreach.JSONRows(rowsOf(0, 2)...)}},
			wantIs:  []error{foreach.ErrPanic},
			wantMsg: "ForEach writer panicked: kaput",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := &recorders{mod: tt.mod}
			res, err := foreach.New("s", rs.factory, foreach.Options{}).Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 3}, tt.parts)
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range tt.wantIs {
				if !errors.Is(err, want) {
					t.Errorf("error %v is not %v", err, want)
				}
			}
			var pe *foreach.PartitionError
			if !errors.As(err, &pe) || pe.PartitionID != 9 || pe.EpochID != 3 || pe.Flow != "f" || pe.Sink != "s" || pe.Rows != tt.wantRows {
				t.Errorf("partition error %+v", pe)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("message %q lacks %q", err, tt.wantMsg)
			}
			if res.Rows != tt.wantRows || res.Partitions[0].Rows != tt.wantRows || res.Partitions[0].Err != err {
				t.Errorf("result %+v", res)
			}
			r := rs.all[9]
			if r.closes != 1 {
				t.Fatalf("Close called %d times", r.closes)
			}
			if tt.name == "close fails" {
				if r.closedErr != nil {
					t.Errorf("Close got %v, want nil", r.closedErr)
				}
			} else if r.closedErr == nil || !errors.Is(err, r.closedErr) && !errors.Is(r.closedErr, tt.wantIs[0]) {
				t.Errorf("Close got %v, want the partition's error", r.closedErr)
			}
		})
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestPartitionsInParallel: Parallelism partitions run at once and never
// more; every partition waits for the others to open, so this deadlocks
// (and times out) when partitions run one after the other.
func TestPartitionsInParallel(t *testing.T) {
	const p = 3
	var running, peak atomic.Int64
	var barrier sync.WaitGroup
	barrier.Add(p)
	f := func(ctx context.Context, _ foreach.Target) (foreach.Writer, error) {
		return &recorder{open: func(pid, _ int64) (bool, error) {
			n := running.Add(1)
			for {
				m := peak.Load()
				if n <= m || peak.CompareAndSwap(m, n) {
					break
				}
			}
			if pid < p { // the first wave meets
				barrier.Done()
				done := make(chan struct{})
				go func() { barrier.Wait(); close(done) }()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					return false, errors.New("partitions did not run in parallel")
				}
			}
			return true, nil
		}, process: func(context.Context, foreach.Row) error { return nil }}, nil
	}
	sink := foreach.New("s", func(ctx context.Context, t foreach.Target) (foreach.Writer, error) {
		w, _ := f(ctx, t)
		return decrement{w, &running}, nil
	}, foreach.Options{Parallelism: p})
	res, err := sink.Write(context.Background(), foreach.Batch{EpochID: 1}, partitions(7, 10))
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 70 {
		t.Errorf("rows %d", res.Rows)
	}
	if peak.Load() != p {
		t.Errorf("peak %d partitions at once, want %d", peak.Load(), p)
	}
}

// decrement counts a partition as finished when its writer closes.
type decrement struct {
	foreach.Writer
	n *atomic.Int64
}

func (d decrement) Close(err error) error { d.n.Add(-1); return d.Writer.Close(err) }

// TestFailureCancelsOtherPartitions: the first error cancels the running
// partitions (their Process sees the context end, Close gets its error)
// and partitions not started are not started.
func TestFailureCancelsOtherPartitions(t *testing.T) {
	boom := errors.New("boom")
	// Partition 0 fails once partition 1 is running (else the error may
	// come before partition 1 starts, and it is rightly never started).
	running := make(chan struct{})
	var once sync.Once
	rs := &recorders{mod: func(r *recorder) {
		r.process = func(ctx context.Context, row foreach.Row) error {
			if v, _ := row.Get("id"); string(v) == "0" {
				<-running
				return boom
			}
			once.Do(func() { close(running) })
			<-ctx.Done() // partition 1 blocks until cancelled
			return ctx.Err()
		}
	}}
	res, err := foreach.New("s", rs.factory, foreach.Options{Parallelism: 2}).Write(context.Background(), foreach.Batch{EpochID: 1}, partitions(4, 3))
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if !errors.Is(res.Partitions[1].Err, context.Canceled) || !errors.Is(rs.all[1].closedErr, context.Canceled) {
		t.Errorf("partition 1: %v, closed with %v", res.Partitions[1].Err, rs.all[1].closedErr)
	}
	for _, id := range []int64{2, 3} {
		if rs.all[id] != nil || !errors.Is(res.Partitions[id].Err, context.Canceled) || !strings.Contains(res.Partitions[id].Err.Error(), "not started") {
			t.Errorf("partition %d should not start: %v", id, res.Partitions[id].Err)
		}
	}
}

func TestWriterFunc(t *testing.T) {
	var n atomic.Int64
	var sum atomic.Int64
	sink := foreach.New("fn", foreach.Func(func(_ context.Context, row foreach.Row) error {
		var r struct{ ID int64 }
		if err := row.Decode(&r); err != nil {
			return err
		}
		n.Add(1)
		sum.Add(r.ID)
		return nil
	}), foreach.Options{Parallelism: 4})
	res, err := sink.Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 1}, partitions(8, 25))
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 200 || n.Load() != 200 || sum.Load() != 199*200/2 {
		t.Errorf("rows %d, calls %d, sum %d", res.Rows, n.Load(), sum.Load())
	}
}

func TestInvalidBatch(t *testing.T) {
	sink := foreach.New("s", foreach.Func(func(context.Context, foreach.Row) error { return nil }), foreach.Options{})
	tests := []struct {
		name  string
		parts []foreach.Partition
		msg   string
	}{
		{"duplicate ids", []foreach.Partition{{ID: 1, Rows: foreach.JSONRows()}, {ID: 1, Rows: foreach.JSONRows()}}, "partition 1 is given twice"},
		{"no rows", []foreach.Partition{{ID: 1}}, "must set exactly one of Rows and Open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sink.Write(context.Background(), foreach.Batch{EpochID: 1}, tt.parts)
			if !errors.Is(err, foreach.ErrBatch) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %v, want ErrBatch with %q", err, tt.msg)
			}
		})
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sink := foreach.New("s", foreach.Func(func(context.Context, foreach.Row) error { return nil }), foreach.Options{})
	res, err := sink.Write(ctx, foreach.Batch{EpochID: 1}, partitions(2, 2))
	if !errors.Is(err, context.Canceled) || res.Rows != 0 {
		t.Errorf("rows %d, error %v", res.Rows, err)
	}
}

// closingSource counts its closes.
type closingSource struct {
	foreach.Source
	closes *atomic.Int64
}

func (c closingSource) Close() error { c.closes.Add(1); return nil }

// TestSourcesClosed: every Source that is an io.Closer is closed once,
// read or not.
func TestSourcesClosed(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		parts int
		dup   bool // a duplicate id: ErrBatch
		open  func(pid, epoch int64) (bool, error)
		par   int
	}{
		{name: "written", parts: 3},
		{name: "skipped", parts: 3, open: func(int64, int64) (bool, error) { return false, nil }},
		{name: "not started after a failure", parts: 4, par: 1, open: func(pid, _ int64) (bool, error) {
			return false, boom
		}},
		{name: "invalid batch", parts: 3, dup: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var closes atomic.Int64
			parts := partitions(tt.parts, 2)
			for i := range parts {
				parts[i].Rows = closingSource{parts[i].Rows, &closes}
			}
			if tt.dup {
				parts[2].ID = 0
			}
			rs := &recorders{mod: func(r *recorder) { r.open = tt.open }}
			foreach.New("s", rs.factory, foreach.Options{Parallelism: tt.par}).Write(context.Background(), foreach.Batch{EpochID: 1}, parts)
			if closes.Load() != int64(tt.parts) {
				t.Errorf("%d sources closed, want %d", closes.Load(), tt.parts)
			}
		})
	}
}
