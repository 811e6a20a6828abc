package delta

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// dropRemote is DropTable for a table in an object store. root must lie
// strictly inside one of the guard's roots that is a location of the same
// store (s3://bucket/lake holds s3://bucket/lake/main/default/t). An
// object store has no rename, so the table cannot vanish at once: its
// objects are deleted in an order that leaves every intermediate state
// unreadable rather than an older version of the table: _last_checkpoint
// and the checkpoints first (replay then starts at commit 0), then commit
// 0 (replay then has no start: ErrVersionsNotContiguous or
// ErrVersionNotFound), then the rest of the log, then the data files. A
// location holding no object is not an error; one with objects but no
// _delta_log is refused (ErrNotDeltaTable).
func dropRemote(ctx context.Context, root string, g Guard) error {
	root = strings.TrimRight(root, "/")
	inside := false
	for _, r := range g.Roots() {
		r = strings.TrimRight(sameScheme(r), "/")
		if IsRemoteLocation(r) && strings.HasPrefix(sameScheme(root), r+"/") {
			inside = true
		}
	}
	if !inside {
		return fmt.Errorf("drop %s: %w: refusing %s: it is not inside %s", root, ErrOutsideRoots, root, describeRoots(g.Roots()))
	}
	st, err := storeFor(ctx, root)
	if err != nil {
		return err
	}
	all, err := st.List(ctx, "", ListOptions{Recursive: true})
	if err != nil {
		return fmt.Errorf("drop %s: %w", root, err)
	}
	// The lease and the markers of commits in flight are not the table's:
	// they stay (a DROP by the lease's holder keeps holding it).
	var objects []ObjectInfo
	for _, o := range all {
		if o.Key != LeaseKey && !strings.HasPrefix(o.Key, commitMarkerDir+"/") {
			objects = append(objects, o)
		}
	}
	if len(objects) > 0 {
		done, _, err := commitGate(ctx, st, root)
		if err != nil {
			return fmt.Errorf("drop %s: %w", root, err)
		}
		defer done()
	}
	if len(objects) == 0 {
		return nil
	}
	rank := func(key string) int {
		name, inLog := strings.CutPrefix(key, LogDirName+"/")
		switch {
		case !inLog:
			return 4
		case name == LastCheckpointFileName || strings.Contains(name, ".checkpoint") || strings.HasPrefix(name, SidecarDirName+"/"):
			return 0
		case name == CommitFileName(0):
			return 1
		case !strings.Contains(name, "/"):
			return 2
		}
		return 3
	}
	hasLog := false
	for _, o := range objects {
		hasLog = hasLog || rank(o.Key) < 4
	}
	if !hasLog {
		return fmt.Errorf("%w: refusing to drop %s: it has no %s", ErrNotDeltaTable, root, LogDirName)
	}
	sort.SliceStable(objects, func(i, j int) bool { return rank(objects[i].Key) < rank(objects[j].Key) })
	for i, o := range objects {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("drop %s: cut after %d of %d objects (the table is unreadable; drop it again): %w", root, i, len(objects), err)
		}
		if i > 0 && rank(objects[i-1].Key) < 2 && rank(o.Key) >= 2 {
			FailPoint(FailDropRenamed) // the table is unreadable from here on
		}
		if err := st.Delete(ctx, o.Key); err != nil {
			return fmt.Errorf("drop %s: %w", root, err)
		}
	}
	return nil
}
