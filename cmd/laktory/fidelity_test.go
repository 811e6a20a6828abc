package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestRunParams: a required pipeline parameter without a value refuses the
// run with Laktory's message; --param sets it (${params.x} in a path); a
// --param no pipeline of the run declares is LK121, with Laktory's message.
func TestRunParams(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"pl.yaml": `name: pl-params
parameters:
  client: {}
  fmt: {default: PARQUET}
nodes:
- name: a
  sources:
  - path: ./landing/${params.client}/
    format: JSON
  sinks:
  - path: ./out/${params.client}
    mode: OVERWRITE
    format: ${params.fmt}
`,
		"landing/acme/x.json": `{"id": 1}` + "\n",
	})
	code, out, errs := runCLI(t, nil, "run", dir)
	if code != ExitProblems || !strings.Contains(out+errs, "Parameters ['client'] of pipeline 'pl-params' are required: set them for the run") ||
		!strings.Contains(out+errs, "--param client=VALUE") {
		t.Fatalf("missing parameter: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, nil, "run", dir, "--param", "client=acme", "--param", "region=eu"); code != ExitProblems ||
		!strings.Contains(out+errs, "LK121 Parameters ['region'] are not declared by pipeline 'pl-params'. Declared parameters are ['client', 'fmt'].") {
		t.Fatalf("unknown parameter: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, nil, "run", dir, "--param", "client=acme"); code != ExitOK {
		t.Fatalf("run with --param: exit %d\n%s\n%s", code, out, errs)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "out", "acme", "*.parquet")); len(files) == 0 {
		t.Fatal("the sink path did not take the parameter's value")
	}
}

// TestValidateStrictAndIgnored: --strict (or strict: true in the workbench
// config) makes the demo's extension warnings errors; validate lists the
// YAML files it did not read, in text and JSON.
func TestValidateStrictAndIgnored(t *testing.T) {
	dir := writeDemo(t)
	if err := os.WriteFile(filepath.Join(dir, "notes.yaml"), []byte("owner: data-team\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, nil, "validate", dir)
	if code != ExitOK || !strings.Contains(out, "not read (neither a pipeline, a stack nor included by one): 1 YAML files\n  "+filepath.Join(dir, "notes.yaml")) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, nil, "validate", "--strict", "--json", dir)
	var res struct {
		Diagnostics []diagJSON `json:"diagnostics"`
		Ignored     []string   `json:"ignored"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	errs := 0
	for _, d := range res.Diagnostics {
		if d.Code == "LK018" && d.Severity == "error" {
			errs++
		}
	}
	if code != ExitProblems || errs != 3 || len(res.Ignored) != 1 || !strings.HasSuffix(res.Ignored[0], "notes.yaml") {
		t.Fatalf("--strict: exit %d, %d LK018 errors, ignored %v", code, errs, res.Ignored)
	}
	if err := os.WriteFile(filepath.Join(dir, "laktory-workbench.yaml"), []byte("strict: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, nil, "validate", dir); code != ExitProblems || !strings.Contains(out, "error LK018") {
		t.Fatalf("strict: true: exit %d\n%s", code, out)
	}
	if code, out, errs := runCLI(t, nil, "run", dir, "-p", "pl-events"); code != ExitProblems || !strings.Contains(out+errs, "LK018") {
		t.Fatalf("run with strict: true: exit %d\n%s\n%s", code, out, errs)
	}
}
