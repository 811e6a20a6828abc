package main

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
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
	// scripts holds helper programs of the interop checks (deltaop) and
	// of the benchmarks (bench/floor runs the SQL our translators emit);
	// no product package imports them.
	"scripts": {"runner", "delta"},
}

// testAllowed are the imports the tests of a package may make beyond
// allowed (docs/development.md): validate parses SQL through its SQL
// interface, and its tests parse with the implementation programs use,
// the local engine's.
var testAllowed = map[string][]string{
	"validate": {"runner/engine/local"},
}

// TestImportDirections fails when a package, or its tests, imports across
// the layering.
func TestImportDirections(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "github.com/laktory/workbench/...").Output()
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
		f := strings.Split(sc.Text(), "|")
		if len(f) != 3 {
			continue
		}
		from := top(f[0])
		ok, known := allowed[from]
		if !known {
			t.Errorf("package %s is outside the documented layout (add it to docs/development.md and this test)", f[0])
			continue
		}
		checked++
		for i, imps := range f[1:] {
			for _, imp := range strings.Fields(imps) {
				if !strings.HasPrefix(imp, mod) || top(imp) == from || imp == f[0] || slices.Contains(ok, top(imp)) {
					continue
				}
				if i == 1 && slices.Contains(testAllowed[from], strings.TrimPrefix(imp, mod)) {
					continue
				}
				what := f[0] + " imports"
				if i == 1 {
					what = f[0] + "'s tests import"
				}
				t.Errorf("%s %s: %s may not import %s (docs/development.md)", what, imp, from, top(imp))
			}
		}
	}
	if checked == 0 {
		t.Fatal("go list returned no packages")
	}
}

// runnerParts are the subsystems the runner's root coordinates
// (docs/development.md, "Inside the runner"), each with the only project
// packages it may import: they sit below the root, never reach back into
// it, and know nothing of the subsystems beside them.
var runnerParts = map[string][]string{
	"runner/checkpoint": {"delta"},
	"runner/landing":    {},
	// The sinks and the MERGE reach the data through the engine seam
	// (runner/engine) and the tables' logs through delta only.
	"runner/sink":          {"delta", "runner/engine", "runner/foreach", "runner/history", "runner/merge", "runner/schemaflow", "validate", "workspace", "workspace/human"},
	"runner/merge":         {"delta", "runner/engine", "workspace"},
	"runner/selection":     {"validate", "workspace"},
	"runner/dialect/spark": {"runner/dialect", "runner/polarssql", "runner/sparksql", "runner/sqlfront", "workspace"},
}

// TestRunnerParts fails when one of the runner's subsystems imports a
// project package beyond its documented ones.
func TestRunnerParts(t *testing.T) {
	const mod = "github.com/laktory/workbench/"
	for part, ok := range runnerParts {
		out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", mod+part).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", part, err)
		}
		for _, imp := range strings.Fields(string(out)) {
			if strings.HasPrefix(imp, mod) && !slices.Contains(ok, strings.TrimPrefix(imp, mod)) {
				t.Errorf("%s imports %s: it may import only %v of the project (docs/development.md)", part, imp, ok)
			}
		}
	}
}

// engineOnly are the packages that reach the data only through the engine
// seam: no database handle of their own (database/sql), no engine
// implementation, so they run on every engine.
var engineOnly = []string{"runner/sink", "runner/merge"}

// TestEngineOnly fails when a package of engineOnly imports database/sql
// or an engine implementation (runner/engine/...).
func TestEngineOnly(t *testing.T) {
	const mod = "github.com/laktory/workbench/"
	for _, pkg := range engineOnly {
		out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, imp := range strings.Fields(string(out)) {
			if imp == "database/sql" || strings.HasPrefix(imp, mod+"runner/engine/") {
				t.Errorf("%s imports %s: it reaches the data through engine.Session and engine.Txn only (docs/development.md)", pkg, imp)
			}
		}
	}
}

// TestRunnerRootSize fails when the runner's root package stops being a
// coordinator one can read (docs/development.md, "Inside the runner"):
// more than 20 non-test files, or a type with more than 35 methods. New
// code goes to the file of its subsystem or to a subpackage.
func TestRunnerRootSize(t *testing.T) {
	const maxFiles, maxMethods = 20, 35
	files, err := filepath.Glob(filepath.Join("..", "..", "runner", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	methods := map[string]int{}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		n++
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 {
				methods[receiverName(fd.Recv.List[0].Type)]++
			}
		}
	}
	if n == 0 {
		t.Fatal("no files in runner/: the test looks in the wrong place")
	}
	if n > maxFiles {
		t.Errorf("runner/ has %d non-test files, more than %d: put the new code in the file of its subsystem or in a subpackage", n, maxFiles)
	}
	for typ, m := range methods {
		if m > maxMethods {
			t.Errorf("runner.%s has %d methods, more than %d: split it by responsibility", typ, m, maxMethods)
		}
	}
}

// receiverName is the type name of a method's receiver (T or *T).
func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if g, ok := e.(*ast.IndexExpr); ok {
		e = g.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// duckDBImporters are the packages whose non-test code may import DuckDB
// (docs/development.md, "Layout and layering"): package delta, which
// scans and writes tables with it, and the local engine, which opens the
// runner's database and hands it to whoever needs it.
var duckDBImporters = []string{"delta", "runner/engine/local"}

// TestDataPlaneImports fails when non-test code outside delta and the
// local engine imports DuckDB, or when tui imports delta (the TUI consumes
// the runner's interfaces and holds no data-plane code). There are no
// exceptions (the last ones, the runner's ForEach appender and the TUI's
// lake reader, moved to the local engine and runner/lake).
func TestDataPlaneImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "github.com/laktory/workbench/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/laktory/workbench/"
	seen := map[string]bool{} // the DuckDB importers seen importing it
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(f[0], mod)
		for _, imp := range f[1:] {
			var rule string
			switch {
			case strings.HasPrefix(imp, "github.com/duckdb/duckdb-go"):
				if slices.Contains(duckDBImporters, pkg) {
					seen[pkg] = true
					continue
				}
				rule = "only " + strings.Join(duckDBImporters, " and ") + " may import DuckDB (open it there and hand it down)"
			case imp == mod+"delta" && (pkg == "tui" || strings.HasPrefix(pkg, "tui/")):
				rule = "tui may not import delta (read tables through the runner's interfaces)"
			default:
				continue
			}
			t.Errorf("%s imports %s: %s", pkg, imp, rule)
		}
	}
	for _, pkg := range duckDBImporters {
		if !seen[pkg] {
			t.Errorf("%s imports no DuckDB: the test reads go list wrong, or the rule is out of date", pkg)
		}
	}
}
