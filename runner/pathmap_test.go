package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// TestRemotePathsMapped: a pipeline written for Databricks (/Volumes/...
// source, dbfs:/ sink) runs unchanged once laktory-workbench.yaml maps the
// prefixes to local folders; unmapped, validate warns (LK207) and the plan
// refuses it; a missing local folder is a warning in validate (LK205) and
// an error in the plan.
func TestRemotePathsMapped(t *testing.T) {
	const pipeline = `name: pl
nodes:
- name: events
  source:
    path: /Volumes/main/raw/landing/events/
    format: JSONL
  sinks:
  - table_name: events
    mode: OVERWRITE
  - path: dbfs:/mnt/exports/events
    format: PARQUET
    mode: OVERWRITE
`
	w := newWS(t, map[string]string{"pipelines/pl.yaml": pipeline, "data/landing/events/1.jsonl": jsonl("e", 0, 3, "")})
	backdate(t, filepath.Join(w.dir, "data", "landing", "events", "1.jsonl"))
	r := testRunner(t)
	severity := func(snap *workspace.Snapshot, code string) validate.Severity {
		ds, err := r.Validate(context.Background(), snap, validate.Options{Paths: PathFacts(snap)})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Code == code {
				return d.Severity
			}
		}
		return -1
	}

	// Unmapped: a warning in validate, an error in the plan.
	snap := w.load()
	if sev := severity(snap, validate.CodeRemotePath); sev != validate.Warning {
		t.Fatalf("validate: LK207 severity %v, want a warning", sev)
	}
	pe := planErr(t, r, snap, Request{})
	if !hasDiag(pe, validate.CodeRemotePath, "paths: {/Volumes/main/raw/landing:") || !hasDiag(pe, validate.CodeRemotePath, "paths: {dbfs:/mnt/exports:") {
		t.Fatalf("the plan does not refuse the unmapped paths with the mappings to add: %v", pe)
	}
	for _, d := range pe.Diagnostics {
		if d.Severity == validate.Error && d.Code != validate.CodeRemotePath {
			t.Errorf("an unmapped remote path is refused for another reason than LK207: %s", d)
		}
	}

	// Mapped: the same YAML runs here.
	w.write(map[string]string{workspace.ConfigFileName: "paths:\n  /Volumes/main/raw/landing: data/landing\n  dbfs:/mnt/exports: data/exports\n"})
	snap = w.load()
	mustRun(t, r, snap, Request{})
	if n := count(t, r, w.table("events"), ""); n != 3 {
		t.Fatalf("%d rows, want 3", n)
	}
	if !exists(filepath.Join(w.dir, "data", "exports", "events")) {
		t.Fatal("the dbfs:/ sink was not written to its mapped folder")
	}

	// A mapped folder that does not exist: LK205, a warning, then an error.
	w.write(map[string]string{workspace.ConfigFileName: "paths:\n  /Volumes/main/raw/landing: data/elsewhere\n  dbfs:/mnt/exports: data/exports\n"})
	snap = w.load()
	if sev := severity(snap, validate.CodeSourceMissing); sev != validate.Warning {
		t.Fatalf("validate: LK205 severity %v, want a warning", sev)
	}
	if pe := planErr(t, r, snap, Request{}); !hasDiag(pe, validate.CodeSourceMissing, "does not exist on this machine") {
		t.Fatalf("the plan does not refuse the missing folder: %v", pe)
	}
}
