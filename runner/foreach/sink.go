package foreach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// Writer writes the rows of one partition of one micro-batch, as Spark's
// ForeachWriter: a Sink makes a new Writer for each partition (Factory),
// calls Open once, Process for each row, then Close once.
//
// Open receives the partition and epoch (micro-batch) ids; returning false
// skips the partition: Process is not called and its rows are not read
// (deduplication: a writer that already stored this pair returns false).
// The pair is unique within one flow's checkpoint, not across flows nor
// across a full refresh, which resets the checkpoint.
//
// Close is always called, exactly once, with the error that ended the
// partition: nil after the last row or after Open returned false; the
// error of Open, of Process, of reading the rows, or the context's error
// otherwise. An error returned by Close fails a partition that had
// succeeded so far (e.g. a failed flush).
type Writer interface {
	Open(partitionID, epochID int64) (bool, error)
	Process(ctx context.Context, row Row) error
	Close(err error) error
}

// WriterFunc is the per-row function form of a writer: its Open returns
// true and its Close does nothing. One function serves every partition, so
// it must be safe for concurrent use.
type WriterFunc func(ctx context.Context, row Row) error

// Open returns true: a function writes every partition.
func (f WriterFunc) Open(partitionID, epochID int64) (bool, error) { return true, nil }

// Process calls f.
func (f WriterFunc) Process(ctx context.Context, row Row) error { return f(ctx, row) }

// Close does nothing.
func (f WriterFunc) Close(error) error { return nil }

// Target identifies the partition a Factory makes a writer for.
type Target struct {
	Sink        string
	Flow        string
	EpochID     int64
	PartitionID int64
}

// Factory makes the Writer of one partition. It is called once per
// partition of each micro-batch, possibly from several goroutines at once;
// ctx ends when the partition does (a writer may tie resources to it). A
// Factory error fails the partition (there is then no writer to close).
type Factory func(ctx context.Context, t Target) (Writer, error)

// Func returns a Factory whose writers call f for each row.
func Func(f WriterFunc) Factory {
	return func(context.Context, Target) (Writer, error) { return f, nil }
}

// Batch identifies a micro-batch: the flow writing it (the checkpoint it
// belongs to) and its epoch id (the micro-batch id).
type Batch struct {
	Flow    string
	EpochID int64
}

// Partition is one partition of a micro-batch: its id and its rows. Set
// Rows, or Open to make the Source when the partition starts (at most
// Options.Parallelism partitions are open at once). Write closes every
// Source that is an io.Closer, read or not (a skipped partition, a batch
// that failed before the partition started).
type Partition struct {
	ID   int64
	Rows Source
	Open func(ctx context.Context) (Source, error)
}

// Options tune a Sink. The zero value is usable.
type Options struct {
	// Parallelism bounds the partitions written at once;
	// 0 means runtime.GOMAXPROCS(0).
	Parallelism int
	// Dir is the working directory of command writers (the folder of the
	// pipeline's file); "" is the current directory.
	Dir string
	// Env is added to command writers' environment, after the parent's
	// and before the LAKTORY_FOREACH_* variables.
	Env []string
	// HTTPTimeout is the per-request timeout of HTTP writers that set none;
	// 0 means DefaultHTTPTimeout.
	HTTPTimeout time.Duration
}

// Sink is a ForEach sink: it hands each row of a micro-batch to a writer,
// one writer per partition, partitions in parallel. A Sink is safe for
// concurrent use (several flows may write to one sink at once).
type Sink struct {
	name        string
	factory     Factory
	parallelism int
}

// New returns a Sink named name writing with the writers f makes.
func New(name string, f Factory, opts Options) *Sink {
	p := opts.Parallelism
	if p <= 0 {
		p = runtime.GOMAXPROCS(0)
	}
	return &Sink{name: name, factory: f, parallelism: p}
}

// Name returns the sink's name.
func (s *Sink) Name() string { return s.name }

// Result reports a micro-batch written (or partly written) by Sink.Write.
type Result struct {
	// Rows is the number of rows processed: Process returned nil.
	Rows int64
	// Partitions are the partitions' outcomes, in the order given.
	Partitions []PartitionResult
}

// PartitionResult is the outcome of one partition.
type PartitionResult struct {
	ID int64
	// Rows is the number of rows processed: Process returned nil.
	Rows int64
	// Skipped: Open returned false (the rows were not read).
	Skipped bool
	// Err is the partition's error (a *PartitionError), nil on success.
	Err     error
	Elapsed time.Duration
}

// Write writes one micro-batch: each partition gets its own writer from
// the sink's Factory; up to Options.Parallelism partitions run at once.
//
// Any error fails the batch: the first failing partition cancels the
// others (their writers are closed with the context's error and command
// writers are killed) and its *PartitionError is returned, with the Result
// counting what was processed. Write does not retry: retrying is sending
// the batch again with the same ids, so writers see some rows twice
// (at-least-once); writers that must not duplicate use the (partition,
// epoch) ids of Open or a key of the row (an HTTP URL naming the row).
func (s *Sink) Write(ctx context.Context, b Batch, parts []Partition) (Result, error) {
	res := Result{Partitions: make([]PartitionResult, len(parts))}
	seen := make(map[int64]bool, len(parts))
	for _, p := range parts {
		if seen[p.ID] {
			closeAll(parts)
			return res, fmt.Errorf("%w: ForEach sink %q, epoch %d: partition %d is given twice; partition ids must be unique within a micro-batch", ErrBatch, s.name, b.EpochID, p.ID)
		}
		seen[p.ID] = true
		if (p.Rows == nil) == (p.Open == nil) {
			closeAll(parts)
			return res, fmt.Errorf("%w: ForEach sink %q, epoch %d: partition %d must set exactly one of Rows and Open", ErrBatch, s.name, b.EpochID, p.ID)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		sem   = make(chan struct{}, s.parallelism)
	)
	for i, p := range parts {
		res.Partitions[i].ID = p.ID
		select {
		case sem <- struct{}{}:
			if ctx.Err() != nil {
				<-sem
			}
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			res.Partitions[i].Err = s.partitionErr(b, p.ID, 0, fmt.Errorf("not started: %w", ctx.Err()))
			closeSource(p.Rows)
			continue
		}
		wg.Go(func() {
			defer func() { <-sem }()
			r := s.writePartition(ctx, b, p)
			res.Partitions[i] = r
			if r.Err != nil {
				once.Do(func() { first = r.Err; cancel() })
			}
		})
	}
	wg.Wait()
	for _, r := range res.Partitions {
		res.Rows += r.Rows
	}
	if first == nil {
		// The context ended before a partition started.
		for _, r := range res.Partitions {
			if r.Err != nil {
				return res, r.Err
			}
		}
	}
	return res, first
}

// closeAll closes the partitions' sources that are io.Closers.
func closeAll(parts []Partition) {
	for _, p := range parts {
		closeSource(p.Rows)
	}
}

// closeSource closes src if it is an io.Closer.
func closeSource(src Source) {
	if c, ok := src.(io.Closer); ok {
		c.Close()
	}
}

func (s *Sink) partitionErr(b Batch, id, rows int64, err error) error {
	return &PartitionError{Sink: s.name, Flow: b.Flow, EpochID: b.EpochID, PartitionID: id, Rows: rows, Err: err}
}

// writePartition runs one partition with its own writer.
func (s *Sink) writePartition(ctx context.Context, b Batch, p Partition) (r PartitionResult) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer closeSource(p.Rows) // even when it is not read
	r.ID = p.ID
	var err error
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w: %v\n%s", ErrPanic, v, debug.Stack())
		}
		if err != nil {
			r.Err = s.partitionErr(b, p.ID, r.Rows, err)
		}
		r.Elapsed = time.Since(start)
	}()
	w, err := s.factory(ctx, Target{Sink: s.name, Flow: b.Flow, EpochID: b.EpochID, PartitionID: p.ID})
	if err != nil {
		return r
	}
	r.Skipped, err = run(ctx, w, p, b.EpochID, &r.Rows)
	return r
}

// run opens w, feeds it the partition's rows and closes it with the error
// that ended the partition. *n counts the rows processed.
func run(ctx context.Context, w Writer, p Partition, epochID int64, n *int64) (skipped bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w: %v\n%s", ErrPanic, v, debug.Stack())
		}
		if cerr := w.Close(err); cerr != nil {
			if err == nil {
				err = cerr
			} else if !errors.Is(err, cerr) {
				err = fmt.Errorf("%w (closing the writer also failed: %v)", err, cerr)
			}
		}
	}()
	ok, err := w.Open(p.ID, epochID)
	if err != nil || !ok {
		return err == nil, err
	}
	src := p.Rows
	if src == nil {
		if src, err = p.Open(ctx); err != nil {
			return false, fmt.Errorf("%w: %w", ErrSource, err)
		}
		defer closeSource(src)
	}
	done := ctx.Done()
	for {
		select {
		case <-done:
			return false, ctx.Err()
		default:
		}
		line, err := src.Next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("%w: after row %d: %w", ErrSource, *n, err)
		}
		row, err := ParseRow(line)
		if err != nil {
			return false, fmt.Errorf("row %d: %w", *n+1, err)
		}
		if err := w.Process(ctx, row); err != nil {
			return false, fmt.Errorf("row %d: %w", *n+1, err)
		}
		*n++
	}
}
