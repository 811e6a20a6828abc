package delta

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"
)

// Table is a Delta table: a folder of the local filesystem, or a prefix of
// an object store (s3://bucket/lake/table) read through its Store. It
// holds no state besides its location: every Snapshot call reads the log
// afresh, so one Table may be shared by goroutines.
type Table struct {
	root string
}

// Open returns the table at root: a local folder (made absolute) or an
// object store location (s3://bucket/prefix, see OpenStore). It fails with
// ErrNotDeltaTable when root does not exist or has no _delta_log holding a
// commit or checkpoint.
func Open(ctx context.Context, root string) (*Table, error) {
	t, _, err := openListed(ctx, root)
	return t, err
}

// openListed is Open, also returning the listing it made.
func openListed(ctx context.Context, root string) (*Table, *logListing, error) {
	t, err := openRoot(root)
	if err != nil {
		return nil, nil, err
	}
	l, _, err := t.listLatest(ctx, false)
	if err != nil {
		return nil, nil, err
	}
	return t, l, nil
}

// openRoot is the table at root, not listed: a local root must be a
// folder.
func openRoot(root string) (*Table, error) {
	abs, err := normalizeRoot(root)
	if err != nil {
		return nil, err
	}
	if !IsRemoteLocation(abs) {
		st, err := os.Stat(abs)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: %s does not exist", ErrNotDeltaTable, abs)
			}
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%w: %s is a file, not a folder", ErrNotDeltaTable, abs)
		}
	}
	return &Table{root: abs}, nil
}

// listLatest lists the log from the newest checkpoint known: the version
// of the _last_checkpoint hint (read when readHint, and returned) or the
// newest checkpoint this process loaded or wrote for the table
// (knownCheckpoints), whichever is newer. The latest snapshot needs
// nothing older, and a log listed whole grows with every commit: it was
// most of the bytes a run on a bucket lake received. The listing is kept
// only when it holds a complete checkpoint at that version; otherwise (no
// hint nor known checkpoint, a table dropped and created again, a hint
// naming a checkpoint that is not there) the log is listed whole.
func (t *Table) listLatest(ctx context.Context, readHint bool) (*logListing, *LastCheckpoint, error) {
	var hint *LastCheckpoint
	if readHint {
		hint = readLastCheckpoint(ctx, t.root)
	}
	from := knownCheckpoints.get(t.root)
	if hint != nil && hint.Version > from {
		from = hint.Version
	}
	if from > 0 {
		l, err := listLogFrom(ctx, t.root, from)
		if err == nil && l.startsAtCheckpoint() {
			return l, hint, nil
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		knownCheckpoints.forget(t.root, from)
	}
	l, err := listLog(ctx, t.root)
	return l, hint, err
}

// startsAtCheckpoint reports whether a partial listing holds a complete
// checkpoint at its first version (a whole listing needs none).
func (l *logListing) startsAtCheckpoint() bool {
	if l.from == 0 {
		return true
	}
	cps := l.completeCheckpoints(l.from)
	return len(cps) > 0 && cps[0].version == l.from
}

// Root is the table's absolute folder, or its URI.
func (t *Table) Root() string { return t.root }

// LogDir is the table's _delta_log folder (or its URI).
func (t *Table) LogDir() string {
	if IsRemoteLocation(t.root) {
		return t.root + "/" + LogDirName
	}
	return filepath.Join(t.root, LogDirName)
}

// logFile is the path (or URI) of a file of the log.
func (t *Table) logFile(name string) string {
	if IsRemoteLocation(t.root) {
		return t.LogDir() + "/" + name
	}
	return filepath.Join(t.LogDir(), name)
}

// LatestVersion lists the log and returns its newest version.
func (t *Table) LatestVersion(ctx context.Context) (int64, error) {
	l, _, err := t.listLatest(ctx, false)
	if err != nil {
		return 0, err
	}
	return l.latest(), nil
}

// SnapshotOption selects which version Snapshot loads.
type SnapshotOption func(*snapshotConfig)

type snapshotConfig struct {
	version   *int64
	timestamp *time.Time
}

// AtVersion loads the snapshot at version v (time travel by version).
func AtVersion(v int64) SnapshotOption {
	return func(c *snapshotConfig) { c.version = &v }
}

// AtTimestamp loads the newest version committed at or before ts (time
// travel by timestamp). A commit's time is its inCommitTimestamp, else its
// commitInfo.timestamp, else its file's modification time. A timestamp
// after the last commit gives the latest version; one before the first
// available commit fails with ErrTimestampOutOfRange.
func AtTimestamp(ts time.Time) SnapshotOption {
	return func(c *snapshotConfig) { c.timestamp = &ts }
}

// LoadSnapshot is Open followed by Snapshot.
func LoadSnapshot(ctx context.Context, root string, opts ...SnapshotOption) (*Snapshot, error) {
	t, err := openRoot(root)
	if err != nil {
		return nil, err
	}
	return t.Snapshot(ctx, opts...)
}

// Snapshot replays the log into the table's state at the latest version,
// or at the version an option selects. It starts from the newest complete
// checkpoint at or before that version (the _last_checkpoint hint picks
// among checkpoints of one version; a missing, stale or corrupt hint is
// ignored, and a checkpoint that cannot be read is skipped for an older
// one when the commits after it are available), then applies the JSON
// commits after it. It fails with ErrVersionsNotContiguous,
// ErrMissingProtocol, ErrMissingMetadata, ErrUnsupportedProtocol,
// ErrUnsupportedFeature, ErrCorruptLog, ErrVersionNotFound or
// ErrMissingCheckpointPart.
//
// The latest version, or a version at or after the newest checkpoint, is
// loaded from a listing of the log from that checkpoint on (see
// listLatest); time travel by timestamp, a version before it, or a
// checkpoint that cannot be read list the whole log.
func (t *Table) Snapshot(ctx context.Context, opts ...SnapshotOption) (*Snapshot, error) {
	var cfg snapshotConfig
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.timestamp == nil {
		l, hint, err := t.listLatest(ctx, true)
		if err != nil {
			return nil, err
		}
		if l.from == 0 || cfg.version == nil || *cfg.version >= l.from {
			s, err := t.snapshot(ctx, l, cfg, hint)
			if err == nil || l.from == 0 || ctx.Err() != nil {
				return s, err
			}
			// The checkpoint listed from did not load: replay from the
			// whole log, as a reader without the hint would.
			knownCheckpoints.forget(t.root, l.from)
		}
	}
	l, err := listLog(ctx, t.root)
	if err != nil {
		return nil, err
	}
	return t.snapshot(ctx, l, cfg, readLastCheckpoint(ctx, t.root))
}

// snapshot is Snapshot over a listing already made, with the
// _last_checkpoint hint read before it (nil if none).
func (t *Table) snapshot(ctx context.Context, l *logListing, cfg snapshotConfig, hint *LastCheckpoint) (*Snapshot, error) {
	var err error
	target := l.latest()
	switch {
	case cfg.version != nil:
		if *cfg.version < 0 || *cfg.version > target {
			return nil, fmt.Errorf("%w: table %s has versions up to %d, not %d", ErrVersionNotFound, t.root, target, *cfg.version)
		}
		target = *cfg.version
	case cfg.timestamp != nil:
		if target, err = t.versionAt(ctx, l, *cfg.timestamp); err != nil {
			return nil, err
		}
	}
	return t.loadSnapshot(ctx, l, target, hint)
}

// loadSnapshot builds the snapshot of version target from listing l.
func (t *Table) loadSnapshot(ctx context.Context, l *logListing, target int64, hint *LastCheckpoint) (*Snapshot, error) {
	cps := l.completeCheckpoints(target)
	preferHinted(cps, hint)
	var cpErr error
	for _, cp := range cps {
		if err := l.checkContiguous(t.root, cp.version+1, target); err != nil {
			return nil, err // an older checkpoint would meet the same gap
		}
		st := newReplayState()
		if err := readCheckpoint(ctx, t.root, cp, st.apply); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if cpErr == nil {
				cpErr = err
			}
			continue
		}
		knownCheckpoints.put(t.root, cp.version)
		return t.finish(ctx, l, st, cp.version, target)
	}
	if l.from > 0 {
		// A partial listing knows no older checkpoint nor version 0:
		// Snapshot lists the whole log.
		return nil, fmt.Errorf("%w: table %s: no usable checkpoint at or after version %d (%v)", ErrCorruptLog, t.root, l.from, cpErr)
	}
	// No usable checkpoint: replay every commit from version 0.
	if !l.hasCommit(0) {
		switch {
		case cpErr != nil:
			return nil, cpErr
		case l.incompleteCheckpoint(target) != "":
			return nil, &LogFileError{Table: t.root, Version: target,
				File: t.logFile(l.incompleteCheckpoint(target)),
				Err:  fmt.Errorf("%w: the checkpoint part is missing and the commits before it were cleaned up", ErrMissingCheckpointPart)}
		case len(l.commits) > 0 && l.commits[0] <= target:
			return nil, fmt.Errorf("%w: table %s: the log starts at version %d and has no checkpoint to start from",
				ErrVersionsNotContiguous, t.root, l.commits[0])
		default:
			return nil, fmt.Errorf("%w: table %s: version %d cannot be reconstructed (its commits were cleaned up)",
				ErrVersionNotFound, t.root, target)
		}
	}
	if err := l.checkContiguous(t.root, 0, target); err != nil {
		return nil, err
	}
	return t.finish(ctx, l, newReplayState(), -1, target)
}

// finish applies commits (after, target] to st and builds the snapshot.
func (t *Table) finish(ctx context.Context, l *logListing, st *replayState, after, target int64) (*Snapshot, error) {
	if err := l.checkContiguous(t.root, after+1, target); err != nil {
		return nil, err
	}
	commits, err := readCommits(ctx, t.root, after+1, target)
	if err != nil {
		return nil, err
	}
	for _, c := range commits {
		for _, a := range c.Actions {
			if err := st.apply(a); err != nil {
				return nil, err
			}
		}
	}
	var last *Commit
	if n := len(commits); n > 0 {
		last = commits[n-1]
	} else if l.hasCommit(target) {
		// Snapshot at a checkpoint version: commitInfo lives in its JSON.
		last, _ = readCommit(ctx, t.root, target)
	}
	return newSnapshot(t.root, target, after, st, last)
}

// versionAt resolves a timestamp to the newest version committed at or
// before ts, by binary search over the commit files.
func (t *Table) versionAt(ctx context.Context, l *logListing, ts time.Time) (int64, error) {
	if len(l.commits) == 0 {
		return 0, fmt.Errorf("%w: table %s has no commit file to date", ErrVersionNotFound, t.root)
	}
	first, err := readCommitTimestamp(ctx, t.root, l.commits[0])
	if err != nil {
		return 0, err
	}
	if ts.Before(first) {
		return 0, fmt.Errorf("%w: %s is before version %d of table %s, committed at %s",
			ErrTimestampOutOfRange, ts.UTC().Format(time.RFC3339Nano), l.commits[0], t.root, first.Format(time.RFC3339Nano))
	}
	// Find the last commit index with timestamp <= ts.
	lo, hi := 0, len(l.commits)-1 // invariant: commits[lo] <= ts
	for lo < hi {
		mid := (lo + hi + 1) / 2
		mts, err := readCommitTimestamp(ctx, t.root, l.commits[mid])
		if err != nil {
			return 0, err
		}
		if mts.After(ts) {
			hi = mid - 1
		} else {
			lo = mid
		}
	}
	return l.commits[lo], nil
}

// commitsCover reports whether commit files from..to (inclusive) were all
// listed (true for an empty range).
func (l *logListing) commitsCover(from, to int64) bool {
	if from > to {
		return true
	}
	i := sort.Search(len(l.commits), func(i int) bool { return l.commits[i] >= from })
	// to-from may overflow int64 (a commit file named after an absurd
	// version): compare as unsigned.
	n := uint64(to) - uint64(from) + 1
	if n > uint64(len(l.commits)-i) {
		return false
	}
	return l.commits[i] == from && l.commits[i+int(n)-1] == to
}

// firstMissing is the first version in from..to without a listed commit
// (from <= to, and the range is not covered), found from the sorted
// listing in time proportional to its length, not to the range.
func (l *logListing) firstMissing(from, to int64) int64 {
	want := from
	for _, v := range l.commits[sort.Search(len(l.commits), func(i int) bool { return l.commits[i] >= from }):] {
		if v != want || want == to {
			break
		}
		want++
	}
	return want
}

// checkContiguous fails with ErrVersionsNotContiguous naming the first
// missing commit in from..to (after fillGaps).
func (l *logListing) checkContiguous(root string, from, to int64) error {
	if l.commitsCover(from, to) {
		return nil
	}
	l.fillGaps(root, from, to)
	if l.commitsCover(from, to) {
		return nil
	}
	return fmt.Errorf("%w: table %s: commit %s is missing (the log needs every version from %d to %d)",
		ErrVersionsNotContiguous, root, CommitFileName(l.firstMissing(from, to)), from, to)
}

// maxGapLookups bounds the commits fillGaps looks up by name: a listing
// misses at most the few commits created while it ran, never millions (a
// commit file named after an absurd version is a broken log).
const maxGapLookups = 1024

// fillGaps looks up by name the commits in from..to the listing lacks and
// adds those that exist. A folder listed while writers commit can show a
// commit created during the listing without an earlier one also created
// during it (readdir returns entries in hash order, and entries added
// meanwhile may or may not appear), so a gap in a listing is not yet a
// gap in the log. At most maxGapLookups names are looked up.
func (l *logListing) fillGaps(root string, from, to int64) {
	if l.commitsCover(from, to) {
		return
	}
	st, err := storeFor(context.Background(), root)
	if err != nil {
		return
	}
	var found []int64
	lookups := 0
	for v := from; lookups < maxGapLookups; v++ {
		if !l.hasCommit(v) {
			lookups++
			if _, err := st.Stat(context.Background(), logKey(CommitFileName(v))); err == nil {
				found = append(found, v)
			}
		}
		if v == to {
			break
		}
	}
	if len(found) > 0 {
		l.commits = append(l.commits, found...)
		slices.Sort(l.commits)
	}
}

// preferHinted moves the checkpoint named by the _last_checkpoint hint to
// the front of the candidates of its version.
func preferHinted(cps []checkpoint, hint *LastCheckpoint) {
	if hint == nil {
		return
	}
	for i, cp := range cps {
		if cp.version != hint.Version {
			continue
		}
		match := false
		switch {
		case hint.V2Checkpoint != nil:
			match = cp.kind == checkpointUUID && cp.files[0] == hint.V2Checkpoint.Path
		case hint.Parts != nil:
			match = cp.kind == checkpointMultiPart && len(cp.files) == *hint.Parts
		default:
			match = cp.kind == checkpointClassic
		}
		if match {
			// Rotate cps[first-of-version..i] so cps[i] comes first.
			j := i
			for j > 0 && cps[j-1].version == cp.version {
				j--
			}
			hinted := cps[i]
			copy(cps[j+1:i+1], cps[j:i])
			cps[j] = hinted
			return
		}
	}
}

// readCommits reads commit files from..to in parallel and returns them in
// version order.
func readCommits(ctx context.Context, root string, from, to int64) ([]*Commit, error) {
	if from > to {
		return nil, nil
	}
	return readCommitsFunc(ctx, int(to-from+1), func(i int) (*Commit, error) {
		return readCommit(ctx, root, from+int64(i))
	})
}

// readCommitsFunc calls read(0..n-1) on a few goroutines and returns the
// results in index order, or the error of the lowest failing index.
func readCommitsFunc(ctx context.Context, n int, read func(i int) (*Commit, error)) ([]*Commit, error) {
	out := make([]*Commit, n)
	if n == 0 {
		return out, nil
	}
	workers := min(runtime.GOMAXPROCS(0), 8, n)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		errAt    = n
		next     int
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := i > errAt
				mu.Unlock()
				if i >= n || stop || ctx.Err() != nil {
					return
				}
				c, err := read(i)
				if err != nil {
					mu.Lock()
					if i < errAt {
						firstErr, errAt = err, i
					}
					mu.Unlock()
					continue
				}
				out[i] = c
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}
