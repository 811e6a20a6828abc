package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/laktory/workbench/assets"
	"github.com/laktory/workbench/delta"
)

// writeDemo writes the demo workspace into a temporary folder.
func writeDemo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := assets.WriteTree(assets.Demo(), dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

type validateOutput struct {
	Diagnostics []map[string]any `json:"diagnostics"`
}

func TestValidateDemo(t *testing.T) {
	dir := writeDemo(t)
	code, out, stderr := runCLI(t, nil, "validate", dir)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q, out %s", code, stderr, out)
	}
	if !strings.Contains(out, "LK151") || !strings.Contains(out, "0 errors, 3 warnings, 1 info") || strings.Count(out, "LK018") != 3 {
		t.Fatalf("output:\n%s", out)
	}

	// Uncomment feed_c: exit 1 and the shared-sink error in JSON.
	f := filepath.Join(dir, "pipelines", "pl-prices.yaml")
	b, _ := os.ReadFile(f)
	text := string(b)
	i := strings.Index(text, "# - name: feed_c")
	lines := strings.Split(text[i:], "\n")
	for k, l := range lines {
		lines[k] = strings.TrimPrefix(strings.TrimPrefix(l, "#"), " ")
	}
	os.WriteFile(f, []byte(text[:i]+strings.Join(lines, "\n")), 0o644)
	code, out, _ = runCLI(t, nil, "validate", "--json", dir)
	if code != ExitProblems {
		t.Fatalf("exit %d, want %d", code, ExitProblems)
	}
	var res validateOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	found := false
	for _, d := range res.Diagnostics {
		keys := make([]string, 0, len(d))
		for k := range d {
			keys = append(keys, k)
		}
		if len(keys) != 7 {
			t.Errorf("diagnostic keys %v, want file line col severity code message hint", keys)
		}
		if d["code"] == "LK101" && d["severity"] == "error" && d["file"] == filepath.Join(dir, "pipelines", "pl-prices.yaml") &&
			d["line"] == float64(strings.Count(text[:i], "\n")+7) && d["col"] == float64(5) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no LK101 at feed_c's sink in %s", out)
	}
}

// TestValidateHuman: diagnostics grouped by file, with the line, a caret
// under the column and the hint (golden file; -update rewrites it).
func TestValidateHuman(t *testing.T) {
	code, out, _ := runCLI(t, map[string]string{"NO_COLOR": "1"}, "validate", "testdata/ws_errors")
	if code != ExitProblems {
		t.Fatalf("exit %d", code)
	}
	golden.RequireEqual(t, out)
}

func TestValidateErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"missing folder", []string{"validate", filepath.Join(t.TempDir(), "nope")}, ExitUsage},
		{"too many arguments", []string{"validate", "a", "b"}, ExitUsage},
		{"unknown environment is a workspace error", []string{"validate", "--env", "prd", "testdata/ws_stack"}, ExitProblems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, out, stderr := runCLI(t, nil, tt.args...); code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
		})
	}
}

func TestValidateEmptyWorkspace(t *testing.T) {
	code, out, _ := runCLI(t, nil, "validate", t.TempDir())
	if code != ExitOK || !strings.Contains(out, "0 pipelines, 0 tables: no problems") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// TestValidateDeep: --deep reads the shared tables; a table written before
// it was shared (no writer column) is an error only then.
func TestValidateDeep(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pl.yaml"), []byte(`name: pl
nodes:
- name: a
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: b
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
`), 0o644)
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	root := filepath.Join(dir, ".laktory", "lake", "main", "default", "prices")
	const rows = "SELECT 1 AS x"
	schema, err := delta.QuerySchema(ctx, db, rows)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Create(ctx, root, delta.TableDefinition{Schema: schema}, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Append(ctx, db, root, rows, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, nil, "validate", dir); code != ExitOK {
		t.Fatalf("without --deep: exit %d\n%s", code, out)
	}
	code, out, _ := runCLI(t, nil, "validate", "--deep", dir)
	if code != ExitProblems || !strings.Contains(out, "LK201") || !strings.Contains(out, "has no `_laktory_writer` column") {
		t.Fatalf("--deep: exit %d\n%s", code, out)
	}
}

// TestValidateSQLHuman: the schema flow's diagnostics (SQL that does not
// bind, a non-boolean expectation, sink types against the declared schema,
// a where on a column the table lacks) in the human output (golden file;
// -update rewrites it), their hints pastable, the same in JSON.
func TestValidateSQLHuman(t *testing.T) {
	code, out, stderr := runCLI(t, map[string]string{"NO_COLOR": "1"}, "validate", "testdata/ws_sql")
	if code != ExitProblems {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden.RequireEqual(t, out)
	_, out, _ = runCLI(t, nil, "validate", "--json", "testdata/ws_sql")
	var res validateOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, d := range res.Diagnostics {
		codes[d["code"].(string)] = true
		checkPastable(t, d["message"].(string))
		checkPastable(t, d["hint"].(string))
	}
	for _, c := range []string{"LK113", "LK301", "LK304", "LK305", "LK306"} {
		if !codes[c] {
			t.Errorf("no %s in %s", c, out)
		}
	}
}

// TestValidateSchemaCache: laktory validate keeps the schema flow's cache
// under $XDG_CACHE_HOME/laktory/schemaflow, and a second run (which reads
// it) reports the same.
func TestValidateSchemaCache(t *testing.T) {
	cache := t.TempDir()
	env := map[string]string{"NO_COLOR": "1", "XDG_CACHE_HOME": cache}
	_, first, _ := runCLI(t, env, "validate", "testdata/ws_sql")
	files, _ := filepath.Glob(filepath.Join(cache, "laktory", "schemaflow", "*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	if _, second, _ := runCLI(t, env, "validate", "testdata/ws_sql"); second != first {
		t.Fatalf("warm run differs:\n%s\nfirst:\n%s", second, first)
	}
}
