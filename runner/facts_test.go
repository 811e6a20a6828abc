package runner_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// createTable writes a Delta table at root holding the rows of query.
func createTable(t *testing.T, db *sql.DB, root, query string) {
	t.Helper()
	ctx := context.Background()
	schema, err := delta.QuerySchema(ctx, db, query)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Create(ctx, root, delta.TableDefinition{Schema: schema}, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Append(ctx, db, root, query, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestGatherFacts(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: b
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: d
  sinks: [{table_name: legacy, mode: APPEND, shared: true}]
- name: e
  sinks: [{table_name: fresh, mode: APPEND, shared: true}]
- name: w
  sinks: [{table_name: orders, mode: APPEND, shared: {where: client_id = 1}}]
- name: plain
  sinks: [{table_name: plain, mode: APPEND}]
`})
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	table := func(name string) string { return s.Layout.TablePath(workspace.ParseTableName(name, "", "")) }
	createTable(t, db, table("prices"), `SELECT * FROM (VALUES ('pl.a', 1), ('pl.a', 2), ('pl.old', 3), ('pl.old', 4), ('pl.old', 5)) v(_laktory_writer, x)`)
	createTable(t, db, table("legacy"), `SELECT 1 AS x`)
	createTable(t, db, table("orders"), `SELECT 'pl.w' AS _laktory_writer, 1 AS client_id`)

	facts, err := runner.GatherFacts(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	id := func(name string) workspace.TableID { return workspace.TableID(filepath.Clean(table(name))) }
	want := map[workspace.TableID]validate.TableFacts{
		id("prices"): {Exists: true, Columns: []string{"_laktory_writer", "x"}, WriterColumn: "_laktory_writer",
			WriterRows: map[string]int64{"pl.a": 2, "pl.old": 3}},
		id("legacy"): {Exists: true, Columns: []string{"x"}},
		id("fresh"):  {},
		id("orders"): {Exists: true, Columns: []string{"_laktory_writer", "client_id"}},
	}
	if !reflect.DeepEqual(facts, want) {
		t.Fatalf("facts:\n%+v\nwant\n%+v", facts, want)
	}

	workspacetest.Expect(t, s, validate.Check(s, validate.Options{Facts: facts}), []workspacetest.Want{
		workspacetest.D("pl.yaml", 5, 54, validate.CodeOrphanWriters, "'pl.old' (3 rows)"),
		workspacetest.D("pl.yaml", 9, 54, validate.CodeLegacyTable, "has no `_laktory_writer` column"),
		workspacetest.D("pl.yaml", 13, 62, validate.CodeOwnershipSwitch, "now own their rows with `where`"),
	})

	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := runner.GatherFacts(ctx2, s); err == nil {
		t.Fatal("cancelled context: want an error")
	}
}

func TestEmptyOrMissing(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // path -> content; a path ending in / is a folder
		want  bool
	}{
		{"no folder", nil, true},
		{"empty folder", map[string]string{"t/": ""}, true},
		{"an empty log folder", map[string]string{"t/_delta_log/": ""}, true},
		{"a commit", map[string]string{"t/_delta_log/00000000000000000000.json": "{}"}, false},
		{"a data file", map[string]string{"t/part-0.parquet": "x"}, false},
		{"a log that is a file", map[string]string{"t/_delta_log": "x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, content := range tt.files {
				full := filepath.Join(dir, p)
				if strings.HasSuffix(p, "/") {
					if err := os.MkdirAll(full, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := runner.EmptyOrMissing(filepath.Join(dir, "t")); got != tt.want {
				t.Fatalf("EmptyOrMissing = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRunnerGatherFacts: the runner gathers the same facts through its
// own database (no database per call): once the runner is closed, the
// tables that need a query report the closed database.
func TestRunnerGatherFacts(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: b
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: d
  sinks: [{table_name: legacy, mode: APPEND, shared: true}]
`})
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	table := func(name string) string { return s.Layout.TablePath(workspace.ParseTableName(name, "", "")) }
	createTable(t, db, table("prices"), `SELECT * FROM (VALUES ('pl.a', 1), ('pl.b', 2), ('pl.b', 3)) v(_laktory_writer, x)`)
	createTable(t, db, table("legacy"), `SELECT 1 AS x`)

	r, err := runner.New(runner.Config{Sandbox: runner.Sandbox(s)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.GatherFacts(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	want, err := runner.GatherFacts(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("runner's facts:\n%+v\nwant\n%+v", got, want)
	}
	if f := got[workspace.TableID(filepath.Clean(table("prices")))]; f.WriterRows["pl.b"] != 2 {
		t.Fatalf("prices facts %+v: want 2 rows of pl.b", f)
	}
	r.Close()
	got, err = r.GatherFacts(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if f := got[workspace.TableID(filepath.Clean(table("prices")))]; !strings.Contains(f.Err, "closed") {
		t.Fatalf("prices facts after Close %+v: want the closed database's error", f)
	}
	if f := got[workspace.TableID(filepath.Clean(table("legacy")))]; f.Err != "" || !f.Exists {
		t.Fatalf("legacy facts after Close %+v: read from the log, no query", f)
	}
}
