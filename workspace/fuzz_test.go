package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/assets"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// FuzzLoad feeds arbitrary bytes to the loader as a pipeline file (with an
// include and a stack beside it): no input may panic, and a load always
// returns a snapshot. Seeds: the demo pipelines, the generated pipeline and
// testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"pl-prices.yaml", "pl-events.yaml", "pl-client-acme.yaml"} {
		b, err := assets.Demo().Open("pipelines/" + name)
		if err != nil {
			f.Fatal(err)
		}
		st, _ := b.Stat()
		buf := make([]byte, st.Size())
		b.Read(buf)
		b.Close()
		f.Add(buf)
	}
	f.Add([]byte(workspacetest.GeneratePipeline(1, 3, 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "pl.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stack.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "inc.yaml"), []byte("name: inc\nnodes: !use pl.yaml\n"), 0o644)
		s, err := workspace.Load(context.Background(), dir, workspace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range s.Diagnostics {
			if d.File == "" || d.Line < 1 || d.Code == "" || d.Message == "" || strings.Contains(d.Message, "internal error") {
				t.Fatalf("diagnostic without position or text: %+v", d)
			}
		}
	})
}
