package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/laktory/workbench/assets"
)

// schemaVersions returns the applied migrations as "1:init" strings.
func schemaVersions(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT version, name FROM schema_migrations ORDER BY version`)
	mustNil(t, err, "schema_migrations")
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v int
		var n string
		mustNil(t, rows.Scan(&v, &n), "scan")
		out = append(out, fmt.Sprintf("%d:%s", v, n))
	}
	return out
}

func tableExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	mustNil(t, db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = ?`, name).Scan(&n), "sqlite_master")
	return n == 1
}

// released are the embedded migrations as schemaVersions lists them
// ("1:init", ...).
func released() []string {
	names, _ := fs.Glob(assets.Migrations(), "*.sql")
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Itoa(i+1) + ":" + strings.TrimSuffix(n[5:], ".sql")
	}
	return out
}

// nextMigration names the migration after the released ones.
func nextMigration(name string) string {
	return fmt.Sprintf("%04d_%s.sql", len(released())+1, name)
}

// withExtra returns the embedded migrations plus more files.
func withExtra(extra map[string]string) fs.FS {
	m := fstest.MapFS{}
	names, _ := fs.Glob(assets.Migrations(), "*.sql")
	for _, n := range names {
		b, _ := fs.ReadFile(assets.Migrations(), n)
		m[n] = &fstest.MapFile{Data: b}
	}
	for n, sql := range extra {
		m[n] = &fstest.MapFile{Data: []byte(sql)}
	}
	return m
}

func TestOpenMigratesFromScratchAndReopens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new", "folders", "state.db")
	s, err := Open(ctx, path)
	mustNil(t, err, "open")
	if got := schemaVersions(t, s.w); !slices.Equal(got, released()) {
		t.Fatalf("schema versions %v, want %v", got, released())
	}
	for _, tbl := range []string{"runs", "run_pipelines", "tasks", "last_tasks", "operations", "retries",
		"deletions", "messages", "events", "flows"} {
		if !tableExists(t, s.w, tbl) {
			t.Errorf("table %s missing", tbl)
		}
	}
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start run")
	mustNil(t, s.Close(), "close")

	// Re-open: nothing applied twice, data kept.
	s, err = Open(ctx, path)
	mustNil(t, err, "reopen")
	defer s.Close()
	if got := schemaVersions(t, s.w); !slices.Equal(got, released()) {
		t.Fatalf("after reopen schema versions %v", got)
	}
	if _, err := s.GetRun(ctx, id); err != nil {
		t.Fatalf("run lost on reopen: %v", err)
	}
}

func TestPragmas(t *testing.T) {
	s := openTest(t)
	tests := []struct {
		name string
		db   *sql.DB
		want string
	}{
		{"journal_mode", s.w, "wal"},
		{"foreign_keys", s.w, "1"},
		{"synchronous", s.w, "1"}, // NORMAL
		{"busy_timeout", s.w, "5000"},
		{"busy_timeout", s.r, "5000"},
		{"query_only", s.r, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			mustNil(t, tt.db.QueryRow("PRAGMA "+tt.name).Scan(&got), tt.name)
			if got != tt.want {
				t.Fatalf("PRAGMA %s = %s, want %s", tt.name, got, tt.want)
			}
		})
	}
}

func TestMigrationUpgradeAndNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := dbPath(t)
	s, err := Open(ctx, path)
	mustNil(t, err, "open v1")
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start run")
	s.Close()

	// A newer laktory adds a migration to the same database.
	newer := withExtra(map[string]string{nextMigration("future"): "CREATE TABLE future (x INTEGER);"})
	s, err = Open(ctx, path, withMigrations(newer))
	mustNil(t, err, "open with the next migration")
	if got, want := schemaVersions(t, s.w), append(released(), fmt.Sprintf("%d:future", len(released())+1)); !slices.Equal(got, want) {
		t.Fatalf("after upgrade: %v, want %v", got, want)
	}
	s.Close()

	// This binary knows the released versions only: a clear error, nothing
	// changed.
	before, _ := os.ReadFile(path)
	_, err = Open(ctx, path)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("open a newer database: got %v, want ErrNewerSchema", err)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("version %d", len(released())+1)) || !strings.Contains(err.Error(), "upgrade laktory") {
		t.Fatalf("error does not say what to do: %v", err)
	}
	s, err = Open(ctx, path, withMigrations(newer))
	mustNil(t, err, "reopen with the newer binary")
	defer s.Close()
	if !tableExists(t, s.w, "future") {
		t.Fatal("newer schema damaged")
	}
	if _, err := s.GetRun(ctx, id); err != nil {
		t.Fatalf("run lost: %v", err)
	}
	after, _ := os.ReadFile(path)
	if len(after) < len(before) {
		t.Fatal("database shrank")
	}
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	ctx := context.Background()
	path := dbPath(t)
	s, err := Open(ctx, path)
	mustNil(t, err, "open v1")
	s.Close()
	bad := withExtra(map[string]string{nextMigration("bad"): "CREATE TABLE half (x INTEGER); THIS IS NOT SQL;"})
	if _, err := Open(ctx, path, withMigrations(bad)); err == nil || !strings.Contains(err.Error(), strings.TrimSuffix(nextMigration("bad"), ".sql")) {
		t.Fatalf("bad migration: got %v, want an error naming it", err)
	}
	s, err = Open(ctx, path)
	mustNil(t, err, "open v1 again")
	defer s.Close()
	if tableExists(t, s.w, "half") {
		t.Fatal("a failed migration left a table behind")
	}
	if got := schemaVersions(t, s.w); !slices.Equal(got, released()) {
		t.Fatalf("schema versions %v", got)
	}
}

func TestLoadMigrationsRejectsBadSets(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"gap", []string{"0001_a.sql", "0003_c.sql"}, "want 2"},
		{"bad name", []string{"0001_a.sql", "2_b.sql"}, "NNNN_name.sql"},
		{"empty", nil, "no migrations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fstest.MapFS{}
			for _, f := range tt.files {
				m[f] = &fstest.MapFile{Data: []byte("SELECT 1;")}
			}
			_, err := loadMigrations(m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
	if ms, err := loadMigrations(assets.Migrations()); err != nil || len(ms) == 0 {
		t.Fatalf("embedded migrations: %v", err)
	}
}

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	junk := []byte(strings.Repeat("this is not sqlite\n", 300))
	mustNil(t, os.WriteFile(path, junk, 0o644), "write")
	_, err := Open(context.Background(), path)
	if !errors.Is(err, ErrNotDatabase) {
		t.Fatalf("got %v, want ErrNotDatabase", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(junk) {
		t.Fatal("Open modified a file that is not a database")
	}
}

func TestDSNEscapesPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a dir?with#odd%chars")
	s, err := Open(context.Background(), filepath.Join(dir, "state.db"))
	mustNil(t, err, "open")
	defer s.Close()
	if _, err := os.Stat(filepath.Join(dir, "state.db")); err != nil {
		t.Fatalf("database not at the given path: %v", err)
	}
}
