package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestReload(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"a.yaml":       "name: a\nnodes:\n- name: n\n",
		"b.yaml":       "name: b\nnodes: !use nodes/b.yaml\n",
		"nodes/b.yaml": "- name: b1\n",
		"sub/c.yaml":   "name: c\nnodes: []\n",
	})
	ctx := context.Background()
	s0, err := workspace.Load(ctx, dir, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s0.Pipelines) != 3 {
		t.Fatalf("pipelines %d", len(s0.Pipelines))
	}

	// One file changes: only it is parsed again.
	workspacetest.Write(t, dir, map[string]string{"a.yaml": "name: a\nnodes:\n- name: n2\n"})
	s1, err := workspace.Reload(ctx, s0, []string{filepath.Join(dir, "a.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if s1.Pipeline("a").Nodes[0].Name != "n2" {
		t.Error("a.yaml not reloaded")
	}
	if s1.Pipeline("b") != s0.Pipeline("b") || s1.Pipeline("c") != s0.Pipeline("c") {
		t.Error("unchanged files must not be parsed again")
	}
	if s1.Generation != 1 || s0.Pipeline("a").Nodes[0].Name != "n" {
		t.Error("the previous snapshot must not change")
	}

	// An included file changes: the file including it is parsed again.
	workspacetest.Write(t, dir, map[string]string{"nodes/b.yaml": "- name: b2\n"})
	s2, err := workspace.Reload(ctx, s1, []string{"nodes/b.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if s2.Pipeline("b").Nodes[0].Name != "b2" || s2.Pipeline("a") != s1.Pipeline("a") {
		t.Error("includer not reloaded, or a non-dependent file reparsed")
	}

	// A file is removed, another appears, a folder is removed.
	os.Remove(filepath.Join(dir, "a.yaml"))
	workspacetest.Write(t, dir, map[string]string{"d.yaml": "name: d\nnodes: []\n"})
	os.RemoveAll(filepath.Join(dir, "sub"))
	s3, err := workspace.Reload(ctx, s2, []string{"a.yaml", "d.yaml", "sub"})
	if err != nil {
		t.Fatal(err)
	}
	if s3.Pipeline("a") != nil || s3.Pipeline("d") == nil || s3.Pipeline("c") != nil || len(s3.Pipelines) != 2 {
		t.Errorf("pipelines after remove/add: %d", len(s3.Pipelines))
	}

	// A new folder with a pipeline.
	workspacetest.Write(t, dir, map[string]string{"new/e.yaml": "name: e\nnodes: []\n"})
	s4, err := workspace.Reload(ctx, s3, []string{"new"})
	if err != nil {
		t.Fatal(err)
	}
	if s4.Pipeline("e") == nil {
		t.Error("pipeline of a new folder not loaded")
	}

	// Broken then fixed: diagnostics follow the file.
	workspacetest.Write(t, dir, map[string]string{"d.yaml": "name: d\nnodes: [\n"})
	s5, _ := workspace.Reload(ctx, s4, []string{"d.yaml"})
	if !workspace.HasErrors(s5.Diagnostics) || s5.Pipeline("d") == nil || !s5.Pipeline("d").Stale {
		t.Error("broken file: expected a syntax error and the pipeline's last good content")
	}
	workspacetest.Write(t, dir, map[string]string{"d.yaml": "name: d\nnodes: []\n"})
	s6, _ := workspace.Reload(ctx, s5, []string{"d.yaml"})
	if workspace.HasErrors(s6.Diagnostics) || s6.Pipeline("d") == nil {
		t.Errorf("fixed file: %v", s6.Diagnostics)
	}

	if _, err := workspace.Reload(ctx, nil, nil); !errors.Is(err, workspace.ErrNilSnapshot) {
		t.Errorf("nil snapshot: %v", err)
	}
}

func TestReloadHiddenAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"a.yaml": "name: a\nnodes: []\n"})
	s0, _ := workspace.Load(context.Background(), dir, workspace.Options{})
	workspacetest.Write(t, dir, map[string]string{".laktory/x.yaml": "name: x\nnodes: []\n", "notes.txt": "x"})
	s1, err := workspace.Reload(context.Background(), s0, []string{".laktory/x.yaml", "notes.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s1.Pipelines) != 1 {
		t.Error("files in hidden folders are not part of the workspace")
	}
}

// TestSyntaxErrorPositions: yaml.v3 reports an unclosed `[` at the line
// before it and a mis-indented key at the start of its block; the
// diagnostic points at the line that is wrong, and a tab says so.
func TestSyntaxErrorPositions(t *testing.T) {
	dir := workspacetest.Demo(t)
	file := filepath.Join(dir, "pipelines", "pl-prices.yaml")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(good), "\n")
	if lines[25] != "    shared: true" {
		t.Fatalf("line 26 of the demo's pl-prices.yaml is %q", lines[25])
	}
	for _, tc := range []struct {
		name, line string
		col        int
		msg        string
	}{
		{"unclosed bracket", "    shared: [true", 13, "unclosed `[`"},
		{"key indented one space less", "   shared: true", 4, "indented differently"},
		{"key indented one space more", "     shared: true", 6, "indented differently"},
		{"tab", "\tshared: true", 1, "a tab character indents this line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			broken := slices.Clone(lines)
			broken[25] = tc.line
			workspacetest.Write(t, dir, map[string]string{"pipelines/pl-prices.yaml": strings.Join(broken, "\n")})
			s := workspacetest.LoadDir(t, dir, workspace.Options{})
			workspacetest.Expect(t, s, s.Diagnostics, append(workspacetest.DemoExtensionWarnings(),
				workspacetest.D("pipelines/pl-prices.yaml", 26, tc.col, workspace.CodeYAMLSyntax, tc.msg)))
		})
	}
}

// TestSyntaxErrorKeepsLastGood: a save that breaks the YAML keeps the
// pipeline's last good content in the snapshot (tree, graph), marked
// Stale, beside the syntax error; the fix brings the new content.
func TestSyntaxErrorKeepsLastGood(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"a.yaml": "name: a\nnodes:\n- name: n\n  sinks: [{table_name: t, mode: APPEND}]\n"})
	ctx := context.Background()
	s0, err := workspace.Load(ctx, dir, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	workspacetest.Write(t, dir, map[string]string{"a.yaml": "name: a\nnodes:\n- name: n2\n  sinks: [{table_name: t, mode: APPEND}\n"})
	s1, err := workspace.Reload(ctx, s0, []string{filepath.Join(dir, "a.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	p := s1.Pipeline("a")
	if p == nil || !p.Stale || p.Nodes[0].Name != "n" || len(s1.Tables) != 1 || s0.Pipeline("a").Stale {
		t.Fatalf("last good content: %+v, tables %d", p, len(s1.Tables))
	}
	workspacetest.Expect(t, s1, s1.Diagnostics, []workspacetest.Want{workspacetest.D("a.yaml", 4, 10, workspace.CodeYAMLSyntax, "unclosed `[`")})
	// Saved broken again: still the last good content.
	s2, err := workspace.Reload(ctx, s1, []string{filepath.Join(dir, "a.yaml")})
	if err != nil || s2.Pipeline("a") == nil || s2.Pipeline("a").Nodes[0].Name != "n" {
		t.Fatalf("second broken save: %v", err)
	}
	workspacetest.Write(t, dir, map[string]string{"a.yaml": "name: a\nnodes:\n- name: n2\n"})
	s3, err := workspace.Reload(ctx, s2, []string{filepath.Join(dir, "a.yaml")})
	if err != nil || s3.Pipeline("a").Stale || s3.Pipeline("a").Nodes[0].Name != "n2" {
		t.Fatalf("fixed: %v %+v", err, s3.Pipeline("a"))
	}
}
