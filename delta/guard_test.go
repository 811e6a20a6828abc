package delta

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestGuardCheck allows paths strictly inside a root and refuses the rest,
// symbolic links resolved.
func TestGuardCheck(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(rel string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ws := mk("ws")
	lake := mk("lake")
	extra := mk("extra")
	state := mk("ws/.laktory")
	home := mk("ws/home")
	cwd := mk("ws/cwd")
	outside := mk("outside")
	mk("lake/t")
	os.WriteFile(filepath.Join(ws, "pipeline.yaml"), []byte("name: x\n"), 0o644)
	link := func(name, target string) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	linkOut := link("ws/out", outside)
	linkIn := link("outside/in", filepath.Join(lake, "t"))
	dangling := link("ws/dangling", filepath.Join(dir, "nowhere"))
	linkRoot := link("lake/up", dir)
	t.Setenv("HOME", home)
	t.Chdir(cwd)
	g := NewGuard([]string{ws, lake, extra}, state, filepath.Join(ws, "pipeline.yaml"))

	tests := []struct {
		name    string
		path    string
		want    string
		wantErr error
	}{
		{"a folder inside the workspace", filepath.Join(ws, "data", "out"), filepath.Join(ws, "data", "out"), nil},
		{"a table inside the lake", filepath.Join(lake, "main", "default", "t"), filepath.Join(lake, "main", "default", "t"), nil},
		{"inside a configured root", filepath.Join(extra, "x"), filepath.Join(extra, "x"), nil},
		{"inside the state folder", filepath.Join(state, "checkpoints", "p"), filepath.Join(state, "checkpoints", "p"), nil},
		{"a link from outside into the lake", filepath.Join(linkIn, "x"), filepath.Join(lake, "t", "x"), nil},
		{"relative to the current folder", "x", filepath.Join(cwd, "x"), nil},
		{"empty", "", "", ErrProtectedPath},
		{"the filesystem root", "/", "", ErrProtectedPath},
		{"a root", ws, "", ErrProtectedPath},
		{"a root with a trailing dot-dot", filepath.Join(lake, "main", ".."), "", ErrProtectedPath},
		{"the state folder", state, "", ErrProtectedPath},
		{"a protected file", filepath.Join(ws, "pipeline.yaml"), "", ErrProtectedPath},
		{"the home folder", home, "", ErrProtectedPath},
		{"the current folder", ".", "", ErrProtectedPath},
		{"outside every root", filepath.Join(outside, "x"), "", ErrOutsideRoots},
		{"the parent of the roots", dir, "", ErrProtectedPath},
		{"dot-dot out of a root", ws + "/../outside", "", ErrOutsideRoots},
		{"a link out of the workspace", filepath.Join(linkOut, "x"), "", ErrOutsideRoots},
		{"a link to the parent of the roots", filepath.Join(linkRoot, "ws"), "", ErrProtectedPath},
		{"a dangling link", filepath.Join(dangling, "x"), "", ErrOutsideRoots},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := g.Check(tt.path)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Check(%s) err = %v, want %v", tt.path, err, tt.wantErr)
			}
			if got != tt.want {
				t.Fatalf("Check(%s) = %s, want %s", tt.path, got, tt.want)
			}
		})
	}
	if _, err := (Guard{}).Check(filepath.Join(ws, "x")); !errors.Is(err, ErrOutsideRoots) {
		t.Fatalf("the zero guard allowed a path: %v", err)
	}
}

// TestGuardRemoveAll removes the real folder a path names, and nothing
// outside the roots.
func TestGuardRemoveAll(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(ws, "a", "b"), filepath.Join(ws, "real", "c"), outside} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(outside, "keep"), []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(ws, "out"))
	os.Symlink(filepath.Join(ws, "real"), filepath.Join(ws, "in"))
	g := NewGuard([]string{ws})
	if err := g.RemoveAll(filepath.Join(ws, "out")); !errors.Is(err, ErrOutsideRoots) {
		t.Fatalf("removing a link out of the workspace: %v", err)
	}
	if err := g.RemoveAll(filepath.Join(ws, "a")); err != nil {
		t.Fatal(err)
	}
	if err := g.RemoveAll(filepath.Join(ws, "in")); err != nil {
		t.Fatal(err)
	}
	if err := g.RemoveAll(filepath.Join(ws, "gone")); err != nil {
		t.Fatalf("a missing path: %v", err)
	}
	for _, gone := range []string{filepath.Join(ws, "a"), filepath.Join(ws, "real")} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s still there", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "keep")); err != nil {
		t.Fatalf("a file outside the workspace was removed: %v", err)
	}
}

// TestRemoveFileAndEmptyDir: neither removes a folder's content.
func TestRemoveFileAndEmptyDir(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	os.MkdirAll(full, 0o755)
	f := filepath.Join(full, "f")
	os.WriteFile(f, []byte("x"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	if err := RemoveFile(empty); !errors.Is(err, ErrProtectedPath) {
		t.Fatalf("RemoveFile of a folder: %v", err)
	}
	if err := RemoveEmptyDir(full); err == nil {
		t.Fatal("RemoveEmptyDir removed a folder with a file")
	}
	if err := RemoveEmptyDir(f); !errors.Is(err, ErrProtectedPath) {
		t.Fatalf("RemoveEmptyDir of a file: %v", err)
	}
	if err := RemoveFile(f); err != nil {
		t.Fatal(err)
	}
	if err := RemoveEmptyDir(empty); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{f, empty} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s still there", p)
		}
	}
}

// TestConfinedDuckDB: SQL on a confined database reads and writes inside
// its folders and files only, cannot load extensions nor widen the
// configuration.
func TestConfinedDuckDB(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "in.csv"), []byte("a\n1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "one.csv"), []byte("a\n2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.csv"), []byte("a\n3\n"), 0o644)
	db, err := OpenConfinedDuckDB(ctx, Confinement{Dirs: []string{ws}, Files: []string{filepath.Join(dir, "one.csv")}, TempDir: filepath.Join(ws, ".tmp")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := func(s string) error { _, err := db.ExecContext(ctx, s); return err }
	for _, ok := range []string{
		"SELECT * FROM read_csv('" + filepath.Join(ws, "in.csv") + "')",
		"SELECT * FROM read_csv('" + filepath.Join(dir, "one.csv") + "')",
		"COPY (SELECT 1) TO '" + filepath.Join(ws, "out.csv") + "'",
	} {
		if err := q(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, refused := range []string{
		"SELECT * FROM read_csv('" + filepath.Join(dir, "secret.csv") + "')",
		"SELECT * FROM read_csv('" + ws + "/../secret.csv')",
		"SELECT * FROM read_text('/etc/passwd')",
		"SELECT * FROM glob('/etc/*')",
		"COPY (SELECT 1) TO '" + filepath.Join(dir, "out.csv") + "'",
		"COPY (SELECT 1) TO '" + filepath.Join(dir, "one.csv") + "'",
		"ATTACH '" + filepath.Join(dir, "x.db") + "'",
		"INSTALL httpfs",
		"LOAD httpfs",
		"SET enable_external_access = true",
		"SET allowed_directories = ['/']",
		"SET memory_limit = '1GB'",
	} {
		if err := q(refused); err == nil {
			t.Errorf("%s ran", refused)
		}
	}
	var tz string
	if err := db.QueryRowContext(ctx, "SELECT current_setting('TimeZone')").Scan(&tz); err != nil || tz != "UTC" {
		t.Fatalf("TimeZone %q %v", tz, err)
	}
}

// TestGuardRemoteLake: with a lake in a bucket among the roots, a table
// location strictly inside it passes as given (s3a:// is the same store),
// anything else is refused: the lake itself, another bucket or prefix, a
// location with an empty, . or .. part; no local path stands in for the
// bucket, and RemoveAll refuses a remote location (tables there are
// dropped by DropTable).
func TestGuardRemoteLake(t *testing.T) {
	ws := t.TempDir()
	g := NewGuard([]string{ws, "s3://bucket/lake"})
	for _, ok := range []string{"s3://bucket/lake/main/default/t", "s3a://bucket/lake/main/default/t", "s3://bucket/lake/t/"} {
		if got, err := g.Check(ok); err != nil || got != ok {
			t.Errorf("Check(%q) = %q, %v; want it as given", ok, got, err)
		}
	}
	for _, bad := range []string{"s3://bucket/lake", "s3://bucket/lake/", "s3://bucket/lakehouse/t", "s3://other/lake/t",
		"s3://bucket/lake/../x", "s3://bucket/lake/a//t", "s3://bucket/lake/./t", "gs://bucket/lake/t"} {
		if got, err := g.Check(bad); err == nil {
			t.Errorf("Check(%q) = %q; want it refused", bad, got)
		}
	}
	if _, err := g.Check(filepath.Join(ws, "t")); err != nil {
		t.Errorf("a local path inside the workspace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "s3:")); err == nil {
		t.Errorf("the guard made a local folder for the bucket")
	}
	if err := g.RemoveAll("s3://bucket/lake/main/default/t"); !errors.Is(err, ErrProtectedPath) {
		t.Errorf("RemoveAll of a remote table: %v, want ErrProtectedPath", err)
	}
}
