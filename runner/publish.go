package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
)

// A batch run appending to a file sink (a PARQUET, CSV or JSON folder)
// moves its files into the folder one by one. Before the first move it
// records their names beside the writer's checkpoint
// ("<checkpoint>.publish-<id>.json") and holds the record's lock until
// the last is moved, then removes the record (checkpoint.HoldRecord). A
// run killed in between leaves the record unlocked: the next run of the
// writer (any refresh) removes exactly the files it names, so the
// interrupted append leaves nothing and the rerun writes the batch once.
// A record another live run holds (a concurrent append to the same sink,
// under the shared writer lock) is left alone. A flow records its batches'
// files in its checkpoint instead (laktory-sinks/<batch>.files).

// publishRecord is what a batch append records before its first move.
type publishRecord struct {
	RunID int64  `json:"run_id"`
	Task  string `json:"task"`
	// Sink is the sink's folder, relative to the workspace, and Files the
	// names of the batch's files relative to it.
	Sink  string    `json:"sink"`
	Files []string  `json:"files"`
	At    time.Time `json:"at"`
}

// publishRecordPath is the append record id beside the writer whose checkpoint is dir.
func publishRecordPath(dir, id string) string {
	return filepath.Clean(dir) + ".publish-" + id + ".json"
}

// publishRecordsOf lists the append records beside the checkpoint dir.
func publishRecordsOf(dir string) []string {
	prefix := filepath.Base(dir) + ".publish-"
	var out []string
	for _, e := range readDir(filepath.Dir(dir)) {
		if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".json") && !e.IsDir() {
			out = append(out, filepath.Join(filepath.Dir(dir), n))
		}
	}
	return out
}

// batchPublisher records, for a batch append of file sink sp, the files
// it is about to move (publishing, given to sink.Batch.Publishing); done
// ends the append: after the last move it forgets the record; after a
// failure it first removes the files the write moved.
type batchPublisher struct {
	x       *taskExec
	sp      *sinkPlan
	files   []string
	release func() error
}

func (bp *batchPublisher) publishing(files []string) error {
	x := bp.x
	rec := publishRecord{RunID: x.run.ID, Task: x.t.Key, Sink: x.run.Plan.snap.Rel(x.sinkPath(bp.sp)), Files: files, At: x.run.r.cfg.Now().UTC()}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	release, err := checkpoint.HoldRecord(publishRecordPath(bp.sp.lockDir, uuid.NewString()), append(b, '\n'))
	if err != nil {
		return err
	}
	bp.files, bp.release = files, release
	return nil
}

func (bp *batchPublisher) done(writeErr error) error {
	if bp.release == nil {
		return writeErr
	}
	if writeErr != nil {
		if _, err := bp.x.rec.unpublishFiles(bp.sp, bp.files); err != nil {
			return errors.Join(writeErr, err)
		}
	}
	return errors.Join(writeErr, bp.release())
}

// unpublishBatches removes what the batch appends to file sink sp that a
// crash interrupted moved into its folder, as their records name them,
// and the records.
func (rc *recovery) unpublishBatches(sp *sinkPlan) error {
	x := rc.x
	if sp.lockDir == "" || sp.sink.IsDelta() {
		return nil
	}
	for _, path := range publishRecordsOf(sp.lockDir) {
		b, done, held, err := checkpoint.TakeRecord(path)
		if err != nil {
			return err
		}
		if held || done == nil {
			continue // a live run's append, or removed meanwhile
		}
		var rec publishRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			// A record is complete before its first move (it is renamed
			// into place written): one that cannot be read is not ours.
			done() //nolint:errcheck // best effort
			return fmt.Errorf("%w: %s records an interrupted append to %s but cannot be read (%v): remove it, then check the sink's files", ErrCheckpoint, path, sp.sink.Describe(), err)
		}
		removed, err := rc.unpublishFiles(sp, rec.Files)
		if err != nil {
			done() //nolint:errcheck // the record is kept on its own failure only
			return err
		}
		if err := done(); err != nil {
			return err
		}
		if removed > 0 {
			x.log.note(fmt.Sprintf("removed %d files that an interrupted run moved into %s before it finished its append (run %d, %s): that run wrote nothing, and this run writes its rows once",
				removed, sp.sink.Describe(), rec.RunID, rec.Task))
		}
	}
	return nil
}

// unpublishFiles removes the named files (relative to the sink's folder as
// the task's check resolved it, never outside it) that exist.
func (rc *recovery) unpublishFiles(sp *sinkPlan, names []string) (int, error) {
	x := rc.x
	dir := x.sinkPath(sp)
	removed := 0
	for _, name := range names {
		if !filepath.IsLocal(name) {
			return removed, fmt.Errorf("%w: %s: the record of an interrupted append names %q, outside the sink's folder: not removed", ErrSink, sp.sink.Describe(), name)
		}
		err := delta.RemoveFile(filepath.Join(dir, name))
		switch {
		case err == nil:
			removed++
		case !errors.Is(err, fs.ErrNotExist):
			return removed, fmt.Errorf("%w: %s: remove %s, which an interrupted append moved into it: %w", ErrSink, sp.sink.Describe(), name, err)
		}
	}
	return removed, nil
}
