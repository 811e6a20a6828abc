package history

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenRefusesLinkOutside: a workspace's .laktory/state.db that is a
// symbolic link to another application's SQLite file outside the
// workspace, or a .laktory folder linked outside, is refused before
// anything opens it (the other file keeps its one table); a link inside
// the workspace is followed.
func TestOpenRefusesLinkOutside(t *testing.T) {
	base := t.TempDir()
	other := filepath.Join(base, "app", "app.db")
	os.MkdirAll(filepath.Dir(other), 0o755)
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE mine (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	tables := func() int {
		db, _ := sql.Open("sqlite", other)
		defer db.Close()
		var n int
		db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table'").Scan(&n)
		return n
	}

	fileLink := filepath.Join(base, "ws1")
	os.MkdirAll(filepath.Join(fileLink, ".laktory"), 0o755)
	os.Symlink(other, filepath.Join(fileLink, ".laktory", "state.db"))
	dirLink := filepath.Join(base, "ws2")
	os.MkdirAll(dirLink, 0o755)
	os.Symlink(filepath.Dir(other), filepath.Join(dirLink, ".laktory"))
	for _, p := range []string{filepath.Join(fileLink, ".laktory", "state.db"), filepath.Join(dirLink, ".laktory", "app.db")} {
		s, err := Open(context.Background(), p)
		if !errors.Is(err, ErrOutside) {
			if s != nil {
				s.Close()
			}
			t.Fatalf("Open(%s) = %v, want ErrOutside", p, err)
		}
	}
	if n := tables(); n != 1 {
		t.Fatalf("the other application's database has %d tables, want its 1", n)
	}

	inside := filepath.Join(base, "ws3")
	os.MkdirAll(filepath.Join(inside, ".laktory"), 0o755)
	os.Symlink(filepath.Join(inside, "kept.db"), filepath.Join(inside, ".laktory", "state.db"))
	s, err := Open(context.Background(), filepath.Join(inside, ".laktory", "state.db"))
	if err != nil {
		t.Fatalf("a link inside the workspace: %v", err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(inside, "kept.db")); err != nil {
		t.Fatalf("the link inside the workspace was not followed: %v", err)
	}
}
