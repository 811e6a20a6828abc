//go:build unix

package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestLoadBoundedOnBadInput: includes of devices, named pipes, huge files
// or huge folders, and variables that expand exponentially (or a large one
// referenced many times), end the load promptly with an error at the line,
// and nothing else is lost. Each bound is on the input (file type, bytes,
// entries, bytes of substituted text), not on time: the timeout only
// catches a load that would not end without them.
func TestLoadBoundedOnBadInput(t *testing.T) {
	pipeline := func(use string) string {
		return "name: pl\nnodes:\n- name: a\n  transformer:\n  - expr: " + use + "\n  sinks:\n  - table_name: t\n    mode: APPEND\n"
	}
	bomb := "name: pl\nvariables:\n"
	for i := range 8 {
		bomb += "  v" + string(rune('0'+i)) + ": \"" + strings.Repeat("${vars.v"+string(rune('1'+i))+"}", 16) + "\"\n"
	}
	bomb += "  v8: xxxxxxxxxxxxxxxx\nnodes:\n- name: ${vars.v0}\n"
	// v0 expands to 512 KiB (under the bound of a value); 40 references
	// to it, 20 MiB, exceed the bound of a file.
	wide := "name: pl\nvariables:\n"
	for i := range 3 {
		wide += "  v" + string(rune('0'+i)) + ": \"" + strings.Repeat("${vars.v"+string(rune('1'+i))+"}", 16) + "\"\n"
	}
	wide += "  v3: " + strings.Repeat("x", 128) + "\n  v9: [" + strings.Repeat(`"${vars.v0}", `, 40) + "]\nnodes:\n- name: a\n"
	tests := []struct {
		name  string
		files map[string]string
		setup func(t *testing.T, dir string)
		want  workspacetest.Want
	}{
		{name: "!use /dev/zero", files: map[string]string{"pl.yaml": pipeline("!use /dev/zero")},
			want: workspacetest.D("pl.yaml", 5, 11, workspace.CodeReadFile, "not a regular file (a device)")},
		{name: "!use /dev/zero.sql", files: map[string]string{"pl.yaml": pipeline("!use zero.sql")},
			setup: func(t *testing.T, dir string) { os.Symlink("/dev/zero", filepath.Join(dir, "zero.sql")) },
			want:  workspacetest.D("pl.yaml", 5, 11, workspace.CodeReadFile, "not a regular file (a device)")},
		{name: "!use a named pipe", files: map[string]string{"pl.yaml": pipeline("!use fifo.sql")},
			setup: func(t *testing.T, dir string) {
				if err := syscall.Mkfifo(filepath.Join(dir, "fifo.sql"), 0o644); err != nil {
					t.Skip(err)
				}
			},
			want: workspacetest.D("pl.yaml", 5, 11, workspace.CodeReadFile, "not a regular file (a named pipe)")},
		{name: "!use a named pipe as YAML", files: map[string]string{"pl.yaml": "name: pl\nnodes:\n- !use fifo.yaml\n"},
			setup: func(t *testing.T, dir string) {
				if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
					t.Skip(err)
				}
			},
			want: workspacetest.D("pl.yaml", 3, 3, workspace.CodeReadFile, "a named pipe")},
		{name: "!use a file over the size limit", files: map[string]string{"pl.yaml": pipeline("!use big.sql")},
			setup: func(t *testing.T, dir string) {
				f, _ := os.Create(filepath.Join(dir, "big.sql"))
				f.Truncate(workspace.MaxFileSize + 1)
				f.Close()
			},
			want: workspacetest.D("pl.yaml", 5, 11, workspace.CodeReadFile, "larger than 8 MiB")},
		{name: "!use a huge folder", files: map[string]string{"pl.yaml": "name: pl\nnodes: !use tree\n"},
			setup: func(t *testing.T, dir string) {
				old := *workspace.MaxUseEntries
				*workspace.MaxUseEntries = 100
				t.Cleanup(func() { *workspace.MaxUseEntries = old })
				os.MkdirAll(filepath.Join(dir, "tree"), 0o755)
				for i := range 101 {
					os.WriteFile(filepath.Join(dir, "tree", strconv.Itoa(i)+".txt"), nil, 0o644)
				}
			},
			want: workspacetest.D("pl.yaml", 2, 8, workspace.CodeInclude, "more than 100 files and folders")},
		{name: "a variable expansion bomb", files: map[string]string{"pl.yaml": bomb},
			want: workspacetest.D("pl.yaml", 13, 9, workspace.CodeExpansion, "expands to more than 1024 KiB")},
		{name: "many references to a large value", files: map[string]string{"pl.yaml": wide},
			want: workspacetest.D("pl.yaml", 7, 8, workspace.CodeExpansion, "expand to more than 16 MiB of text in all")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			workspacetest.Write(t, dir, tt.files)
			workspacetest.Write(t, dir, map[string]string{"other.yaml": "name: other\nnodes:\n- name: b\n"})
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			done := make(chan *workspace.Snapshot, 1)
			go func() {
				s, err := workspace.Load(ctx, dir, workspace.Options{})
				if err != nil {
					t.Error(err)
				}
				done <- s
			}()
			var s *workspace.Snapshot
			select {
			case s = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the load did not end")
			}
			if s == nil {
				return
			}
			found := false
			for _, d := range s.Diagnostics {
				found = found || (d.Code == tt.want.Code && filepath.Base(d.File) == filepath.Base(tt.want.File) && d.Line == tt.want.Line && strings.Contains(d.Message, tt.want.Contains))
			}
			if !found {
				t.Fatalf("no %v in %v", tt.want, s.Diagnostics)
			}
			if s.Pipeline("other") == nil {
				t.Fatal("the other pipeline was not loaded")
			}
		})
	}
}
