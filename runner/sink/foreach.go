package sink

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

// RowsPerPartition is the number of rows above which a micro-batch handed
// to a ForEach sink is split into more partitions (at most Parallel). The
// split depends only on the rows, so a replayed batch has the same
// (partition, epoch) ids for the same rows.
const RowsPerPartition = 50_000

// RowStore keeps a batch's rows where the partitions of a ForEach sink
// read them at once (the local engine's database, whatever the run's
// engine: runner/engine/local's RowStore).
type RowStore interface {
	Stage(ctx context.Context, s engine.Session, src string) (StagedRows, error)
}

// StagedRows are the rows of one batch kept by a RowStore.
type StagedRows interface {
	Count() int64
	// Partitions splits the rows into n partitions, by the rows only.
	Partitions(n int) []foreach.Partition
	Drop(ctx context.Context)
}

// ForEach is a ForEach sink of a task: the Go writers of each row.
type ForEach struct {
	Task Task
	Sink *workspace.Sink
	// Writers is the engine of the sink (foreach.Sink), shared by the
	// flows writing it.
	Writers *foreach.Sink
	Store   RowStore
	// Parallel bounds the partitions of a batch.
	Parallel int
}

// Write implements Sink: it hands the rows of the batch (b.Query's when
// set) to the sink's writers, one per partition, with the micro-batch id
// as epoch id (0 for a batch node) and the flow's name. Any error fails
// the flow; the rows processed are reported as a FOREACH operation of the
// sink.
func (f *ForEach) Write(ctx context.Context, b Batch) (int64, error) {
	sk, t := f.Sink, f.Task
	pipeline, node := t.Names()
	start := time.Now()
	src := b.Query
	if src == "" {
		src = "SELECT * FROM " + quoteIdent(b.Rel)
	}
	staged, err := f.Store.Stage(ctx, t.Session(), src)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSink, sk.Describe(), err)
	}
	defer staged.Drop(ctx)
	rows := staged.Count()
	nparts := max(1, min(int((rows+RowsPerPartition-1)/RowsPerPartition), f.Parallel))
	parts := staged.Partitions(nparts)
	t.Progress("write", rows)
	res, err := f.Writers.Write(ctx, foreach.Batch{Flow: b.Flow, EpochID: b.Version}, parts)
	detail := fmt.Sprintf("epoch %d of flow %s, %d partitions", b.Version, b.Flow, nparts)
	if b.Update {
		detail += ", changed keys only"
	}
	if res.Rows > 0 || err == nil {
		t.Operation(history.Operation{Table: sk.Describe(), Operation: "FOREACH", Detail: detail, RowsAdded: res.Rows, Duration: time.Since(start)})
	}
	if err != nil {
		var pe *foreach.PartitionError
		if errors.As(err, &pe) {
			return res.Rows, fmt.Errorf("%w: node '%s' of pipeline '%s': %s processed %d of %d rows of batch %d, then failed: %w",
				ErrSink, node, pipeline, sk.Describe(), res.Rows, rows, b.Version, err)
		}
		return res.Rows, fmt.Errorf("%w: node '%s' of pipeline '%s', %s: %w", ErrSink, node, pipeline, sk.Describe(), err)
	}
	return res.Rows, nil
}

// Reset implements Sink: the runner does not track what a ForEach sink
// wrote, so there is nothing to reset (its flows' checkpoints are).
func (f *ForEach) Reset(context.Context) error { return nil }
