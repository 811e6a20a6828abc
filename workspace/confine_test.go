package workspace_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/laktory/workbench/workspace"
)

// TestRealPathShared: the snapshot resolves its paths with one resolver
// remembering the folders it resolved; each path resolves as RealPath
// resolves it alone, in any order (links, dangling links, missing parts,
// a file on the way).
func TestRealPathShared(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "f"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link"))
	os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "dangling"))
	os.Symlink("a/b", filepath.Join(dir, "rel"))
	os.Symlink("link", filepath.Join(dir, "link2"))
	paths := []string{filepath.Join(dir, "link", "b", "new", "deeper"), dir, filepath.Join(dir, "a", "b"),
		filepath.Join(dir, "link"), filepath.Join(dir, "link2", "b", "x"), filepath.Join(dir, "dangling", "x"),
		filepath.Join(dir, "dangling"), filepath.Join(dir, "rel", ".."), filepath.Join(dir, "rel", "c"),
		filepath.Join(dir, "a", "f", "x"), filepath.Join(dir, "a", "f"), filepath.Join(dir, "missing", "x"),
		filepath.Join(dir, "missing"), ".", "relative/x", "/"}
	back := slices.Clone(paths)
	slices.Reverse(back)
	for _, order := range [][]string{paths, back} {
		reals, errs := workspace.RealPathShared(order)
		for i, p := range order {
			want, werr := workspace.RealPath(p)
			if reals[i] != want || (errs[i] == nil) != (werr == nil) {
				t.Errorf("%s: shared %q, %v; alone %q, %v", p, reals[i], errs[i], want, werr)
			}
		}
	}
}
