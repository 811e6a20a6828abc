package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunPrintsMergedRows: laktory run prints, per MERGE sink, the rows
// its merges inserted, updated and deleted.
func TestRunPrintsMergedRows(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: silver
  sources:
  - path: ../landing/changes.csv
    format: CSV
  sinks:
  - path: ../out/silver
    format: DELTA
    mode: MERGE
    merge_cdc_options:
      primary_keys: [id]
      order_by: seq
      delete_where: op = 'D'
`,
		"landing/changes.csv": "id,v,seq,op\n1,a,1,I\n2,b,1,I\n3,c,1,I\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK || !strings.Contains(out, "out/silver  3 inserted, 0 updated, 0 deleted") {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errs)
	}
	os.WriteFile(filepath.Join(dir, "landing", "changes.csv"), []byte("id,v,seq,op\n1,a2,2,U\n2,,2,D\n4,d,1,I\n3,old,0,U\n"), 0o644)
	code, out, errs := runCLI(t, nil, "run", dir)
	if code != ExitOK || !strings.Contains(out, "Rows merged per MERGE sink:") || !strings.Contains(out, "out/silver  1 inserted, 1 updated, 1 deleted  [pl.silver, SCD type 1]") {
		t.Fatalf("second run: exit %d\n%s\n%s", code, out, errs)
	}
}
