package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// flowPlan is a flow of a task: the node writing one sink through its own
// checkpoint. A node reading a stream has one flow per sink; so has a
// one-time flow (flow: {once: true}) of a declarative pipeline.
type flowPlan struct {
	// name is the flow's name: the append flow of a declarative
	// pipeline, else "<pipeline>.<node>/<sink>".
	name string
	// dir is the checkpoint folder.
	dir  string
	sink *sinkPlan
	// once: a batch read that runs one time (until its checkpoint is
	// reset by a full refresh).
	once bool
	// update: an update flow (flow: {kind: update}) sends the rows of its
	// aggregation whose value changed since the previous batch.
	update bool
	// complete: a streaming write in COMPLETE mode (Spark's
	// OutputMode.Complete): each micro-batch computes the node over all
	// the input so far (kept in the checkpoint's state, as an update
	// flow's) and overwrites the table with it.
	complete bool
	// partial: a COMPLETE flow's aggregation that merges (completePartial):
	// its state is its output, not its input.
	partial *partialAgg
	// importFrom is the checkpoint to import on the flow's first update
	// (import_checkpoint), resolved.
	importFrom string
	// target names what the flow writes, for the flows remembered per
	// table (declarative pipelines only, "" otherwise).
	target string
}

// Steps of a micro-batch, for the crash tests' hook.
const (
	stepOffsets = "offsets" // offsets/N written, nothing processed
	stepSink    = "sink"    // the sinks written (a Delta commit made)
	stepCommit  = "commit"  // commits/N written
)

// flowRun is one run of a flow of a task: the flow's checkpoint, opened
// and trusted, its streaming sources, and its micro-batches, from the
// offsets written ahead to the commit markers. The task processes each
// batch (taskExec.process) and keeps the task's counts; the flow keeps its
// checkpoint in step with what the batches committed.
type flowRun struct {
	x  *taskExec
	f  *flowPlan
	cp *checkpoint.Checkpoint // once opened
	// marked: the checkpoint's WrittenMarker is recorded.
	marked bool
}

// afterStep passes the step's fail point and calls the test hook.
func (fr *flowRun) afterStep(step string, batch int64) {
	x, f := fr.x, fr.f
	delta.FailPoint("batch." + step)
	if h := x.run.r.cfg.afterStep; h != nil {
		h(x.t.Key, f.name, step, batch)
	}
}

// run processes what the flow's sources hold when it starts, in
// micro-batches (Spark's trigger availableNow). Each batch writes its end
// offsets first (offsets/N), then its sinks (a Delta sink commits with
// txn(appId = the checkpoint's id, version = N), so a replayed batch that
// already committed is skipped), then its commit marker (commits/N). A
// batch whose offsets were written but not committed (a crash) is
// replayed first, with the same offsets.
func (fr *flowRun) run(ctx context.Context) error {
	x, f := fr.x, fr.f
	if err := x.run.locks.Lock(f.dir, true); err != nil {
		return err
	}
	x.rec.touch(f.sink) // its checkpoint, from here on
	if f.importFrom != "" {
		if err := fr.importCheckpoint(ctx); err != nil {
			return err
		}
	}
	if f.sink.sink.Kind == workspace.SinkForEach {
		x.sinkDefinition(f)
	}
	cp, err := checkpoint.Open(f.dir, x.run.Plan.snap.Dir)
	if err == nil {
		err = cp.Trust()
	}
	if err == nil {
		err = fr.tableAhead(ctx, cp)
	}
	if err == nil {
		// After the checks of what the folder and the sink hold, which
		// name the damage more precisely.
		err = fr.removedFolder(ctx, cp)
	}
	if err != nil {
		return fr.untrusted(err)
	}
	fr.cp = cp
	if last, err := cp.LastCommitted(); err != nil {
		return err
	} else if last >= 0 {
		// A checkpoint written before the marker existed.
		if err := fr.markWritten(); err != nil {
			return err
		}
	}
	if f.once {
		return fr.runOnce(ctx)
	}
	srcs, streamed, err := fr.streamSources()
	if err != nil {
		return err
	}
	last, err := cp.LastCommitted()
	if err != nil {
		return err
	}
	pending, err := cp.LastOffsets()
	if err != nil {
		return err
	}
	var ends []json.RawMessage
	if last >= 0 {
		seq, err := cp.ReadOffsets(last)
		if err != nil {
			return err
		}
		ends = seq.Offsets
	}
	at := func(os []json.RawMessage, i int) json.RawMessage {
		if i < len(os) {
			return os[i]
		}
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := last + 1
		var seq checkpoint.OffsetSeq
		starts := make([]json.RawMessage, len(srcs))
		if pending >= batch {
			// Replay the batch a crash interrupted, with its offsets.
			batch = pending
			if seq, err = cp.ReadOffsets(batch); err != nil {
				return err
			}
			for i, s := range srcs {
				starts[i] = at(ends, i)
				if starts[i] == nil && at(seq.Offsets, i) != nil {
					if v, ok := seq.Metadata.Conf[startOffsetConf(i)]; ok {
						starts[i] = json.RawMessage(v)
					} else if starts[i], err = s.start(at(seq.Offsets, i)); err != nil {
						return err
					}
				}
			}
			x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "read",
				Message: fmt.Sprintf("flow %s: replaying batch %d, interrupted before its commit", f.name, batch)})
		} else {
			seq = checkpoint.OffsetSeq{Metadata: checkpoint.BatchMetadata(x.run.r.cfg.Now()), Offsets: make([]json.RawMessage, len(srcs))}
			any := false
			for i, s := range srcs {
				from := at(ends, i)
				to, ok, err := s.next(ctx, from)
				if err != nil {
					return fr.fail(batch, err)
				}
				seq.Offsets[i] = to
				starts[i] = from
				if ok && from == nil {
					if starts[i], err = s.start(to); err != nil {
						return err
					}
					if starts[i] != nil {
						seq.Metadata.Conf[startOffsetConf(i)] = string(starts[i])
					}
				}
				any = any || ok
			}
			if !any {
				break
			}
			if err := cp.WriteOffsets(batch, seq); err != nil {
				return err
			}
			fr.afterStep(stepOffsets, batch)
		}
		start := time.Now()
		// A partial aggregation merges with the previous output; without
		// one (a checkpoint of a version that kept the input) this batch
		// aggregates the input kept, and keeps its output from then on.
		fresh := f.partial != nil && batch > 0 && !pathExists(filepath.Join(cp.StateDir(batch-1), completeState))
		b := microBatch{appID: cp.ID, version: batch, sinks: []*sinkPlan{f.sink}, flow: f, cp: cp, fullInput: fresh,
			sources: func(ctx context.Context, src *workspace.Source) (string, bool, error) {
				i := streamed[src]
				if i < 0 || !src.AsStream {
					return "", false, nil
				}
				q, err := srcs[i].read(ctx, starts[i], seq.Offsets[i])
				if me := (*missingFilesError)(nil); errors.As(err, &me) {
					me.flow, me.batch = f.name, batch
				}
				if err == nil && (f.update || f.complete && (f.partial == nil || fresh)) {
					q, err = x.updateInput(ctx, microBatch{version: batch, flow: f, cp: cp}, i, q)
				}
				return q, err == nil, err
			}}
		var rows int64
		written, err := fr.fileSinkHas(batch)
		if err == nil && written {
			// A file sink has no txn to skip a replayed batch it holds.
			x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "write",
				Message: fmt.Sprintf("flow %s: batch %d is already in %s (%s/%d): not written again", f.name, batch, f.sink.sink.Describe(), checkpoint.SinkLog, batch)})
		} else if err == nil {
			if err = fr.unpublish(batch); err == nil {
				if rows, err = fr.processBatch(ctx, b); err == nil {
					err = fr.sinkWritten(batch)
				}
			}
		}
		if err != nil {
			return fr.fail(batch, err)
		}
		fr.afterStep(stepSink, batch)
		if err := cp.WriteCommit(batch); err != nil {
			return err
		}
		if err := fr.markWritten(); err != nil {
			return err
		}
		fr.afterStep(stepCommit, batch)
		if f.update || f.complete {
			cp.PruneState(x.run.guard, batch)
		}
		fr.progress(batch, rows, time.Since(start))
		last, ends, pending = batch, seq.Offsets, batch
	}
	return nil
}

// startOffsetConf is the key of the batch metadata's conf that keeps
// where source i began, in the first batch of a checkpoint (Spark ignores
// keys it does not know).
func startOffsetConf(i int) string { return "laktory.startOffset." + strconv.Itoa(i) }

// emptyOf turns a read of nothing into an empty relation with the
// source's columns.
func emptyOf(q string) string {
	if q == "" {
		return q
	}
	return "SELECT * FROM (" + q + ") WHERE false"
}

// runOnce runs a one-time flow: a batch read, once. Its checkpoint
// records it (offsets/0 and commits/0); a full refresh resets it and the
// flow runs again.
func (fr *flowRun) runOnce(ctx context.Context) error {
	x, f, cp := fr.x, fr.f, fr.cp
	last, err := cp.LastCommitted()
	if err != nil {
		return err
	}
	if last >= 0 {
		x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "read",
			Message: fmt.Sprintf("flow %s is a one-time flow and already ran: it runs again after a full refresh", f.name)})
		x.sum.RowsRead = max(x.sum.RowsRead, 0)
		return nil
	}
	if pending, err := cp.LastOffsets(); err != nil {
		return err
	} else if pending < 0 {
		if err := cp.WriteOffsets(0, checkpoint.OffsetSeq{Metadata: checkpoint.BatchMetadata(x.run.r.cfg.Now())}); err != nil {
			return err
		}
		fr.afterStep(stepOffsets, 0)
	}
	start := time.Now()
	err = fr.unpublish(0)
	var rows int64
	if err == nil {
		rows, err = fr.processBatch(ctx, microBatch{appID: cp.ID, version: 0, sinks: []*sinkPlan{f.sink}, flow: f, cp: cp})
	}
	if err == nil {
		err = fr.sinkWritten(0)
	}
	if err != nil {
		return fr.fail(0, err)
	}
	fr.afterStep(stepSink, 0)
	if err := cp.WriteCommit(0); err != nil {
		return err
	}
	if err := fr.markWritten(); err != nil {
		return err
	}
	fr.afterStep(stepCommit, 0)
	fr.progress(0, rows, time.Since(start))
	return nil
}

// processBatch processes one micro-batch and adds its rows to the task's
// count.
func (fr *flowRun) processBatch(ctx context.Context, b microBatch) (int64, error) {
	x := fr.x
	before := max(x.sum.RowsRead, 0)
	x.sum.RowsRead = -1
	err := x.process(ctx, b)
	rows := max(x.sum.RowsRead, 0)
	x.sum.RowsRead = before + rows
	return rows, err
}

// streamSources builds the node's streaming sources, in order (the index
// of each in the checkpoint's offsets), and maps every source to its
// index (-1 for a batch source).
func (fr *flowRun) streamSources() ([]streamSource, map[*workspace.Source]int, error) {
	x := fr.x
	p, n := x.tp.pipeline, x.tp.node
	var out []streamSource
	idx := map[*workspace.Source]int{}
	for _, src := range n.Sources {
		idx[src] = -1
		if !src.AsStream {
			continue
		}
		s, err := fr.streamSource(p, n, src, len(out))
		if err != nil {
			return nil, nil, fmt.Errorf("node '%s' of pipeline '%s', source #%d: %w", n.Name, p.Name, src.Index+1, err)
		}
		idx[src] = len(out)
		out = append(out, s)
	}
	return out, idx, nil
}

// streamSource builds the streaming source src, the i-th of the flow's
// checkpoint.
func (fr *flowRun) streamSource(p *workspace.Pipeline, n *workspace.Node, src *workspace.Source, i int) (streamSource, error) {
	x, cp := fr.x, fr.cp
	limit, err := maxFiles(src)
	if err != nil {
		return nil, err
	}
	newDelta := func(path, label string) (*deltaStream, error) {
		d := &deltaStream{e: x.s.e, path: path, label: label, reader: n.Name, pipeline: p.Name, limit: limit, startingVersion: -1,
			warn: x.log.warn}
		opt := func(k string) bool { v, ok := src.ReaderOption(k); return ok && truthy(v) }
		d.opts = delta.StreamOptions{IgnoreDeletes: opt("ignoreDeletes"), IgnoreChanges: opt("ignoreChanges"), SkipChangeCommits: opt("skipChangeCommits")}
		if v, ok := src.ReaderOption("startingVersion"); ok {
			sv := strings.TrimSpace(fmt.Sprint(v))
			if strings.EqualFold(sv, "latest") {
				d.startingVersion = -2
			} else if d.startingVersion, err = strconv.ParseInt(sv, 10, 64); err != nil || d.startingVersion < 0 || d.startingVersion > checkpoint.MaxBatchID {
				return nil, fmt.Errorf("%w: reader_kwargs startingVersion must be a table version (0, 1, ...) or latest (got %v)", ErrSource, v)
			}
		}
		return d, nil
	}
	switch src.Kind {
	case workspace.SourceTable:
		if delta.IsView(string(src.Table)) {
			return nil, fmt.Errorf("%w: node '%s' streams %s, which is a view: Spark streams Delta tables, not views (read it without `as_stream`, or stream the tables it reads)",
				ErrSource, n.Name, src.TableRef.String())
		}
		return newDelta(string(src.Table), "table "+src.TableRef.String())
	case workspace.SourceFile:
		if strings.EqualFold(src.Format, "DELTA") || (src.Table != "" && isDeltaTable(src.ResolvedPath)) {
			return newDelta(src.ResolvedPath, "table "+src.Path)
		}
		return &fileStream{e: x.s.e, cp: cp, index: i, path: src.ResolvedPath, format: src.Format, opts: readOptions{src: src}, limit: limit,
			required: validate.SourceCheckPath(x.run.Plan.snap, src) != "", settle: x.run.r.settle(), warn: x.log.warn, skipped: x.log.skipped, reader: n.Name, pipeline: p.Name}, nil
	case workspace.SourceNode:
		up := p.Node(src.NodeName)
		if up == nil {
			return nil, fmt.Errorf("%w: node '%s' is not defined in pipeline '%s'", ErrSource, src.NodeName, p.Name)
		}
		sk := up.PrimarySink()
		switch {
		case sk == nil || sk.Kind == workspace.SinkForEach || sk.Kind == workspace.SinkPipelineView || sk.IsView():
			return nil, fmt.Errorf("%w: node '%s' streams node '%s', which writes no table: a stream reads what the node wrote (give '%s' a table sink, or read its sources)",
				ErrSource, n.Name, up.Name, up.Name)
		case !sk.IsDelta():
			return &fileStream{e: x.s.e, cp: cp, index: i, path: sk.ResolvedPath, format: sk.EffectiveFormat(), limit: limit, warn: x.log.warn, skipped: x.log.skipped, reader: n.Name, pipeline: p.Name}, nil
		}
		d, err := newDelta(string(sk.Table), sk.Describe())
		if err != nil {
			return nil, err
		}
		if sh := sk.Shared; sh != nil {
			if sh.UsesWriterColumn() {
				d.dropColumn, d.writer = sh.EffectiveColumn(), up.Name
				d.dropHint = dropOnce(x.run.Plan.snap, sk.Table, p.Name, up.Name)
				d.where = quoteIdent(d.dropColumn) + " = " + quoteString(sh.EffectiveWriterID(p.Name, up.Name))
			} else {
				backend, conf, where := up.DataframeBackend, up.SparkConf, sh.Where
				d.whereOf = func(schema *delta.StructType) string { return x.s.where(where, backend, conf, deltaColumns(schema)) }
			}
			d.label = fmt.Sprintf("%s (the rows of node '%s')", sk.Describe(), up.Name)
		}
		return d, nil
	}
	return nil, fmt.Errorf("%w: a %s source cannot be read as a stream locally", ErrSource, src.Kind)
}

// untrusted adds, to the error of a checkpoint that cannot be trusted,
// the command that recovers: a FULL refresh of the node, which starts its
// checkpoints over with its rows.
// tableAhead refuses a checkpoint that is behind its Delta sink: the
// table holds a batch of the flow (txn of the checkpoint's id) beyond the
// checkpoint's offsets/. A crash leaves the table at most at the batch
// offsets/ planned last; more means offsets/ and commits/ were lost (a
// first batch's sources/ log alone passes Trust): the batches planned
// next would be taken for ones the table has, and skipped for good.
func (fr *flowRun) tableAhead(ctx context.Context, cp *checkpoint.Checkpoint) error {
	sp := fr.f.sink
	if sp == nil {
		return nil
	}
	planned, err := cp.LastOffsets()
	if err != nil {
		return err
	}
	if !fr.txnSink() {
		// No txn: the batches the flow recorded its sink wrote.
		v, err := cp.LastSinkBatch()
		if err != nil {
			return err
		}
		if v > planned {
			return fmt.Errorf("%w: checkpoint %s is behind its sink (%s): the flow recorded batch %d as written to it (%s/%d) while the checkpoint's offsets/ end at %d (offsets/ and commits/ lost or removed): its next batches would read again what that batch read",
				checkpoint.ErrUntrusted, cp.Dir, sp.sink.Describe(), v, checkpoint.SinkLog, v, planned)
		}
		return nil
	}
	path := fr.x.sinkPath(sp)
	if sp.table == nil || sp.table.Path == "" || !isDeltaTable(path) {
		return nil
	}
	snap, err := delta.LoadSnapshot(ctx, path)
	if err != nil {
		return nil // the sink reports a table it cannot read
	}
	v, ok := snap.AppTransactionVersion(cp.ID)
	if !ok {
		return nil
	}
	if v > planned {
		return fmt.Errorf("%w: checkpoint %s is behind its table %s, which holds batch %d of the flow while the checkpoint's offsets/ end at %d (offsets/ and commits/ lost or removed): its next batches would be taken for ones the table has and skipped",
			checkpoint.ErrUntrusted, cp.Dir, tableLabel(sp), v, planned)
	}
	return nil
}

// txnSink reports whether the flow's sink is a Delta table, whose commits
// carry the flow's txn; file and ForEach sinks have none.
func (fr *flowRun) txnSink() bool {
	sk := fr.f.sink.sink
	return sk.Kind != workspace.SinkForEach && sk.IsDelta()
}

// fileSinkHas reports whether the flow's sink is a file sink that the
// checkpoint records holding batch (a replay after a crash between its
// write and its commit marker). A ForEach sink receives a replayed batch
// again, with the same epoch id, as Spark's ForEach does (at least once).
func (fr *flowRun) fileSinkHas(batch int64) (bool, error) {
	if fr.txnSink() || fr.f.sink.sink.Kind == workspace.SinkForEach {
		return false, nil
	}
	v, err := fr.cp.LastSinkBatch()
	return v >= batch, err
}

// sinkWritten records, for a sink without txn, that batch was written
// (checkpoint.SinkLog), before its commit marker, and forgets the names of
// the files it moved into place.
func (fr *flowRun) sinkWritten(batch int64) error {
	if fr.txnSink() {
		return nil
	}
	if err := fr.cp.WriteSinkBatch(batch); err != nil {
		return err
	}
	return fr.cp.ClearSinkFiles(batch)
}

// markWritten records beside the checkpoint, once per run, that the flow
// committed batches through it (checkpoint.WrittenMarker).
func (fr *flowRun) markWritten() error {
	if fr.marked {
		return nil
	}
	if err := fr.cp.MarkWritten(fr.f.name, fr.x.run.r.cfg.Now()); err != nil {
		return err
	}
	// And in the state database, which outlives the checkpoints folder.
	run := fr.x.run
	c := history.Checkpoint{Path: run.Plan.snap.Rel(fr.cp.Dir), Flow: fr.f.name, QueryID: fr.cp.ID}
	run.record(func(ctx context.Context) error { return run.store.MarkCheckpoint(ctx, run.ID, c) })
	fr.marked = true
	return nil
}

// removedFolder refuses a checkpoint through which no batch was committed
// where one the flow committed batches through was, unless the run
// refreshes the flow (a FULL or RESET starts it over): the folder was
// removed by hand, and a new checkpoint would write every file (or every
// version) its sink already holds again. Two records tell: the marker
// beside the folder (checkpoint.WrittenMarker, which only a refresh
// removes, first) and, where the marker went with it (the whole
// checkpoints folder removed), the state database. The refusal holds on
// later runs: the new checkpoint the refused run opened commits nothing.
func (fr *flowRun) removedFolder(ctx context.Context, cp *checkpoint.Checkpoint) error {
	x, f := fr.x, fr.f
	if f.sink.refresh != validate.RefreshIncremental {
		return nil
	}
	if last, err := cp.LastCommitted(); err != nil || last >= 0 {
		return err
	}
	w, err := checkpoint.ReadWritten(cp.Dir)
	if err != nil {
		return err
	}
	if w != nil {
		return fmt.Errorf("%w: the checkpoint folder %s of flow %s was removed: the flow committed batches into %s through it (query id %s, recorded in %s since %s), and a new checkpoint would write what they read again",
			checkpoint.ErrUntrusted, cp.Dir, f.name, f.sink.sink.Describe(), cmpOr(w.ID, "unknown"), checkpoint.WrittenMarker(cp.Dir), w.At.Format(time.RFC3339))
	}
	snap := x.run.Plan.snap
	c, ok, err := x.run.store.GetCheckpoint(ctx, snap.Rel(cp.Dir))
	if err != nil || !ok {
		return err
	}
	return fmt.Errorf("%w: the checkpoint folder %s of flow %s was removed, with the marker beside it (the whole checkpoints folder %s, say): the state database %s records that the flow committed batches into %s through it (query id %s, run %d, at %s), and a new checkpoint would write what they read again",
		checkpoint.ErrUntrusted, cp.Dir, f.name, snap.Layout.CheckpointsDir(), snap.Layout.StateDB(), f.sink.sink.Describe(), cmpOr(c.QueryID, "unknown"), c.RunID, c.At.Format(time.RFC3339))
}

// unpublish removes, before a file sink's batch is written, the files a
// crashed run of the same batch moved into the sink's folder (all of them,
// or the first few) without recording the batch as written: their names
// were recorded before the first move (checkpoint.WriteSinkFiles), so the
// replay writes the batch once. Only files inside the sink's folder, as
// the task's check resolved it, are removed.
func (fr *flowRun) unpublish(batch int64) error {
	if fr.txnSink() || fr.f.sink.sink.Kind == workspace.SinkForEach {
		return nil
	}
	names, err := fr.cp.SinkFiles(batch)
	if err != nil || len(names) == 0 {
		return fr.untrusted(err)
	}
	x, f := fr.x, fr.f
	dir := x.sinkPath(f.sink)
	removed := 0
	for _, name := range names {
		err := delta.RemoveFile(filepath.Join(dir, name))
		switch {
		case err == nil:
			removed++
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("%w: flow %s: remove %s, which an interrupted run of batch %d moved into %s: %w", ErrSink, f.name, name, batch, f.sink.sink.Describe(), err)
		}
	}
	if removed > 0 {
		x.log.note(fmt.Sprintf("flow %s: removed %d files of batch %d that an interrupted run moved into %s before it recorded the batch; the batch is written again", f.name, removed, batch, f.sink.sink.Describe()))
	}
	return nil
}

func (fr *flowRun) untrusted(err error) error {
	if !errors.Is(err, checkpoint.ErrUntrusted) {
		return err
	}
	p, n := fr.x.tp.pipeline, fr.x.tp.node
	return fmt.Errorf("%w. Run a FULL refresh of node '%s' of pipeline '%s' to start it over with the node's rows (%s)",
		err, n.Name, p.Name, human.RunCommand(p.Name, []string{n.Name}, validate.RefreshFull, ""))
}

// isDeltaTable reports whether path holds a Delta log.
func isDeltaTable(path string) bool {
	_, err := os.Stat(path + string(os.PathSeparator) + delta.LogDirName)
	return err == nil
}

// fail names the flow and batch of a failure, records it in the event
// log and returns it.
func (fr *flowRun) fail(batch int64, err error) error {
	x, f := fr.x, fr.f
	x.run.emit(Event{Kind: EventFlowProgress, Task: x.t.Key, Flow: f.name, Batch: batch, Status: "FAILED", Err: err.Error(),
		Message: fmt.Sprintf("flow %s failed in batch %d: %v", f.name, batch, err)})
	return err
}

// progress reports a completed micro-batch.
func (fr *flowRun) progress(batch, rows int64, d time.Duration) {
	x, f := fr.x, fr.f
	msg := fmt.Sprintf("flow %s: batch %d, %d rows in %s", f.name, batch, rows, d.Round(time.Millisecond))
	x.run.emit(Event{Kind: EventFlowProgress, Task: x.t.Key, Flow: f.name, Batch: batch, Rows: rows, Status: "COMPLETED", Message: msg})
	x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "batch", Rows: rows, Message: msg})
}

// updatedRows is the SQL of an update flow's rows to send: those of the
// aggregation (rel, computed over all the input so far) that are new or
// changed since the previous batch's output. The output is kept in the
// checkpoint's state of this batch.
func (x *taskExec) updatedRows(ctx context.Context, rel string, b microBatch) (string, error) {
	q, err := x.saveState(ctx, b, "output.parquet", "SELECT * FROM "+quoteIdent(rel))
	if err != nil {
		return "", err
	}
	if prev := filepath.Join(b.cp.StateDir(b.version-1), "output.parquet"); b.version > 0 && pathExists(prev) {
		p, err := x.readState(ctx, prev)
		if err != nil {
			return "", fmt.Errorf("%w: read the state of flow %s: %w", ErrCheckpoint, b.flow.name, err)
		}
		q = "SELECT * FROM (" + q + ") EXCEPT SELECT * FROM (" + p + ")"
	}
	return q, nil
}

// updateInput is the SQL of an update flow's input from streaming source
// i: everything read so far (the previous batch's state) and this batch's
// rows, by column name, kept in this batch's state.
func (x *taskExec) updateInput(ctx context.Context, b microBatch, i int, batchSQL string) (string, error) {
	name := fmt.Sprintf("input_%d.parquet", i)
	q := batchSQL
	if prev := filepath.Join(b.cp.StateDir(b.version-1), name); b.version > 0 && pathExists(prev) {
		p, err := x.readState(ctx, prev)
		if err != nil {
			return "", fmt.Errorf("%w: read the input of flow %s: %w", ErrCheckpoint, b.flow.name, err)
		}
		if q, err = x.unionByName(ctx, p, batchSQL); err != nil {
			return "", err
		}
	}
	return x.saveState(ctx, b, name, q)
}

// unionByName is the SQL of the rows of a, then b, matched by column
// name (DuckDB's UNION ALL BY NAME, which Spark SQL does not parse): a's
// columns, then those only b has; a column one side lacks is NULL there.
func (x *taskExec) unionByName(ctx context.Context, a, b string) (string, error) {
	ac, err := x.s.describe(ctx, a)
	if err != nil {
		return "", err
	}
	bc, err := x.s.describe(ctx, b)
	if err != nil {
		return "", err
	}
	names := columnNames(ac)
	for _, n := range columnNames(bc) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	side := func(cols []column) string {
		have := columnNames(cols)
		exprs := make([]string, len(names))
		for i, n := range names {
			exprs[i] = quoteIdent(n)
			if !slices.Contains(have, n) {
				exprs[i] = "NULL AS " + quoteIdent(n)
			}
		}
		return strings.Join(exprs, ", ")
	}
	return fmt.Sprintf("SELECT %s FROM (%s) UNION ALL SELECT %s FROM (%s)", side(ac), a, side(bc), b), nil
}

// saveState keeps the rows of query as the state name of batch b (a
// folder of Parquet files the session's engine writes, replacing what a
// crashed attempt of the batch left) and returns the SQL reading it back.
func (x *taskExec) saveState(ctx context.Context, b microBatch, name, query string) (string, error) {
	dir := b.cp.StateDir(b.version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	path := filepath.Join(dir, name)
	if err := x.run.guard.RemoveAll(path); err != nil {
		return "", fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	if err := x.s.e.SaveParquet(ctx, path, query); err != nil {
		return "", fmt.Errorf("%w: keep the state of flow %s: %w", ErrCheckpoint, b.flow.name, err)
	}
	q, err := x.readState(ctx, path)
	if err != nil {
		return "", fmt.Errorf("%w: read the state of flow %s: %w", ErrCheckpoint, b.flow.name, err)
	}
	return q, nil
}

// readState returns the SQL reading the state at path on the session's
// engine: the Parquet files of its folder, whichever engine wrote them, or
// the one file an earlier version of the runner wrote there.
func (x *taskExec) readState(ctx context.Context, path string) (string, error) {
	files := []string{path}
	if st, err := os.Stat(path); err != nil {
		return "", err
	} else if st.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return "", err
		}
		files = nil
		for _, e := range entries {
			if n := e.Name(); strings.HasPrefix(n, "part-") && strings.HasSuffix(n, ".parquet") {
				files = append(files, filepath.Join(path, n))
			}
		}
		if len(files) == 0 {
			return "", fmt.Errorf("no Parquet file in %s", path)
		}
	}
	return x.s.e.ReadFiles(ctx, files, "PARQUET", nil)
}

// completeState is the state a COMPLETE flow with a partial aggregation
// keeps: its last output.
const completeState = "output.parquet"

// partialAgg is a COMPLETE flow's aggregation whose results merge, as
// Spark's state store keeps them: one SQL step SELECT keys, count/sum/
// min/max(...) AS name FROM {df} [WHERE ...] GROUP BY keys. Each
// micro-batch aggregates its own rows, and the output is the previous
// output and the batch's merged per key (counts and sums summed, min of
// mins, max of maxes), so the state is the output, not every input row.
// cols are the output's columns in order: merge "" for a key.
type partialAgg struct {
	cols []partialCol
}

type partialCol struct{ name, merge string }

// completePartial returns the partial aggregation of node n's COMPLETE
// flow, or nil when its query has another shape (the flow then keeps its
// input, as an update flow does).
func completePartial(n *workspace.Node) *partialAgg {
	if n.DataframeBackend == "POLARS" || len(n.Expectations) > 0 || len(n.Transformer) != 1 || n.Transformer[0].Expr == "" {
		return nil
	}
	q, err := sparksql.ParseQuery(n.Transformer[0].Expr)
	if err != nil || len(q.With) > 0 || len(q.OrderBy) > 0 || q.Limit != nil || q.Offset != nil {
		return nil
	}
	sel, ok := q.Body.(*sparksql.Select)
	if !ok || sel.Distinct || len(sel.Laterals) > 0 || sel.Having != nil || len(sel.Windows) > 0 || sel.Qualify != nil ||
		len(sel.From) != 1 || sel.GroupBy == nil || sel.GroupBy.All || sel.GroupBy.With != "" {
		return nil
	}
	if tn, ok := sel.From[0].(*sparksql.TableName); !ok || tn.Placeholder != "df" {
		return nil
	}
	var groups []string
	for _, g := range sel.GroupBy.Items {
		c, ok := g.(*sparksql.ColumnRef)
		if !ok || len(c.Parts) != 1 {
			return nil
		}
		groups = append(groups, strings.ToLower(c.Parts[0].Name))
	}
	p := &partialAgg{}
	var names, keys []string
	for _, it := range sel.Items {
		var col partialCol
		switch e := it.Expr.(type) {
		case *sparksql.ColumnRef:
			if len(e.Parts) != 1 || !slices.Contains(groups, strings.ToLower(e.Parts[0].Name)) ||
				it.Alias != nil && !strings.EqualFold(it.Alias.Name, e.Parts[0].Name) {
				return nil
			}
			col = partialCol{name: e.Parts[0].Name}
			keys = append(keys, strings.ToLower(col.name))
		case *sparksql.Call:
			fn := strings.ToLower(e.Name.Name)
			if it.Alias == nil || len(it.Aliases) > 0 || e.Distinct || e.Filter != nil || e.Over != nil || len(e.Within) > 0 || e.Nulls != "" ||
				!(e.StarArg && len(e.Args) == 0 && fn == "count" || !e.StarArg && len(e.Args) == 1) {
				return nil
			}
			switch fn {
			case "count", "sum":
				col = partialCol{name: it.Alias.Name, merge: "sum"}
			case "min", "max":
				col = partialCol{name: it.Alias.Name, merge: fn}
			default:
				return nil
			}
		default:
			return nil
		}
		if slices.Contains(names, strings.ToLower(col.name)) {
			return nil
		}
		names = append(names, strings.ToLower(col.name))
		p.cols = append(p.cols, col)
	}
	for _, g := range groups {
		if !slices.Contains(keys, g) {
			return nil // a key the output leaves out
		}
	}
	return p
}

// mergePartial (a function: taskExec is at its bound of methods) merges
// the aggregation of micro-batch b's rows (relation out) with the flow's
// previous output, keeps the result as the flow's state and returns the
// relation reading it. fresh: the previous batch
// kept no output (its first batch, or a checkpoint of a version that kept
// the input): out is the whole aggregation.
func mergePartial(ctx context.Context, x *taskExec, b microBatch, out string, fresh bool) (string, error) {
	p := b.flow.partial
	cols, err := x.s.describe(ctx, "SELECT * FROM "+quoteIdent(out))
	if err != nil {
		return "", err
	}
	if len(cols) != len(p.cols) {
		return "", fmt.Errorf("%w: flow %s: the aggregation has %d columns, its query %d", ErrCheckpoint, b.flow.name, len(cols), len(p.cols))
	}
	q := "SELECT * FROM " + quoteIdent(out)
	if prev := filepath.Join(b.cp.StateDir(b.version-1), completeState); !fresh {
		st, err := x.readState(ctx, prev)
		if err != nil {
			return "", fmt.Errorf("%w: read the output of flow %s: %w", ErrCheckpoint, b.flow.name, err)
		}
		var sel, keys, names []string
		for i, c := range p.cols {
			id := quoteIdent(cols[i].Name)
			names = append(names, id)
			switch {
			case c.merge == "":
				sel, keys = append(sel, id), append(keys, id)
			case c.merge == "sum" && !strings.ContainsAny(cols[i].Type, "<>"):
				// A sum of sums widens (DuckDB's HUGEINT, Spark's decimal
				// precision): the batch's type is the output's.
				sel = append(sel, fmt.Sprintf("CAST(sum(%s) AS %s) AS %s", id, cols[i].Type, id))
			default:
				sel = append(sel, fmt.Sprintf("%s(%s) AS %s", c.merge, id, id))
			}
		}
		all := strings.Join(names, ", ")
		q = fmt.Sprintf("SELECT %s FROM (SELECT %s FROM (%s) UNION ALL SELECT %s FROM %s) GROUP BY %s",
			strings.Join(sel, ", "), all, st, all, quoteIdent(out), strings.Join(keys, ", "))
	}
	st, err := x.saveState(ctx, b, completeState, q)
	if err != nil {
		return "", err
	}
	return x.s.view(ctx, "complete", st)
}
