package validate

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// corpusDir holds YAML files each loaded as a workspace of its own; their
// `# want: CODE LINE:COL text` lines are the diagnostics we report.
const corpusDir = "testdata/laktory"

var wantRe = regexp.MustCompile(`^# want: (LK\d{3}) (\d+):(\d+) (.+)$`)

// loadAlone loads file as the only file of a workspace.
func loadAlone(t *testing.T, file string) (*workspace.Snapshot, []Diagnostic) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := workspacetest.Load(t, map[string]string{filepath.Base(file): string(b)}, workspace.Options{})
	return s, Check(s, Options{})
}

func corpusFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", corpusDir, err)
	}
	return files
}

// TestLaktoryCorpus: each corpus file gives exactly its `# want:`
// diagnostics (the cases of Laktory 0.13.1 fidelity: what it rejects at
// load, what it accepts that we once rejected).
func TestLaktoryCorpus(t *testing.T) {
	for _, f := range corpusFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, _ := os.ReadFile(f)
			var want []W
			sc := bufio.NewScanner(strings.NewReader(string(b)))
			for sc.Scan() {
				if m := wantRe.FindStringSubmatch(sc.Text()); m != nil {
					line, _ := strconv.Atoi(m[2])
					col, _ := strconv.Atoi(m[3])
					want = append(want, D(filepath.Base(f), line, col, m[1], m[4]))
				}
			}
			s, ds := loadAlone(t, f)
			workspacetest.Expect(t, s, ds, want)
		})
	}
}

// localOnly are the codes of what Laktory accepts at load but the local
// run cannot do or finds missing: they don't make a verdict.
var localOnly = []string{CodeLocalStep, CodeSourceMissing, CodeRemotePath}

// laktoryVerdict is ours in Laktory's terms: a file is rejected when it has
// an error, or a warning of something Laktory rejects (LK017, LK018).
func laktoryVerdict(ds []Diagnostic, files map[string]bool) (string, []string) {
	var why []string
	for _, d := range ds {
		if !files[d.File] || slices.Contains(localOnly, d.Code) {
			continue
		}
		if d.Severity == Error || d.Code == workspace.CodeLaktoryRejects || d.Code == workspace.CodeExtension {
			why = append(why, d.String())
		}
	}
	if len(why) > 0 {
		return "reject", why
	}
	return "accept", nil
}

// TestLaktoryParity loads the corpus, the demo, the testdata workspaces
// and the quickstart stacks shipped in the laktory package with Laktory
// 0.13.1's own loader (scripts/interop/laktory_load.py, $LAKTORY_PYTHON)
// and with ours: the verdicts (accept, reject) must agree; LK180 steps
// and missing source paths (LK205) aside.
func TestLaktoryParity(t *testing.T) {
	py := interopPython(t)
	type item struct {
		file string // given to Laktory
		ours string
		why  []string
	}
	var items []item
	add := func(s *workspace.Snapshot, ds []Diagnostic, file string) {
		files := map[string]bool{file: true}
		for _, dep := range s.Deps(file) {
			files[dep] = true
		}
		v, why := laktoryVerdict(ds, files)
		items = append(items, item{file, v, why})
	}
	for _, f := range corpusFiles(t) {
		s, ds := loadAlone(t, f)
		add(s, ds, filepath.Join(s.Dir, filepath.Base(f)))
	}
	dirs := []string{workspacetest.Demo(t), "../cmd/laktory/testdata/ws_stack"}
	out, err := exec.Command(py, "-c", "import laktory, os; print(os.path.join(os.path.dirname(laktory.__file__), 'resources', 'quickstart-stacks'))").Output()
	if err != nil {
		t.Fatalf("laktory is not installed in %s (scripts/requirements-interop.txt): %v", py, err)
	}
	quick, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "*"))
	if len(quick) == 0 {
		t.Fatal("the laktory package ships no quickstart stacks")
	}
	dirs = append(dirs, quick...)
	// More Laktory YAML, each subfolder a workspace (scripts/laktory-corpus.py
	// builds one from Laktory's repository and docs).
	if c := os.Getenv("LAKTORY_PARITY_CORPUS"); c != "" {
		more, _ := filepath.Glob(filepath.Join(c, "*", ""))
		if len(more) == 0 {
			t.Fatalf("LAKTORY_PARITY_CORPUS=%s holds no folder", c)
		}
		dirs = append(dirs, more...)
	}
	for _, dir := range dirs {
		dir, _ = filepath.Abs(dir)
		s := workspacetest.LoadDir(t, dir, workspace.Options{})
		ds := Check(s, Options{})
		seen := map[string]bool{}
		for _, p := range s.Pipelines {
			if !seen[p.File] {
				seen[p.File] = true
				add(s, ds, p.File)
			}
		}
		for _, f := range s.Ignored {
			if slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.File == f && d.Code == workspace.CodeNotRead }) {
				add(s, ds, f)
			}
		}
		// Files we refuse without reading a pipeline from them (YAML that
		// does not parse, a stack whose pipeline is no mapping): Laktory must
		// refuse them too. Files they include are not loaded on their own.
		var read []string
		for _, p := range s.Pipelines {
			read = append(read, p.File)
		}
		for _, d := range ds {
			read = append(read, d.File)
		}
		included := map[string]bool{}
		for _, f := range read {
			for _, dep := range s.Deps(f) {
				if dep != f {
					included[dep] = true
				}
			}
		}
		for _, d := range ds {
			if d.Severity == Error && !slices.Contains(localOnly, d.Code) && !seen[d.File] && !included[d.File] {
				seen[d.File] = true
				add(s, ds, d.File)
			}
		}
	}
	args := []string{filepath.Join("..", "scripts", "interop", "laktory_load.py")}
	for _, it := range items {
		args = append(args, it.file)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := exec.CommandContext(ctx, py, args...).Output()
	if err != nil {
		t.Fatalf("laktory_load.py: %v", err)
	}
	verdicts := map[string]struct{ Verdict, Error string }{}
	for _, line := range strings.Split(strings.TrimSpace(string(res)), "\n") {
		if !strings.HasPrefix(line, "{") {
			continue // what Laktory logs (a format it passes through to Spark)
		}
		var v struct{ File, Verdict, Error string }
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		verdicts[v.File] = struct{ Verdict, Error string }{v.Verdict, v.Error}
	}
	agree := 0
	for _, it := range items {
		lk, ok := verdicts[it.file]
		switch {
		case !ok:
			t.Errorf("%s: no verdict from Laktory", it.file)
		case lk.Verdict != it.ours:
			t.Errorf("%s: Laktory says %s (%s), we say %s %v", it.file, lk.Verdict, lk.Error, it.ours, it.why)
		default:
			agree++
			if testing.Verbose() {
				t.Logf("%s: both %s\n Laktory: %s\n ours: %v", it.file, it.ours, lk.Error, it.why)
			}
		}
	}
	t.Logf("%d of %d files: same verdict as Laktory 0.13.1", agree, len(items))
}

// interopPython is $LAKTORY_PYTHON (a Python with the interop packages,
// laktory among them). Without it the test skips, unless
// LAKTORY_REQUIRE_INTEROP=1 (scripts/test.sh), then it fails.
func interopPython(t *testing.T) string {
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set (a Python with scripts/requirements-interop.txt installed)")
		}
		t.Skip("LAKTORY_PYTHON not set: Laktory parity skipped")
	}
	return py
}
