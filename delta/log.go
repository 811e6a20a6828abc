package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
)

// LogDirName is the name of a table's log folder.
const LogDirName = "_delta_log"

// LastCheckpointFileName is the name of the checkpoint hint in the log.
const LastCheckpointFileName = "_last_checkpoint"

// SidecarDirName is the folder of V2 checkpoint sidecars, inside the log.
const SidecarDirName = "_sidecars"

// CommitFileName is the name of the commit file of version v
// ("00000000000000000042.json").
func CommitFileName(v int64) string { return fmt.Sprintf("%020d.json", v) }

// CheckpointFileName is the name of the classic (single-file) checkpoint of
// version v ("00000000000000000042.checkpoint.parquet").
func CheckpointFileName(v int64) string { return fmt.Sprintf("%020d.checkpoint.parquet", v) }

// LastCheckpoint is the content of _delta_log/_last_checkpoint: a hint to
// the newest checkpoint. Readers fall back to listing the log when it is
// missing, unreadable or stale.
type LastCheckpoint struct {
	Version          int64             `json:"version"`
	Size             int64             `json:"size"`
	Parts            *int              `json:"parts,omitempty"`
	SizeInBytes      *int64            `json:"sizeInBytes,omitempty"`
	NumOfAddFiles    *int64            `json:"numOfAddFiles,omitempty"`
	CheckpointSchema json.RawMessage   `json:"checkpointSchema,omitempty"`
	Checksum         string            `json:"checksum,omitempty"`
	V2Checkpoint     *LastCheckpointV2 `json:"v2Checkpoint,omitempty"`
}

// LastCheckpointV2 describes a UUID-named V2 checkpoint in _last_checkpoint.
type LastCheckpointV2 struct {
	Path             string            `json:"path"`
	SizeInBytes      int64             `json:"sizeInBytes"`
	ModificationTime int64             `json:"modificationTime"`
	NonFileActions   []Action          `json:"nonFileActions,omitempty"`
	SidecarFiles     []Sidecar         `json:"sidecarFiles,omitempty"`
	Tags             map[string]string `json:"tags,omitempty"`
}

// checkpointKind tells the naming scheme of a checkpoint file.
type checkpointKind int

const (
	checkpointClassic   checkpointKind = iota // n.checkpoint.parquet
	checkpointMultiPart                       // n.checkpoint.o.p.parquet
	checkpointUUID                            // n.checkpoint.<uuid>.json|parquet (V2)
)

// checkpointFile is one file of a checkpoint found by listing.
type checkpointFile struct {
	version int64
	kind    checkpointKind
	part    int // multi-part: 1-based part number
	parts   int // multi-part: number of parts
	name    string
}

// checkpoint is a complete checkpoint candidate: all its (top-level) files.
type checkpoint struct {
	version int64
	kind    checkpointKind
	files   []string // file names in the log folder, in part order
}

// logListing is what listing _delta_log found.
type logListing struct {
	commits     []int64          // sorted versions of NNN.json commit files
	checkpoints []checkpointFile // every checkpoint file
	// from is the first version listed: 0 for the whole log, else the
	// listing started after the files of the versions before it (S3's
	// start-after) and knows nothing of them.
	from int64
}

// parseLogFileName recognises commit and checkpoint file names. ok is
// false for any other file (crc, compacted, temp files, hints).
func parseLogFileName(name string) (version int64, isCommit bool, cp checkpointFile, ok bool) {
	if len(name) < 21 || name[20] != '.' {
		return 0, false, cp, false
	}
	v, err := strconv.ParseInt(name[:20], 10, 64)
	if err != nil || v < 0 {
		return 0, false, cp, false
	}
	rest := name[21:]
	if rest == "json" {
		return v, true, cp, true
	}
	after, found := strings.CutPrefix(rest, "checkpoint.")
	if !found {
		return 0, false, cp, false
	}
	cp = checkpointFile{version: v, name: name}
	switch {
	case after == "parquet":
		cp.kind = checkpointClassic
		return v, false, cp, true
	case strings.HasSuffix(after, ".parquet") || strings.HasSuffix(after, ".json"):
		mid := after[:strings.LastIndexByte(after, '.')]
		if a, b, isMP := strings.Cut(mid, "."); isMP && len(a) == 10 && len(b) == 10 && strings.HasSuffix(after, ".parquet") {
			o, err1 := strconv.Atoi(a)
			p, err2 := strconv.Atoi(b)
			if err1 == nil && err2 == nil && o >= 1 && o <= p {
				cp.kind, cp.part, cp.parts = checkpointMultiPart, o, p
				return v, false, cp, true
			}
			return 0, false, cp, false
		}
		if mid != "" && !strings.Contains(mid, ".") {
			cp.kind = checkpointUUID
			return v, false, cp, true
		}
	}
	return 0, false, cp, false
}

// listLog lists the log folder of a table. It returns ErrNotDeltaTable
// when the folder or its log does not exist or holds no commit/checkpoint.
func listLog(ctx context.Context, root string) (*logListing, error) {
	return listLogFrom(ctx, root, 0)
}

// listLogFrom lists the files of the log of versions from on (from <= 0:
// the whole log), with the store's StartAfter: the names of a version are
// its 20 digits and a suffix, so every file of a version before from sorts
// at or before the 20 digits of from. The names that are no version's
// (_last_checkpoint, _sidecars) sort after the digits and are listed. A
// partial listing that finds nothing fails with ErrNotDeltaTable as a
// whole one does; callers fall back to a whole listing then.
func listLogFrom(ctx context.Context, root string, from int64) (*logListing, error) {
	from = max(from, 0)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := storeFor(ctx, root)
	if err != nil {
		return nil, err
	}
	logDir := st.URI(LogDirName)
	if ls, ok := st.(*LocalStore); ok {
		if _, err := os.Stat(ls.Path(LogDirName)); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s has no %s folder", ErrNotDeltaTable, root, LogDirName)
		}
	}
	var opts ListOptions
	if from > 0 {
		opts.StartAfter = fmt.Sprintf("%020d", from)
	}
	objects, err := st.List(ctx, LogDirName, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if st.Capabilities().Local {
			return nil, fmt.Errorf("%w: %s is not a readable folder: %v", ErrNotDeltaTable, logDir, err)
		}
		return nil, fmt.Errorf("list %s: %w", logDir, err)
	}
	names := make([]string, len(objects))
	remote := !st.Capabilities().Local
	for i, o := range objects {
		names[i] = o.Name()
		if remote && o.ETag != "" {
			if _, _, _, ok := parseLogFileName(names[i]); ok { // commits and checkpoints
				remoteCommits.listed(st.URI(o.Key), o.ETag)
			}
		}
	}
	l := &logListing{commits: make([]int64, 0, len(names)), from: from}
	for _, n := range names {
		v, isCommit, cp, ok := parseLogFileName(n)
		if !ok || v < from {
			continue
		}
		if isCommit {
			l.commits = append(l.commits, v)
		} else {
			l.checkpoints = append(l.checkpoints, cp)
		}
	}
	if len(l.commits) == 0 && len(l.checkpoints) == 0 {
		if len(objects) == 0 && !st.Capabilities().Local {
			return nil, fmt.Errorf("%w: %s has no %s (no object under %s/)", ErrNotDeltaTable, root, LogDirName, logDir)
		}
		return nil, fmt.Errorf("%w: %s holds no commit file", ErrNotDeltaTable, logDir)
	}
	sort.Slice(l.commits, func(i, j int) bool { return l.commits[i] < l.commits[j] })
	return l, nil
}

// latest is the newest version the listing knows (commit or checkpoint).
func (l *logListing) latest() int64 {
	v := int64(-1)
	if n := len(l.commits); n > 0 {
		v = l.commits[n-1]
	}
	for _, c := range l.checkpoints {
		if c.version > v {
			v = c.version
		}
	}
	return v
}

// hasCommit reports whether commit file v was listed.
func (l *logListing) hasCommit(v int64) bool {
	i := sort.Search(len(l.commits), func(i int) bool { return l.commits[i] >= v })
	return i < len(l.commits) && l.commits[i] == v
}

// completeCheckpoints returns the complete checkpoints at or before
// maxVersion, newest first. At one version a UUID-named checkpoint comes
// first, then a classic one, then complete multi-part sets. Multi-part sets
// with a missing part are left out, as the protocol requires.
func (l *logListing) completeCheckpoints(maxVersion int64) []checkpoint {
	type mpKey struct {
		version int64
		parts   int
	}
	mp := map[mpKey][]string{}
	var out []checkpoint
	for _, c := range l.checkpoints {
		if c.version > maxVersion {
			continue
		}
		switch c.kind {
		case checkpointMultiPart:
			k := mpKey{c.version, c.parts}
			if mp[k] == nil {
				mp[k] = make([]string, c.parts)
			}
			mp[k][c.part-1] = c.name
		default:
			out = append(out, checkpoint{version: c.version, kind: c.kind, files: []string{c.name}})
		}
	}
	for k, names := range mp {
		complete := true
		for _, n := range names {
			if n == "" {
				complete = false
				break
			}
		}
		if complete {
			out = append(out, checkpoint{version: k.version, kind: checkpointMultiPart, files: names})
		}
	}
	rank := map[checkpointKind]int{checkpointUUID: 0, checkpointClassic: 1, checkpointMultiPart: 2}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].version != out[j].version {
			return out[i].version > out[j].version
		}
		if rank[out[i].kind] != rank[out[j].kind] {
			return rank[out[i].kind] < rank[out[j].kind]
		}
		return out[i].files[0] < out[j].files[0]
	})
	return out
}

// incompleteCheckpoint describes the newest multi-part checkpoint at or
// before maxVersion that misses a part, for error messages ("" if none).
func (l *logListing) incompleteCheckpoint(maxVersion int64) string {
	type mpKey struct {
		version int64
		parts   int
	}
	seen := map[mpKey]map[int]bool{}
	for _, c := range l.checkpoints {
		if c.kind == checkpointMultiPart && c.version <= maxVersion {
			k := mpKey{c.version, c.parts}
			if seen[k] == nil {
				seen[k] = map[int]bool{}
			}
			seen[k][c.part] = true
		}
	}
	best, desc := int64(-1), ""
	for k, parts := range seen {
		for p := 1; p <= k.parts; p++ {
			if !parts[p] && k.version > best {
				best = k.version
				desc = fmt.Sprintf("%020d.checkpoint.%010d.%010d.parquet", k.version, p, k.parts)
			}
		}
	}
	return desc
}

// readLastCheckpoint reads the _last_checkpoint hint; any problem (missing,
// empty, invalid JSON) gives nil: the hint is optional.
func readLastCheckpoint(ctx context.Context, root string) *LastCheckpoint {
	st, err := storeFor(ctx, root)
	if err != nil {
		return nil
	}
	b, err := st.Get(ctx, logKey(LastCheckpointFileName))
	if err != nil || len(b) == 0 {
		return nil
	}
	var lc LastCheckpoint
	if json.Unmarshal(b, &lc) != nil || lc.Version < 0 {
		return nil
	}
	return &lc
}
