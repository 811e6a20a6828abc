package runner

import (
	"errors"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCheckFailPoint(t *testing.T) {
	for _, spec := range []string{"", "  ", "refresh.done", "refresh.done:2", "batch.sink", "delta.upload.part:3"} {
		if err := CheckFailPoint(spec); err != nil {
			t.Errorf("CheckFailPoint(%q) = %v, want nil", spec, err)
		}
	}
	for _, spec := range []string{"refresh.dnoe", "refresh.done:x", "delta.commit", "batch.sinks:1"} {
		if err := CheckFailPoint(spec); !errors.Is(err, ErrUnknownFailPoint) {
			t.Errorf("CheckFailPoint(%q) = %v, want ErrUnknownFailPoint", spec, err)
		}
	}
}

// TestFailPointsListed keeps FailPoints complete and every point proven:
// each delta.FailPoint call in the module's code names a listed point, and
// each listed point is the subject of some test (named in a _test.go file
// by its constant or its value).
func TestFailPointsListed(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	consts := map[string]string{} // "pkg.Name" and "Name" -> value
	type call struct {
		pos  token.Position
		expr ast.Expr
		pkg  string
	}
	var calls []call
	type constDecl struct {
		pkg, name string
		expr      ast.Expr
	}
	var pending []constDecl
	var testText strings.Builder
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		if strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			testText.Write(b)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		pkg := f.Name.Name
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							pending = append(pending, constDecl{pkg, n.Name, vs.Values[i]})
						}
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ce, ok := n.(*ast.CallExpr)
			if !ok || len(ce.Args) != 1 {
				return true
			}
			switch fn := ce.Fun.(type) {
			case *ast.Ident:
				if fn.Name == "FailPoint" && pkg == "delta" {
					calls = append(calls, call{fset.Position(ce.Pos()), ce.Args[0], pkg})
				}
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "delta" && fn.Sel.Name == "FailPoint" {
					calls = append(calls, call{fset.Position(ce.Pos()), ce.Args[0], pkg})
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Constants may name constants of files or packages read later.
	for progress := true; progress; {
		progress = false
		rest := pending[:0]
		for _, d := range pending {
			if v, ok := constString(d.expr, d.pkg, consts); ok {
				consts[d.pkg+"."+d.name] = v
				progress = true
			} else {
				rest = append(rest, d)
			}
		}
		pending = rest
	}
	called := map[string]bool{FailBatchOffsets: true, FailBatchSink: true, FailBatchCommit: true} // stream.go's "batch." + step
	for _, c := range calls {
		v, ok := constString(c.expr, c.pkg, consts)
		if !ok {
			// stream.go's "batch." + step: each of its steps is listed as
			// FailBatch*; any other dynamic name must be listed by hand here.
			if be, isBin := c.expr.(*ast.BinaryExpr); isBin {
				if p, ok := constString(be.X, c.pkg, consts); ok && p == "batch." {
					continue
				}
			}
			t.Errorf("%s: delta.FailPoint's name is not a constant this test can resolve", c.pos)
			continue
		}
		called[v] = true
		if !slices.Contains(FailPoints, v) {
			t.Errorf("%s: fail point %q is not in runner.FailPoints (CheckFailPoint would refuse it)", c.pos, v)
		}
	}
	tests := testText.String()
	for _, fp := range FailPoints {
		if !called[fp] {
			t.Errorf("fail point %q is listed but no delta.FailPoint call names it", fp)
		}
		named := strings.Contains(tests, strconv.Quote(fp))
		for k, v := range consts {
			if v == fp && strings.Contains(tests, k[strings.IndexByte(k, '.')+1:]) {
				named = true
			}
		}
		if !named {
			t.Errorf("fail point %q is named by no test: no crash test kills a run there", fp)
		}
	}
}

// constString evaluates a string constant expression: a literal, a
// constant of this package or of another (pkg.Name), or a sum of them.
func constString(e ast.Expr, pkg string, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
			return constant.StringVal(v), true
		}
	case *ast.Ident:
		v, ok := consts[pkg+"."+e.Name]
		return v, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			v, ok := consts[x.Name+"."+e.Sel.Name]
			return v, ok
		}
	case *ast.ParenExpr:
		return constString(e.X, pkg, consts)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := constString(e.X, pkg, consts)
			b, ok2 := constString(e.Y, pkg, consts)
			return a + b, ok1 && ok2
		}
	}
	return "", false
}
