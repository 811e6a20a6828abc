package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// allowed lists, for each top-level package, the top-level project packages
// it may import (docs/development.md, "Layout and layering": cmd -> tui -> runner -> delta; tui and runner
// -> validate -> workspace; delta and assets import no project package;
// nothing imports tui or cmd).
var allowed = map[string][]string{
	"cmd":       {"tui", "runner", "validate", "workspace", "delta", "assets"},
	"tui":       {"runner", "validate", "workspace", "delta", "assets"},
	"runner":    {"validate", "workspace", "delta", "assets"},
	"validate":  {"workspace", "assets"},
	"workspace": {"assets"},
	"delta":     {},
	"assets":    {},
	// scripts holds helper programs of the interop checks (deltaop).
	"scripts": {"delta"},
}

// TestImportDirections fails when a package imports across the layering.
func TestImportDirections(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}", "github.com/laktory/workbench/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/laktory/workbench/"
	top := func(p string) string {
		r := strings.TrimPrefix(p, mod)
		if i := strings.IndexByte(r, '/'); i >= 0 {
			r = r[:i]
		}
		return r
	}
	checked := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		from := top(f[0])
		ok, known := allowed[from]
		if !known {
			t.Errorf("package %s is outside the documented layout (add it to docs/development.md and this test)", f[0])
			continue
		}
		checked++
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			to := top(imp)
			if to == from {
				continue
			}
			permitted := false
			for _, a := range ok {
				permitted = permitted || a == to
			}
			if !permitted {
				t.Errorf("%s imports %s: %s may not import %s", f[0], imp, from, to)
			}
		}
	}
	if checked == 0 {
		t.Fatal("go list returned no packages")
	}
}
