package delta

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAbsurdCommitVersion: a commit file named after an absurd version
// makes the log non-contiguous, promptly: no loop over the versions in
// between, no overflow past the largest int64.
func TestAbsurdCommitVersion(t *testing.T) {
	db := writeTestDB(t)
	for _, name := range []string{"09223372036854775807.json", "09223372036854775806.json", "00000000001000000000.json"} {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "t")
			mustCreate(t, db, root, rangeQuery(0, 3, ""), nil, nil)
			os.WriteFile(filepath.Join(root, LogDirName, name), []byte(`{"commitInfo":{}}`+"\n"), 0o644)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := LoadSnapshot(ctx, root)
			if ctx.Err() != nil || !errors.Is(err, ErrVersionsNotContiguous) {
				t.Fatalf("LoadSnapshot: %v (ctx %v)", err, ctx.Err())
			}
			if _, err := Append(ctx, db, root, rangeQuery(3, 4, ""), WriteOptions{}); !errors.Is(err, ErrVersionsNotContiguous) {
				t.Fatalf("Append: %v", err)
			}
			tb, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tb.History(ctx, 0); err != nil && ctx.Err() != nil {
				t.Fatalf("History did not end: %v", err)
			}
		})
	}
}

func TestCommitsCoverOverflow(t *testing.T) {
	l := &logListing{commits: []int64{0, 1 << 62}}
	if l.commitsCover(0, 1<<62) || l.commitsCover(-1<<63, 1<<63-1) {
		t.Fatal("a gap of 2^62 versions is covered")
	}
	if got := l.firstMissing(0, 1<<62); got != 1 {
		t.Fatalf("first missing %d, want 1", got)
	}
	if !(&logListing{commits: []int64{4, 5, 6}}).commitsCover(4, 6) {
		t.Fatal("4..6 not covered")
	}
}
