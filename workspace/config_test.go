package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

const configPipeline = "name: pl\nnodes:\n- name: a\n  sinks:\n  - table_name: t\n    mode: APPEND\n"

// TestConfigFile reads laktory-workbench.yaml strictly, with the line of
// each problem, and never as a pipeline.
func TestConfigFile(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	t.Setenv("HOME", home)
	tests := []struct {
		name   string
		config string
		lake   string // want, relative to the workspace ("" = default)
		roots  []string
		want   []workspacetest.Want
	}{
		{name: "lake and roots, relative to the file", config: "lake: ../lake\nroots:\n- ../shared\n- /srv/out\n",
			lake: "../lake", roots: []string{"../shared", "/srv/out"}},
		{name: "empty file", config: ""},
		{name: "unknown key", config: "lake: l\nroot: [x]\n",
			lake: "l", want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 2, 1, workspace.CodeUnknownKey, "did you mean `roots`?")}},
		{name: "pipeline keys are unknown", config: "name: pl\nnodes: []\n",
			want: []workspacetest.Want{
				workspacetest.D(workspace.ConfigFileName, 1, 1, workspace.CodeUnknownKey, "unknown key `name`"),
				workspacetest.D(workspace.ConfigFileName, 2, 1, workspace.CodeUnknownKey, "unknown key `nodes`")}},
		{name: "roots not a list", config: "roots: ../x\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 8, workspace.CodeWrongType, "list of folders")}},
		{name: "empty root", config: "roots: [x, '']\n", roots: []string{"x"},
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 12, workspace.CodeWrongType, "must name a folder")}},
		{name: "the filesystem root", config: "roots:\n  - /\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 2, 5, workspace.CodeBadEnum, "filesystem root")}},
		{name: "the home folder", config: "lake: " + home + "\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 7, workspace.CodeBadEnum, "home folder")}},
		{name: "a folder holding home", config: "roots: [" + filepath.Dir(home) + "]\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 9, workspace.CodeBadEnum, "home folder")}},
		{name: "a lake in a bucket", config: "lake: s3a://bucket/lake/\nroots: [gs://b/x, ./ok]\n", lake: "s3://bucket/lake", roots: []string{"./ok"},
			want: []workspacetest.Want{
				workspacetest.D(workspace.ConfigFileName, 2, 9, workspace.CodeBadEnum, "gs://b/x names an object store")}},
		{name: "a lake in an unsupported store", config: "lake: gs://bucket/lake\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 7, workspace.CodeBadEnum, "gs://bucket/lake names an object store")}},
		{name: "a bucket lake without a bucket", config: "lake: s3:///lake\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 7, workspace.CodeBadEnum, "names no bucket")}},
		{name: "a bucket lake with ..", config: "lake: s3://b/a/../c\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 7, workspace.CodeBadEnum, "empty, . or .. part")}},
		{name: "twice", config: "lake: a\nlake: b\n", lake: "a",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 2, 1, workspace.CodeDuplicateKey, "twice")}},
		{name: "not a mapping", config: "- a\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 1, workspace.CodeWrongType, "mapping")}},
		{name: "syntax error", config: "roots: [a\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 8, workspace.CodeYAMLSyntax, "YAML syntax error: unclosed `[`")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			workspacetest.Write(t, dir, map[string]string{"pl.yaml": configPipeline, workspace.ConfigFileName: tt.config})
			s := workspacetest.LoadDir(t, dir, workspace.Options{})
			workspacetest.Expect(t, s, s.Diagnostics, tt.want)
			abs := func(p string) string {
				if filepath.IsAbs(p) || workspace.IsRemoteLake(p) {
					return p
				}
				return filepath.Join(s.Dir, p)
			}
			wantLake := filepath.Join(s.Dir, ".laktory", "lake")
			if tt.lake != "" {
				wantLake = abs(tt.lake)
			}
			if s.Layout.Lake != wantLake {
				t.Errorf("lake %s, want %s", s.Layout.Lake, wantLake)
			}
			var wantRoots []string
			for _, r := range tt.roots {
				wantRoots = append(wantRoots, abs(r))
			}
			if !slices.Equal(s.Layout.Roots, wantRoots) {
				t.Errorf("roots %v, want %v", s.Layout.Roots, wantRoots)
			}
			if got := s.Layout.AllowedRoots(); !slices.Equal(got, append([]string{s.Dir, wantLake}, wantRoots...)) {
				t.Errorf("allowed roots %v", got)
			}
			if slices.Contains(s.Files, filepath.Join(s.Dir, workspace.ConfigFileName)) || len(s.Pipelines) != 1 {
				t.Errorf("the config was loaded as a workspace file: files %v, %d pipelines", s.Files, len(s.Pipelines))
			}
			if s.Config == nil || !slices.Contains(s.Protected(), s.Config.File) {
				t.Errorf("the config file is not protected: %v", s.Protected())
			}
		})
	}
}

// TestConfigLakePrecedence: --lake, then LAKTORY_LAKE, then the config's
// lake, then DIR/.laktory/lake; OpenLayout applies the config as Load does.
func TestConfigLakePrecedence(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": configPipeline, workspace.ConfigFileName: "lake: cfg-lake\nroots: [out]\n"})
	flag, env := filepath.Join(dir, "flag"), filepath.Join(dir, "env")
	for _, tt := range []struct {
		opts workspace.Options
		want string
	}{
		{workspace.Options{Getenv: workspacetest.Env(nil)}, filepath.Join(dir, "cfg-lake")},
		{workspace.Options{Getenv: workspacetest.Env(map[string]string{workspace.LakeEnv: env})}, env},
		{workspace.Options{Lake: flag, Getenv: workspacetest.Env(map[string]string{workspace.LakeEnv: env})}, flag},
	} {
		s := workspacetest.LoadDir(t, dir, tt.opts)
		if s.Layout.Lake != tt.want {
			t.Errorf("%+v: lake %s, want %s", tt.opts.Lake, s.Layout.Lake, tt.want)
		}
		l, ds, err := workspace.OpenLayout(dir, tt.opts.Lake, tt.opts.Getenv(workspace.LakeEnv))
		if err != nil || len(ds) != 0 || l.Lake != tt.want || !slices.Equal(l.Roots, []string{filepath.Join(dir, "out")}) {
			t.Errorf("OpenLayout: %+v %v %v, want lake %s", l, ds, err, tt.want)
		}
	}
}

// TestConfigReload: editing, creating or removing the config file reloads
// the workspace with its new lake and roots.
func TestConfigReload(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": configPipeline})
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	cfg := filepath.Join(s.Dir, workspace.ConfigFileName)
	step := func(content string) *workspace.Snapshot {
		t.Helper()
		if content == "" {
			os.Remove(cfg)
		} else {
			os.WriteFile(cfg, []byte(content), 0o644)
		}
		next, err := workspace.Reload(context.Background(), s, []string{cfg})
		if err != nil {
			t.Fatal(err)
		}
		if next.Generation != s.Generation+1 || len(next.Pipelines) != 1 {
			t.Fatalf("generation %d, %d pipelines", next.Generation, len(next.Pipelines))
		}
		s = next
		return s
	}
	if got := step("lake: l1\n").Layout.Lake; got != filepath.Join(s.Dir, "l1") {
		t.Fatalf("lake %s after creating the config", got)
	}
	if tid := s.Pipelines[0].Nodes[0].Sinks[0].Table; string(tid) != filepath.Join(s.Dir, "l1", "main", "default", "t") {
		t.Fatalf("table %s is not in the new lake", tid)
	}
	if got := step("lake: l1\nbad: 1\n"); !workspace.HasErrors(got.Diagnostics) {
		t.Fatal("a broken config reported nothing")
	}
	if got := step("").Layout.Lake; got != filepath.Join(s.Dir, ".laktory", "lake") || s.Config != nil {
		t.Fatalf("lake %s after removing the config", got)
	}
}

// TestConfigEngine reads `engine` and `spark.remote`, with the line of each
// problem: an engine that is not local or spark, a malformed Spark
// Connect address, keys `spark` does not know.
func TestConfigEngine(t *testing.T) {
	tests := []struct {
		name, config   string
		engine, remote string
		want           []workspacetest.Want
	}{
		{name: "spark with its remote", config: "engine: spark\nspark:\n  remote: sc://127.0.0.1:15002\n",
			engine: "spark", remote: "sc://127.0.0.1:15002"},
		{name: "local", config: "engine: local\n", engine: "local"},
		{name: "a remote with parameters, no engine", config: "spark: {remote: 'sc://h:15002/;user_id=me'}\n",
			remote: "sc://h:15002/;user_id=me"},
		{name: "unknown engine", config: "engine: sprak\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 9, workspace.CodeBadEnum, "did you mean `spark`?")}},
		{name: "engine not a name", config: "engine: [spark]\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 9, workspace.CodeBadEnum, "must be local or spark")}},
		{name: "remote without a port", config: "engine: spark\nspark:\n  remote: sc://localhost\n", engine: "spark",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 3, 11, workspace.CodeBadEnum, "is not a Spark Connect address: write it sc://HOST:PORT")}},
		{name: "remote of another scheme", config: "spark:\n  remote: http://h:15002\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 2, 11, workspace.CodeBadEnum, "not a Spark Connect address")}},
		{name: "remote not a string", config: "spark:\n  remote: [a]\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 2, 11, workspace.CodeWrongType, "must be a Spark Connect address")}},
		{name: "spark not a mapping", config: "spark: sc://h:1\n",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 1, 8, workspace.CodeWrongType, "must be a mapping")}},
		{name: "unknown key in spark", config: "spark:\n  remote: sc://h:1\n  master: local[2]\n", remote: "sc://h:1",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 3, 3, workspace.CodeUnknownKey, "unknown key `master` in `spark`")}},
		{name: "remote twice", config: "spark:\n  remote: sc://h:1\n  remote: sc://h:2\n", remote: "sc://h:1",
			want: []workspacetest.Want{workspacetest.D(workspace.ConfigFileName, 3, 3, workspace.CodeDuplicateKey, "twice")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			workspacetest.Write(t, dir, map[string]string{"pl.yaml": configPipeline, workspace.ConfigFileName: tt.config})
			s := workspacetest.LoadDir(t, dir, workspace.Options{})
			workspacetest.Expect(t, s, s.Diagnostics, tt.want)
			if s.Config.Engine != tt.engine || s.Config.SparkRemote != tt.remote {
				t.Errorf("engine %q remote %q, want %q %q", s.Config.Engine, s.Config.SparkRemote, tt.engine, tt.remote)
			}
			if tt.remote != "" && s.Config.Fields["spark.remote"].Line == 0 {
				t.Errorf("no position for spark.remote: %v", s.Config.Fields)
			}
		})
	}
}
