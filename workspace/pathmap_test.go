package workspace_test

import (
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestConfigPaths: `paths:` of laktory-workbench.yaml maps Databricks and
// object-store prefixes to local folders (relative to the file), checked
// at their lines; source and sink paths under a prefix resolve into its
// folder (the longest prefix wins, at a component boundary); an unmapped
// remote path stays as written.
func TestConfigPaths(t *testing.T) {
	const config = `paths:
  /Volumes/main/raw: data/raw
  /Volumes/main/raw/special: data/special
  dbfs:/mnt/out/: out
  s3://bucket/landing: data/s3
  abfss://c@acct.dfs.core.windows.net/x: data/adls
`
	const pipeline = `name: pl
nodes:
- name: a
  source:
    path: /Volumes/main/raw/events/
    format: JSON
  sinks:
  - path: dbfs:/mnt/out/a
    format: PARQUET
- name: b
  source:
    path: /Volumes/main/raw/special/x.csv
    format: CSV
- name: c
  source:
    path: /Volumes/main/rawer/events/
    format: CSV
- name: d
  source:
    path: s3://bucket/landing/2024/
    format: CSV
- name: e
  source:
    path: abfss://c@acct.dfs.core.windows.net/x/y.csv
    format: CSV
- name: f
  source:
    path: dbfs:/elsewhere/z.csv
    format: CSV
`
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pipelines/pl.yaml": pipeline, workspace.ConfigFileName: config})
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	p := s.Pipeline("pl")
	want := map[string]string{
		"a": filepath.Join(s.Dir, "data", "raw", "events"),
		"b": filepath.Join(s.Dir, "data", "special", "x.csv"),
		"c": "/Volumes/main/rawer/events",
		"d": filepath.Join(s.Dir, "data", "s3", "2024"),
		"e": filepath.Join(s.Dir, "data", "adls", "y.csv"),
		"f": "dbfs:/elsewhere/z.csv",
	}
	for node, w := range want {
		if got := p.Node(node).Sources[0].ResolvedPath; got != w {
			t.Errorf("node %s reads %s, want %s", node, got, w)
		}
	}
	if got, w := p.Node("a").Sinks[0].ResolvedPath, filepath.Join(s.Dir, "out", "a"); got != w {
		t.Errorf("the sink writes %s, want %s", got, w)
	}
	if got := p.Node("a").Sources[0].Path; got != "/Volumes/main/raw/events/" {
		t.Errorf("the YAML's path changed: %s", got)
	}

	bad := []struct {
		name, config string
		want         workspacetest.Want
	}{
		{"a local key", "paths:\n  /data/raw: x\n", workspacetest.D(workspace.ConfigFileName, 2, 3, workspace.CodeBadEnum, "is not a Databricks or object-store prefix")},
		{"twice", "paths:\n  dbfs:/a: x\n  dbfs:/a/: y\n", workspacetest.D(workspace.ConfigFileName, 3, 3, workspace.CodeDuplicateKey, "dbfs:/a is mapped twice")},
		{"an empty folder", "paths:\n  s3://b/x: ''\n", workspacetest.D(workspace.ConfigFileName, 2, 13, workspace.CodeWrongType, "must name a folder")},
		{"an object store as the folder", "paths:\n  /Volumes/a/b/c: s3://b/x\n", workspacetest.D(workspace.ConfigFileName, 2, 19, workspace.CodeBadEnum, "names an object store")},
		{"not a mapping", "paths: [a]\n", workspacetest.D(workspace.ConfigFileName, 1, 8, workspace.CodeWrongType, "must map remote path prefixes")},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			workspacetest.Write(t, dir, map[string]string{"pl.yaml": configPipeline, workspace.ConfigFileName: tc.config})
			s := workspacetest.LoadDir(t, dir, workspace.Options{})
			workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{tc.want})
		})
	}
}

// TestMapPath: the longest prefix at a component boundary.
func TestMapPath(t *testing.T) {
	maps := []workspace.PathMap{{Prefix: "dbfs:/", Local: "/l/dbfs"}, {Prefix: "dbfs:/mnt/a", Local: "/l/a"}, {Prefix: "s3://b", Local: "/l/b"}}
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"dbfs:/mnt/a/x.csv", "/l/a/x.csv", true},
		{"dbfs:/mnt/a", "/l/a", true},
		{"dbfs:/mnt/ab/x", "/l/dbfs/mnt/ab/x", true},
		{"s3://b/k/v", "/l/b/k/v", true},
		{"s3://bb/k", "s3://bb/k", false},
		{"/Volumes/x", "/Volumes/x", false},
	} {
		if got, ok := workspace.MapPath(maps, tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("MapPath(%s) = %s, %t; want %s, %t", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
