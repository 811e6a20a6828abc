package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestDemoValid: the embedded demo workspace loads and validates without
// errors or warnings (only the info reminder of its skipChangeCommits
// reader).
func TestDemoValid(t *testing.T) {
	s := workspacetest.LoadDir(t, workspacetest.Demo(t), workspace.Options{})
	workspacetest.Expect(t, s, Check(s, Options{}), append(workspacetest.DemoExtensionWarnings(),
		D("pipelines/pl-prices.yaml", 60, 7, CodeSkipNodeReader, "after a FULL refresh of 'feed_a' run a FULL refresh of 'gld_prices_a' too"),
	))
}

// TestDemoFeedC uncomments the feed_c node of the demo: a third writer of
// the shared table prices that doesn't declare shared.
func TestDemoFeedC(t *testing.T) {
	dir := workspacetest.Demo(t)
	f := filepath.Join(dir, "pipelines", "pl-prices.yaml")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, "# - name: feed_c")
	if i < 0 {
		t.Fatal("the demo no longer has the commented feed_c node")
	}
	lines := strings.Split(text[i:], "\n")
	for k, l := range lines {
		lines[k] = strings.TrimPrefix(strings.TrimPrefix(l, "#"), " ")
	}
	if err := os.WriteFile(f, []byte(text[:i]+strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	line := strings.Count(text[:i], "\n") + 1 + 6 // "- table_name: prices" of feed_c
	workspacetest.Expect(t, s, Check(s, Options{}), append(workspacetest.DemoExtensionWarnings(),
		D("pipelines/pl-prices.yaml", 60, 7, CodeSkipNodeReader, "gld_prices_a"),
		D("pipelines/pl-prices.yaml", line, 5, CodeNotShared, "sinks of nodes feed_c don't declare `shared`: nodes feed_a, feed_b, feed_c of pipeline 'pl-prices' all write main.default.prices"),
	))
}
