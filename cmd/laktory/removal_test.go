package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// removalFile is the one file allowed to remove anything from disk
// (docs/development.md, "Removing files").
const removalFile = "delta/guard.go"

// removers are the calls that delete files or folders, by import path.
var removers = map[string][]string{
	"os":                       {"Remove", "RemoveAll"},
	"syscall":                  {"Rmdir", "Unlink", "Unlinkat"},
	"golang.org/x/sys/unix":    {"Rmdir", "Unlink", "Unlinkat"},
	"golang.org/x/sys/windows": {"RemoveDirectory", "DeleteFile"},
}

// TestRemovalsGoThroughGuard fails when non-test code outside delta/guard.go
// removes a file or folder itself: folders go through delta.Guard.RemoveAll
// (which checks that they lie inside the workspace's roots), files through
// delta.RemoveFile, empty folders through delta.RemoveEmptyDir.
func TestRemovalsGoThroughGuard(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if filepath.ToSlash(rel) == removalFile {
			return nil
		}
		checked++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names := map[string][]string{} // local import name -> removal functions
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			fns, ok := removers[path]
			if !ok {
				continue
			}
			name := path[strings.LastIndexByte(path, '/')+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = fns
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			for _, fn := range names[id.Name] {
				if sel.Sel.Name == fn {
					t.Errorf("%s: %s.%s: only %s removes files and folders (docs/development.md, \"Removing files\"); use delta.Guard.RemoveAll for a folder, delta.RemoveFile for a file, delta.RemoveEmptyDir for an empty folder",
						fset.Position(sel.Pos()), id.Name, fn, removalFile)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d Go files checked: is the test walking the repository?", checked)
	}
}
