package validate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestConfinement: every path a run may create, replace or delete lies
// strictly inside the workspace, the lake or a configured root, and names
// are identifiers; violations are errors at the key's line.
func TestConfinement(t *testing.T) {
	sink := func(lines string) string {
		return "name: pl\nnodes:\n- name: a\n  sources:\n  - path: ../data/\n    format: JSONL\n    as_stream: true\n  sinks:\n" + lines
	}
	tests := []struct {
		name  string
		files map[string]string
		want  []W
	}{
		{name: "inside the workspace", files: map[string]string{"pipelines/pl.yaml": sink("  - path: ../out/x\n    format: CSV\n    mode: APPEND\n  - table_name: t\n    mode: APPEND\n    checkpoint_path: ../cp\n")}},
		{name: "file sink at the workspace", files: map[string]string{"pipelines/pl.yaml": sink("  - path: ..\n    format: CSV\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 11, CodePathOutside, "is the root")}},
		{name: "file sink holding the pipelines", files: map[string]string{"pipelines/pl.yaml": sink("  - path: .\n    format: CSV\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 11, CodePathOutside, "holds pipelines/pl.yaml")}},
		{name: "file sink outside", files: map[string]string{"pipelines/pl.yaml": sink("  - path: ../../elsewhere\n    format: CSV\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 11, CodePathOutside, "is outside the workspace, the lake and the roots")}},
		{name: "Delta sink on the state folder", files: map[string]string{"pipelines/pl.yaml": sink("  - path: ../.laktory\n    format: DELTA\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 11, CodePathOutside, "holds the root")}},
		{name: "absolute path outside", files: map[string]string{"pipelines/pl.yaml": sink("  - path: /tmp\n    format: PARQUET\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 11, CodePathOutside, "outside")}},
		{name: "checkpoint_path at the workspace", files: map[string]string{"pipelines/pl.yaml": sink("  - table_name: t\n    mode: APPEND\n    checkpoint_path: ..\n")},
			want: []W{D("pipelines/pl.yaml", 11, 22, CodePathOutside, "the checkpoint")}},
		{name: "a configured root", files: map[string]string{
			workspace.ConfigFileName: "roots: [../shared]\n",
			"pipelines/pl.yaml":      sink("  - path: ../../shared/x\n    format: CSV\n    mode: APPEND\n  - path: ../../shared\n    format: CSV\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 12, 11, CodePathOutside, "is the root")}},
		{name: "catalog_name escapes the lake", files: map[string]string{"pipelines/pl.yaml": sink("  - table_name: t\n    catalog_name: ../../x\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 10, 19, workspace.CodeBadName, `"../../x" holds a period`)}},
		{name: "schema_name dot", files: map[string]string{"pipelines/pl.yaml": sink("  - table_name: t\n    schema_name: \".\"\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 10, 18, workspace.CodeBadName, "holds a period")}},
		{name: "table_name with a slash", files: map[string]string{"pipelines/pl.yaml": sink("  - table_name: a/b\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 17, workspace.CodeBadName, "path separator")}},
		{name: "table_name with an empty part", files: map[string]string{"pipelines/pl.yaml": sink("  - table_name: main..t\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 17, workspace.CodeBadName, "is empty")}},
		{name: "table_name with four parts", files: map[string]string{"pipelines/pl.yaml": sink("  - table_name: a.b.c.d\n    mode: APPEND\n")},
			want: []W{D("pipelines/pl.yaml", 9, 17, workspace.CodeBadName, "more than three parts")}},
		{name: "a table source with a control character", files: map[string]string{"pipelines/pl.yaml": "name: pl\nnodes:\n- name: a\n  sources:\n  - table_name: \"t\\x1b[2J\"\n"},
			want: []W{D("pipelines/pl.yaml", 5, 17, workspace.CodeBadName, "control character")}},
		{name: "an expr with a statement before its query", files: map[string]string{"pipelines/pl.yaml": "name: pl\nnodes:\n- name: a\n  transformer:\n    nodes:\n    - expr: \"COPY (SELECT 1) TO '/tmp/x'; SELECT * FROM {df}\"\n"},
			want: []W{D("pipelines/pl.yaml", 6, 13, CodeExprStmts, "holds a statement that is not a query")}},
		{name: "an expr with two queries", files: map[string]string{"pipelines/pl.yaml": "name: pl\nnodes:\n- name: a\n  transformer:\n    nodes:\n    - expr: \"SELECT 1; SELECT * FROM {df}\"\n"},
			want: []W{D("pipelines/pl.yaml", 6, 13, CodeExprStmts, "holds 2 SQL statements")}},
		{name: "an expr with a semicolon in a string and a trailing one", files: map[string]string{"pipelines/pl.yaml": "name: pl\nnodes:\n- name: a\n  transformer:\n    nodes:\n    - expr: \"SELECT ';' AS s FROM {df};\"\n"}},
		{name: "a where that owns every row", files: map[string]string{
			"pipelines/p1.yaml": "name: p1\nnodes:\n- name: a\n  sinks:\n  - table_name: t\n    mode: APPEND\n    shared: {where: \"client_id = 1 OR true\"}\n",
			"pipelines/p2.yaml": "name: p2\nnodes:\n- name: a\n  sinks:\n  - table_name: t\n    mode: APPEND\n    shared: {where: \"client_id = 2\"}\n"},
			want: []W{D("pipelines/p1.yaml", 7, 21, CodeWhereOverlap, "both would own the rows where client_id = 2"),
				D("pipelines/p2.yaml", 7, 21, CodeWhereOverlap, "both would own the rows where client_id = 2")}},
		{name: "names Unity Catalog accepts", files: map[string]string{"pipelines/pl.yaml": sink("  - table_name: prod-eu.sales_2026.Orders_é\n    mode: APPEND\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "ws")
			os.MkdirAll(filepath.Join(base, "shared"), 0o755)
			workspacetest.Write(t, dir, tt.files)
			s := workspacetest.LoadDir(t, dir, workspace.Options{})
			workspacetest.Expect(t, s, Check(s, Options{}), tt.want)
		})
	}
}

// TestConfinementSymlink: a table folder that is a symbolic link out of
// the lake is refused when the snapshot is built.
func TestConfinementSymlink(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: a\n  sinks:\n  - table_name: t\n    mode: APPEND\n"})
	schema := filepath.Join(dir, ".laktory", "lake", "main", "default")
	os.MkdirAll(schema, 0o755)
	if err := os.Symlink(t.TempDir(), filepath.Join(schema, "t")); err != nil {
		t.Fatal(err)
	}
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	workspacetest.Expect(t, s, Check(s, Options{}), []W{D("pl.yaml", 5, 17, CodePathOutside, "table folder")})
}
