package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/assets"
	"github.com/laktory/workbench/workspace"
)

func demoDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := assets.WriteTree(assets.Demo(), dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDemoValid(t *testing.T) {
	s, err := workspace.Load(context.Background(), demoDir(t), workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range Check(s, Options{}) {
		t.Logf("%s", d)
		if d.Severity != Info {
			t.Errorf("demo: %s", d)
		}
	}
}

func TestDemoFeedC(t *testing.T) {
	dir := demoDir(t)
	f := filepath.Join(dir, "pipelines", "pl-prices.yaml")
	b, _ := os.ReadFile(f)
	i := strings.Index(string(b), "# - name: feed_c")
	lines := strings.Split(string(b[i:]), "\n")
	for k, l := range lines {
		lines[k] = strings.TrimPrefix(strings.TrimPrefix(l, "# "), "#")
	}
	os.WriteFile(f, append(b[:i:i], strings.Join(lines, "\n")...), 0o644)
	s, _ := workspace.Load(context.Background(), dir, workspace.Options{})
	for _, d := range Check(s, Options{}) {
		t.Logf("%s", d)
	}
}
