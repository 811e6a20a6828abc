package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// defaultMaxFilesPerTrigger is Spark's default admission limit of file and
// Delta streaming sources.
const defaultMaxFilesPerTrigger = 1000

// streamSource is a streaming source of a flow. A run processes what is
// available when the flow starts (Spark's trigger availableNow), in
// micro-batches of at most maxFilesPerTrigger files.
type streamSource interface {
	// next plans the batch after offset from (nil: a new checkpoint): it
	// returns the batch's end offset, or ok false when no new data is
	// available. It may write the source's log in the checkpoint.
	next(ctx context.Context, from json.RawMessage) (to json.RawMessage, ok bool, err error)
	// start is the offset a batch that begins a new checkpoint starts
	// from, knowing its end (nil: before everything).
	start(to json.RawMessage) (json.RawMessage, error)
	// read returns the SQL of the rows after from, up to to.
	read(ctx context.Context, from, to json.RawMessage) (string, error)
}

// maxFiles is a source's maxFilesPerTrigger.
func maxFiles(src *workspace.Source) (int, error) {
	v, ok := src.ReaderOption("maxFilesPerTrigger")
	if !ok {
		return defaultMaxFilesPerTrigger, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(fmt.Sprint(v)))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%w: reader_kwargs maxFilesPerTrigger must be a positive number of files (got %v)", ErrSource, v)
	}
	return n, nil
}

// fileStream streams the files of a folder (a file source, or a file sink
// read back): each new file once, oldest first.
type fileStream struct {
	e      engine.Session
	cp     *checkpoint.Checkpoint
	index  int // the source's index in the checkpoint
	path   string
	format string
	opts   readOptions
	limit  int

	// required: the path must exist (a file source, LK205); a node's file
	// sink read back may not exist before its first write.
	required bool

	// settle is the settle window of landing files (0: none, for a sink
	// read back); warn reports skipped, deferred and changed files;
	// reader and pipeline name the reading node in its hints.
	settle           time.Duration
	warn             func(string)
	reader, pipeline string
	// skipped reports the entries a listing skipped (nil: warn them).
	skipped func(path string, l landing.Listing)

	listed []checkpoint.FileEntry // the files available when the flow started
	done   bool
	// changedReported: the processed files already reported as changed.
	changedReported map[string]bool
}

// fileOffset is Spark's FileStreamSourceOffset.
type fileOffset struct {
	LogOffset int64 `json:"logOffset"`
}

func parseFileOffset(o json.RawMessage) (int64, error) {
	if o == nil {
		return -1, nil
	}
	var f fileOffset
	if err := json.Unmarshal(o, &f); err != nil || !strings.Contains(string(o), "logOffset") {
		return 0, fmt.Errorf("%w: %s is not a file source offset ({\"logOffset\": N}): the checkpoint was written for another source; run a FULL refresh of the node", ErrCheckpoint, o)
	}
	if f.LogOffset < -1 || f.LogOffset > checkpoint.MaxBatchID {
		return 0, fmt.Errorf("%w: file source offset %s is out of range: the checkpoint is corrupt; run a FULL refresh of the node", ErrCheckpoint, o)
	}
	return f.LogOffset, nil
}

// available lists the complete files of the source when the flow starts,
// oldest first (modification time, then path): what is not a regular file
// is skipped, and a file still being written (settle) is left for a later
// run, with a warning each.
func (s *fileStream) available(ctx context.Context) ([]checkpoint.FileEntry, error) {
	if s.done {
		return s.listed, nil
	}
	s.done = true
	l, err := landing.List(ctx, s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && s.required:
		return nil, fmt.Errorf("%w: %s does not exist: fix the source's path, or create the folder", ErrSource, s.path)
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil // nothing written yet
	case err != nil:
		return nil, err
	}
	if s.skipped != nil {
		s.skipped(s.path, l)
	} else if w := l.SkippedWarning(s.path); w != "" {
		s.report(w)
	}
	complete, writing, err := landing.Settle(ctx, l.Files, s.settle, time.Now)
	if err != nil {
		return nil, err
	}
	if len(writing) > 0 {
		s.report(fmt.Sprintf("%d files of %s are still being written (their size or modification time changed within %s): left for a later run, first %s",
			len(writing), s.path, s.settle, writing[0].Path))
	}
	for _, f := range complete {
		s.listed = append(s.listed, checkpoint.FileEntry{Path: checkpoint.FileURI(f.Path), Timestamp: f.ModTime.UnixMilli()})
	}
	slices.SortFunc(s.listed, func(a, b checkpoint.FileEntry) int {
		if a.Timestamp != b.Timestamp {
			return int(a.Timestamp - b.Timestamp)
		}
		return strings.Compare(a.Path, b.Path)
	})
	return s.listed, nil
}

// report emits a warning of the stream (dropped when it has none).
func (s *fileStream) report(msg string) {
	if s.warn != nil {
		s.warn(msg)
	}
}

func (s *fileStream) next(ctx context.Context, from json.RawMessage) (json.RawMessage, bool, error) {
	n, err := parseFileOffset(from)
	if err != nil {
		return nil, false, err
	}
	all, err := s.available(ctx)
	if err != nil || len(all) == 0 {
		return from, false, err
	}
	seen, err := s.cp.ReadFileSourceLog(s.index, -1, n)
	if err != nil {
		return nil, false, err
	}
	done := make(map[string]checkpoint.FileEntry, len(seen))
	for _, e := range seen {
		done[checkpoint.URIPath(e.Path)] = e
	}
	var batch []checkpoint.FileEntry
	var changed []string
	for _, e := range all {
		p := checkpoint.URIPath(e.Path)
		if was, ok := done[p]; ok {
			if was.Timestamp != e.Timestamp && !s.changedReported[p] {
				changed = append(changed, fmt.Sprintf("%s (read in batch %d)", p, was.BatchID))
				if s.changedReported == nil {
					s.changedReported = map[string]bool{}
				}
				s.changedReported[p] = true
			}
			continue
		}
		if len(batch) < s.limit {
			e.BatchID = n + 1
			batch = append(batch, e)
		}
	}
	if len(changed) > 0 {
		s.report(fmt.Sprintf("%d files of %s changed after they were read, and a stream reads a file once: their new content is not read: %s; to read them again, run a FULL refresh of node '%s' (%s)",
			len(changed), s.path, strings.Join(changed, ", "), s.reader, human.RunCommand(s.pipeline, []string{s.reader}, validate.RefreshFull, "")))
	}
	if len(batch) == 0 {
		return from, false, nil
	}
	if err := s.cp.WriteFileSourceLog(s.index, n+1, batch); err != nil {
		return nil, false, err
	}
	to, _ := json.Marshal(fileOffset{LogOffset: n + 1})
	return to, true, nil
}

func (s *fileStream) start(json.RawMessage) (json.RawMessage, error) { return nil, nil }

func (s *fileStream) read(ctx context.Context, from, to json.RawMessage) (string, error) {
	a, err := parseFileOffset(from)
	if err != nil {
		return "", err
	}
	b, err := parseFileOffset(to)
	if err != nil {
		return "", err
	}
	none := a == b // no new file for this source in the batch: its columns, no row
	if none {
		a = -1
	}
	es, err := s.cp.ReadFileSourceLog(s.index, a, b)
	if err != nil {
		return "", err
	}
	files := make([]string, 0, len(es))
	for _, e := range es {
		files = append(files, checkpoint.URIPath(e.Path))
	}
	if len(files) == 0 {
		return "", fmt.Errorf("%w: no file has landed in %s yet", ErrSource, s.path)
	}
	if gone := missingFiles(files); len(gone) > 0 && !none {
		return "", &missingFilesError{files: gone, reader: s.reader, pipeline: s.pipeline}
	}
	q, err := s.e.ReadFiles(ctx, files, s.format, s.opts.src)
	if gone := missingFiles(files); err != nil && len(gone) > 0 && !none {
		return "", &missingFilesError{files: gone, reader: s.reader, pipeline: s.pipeline}
	}
	if none {
		q = emptyOf(q)
	}
	return q, err
}

// missingFiles returns the files of paths that no longer exist.
func missingFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			out = append(out, p)
		}
	}
	return out
}

// missingFilesError: landing files a micro-batch planned (its offsets and
// file source log name them) no longer exist. Spark's file stream source
// fails such a batch (FileNotFoundException, unless ignoreMissingFiles,
// which local runs do not apply) and replays it on every restart, so does
// a run here; flowRun.missing names the flow and the batch.
type missingFilesError struct {
	files            []string
	reader, pipeline string
	flow             string
	batch            int64
}

func (e *missingFilesError) Error() string {
	names := e.files
	more := ""
	if len(names) > 3 {
		names, more = names[:3], fmt.Sprintf(" and %d more", len(e.files)-3)
	}
	return fmt.Sprintf("%s: flow %s, batch %d: the landing file %s%s, planned for this batch (the checkpoint's offsets name it), no longer exists: "+
		"the batch cannot be read, and every run replays it until the file is back (Spark's file stream source fails the same way): "+
		"put the file back and run again, or rewrite the node's rows from the files the folder holds now with a FULL refresh: %s",
		ErrSource, e.flow, e.batch, strings.Join(names, ", "), more,
		human.RunCommand(e.pipeline, []string{e.reader}, validate.RefreshFull, ""))
}

func (e *missingFilesError) Unwrap() error { return ErrSource }

// deltaStream streams a Delta table as Spark's Delta source does: the
// snapshot first (unless startingVersion), then the files each later
// commit adds, with offsets (version, index).
type deltaStream struct {
	e           engine.Session
	path, label string
	// reader names the reading node in messages and hints; writer is the
	// node whose rows a node_name stream reads.
	reader, pipeline, writer string
	opts                     delta.StreamOptions
	// where and columns restrict the rows to one writer of a shared table
	// (a node_name stream).
	where      string
	dropColumn string
	// dropHint is the command that drops the table once and runs its
	// writers again (a table written before it was shared).
	dropHint string
	// whereOf renders a `where` writer's predicate for a version's schema
	// (nil for a writer column, whose predicate is where).
	whereOf func(*delta.StructType) string
	// startingVersion: -1 none, -2 latest.
	startingVersion int64
	limit           int
	warn            func(string)
	// warned holds the versions skipped and warned about: a batch lists
	// its commits twice (to plan its end, then to read it).
	warned map[int64]bool

	latest *delta.Snapshot // the table when the flow started
	// addedAt is the version that added each file collect returned (the
	// engine reads a file as its commit added it).
	addedAt map[*delta.Add]int64
	began   *deltaOffset // where a new checkpoint started
}

// deltaOffset is Spark's DeltaSourceOffset.
type deltaOffset struct {
	SourceVersion    int64  `json:"sourceVersion"`
	ReservoirID      string `json:"reservoirId"`
	ReservoirVersion int64  `json:"reservoirVersion"`
	Index            int64  `json:"index"`
	// IsStartingVersion is true while the initial snapshot is read
	// (Spark's isInitialSnapshot).
	IsStartingVersion bool `json:"isStartingVersion"`
}

// baseIndex is Spark's BASE_INDEX: before every file of a version.
const baseIndex = -1

func parseDeltaOffset(o json.RawMessage) (deltaOffset, error) {
	var d deltaOffset
	if err := json.Unmarshal(o, &d); err != nil || !strings.Contains(string(o), "reservoirVersion") {
		return d, fmt.Errorf("%w: %s is not a Delta source offset: the checkpoint was written for another source; run a FULL refresh of the node", ErrCheckpoint, o)
	}
	if d.ReservoirVersion < 0 || d.ReservoirVersion > checkpoint.MaxBatchID || d.Index > checkpoint.MaxBatchID {
		return d, fmt.Errorf("%w: Delta source offset %s is out of range: the checkpoint is corrupt; run a FULL refresh of the node", ErrCheckpoint, o)
	}
	if d.Index < baseIndex {
		d.Index = baseIndex // metadata-change indexes of sourceVersion 3: before the version's files
	}
	return d, nil
}

func (o deltaOffset) json() json.RawMessage {
	o.SourceVersion = 1
	b, _ := json.Marshal(o)
	return b
}

// table loads the table once per flow.
func (s *deltaStream) table(ctx context.Context) (*delta.Snapshot, error) {
	if s.latest != nil {
		return s.latest, nil
	}
	snap, err := loadTable(ctx, s.path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSource, s.label, err)
	}
	if snap == nil {
		return nil, fmt.Errorf("%w: %s does not exist yet (no Delta table at %s): run the node that writes it first", ErrSource, s.label, s.path)
	}
	s.latest = snap
	return snap, nil
}

// initial is where a new checkpoint starts: the latest snapshot, or the
// startingVersion.
func (s *deltaStream) initial(snap *delta.Snapshot) deltaOffset {
	o := deltaOffset{ReservoirID: snap.TableID(), ReservoirVersion: snap.Version(), Index: baseIndex, IsStartingVersion: true}
	switch {
	case s.startingVersion == -2:
		o.ReservoirVersion, o.IsStartingVersion = snap.Version()+1, false
	case s.startingVersion >= 0:
		o.ReservoirVersion, o.IsStartingVersion = s.startingVersion, false
	}
	return o
}

func (s *deltaStream) start(to json.RawMessage) (json.RawMessage, error) {
	if s.began != nil {
		return s.began.json(), nil
	}
	end, err := parseDeltaOffset(to)
	if err != nil {
		return nil, err
	}
	o := deltaOffset{ReservoirID: end.ReservoirID, Index: baseIndex}
	switch {
	case s.startingVersion >= 0:
		o.ReservoirVersion = s.startingVersion
	case s.startingVersion == -2:
		return to, nil // latest: nothing was read before the end
	case end.IsStartingVersion:
		o.ReservoirVersion, o.IsStartingVersion = end.ReservoirVersion, true
	default:
		// Spark: a first batch that ended after the snapshot began at
		// the snapshot of the version before.
		o.ReservoirVersion, o.IsStartingVersion = max(end.ReservoirVersion-1, 0), true
	}
	return o.json(), nil
}

func (s *deltaStream) next(ctx context.Context, from json.RawMessage) (json.RawMessage, bool, error) {
	snap, err := s.table(ctx)
	if err != nil {
		return nil, false, err
	}
	pos := s.initial(snap)
	if from == nil {
		s.began = &pos
	} else {
		if pos, err = parseDeltaOffset(from); err != nil {
			return nil, false, err
		}
	}
	_, end, err := s.collect(ctx, pos, nil)
	if err != nil {
		return nil, false, err
	}
	if end.ReservoirVersion == pos.ReservoirVersion && end.Index == pos.Index && end.IsStartingVersion == pos.IsStartingVersion && from != nil {
		return from, false, nil
	}
	// A new checkpoint always records where it starts (e.g. startingVersion
	// latest on a table without new commits), even with no row yet.
	// A batch may hold no file (e.g. skipped commits): it still moves the
	// offset, as Spark does, so those commits are not examined again.
	return end.json(), true, nil
}

func (s *deltaStream) read(ctx context.Context, from, to json.RawMessage) (string, error) {
	snap, err := s.table(ctx)
	if err != nil {
		return "", err
	}
	a, err := parseDeltaOffset(from)
	if err != nil {
		return "", err
	}
	b, err := parseDeltaOffset(to)
	if err != nil {
		return "", err
	}
	files, _, err := s.collect(ctx, a, &b)
	if err != nil {
		return "", err
	}
	if files == nil {
		files = []*delta.Add{}
	}
	var cols []string
	if s.dropColumn != "" {
		if snap.Schema().Field(s.dropColumn) == nil {
			return "", fmt.Errorf("%w: %s has no `%s` column to tell the writer's rows from the other writers': drop it once, then run normally (%s)",
				ErrLegacyTable, s.label, s.dropColumn, s.dropHint)
		}
		for _, f := range snap.Schema().FieldNames() {
			if !strings.EqualFold(f, s.dropColumn) {
				cols = append(cols, f)
			}
		}
	}
	versions := make([]int64, len(files))
	for i, f := range files {
		versions[i] = s.addedAt[f]
	}
	q, err := s.e.ScanTable(ctx, snap, engine.Scan{Files: files, Versions: versions, Where: s.predicate(snap.Schema()), Columns: cols})
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrSource, s.label, err)
	}
	return q, nil
}

// collect walks the table from offset pos: the files after it, up to the
// limit (to nil) or up to offset to; it returns them and the offset of
// the last one (moved to the next version's base when a version is
// done).
func (s *deltaStream) collect(ctx context.Context, pos deltaOffset, to *deltaOffset) ([]*delta.Add, deltaOffset, error) {
	snap := s.latest
	if pos.ReservoirID != "" && pos.ReservoirID != snap.TableID() {
		return nil, pos, fmt.Errorf("%w: node '%s' of pipeline '%s' streams %s, which was replaced (dropped and created again) since its checkpoint was written (table id %s, now %s): run a FULL refresh of node '%s' (%s)",
			ErrStream, s.reader, s.pipeline, s.label, pos.ReservoirID, snap.TableID(), s.reader, s.fullRefresh())
	}
	pos.ReservoirID = snap.TableID()
	var out []*delta.Add
	full := func() bool { return to == nil && len(out) >= s.limit }
	beyond := func(v, i int64, initial bool) bool {
		if to == nil {
			return false
		}
		if to.IsStartingVersion {
			return !initial || v != to.ReservoirVersion || i > to.Index
		}
		if initial {
			return false
		}
		return v > to.ReservoirVersion || (v == to.ReservoirVersion && i > to.Index)
	}
	if pos.IsStartingVersion {
		base := snap
		if pos.ReservoirVersion != snap.Version() {
			t, err := delta.Open(ctx, s.path)
			if err == nil {
				base, err = t.Snapshot(ctx, delta.AtVersion(pos.ReservoirVersion))
			}
			if err != nil {
				return nil, pos, fmt.Errorf("%w: %s: the snapshot at version %d that the reader started from cannot be read (%w): run a FULL refresh of node '%s' (%s)",
					ErrStream, s.label, pos.ReservoirVersion, err, s.reader, s.fullRefresh())
			}
		}
		fs := base.Files()
		for i := pos.Index + 1; i < int64(len(fs)); i++ {
			if full() || beyond(pos.ReservoirVersion, i, true) {
				return out, pos, nil
			}
			out = append(out, fs[i])
			s.added(fs[i], pos.ReservoirVersion)
			pos.Index = i
		}
		if beyond(pos.ReservoirVersion+1, baseIndex, false) {
			return out, pos, nil
		}
		pos = deltaOffset{ReservoirID: pos.ReservoirID, ReservoirVersion: pos.ReservoirVersion + 1, Index: baseIndex}
	}
	if pos.ReservoirVersion > snap.Version() {
		return out, pos, nil
	}
	changes, err := snap.ChangesSince(ctx, pos.ReservoirVersion-1)
	if err != nil {
		return nil, pos, fmt.Errorf("%w: %s: %w", ErrStream, s.label, err)
	}
	for _, vc := range changes {
		if full() || beyond(vc.Version, pos.Index+1, false) {
			return out, pos, nil
		}
		adds, err := vc.StreamFiles(s.label, s.opts)
		if err != nil {
			return nil, pos, s.changeError(err)
		}
		if vc.RemovesData && len(adds) == 0 {
			s.skipped(ctx, vc)
		}
		for i := pos.Index + 1; i < int64(len(adds)); i++ {
			if full() || beyond(vc.Version, i, false) {
				return out, pos, nil
			}
			out = append(out, adds[i])
			s.added(adds[i], vc.Version)
			pos.Index = i
		}
		if beyond(vc.Version+1, baseIndex, false) {
			return out, pos, nil
		}
		pos = deltaOffset{ReservoirID: pos.ReservoirID, ReservoirVersion: vc.Version + 1, Index: baseIndex}
	}
	return out, pos, nil
}

// added records the version that added a file.
func (s *deltaStream) added(f *delta.Add, version int64) {
	if s.addedAt == nil {
		s.addedAt = map[*delta.Add]int64{}
	}
	s.addedAt[f] = version
}

// changeError says what to do about a commit the reader does not
// tolerate.
func (s *deltaStream) changeError(err error) error {
	return fmt.Errorf("%w: node '%s' of pipeline '%s' streams %s: %w. Run a FULL refresh of node '%s' (%s) to read the table afresh, or set `reader_kwargs: {skipChangeCommits: true}` on its source to skip such commits",
		ErrStream, s.reader, s.pipeline, s.label, err, s.reader, s.fullRefresh())
}

// fullRefresh is the command of the reader's FULL refresh.
func (s *deltaStream) fullRefresh() string {
	return human.RunCommand(s.pipeline, []string{s.reader}, validate.RefreshFull, "")
}

// skipped warns about a commit that removed rows and was skipped
// (skipChangeCommits, ignoreDeletes): when it removed rows the reader
// had read (a FULL refresh of the writer it reads, or any writer for a
// whole-table reader), the rows written again will be read again.
func (s *deltaStream) skipped(ctx context.Context, vc delta.VersionChange) {
	if s.warn == nil || s.warned[vc.Version] {
		return
	}
	if s.warned == nil {
		s.warned = map[int64]bool{}
	}
	s.warned[vc.Version] = true
	fix := fmt.Sprintf("run a FULL refresh of node '%s' (%s), or the rows written again are duplicated", s.reader, s.fullRefresh())
	if s.where == "" && s.whereOf == nil {
		s.warn(fmt.Sprintf("node '%s' skipped version %d of %s (%s), which removed rows: the deletes are not propagated; %s",
			s.reader, vc.Version, s.label, vc.Operation, fix))
		return
	}
	if !s.removedOwnRows(ctx, vc.Version) {
		return // another writer's refresh: filtered out, no effect
	}
	s.warn(fmt.Sprintf("node '%s' skipped version %d of %s (%s), which deleted the rows of the writer it reads (a FULL refresh of that writer): those rows are read again as the writer writes them; %s",
		s.reader, vc.Version, s.label, vc.Operation, fix))
}

// predicate is the reader's row filter over a version of the table.
func (s *deltaStream) predicate(schema *delta.StructType) string {
	if s.whereOf != nil {
		return s.whereOf(schema)
	}
	return s.where
}

// removedOwnRows reports whether the commit at version v removed files
// holding rows the reader's filter selects.
func (s *deltaStream) removedOwnRows(ctx context.Context, v int64) bool {
	t, err := delta.Open(ctx, s.path)
	if err != nil {
		return true
	}
	c, err := t.ReadCommit(ctx, v)
	if err != nil {
		return true
	}
	before, err := t.Snapshot(ctx, delta.AtVersion(v-1))
	if err != nil {
		return true
	}
	mine := map[string]bool{}
	for _, f := range before.PruneFiles(s.predicate(before.Schema())) {
		mine[f.Path] = true
	}
	for _, a := range c.Actions {
		if r := a.Remove; r != nil && r.DataChange && mine[r.Path] {
			return true
		}
	}
	return false
}
