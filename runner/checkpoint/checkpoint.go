// Package checkpoint keeps streaming checkpoints in Spark Structured
// Streaming's layout (offsets, commits, metadata, file source logs, the
// states of update flows) and the writer locks beside them. It knows
// folders and files only: which checkpoint a flow uses, and when it is
// reset, is the runner's.
package checkpoint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
)

// ErrCheckpoint: a streaming checkpoint cannot be read or written (or
// one to import is not a Structured Streaming checkpoint).
var ErrCheckpoint = errors.New("streaming checkpoint")

// A Checkpoint is a folder in Spark Structured Streaming's layout, so a
// checkpoint written here can be imported by a Spark flow and a Spark
// checkpoint imported here (import_checkpoint):
//
//	metadata        {"id":"<query id>"}
//	offsets/<N>     v1, the batch metadata, then one offset per streaming
//	                source ("-" for none): the end of micro-batch N,
//	                written before the batch is processed
//	commits/<N>     v1 and {"nextBatchWatermarkMs":0}: batch N is done
//	sources/<i>/<N> the files a file source admitted in its batch N
//	                (Spark's FileStreamSource log; <N>.compact holds every
//	                entry up to N)
//	state/<N>/      the state of an update flow after batch N (ours)
//	laktory-workspace  {"workspace":"<folder>"}: the workspace the paths of
//	                the file source logs are written for (ours)
//
// The query id is the flow id: Delta sinks commit each batch with
// txn(appId = id, version = N), and a reset checkpoint gets a new id.
//
// File source logs keep absolute file: URIs, as Spark writes and reads
// them, of files as if the workspace were still where the checkpoint
// first ran (laktory-workspace): a workspace moved or renamed since reads
// its old entries, and writes new ones, through that folder, so no file is
// streamed again and Spark resuming the checkpoint in place reads it as
// its own.
type Checkpoint struct {
	// Dir is the checkpoint's folder, ID its query id.
	Dir string
	ID  string
	// home is the workspace folder now, base the one the log's paths are
	// written for ("" for neither: paths are used as they are).
	home, base string
}

// WorkspaceMarker is the checkpoint file naming base.
const WorkspaceMarker = "laktory-workspace"

// checkpointVersion is the version line of every log file.
const checkpointVersion = "v1"

// voidOffset stands for a source without an offset in an offsets file.
const voidOffset = "-"

// Open opens the checkpoint in dir of a flow of the workspace in
// home, creating it (with a new query id) when it does not exist.
func Open(dir, home string) (*Checkpoint, error) {
	cp := &Checkpoint{Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "metadata"))
	switch {
	case err == nil:
		var m struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(bytes.TrimSpace(b), &m); err != nil || m.ID == "" {
			return nil, fmt.Errorf("%w: checkpoint %s: its metadata file is not {\"id\": ...}: delete the folder (or run a FULL refresh) to start over", ErrCheckpoint, dir)
		}
		cp.ID = m.ID
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, dir, err)
	case !exists(ImportMarker(dir)) && hasLogs(dir):
		return nil, fmt.Errorf("%w: checkpoint %s has batches but no metadata file (its query id, which its Delta commits carry): they cannot be told apart from another query's",
			ErrUntrusted, dir)
	default:
		cp.ID = uuid.NewString()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("%w: create checkpoint %s: %w", ErrCheckpoint, dir, err)
		}
		meta, _ := json.Marshal(map[string]string{"id": cp.ID})
		if err := WriteFileAtomic(filepath.Join(dir, "metadata"), append(meta, '\n')); err != nil {
			return nil, fmt.Errorf("%w: create checkpoint %s: %w", ErrCheckpoint, dir, err)
		}
	}
	if home == "" {
		return cp, nil
	}
	cp.home, cp.base = home, home
	var m struct {
		Workspace string `json:"workspace"`
	}
	b, err = os.ReadFile(filepath.Join(dir, WorkspaceMarker))
	switch {
	case err == nil && json.Unmarshal(b, &m) == nil && filepath.IsAbs(m.Workspace):
		cp.base = filepath.Clean(m.Workspace)
		return cp, nil
	case err == nil:
		// The folder the log's paths are written for is lost: in a moved
		// workspace, every file read before would look new.
		return nil, fmt.Errorf("%w: checkpoint %s: its %s file is garbled (%.60q, not {\"workspace\": \"<absolute folder>\"}): the files it read before cannot be told from new ones",
			ErrUntrusted, dir, WorkspaceMarker, string(bytes.TrimSpace(b)))
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, dir, err)
	}
	b, _ = json.Marshal(map[string]string{"workspace": home})
	if err := WriteFileAtomic(filepath.Join(dir, WorkspaceMarker), append(b, '\n')); err != nil {
		return nil, fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, dir, err)
	}
	return cp, nil
}

// WrittenMarker is the file beside a flow's checkpoint folder that records
// that the flow committed batches into its sink under the checkpoint's
// query id: it outlives the folder, so a folder removed by hand (rather
// than by a refresh, which removes the marker first) is told from a flow
// that never ran. Spark ignores it.
func WrittenMarker(dir string) string { return filepath.Clean(dir) + ".written.json" }

// Written is what WrittenMarker records.
type Written struct {
	ID   string    `json:"id"`
	Flow string    `json:"flow"`
	At   time.Time `json:"at"`
}

// MarkWritten records, unless it is already recorded under the
// checkpoint's id, that flow committed batches through the checkpoint.
func (cp *Checkpoint) MarkWritten(flow string, at time.Time) error {
	if w, err := ReadWritten(cp.Dir); err == nil && w != nil && w.ID == cp.ID {
		return nil
	}
	b, _ := json.Marshal(Written{ID: cp.ID, Flow: flow, At: at.UTC()})
	if err := WriteFileAtomic(WrittenMarker(cp.Dir), append(b, '\n')); err != nil {
		return fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, cp.Dir, err)
	}
	return nil
}

// ReadWritten reads the WrittenMarker of the checkpoint dir (nil when
// there is none; an unreadable one is returned as a marker without id).
func ReadWritten(dir string) (*Written, error) {
	b, err := os.ReadFile(WrittenMarker(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	var w Written
	json.Unmarshal(b, &w) //nolint:errcheck // a garbled marker still says batches were written
	return &w, nil
}

// ClearWritten removes the WrittenMarker of the checkpoint dir (the
// checkpoint is being reset).
func ClearWritten(dir string) error {
	if err := delta.RemoveFile(WrittenMarker(dir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	return nil
}

// ImportMarker is the file that records a flow's import, next to its
// checkpoint dir: a full refresh deletes the checkpoint, not the marker, so the
// checkpoint is never imported twice under one flow name.
func ImportMarker(dir string) string { return filepath.Clean(dir) + ".imported.json" }

// exists reports whether a file or folder exists.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// ErrUntrusted marks a checkpoint that cannot be trusted: resuming it
// would skip or read again files or commits. It wraps ErrCheckpoint; the
// flow names the FULL refresh that starts it over (untrusted).
var ErrUntrusted = fmt.Errorf("%w: cannot be trusted", ErrCheckpoint)

// hasLogs reports whether a checkpoint folder holds any batch: offsets,
// commits, a file source log or a state.
func hasLogs(dir string) bool {
	for _, log := range []string{"offsets", "commits", "sources", "state"} {
		if entries, err := os.ReadDir(filepath.Join(dir, log)); err == nil && len(entries) > 0 {
			return true
		}
	}
	return false
}

// Trust checks that the checkpoint's logs agree with each other, as a
// run leaves them: commits/ never ahead of offsets/, at most one batch
// planned and not committed (a crash), file source logs at most one batch
// ahead of offsets/ (written just before it), and no file source log or
// state without offsets. Anything else means parts of it were lost or
// edited: resuming would skip new files for good or read old ones again.
func (cp *Checkpoint) Trust() error {
	last, err := cp.LastCommitted()
	if err != nil {
		return err
	}
	planned, err := cp.LastOffsets()
	if err != nil {
		return err
	}
	bad := func(what string) error {
		return fmt.Errorf("%w: checkpoint %s %s", ErrUntrusted, cp.Dir, what)
	}
	switch {
	case last > planned:
		return bad(fmt.Sprintf("has commits/%d but its offsets/ end at %d (lost or removed)", last, planned))
	case planned > last+1:
		return bad(fmt.Sprintf("has offsets/%d but its commits/ end at %d: more than the one batch a crash leaves uncommitted (commits/ lost or removed)", planned, last))
	}
	sources, _ := os.ReadDir(filepath.Join(cp.Dir, "sources"))
	for _, src := range sources {
		entries, _ := os.ReadDir(filepath.Join(cp.Dir, "sources", src.Name()))
		for _, e := range entries {
			n, err := strconv.ParseInt(strings.TrimSuffix(e.Name(), ".compact"), 10, 64)
			if err == nil && n > planned+1 {
				return bad(fmt.Sprintf("has the file source log sources/%s/%s beyond its offsets/, which end at %d (offsets/ and commits/ lost or removed): the files it lists would never be read again", src.Name(), e.Name(), planned))
			}
		}
	}
	if planned < 0 {
		if entries, _ := os.ReadDir(filepath.Join(cp.Dir, "state")); len(entries) > 0 {
			return bad("has a state/ but no offsets/ (lost or removed)")
		}
	}
	return nil
}

// rebase moves path from one workspace folder to another when it lies
// inside it.
func rebase(path, from, to string) string {
	if from == to || from == "" {
		return path
	}
	if rel, err := filepath.Rel(from, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return filepath.Join(to, rel)
	}
	return path
}

// MaxBatchID bounds the batch ids, log offsets and table versions a
// checkpoint may hold (2^53-1, the largest integer every JSON reader keeps
// exact): a real stream never gets near it, and a file named
// 9223372036854775807 would otherwise make the next batch id overflow and
// the flow replay one batch forever.
const MaxBatchID = 1<<53 - 1

// Batches lists the batch ids of a log folder (offsets, commits), sorted.
// An id above MaxBatchID is an error: the checkpoint is corrupt.
func Batches(dir string) ([]int64, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, e := range entries {
		n, err := strconv.ParseInt(e.Name(), 10, 64)
		switch {
		case err != nil && errors.Is(err, strconv.ErrRange) || err == nil && n > MaxBatchID:
			return nil, fmt.Errorf("%s holds batch %s, beyond any real batch id (%d): the checkpoint is corrupt; run a FULL refresh of the node to start it over",
				dir, e.Name(), int64(MaxBatchID))
		case err == nil && n >= 0 && !e.IsDir():
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// last returns the newest batch id of a log folder, -1 when none.
func (cp *Checkpoint) last(log string) (int64, error) {
	bs, err := Batches(filepath.Join(cp.Dir, log))
	if err != nil {
		return -1, fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, cp.Dir, err)
	}
	if len(bs) == 0 {
		return -1, nil
	}
	return bs[len(bs)-1], nil
}

// LastCommitted is the newest batch with a commit marker, -1 when none.
func (cp *Checkpoint) LastCommitted() (int64, error) { return cp.last("commits") }

// LastOffsets is the newest batch with offsets, -1 when none.
func (cp *Checkpoint) LastOffsets() (int64, error) { return cp.last("offsets") }

// OffsetSeq is the content of an offsets file: the end offset of each
// streaming source (nil for "-"), and the batch metadata.
type OffsetSeq struct {
	Offsets  []json.RawMessage
	Metadata OffsetMetadata
}

// OffsetMetadata is Spark's OffsetSeqMetadata.
type OffsetMetadata struct {
	BatchWatermarkMs int64             `json:"batchWatermarkMs"`
	BatchTimestampMs int64             `json:"batchTimestampMs"`
	Conf             map[string]string `json:"conf,omitempty"`
}

// ReadOffsets reads offsets/<n>.
func (cp *Checkpoint) ReadOffsets(n int64) (OffsetSeq, error) {
	path := filepath.Join(cp.Dir, "offsets", strconv.FormatInt(n, 10))
	b, err := os.ReadFile(path)
	if err != nil {
		return OffsetSeq{}, fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	seq, err := ParseOffsets(b)
	if err != nil {
		return OffsetSeq{}, fmt.Errorf("%w: %s: %w", ErrCheckpoint, path, err)
	}
	return seq, nil
}

// ParseOffsets parses an offsets file: "v1", the metadata JSON, then one
// offset per source, each a JSON value (possibly spread over lines) or "-".
func ParseOffsets(b []byte) (OffsetSeq, error) {
	var seq OffsetSeq
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(strings.TrimSpace(lines[0]), "v") {
		return seq, errors.New("not an offsets file (no version line)")
	}
	if v, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(lines[0]), "v")); err != nil || v < 1 || v > 1 {
		return seq, fmt.Errorf("offsets log version %q is not supported (v1 is)", strings.TrimSpace(lines[0]))
	}
	var pending strings.Builder
	first := true
	for _, line := range lines[1:] {
		t := strings.TrimSpace(line)
		if pending.Len() == 0 {
			if t == "" {
				continue
			}
			if t == voidOffset && !first {
				seq.Offsets = append(seq.Offsets, nil)
				continue
			}
		}
		pending.WriteString(line)
		pending.WriteByte('\n')
		raw := []byte(pending.String())
		if !json.Valid(raw) {
			continue
		}
		pending.Reset()
		if first {
			first = false
			if err := json.Unmarshal(raw, &seq.Metadata); err != nil {
				return seq, fmt.Errorf("batch metadata: %w", err)
			}
			continue
		}
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return seq, err
		}
		seq.Offsets = append(seq.Offsets, json.RawMessage(c.Bytes()))
	}
	if pending.Len() > 0 {
		return seq, fmt.Errorf("an offset is not valid JSON: %q", strings.TrimSpace(pending.String()))
	}
	if first {
		return seq, errors.New("no batch metadata")
	}
	return seq, nil
}

// WriteOffsets writes offsets/<n> (the write-ahead log of batch n).
func (cp *Checkpoint) WriteOffsets(n int64, seq OffsetSeq) error {
	var b bytes.Buffer
	b.WriteString(checkpointVersion)
	meta, err := json.Marshal(seq.Metadata)
	if err != nil {
		return err
	}
	b.WriteByte('\n')
	b.Write(meta)
	for _, o := range seq.Offsets {
		b.WriteByte('\n')
		if o == nil {
			b.WriteString(voidOffset)
		} else {
			b.Write(o)
		}
	}
	return cp.writeLog("offsets", n, b.Bytes())
}

// SinkLog is the folder of a checkpoint where a flow whose sink has no
// Delta txn (file and ForEach sinks) records each batch the sink wrote,
// before the batch's commit marker: it tells a checkpoint that lost
// offsets/ and commits/ from one a crash left before its first offsets, as
// a Delta sink's txn does. Spark ignores it.
const SinkLog = "laktory-sinks"

// WriteSinkBatch records that the flow's sink wrote batch n (SinkLog).
func (cp *Checkpoint) WriteSinkBatch(n int64) error {
	return cp.writeLog(SinkLog, n, []byte(checkpointVersion+"\n"))
}

// sinkFiles is the record of the files batch n of a file sink is adding to
// the sink's folder, beside SinkLog's record of the batch
// (laktory-sinks/<n>.files: one name per line, relative to the sink).
func (cp *Checkpoint) sinkFiles(n int64) string {
	return filepath.Join(cp.Dir, SinkLog, strconv.FormatInt(n, 10)+".files")
}

// WriteSinkFiles records, before they are moved into place, the files
// batch n adds to the sink's folder.
func (cp *Checkpoint) WriteSinkFiles(n int64, files []string) error {
	dir := filepath.Join(cp.Dir, SinkLog)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	if err := WriteFileAtomic(cp.sinkFiles(n), []byte(strings.Join(files, "\n")+"\n")); err != nil {
		return fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, cp.Dir, err)
	}
	return nil
}

// SinkFiles are the files WriteSinkFiles recorded for batch n (nil when
// none). A name that is not a local path (absolute, or leading out with
// ..) makes the record untrusted.
func (cp *Checkpoint) SinkFiles(n int64) ([]string, error) {
	b, err := os.ReadFile(cp.sinkFiles(n))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, cp.Dir, err)
	}
	var out []string
	for _, name := range strings.Split(string(b), "\n") {
		if name == "" {
			continue
		}
		if !filepath.IsLocal(name) {
			return nil, fmt.Errorf("%w: checkpoint %s: %s names %q, which is not a file of the sink", ErrUntrusted, cp.Dir, cp.sinkFiles(n), name)
		}
		out = append(out, name)
	}
	return out, nil
}

// ClearSinkFiles removes the record of batch n's files (the batch is
// recorded as written).
func (cp *Checkpoint) ClearSinkFiles(n int64) error {
	if err := delta.RemoveFile(cp.sinkFiles(n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, cp.Dir, err)
	}
	return nil
}

// LastSinkBatch is the newest batch SinkLog records, -1 when none.
func (cp *Checkpoint) LastSinkBatch() (int64, error) { return cp.last(SinkLog) }

// WriteCommit writes commits/<n>: batch n is done.
func (cp *Checkpoint) WriteCommit(n int64) error {
	return cp.writeLog("commits", n, []byte(checkpointVersion+"\n"+`{"nextBatchWatermarkMs":0}`))
}

func (cp *Checkpoint) writeLog(log string, n int64, b []byte) error {
	dir := filepath.Join(cp.Dir, log)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, strconv.FormatInt(n, 10)), b); err != nil {
		return fmt.Errorf("%w: checkpoint %s: %w", ErrCheckpoint, cp.Dir, err)
	}
	return nil
}

// WriteFileAtomic writes a file through a temporary file renamed into
// place, so readers see all of it or nothing.
func WriteFileAtomic(path string, b []byte) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+uuid.NewString()+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		delta.RemoveFile(tmp) //nolint:errcheck // best effort
	}
	return err
}

// StateDir is the folder of an update flow's state after batch n.
func (cp *Checkpoint) StateDir(n int64) string {
	return filepath.Join(cp.Dir, "state", strconv.FormatInt(n, 10))
}

// PruneState removes the states older than batch keep.
func (cp *Checkpoint) PruneState(g delta.Guard, keep int64) {
	entries, _ := os.ReadDir(filepath.Join(cp.Dir, "state"))
	for _, e := range entries {
		if n, err := strconv.ParseInt(e.Name(), 10, 64); err == nil && n < keep && e.IsDir() {
			g.RemoveAll(filepath.Join(cp.Dir, "state", e.Name())) //nolint:errcheck // pruned again after the next batch
		}
	}
}

// FileEntry is an entry of a file source's log (Spark's FileEntry).
type FileEntry struct {
	Path      string `json:"path"`
	Timestamp int64  `json:"timestamp"`
	BatchID   int64  `json:"batchId"`
}

// fileSourceCompactInterval is Spark's default
// spark.sql.streaming.fileSource.log.compactInterval.
const fileSourceCompactInterval = 10

// sourceLogDir is the log folder of streaming source i.
func (cp *Checkpoint) sourceLogDir(i int) string {
	return filepath.Join(cp.Dir, "sources", strconv.Itoa(i))
}

// ReadFileSourceLog returns the entries of file source i's log up to its
// batch upTo (inclusive), starting after batch after (-1: from the start).
// It reads compacted files (<N>.compact) as Spark writes them.
func (cp *Checkpoint) ReadFileSourceLog(i int, after, upTo int64) ([]FileEntry, error) {
	dir := cp.sourceLogDir(i)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	files := map[int64]string{}
	var ids []int64
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".compact")
		n, err := strconv.ParseInt(name, 10, 64)
		if err != nil || e.IsDir() {
			continue
		}
		if _, dup := files[n]; dup && !strings.HasSuffix(e.Name(), ".compact") {
			continue // prefer the compacted file of a batch
		}
		if _, dup := files[n]; !dup {
			ids = append(ids, n)
		}
		files[n] = filepath.Join(dir, e.Name())
	}
	slices.Sort(ids)
	// Start from the newest compacted file at or before upTo that covers
	// batch after+1: it holds every entry up to its batch.
	start := 0
	for k, n := range ids {
		if n <= upTo && strings.HasSuffix(files[n], ".compact") {
			start = k
		}
	}
	var out []FileEntry
	for _, n := range ids[start:] {
		if n > upTo {
			break
		}
		es, err := readFileEntries(files[n])
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if e.BatchID > after && e.BatchID <= upTo {
				if p := URIPath(e.Path); cp.base != cp.home {
					if q := rebase(p, cp.base, cp.home); q != p {
						e.Path = FileURI(q)
					}
				}
				out = append(out, e)
			}
		}
	}
	return out, nil
}

func readFileEntries(path string) ([]FileEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []FileEntry
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if line == 1 {
			if !strings.HasPrefix(t, "v") {
				return nil, fmt.Errorf("%w: %s is not a file source log (no version line)", ErrCheckpoint, path)
			}
			continue
		}
		if t == "" {
			continue
		}
		var e FileEntry
		if err := json.Unmarshal([]byte(t), &e); err != nil {
			return nil, fmt.Errorf("%w: %s, line %d: %w", ErrCheckpoint, path, line, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// WriteFileSourceLog writes file source i's batch n: the files it
// admitted. Every compactInterval batches the file is a compacted one
// holding every entry so far, as Spark writes it.
func (cp *Checkpoint) WriteFileSourceLog(i int, n int64, files []FileEntry) error {
	dir := cp.sourceLogDir(i)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	name := strconv.FormatInt(n, 10)
	entries := files
	if (n+1)%fileSourceCompactInterval == 0 {
		prev, err := cp.ReadFileSourceLog(i, -1, n-1)
		if err != nil {
			return err
		}
		entries = append(prev, files...)
		name += ".compact"
	}
	var b bytes.Buffer
	b.WriteString(checkpointVersion)
	for _, e := range entries {
		if p := URIPath(e.Path); cp.base != cp.home {
			if q := rebase(p, cp.home, cp.base); q != p {
				e.Path = FileURI(q)
			}
		}
		line, _ := json.Marshal(e)
		b.WriteByte('\n')
		b.Write(line)
	}
	if err := WriteFileAtomic(filepath.Join(dir, name), b.Bytes()); err != nil {
		return fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	return nil
}

// FileURI is a local path as Spark writes it in a file source log.
func FileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// URIPath is the local path of a file source log entry: a file: URI or a
// plain path.
func URIPath(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme == "file" {
		return filepath.Clean(filepath.FromSlash(u.Path))
	}
	return filepath.Clean(s)
}

// CopyDir copies a folder tree (an imported checkpoint).
func CopyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(d.Name(), ".crc") {
			return nil // Hadoop checksum files
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// BatchMetadata is the batch metadata of a new batch.
func BatchMetadata(now time.Time) OffsetMetadata {
	return OffsetMetadata{BatchTimestampMs: now.UnixMilli(), Conf: map[string]string{"spark.sql.shuffle.partitions": "1"}}
}
