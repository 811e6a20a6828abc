package validate

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
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

// Laktory's rules (docs/laktory-rules.md): the enumeration of the installed
// Laktory's validators and execution checks (scripts/laktory-validators.py
// writes rulesJSON), the table that maps each to a code, and a corpus of
// workspaces, one or more per rule, that Laktory refuses.
const (
	rulesJSON   = "testdata/laktory/rules.json"
	rulesDoc    = "../docs/laktory-rules.md"
	rulesCorpus = "testdata/laktory/rules"
)

type laktoryRule struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Model     string   `json:"model"`
	Function  string   `json:"function"`
	Fields    []string `json:"fields"`
	Condition string   `json:"condition"`
	Exception string   `json:"exception"`
	Message   string   `json:"message"`
}

type laktoryRules struct {
	Laktory    string        `json:"laktory"`
	Validators int           `json:"validators"`
	Checks     int           `json:"checks"`
	Rules      []laktoryRule `json:"rules"`
}

func readLaktoryRules(t *testing.T) laktoryRules {
	t.Helper()
	b, err := os.ReadFile(rulesJSON)
	if err != nil {
		t.Fatal(err)
	}
	var r laktoryRules
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", rulesJSON, err)
	}
	return r
}

// ruleRow is one row of the table of docs/laktory-rules.md.
type ruleRow struct {
	ID, When, Here, Message string
	Line                    int
}

var ruleWhens = []string{"load", "run", "deploy", "api", "internal"}

// splitRow splits a Markdown table row on its unescaped pipes.
func splitRow(line string) []string {
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	cells = append(cells, strings.TrimSpace(cur.String()))
	if len(cells) >= 2 {
		cells = cells[1 : len(cells)-1] // the text before the first and after the last pipe
	}
	return cells
}

func readRuleTable(t *testing.T) []ruleRow {
	t.Helper()
	b, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	var rows []ruleRow
	in := false
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case line == "<!-- rules:begin -->":
			in = true
		case line == "<!-- rules:end -->":
			in = false
		case in && strings.HasPrefix(line, "| `"):
			c := splitRow(line)
			if len(c) != 4 {
				t.Errorf("%s:%d: want 4 cells (rule, when, here, message), got %d", rulesDoc, i+1, len(c))
				continue
			}
			rows = append(rows, ruleRow{ID: strings.Trim(c[0], "`"), When: c[1], Here: c[2], Message: c[3], Line: i + 1})
		}
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rule rows between <!-- rules:begin --> and <!-- rules:end -->", rulesDoc)
	}
	return rows
}

var printRules = flag.Bool("rules.print", false, "log each rules corpus case's diagnostics as `# want:` lines")

var codeRe = regexp.MustCompile(`\bLK\d{3}\b`)
var testedByRe = regexp.MustCompile(`tested by (Test\w+)`)

// TestLaktoryRulesTable: the table of docs/laktory-rules.md has one row
// per rule the enumeration lists, with Laktory's message as the
// enumeration has it, a known `when`, and a `here` that names documented
// codes or says n/a (why) or gap (what).
func TestLaktoryRulesTable(t *testing.T) {
	lk := readLaktoryRules(t)
	rows := readRuleTable(t)
	byID := map[string]ruleRow{}
	for _, r := range rows {
		if _, dup := byID[r.ID]; dup {
			t.Errorf("%s:%d: %s has two rows", rulesDoc, r.Line, r.ID)
		}
		byID[r.ID] = r
	}
	known := map[string]bool{}
	var mapped, na, gaps int
	for _, r := range lk.Rules {
		known[r.ID] = true
		row, ok := byID[r.ID]
		if !ok {
			t.Errorf("%s has no row for Laktory %s's rule %s (%s: %s): add one (rerun scripts/laktory-validators.py after an upgrade)", rulesDoc, lk.Laktory, r.ID, r.Exception, r.Message)
			continue
		}
		if row.Message != r.Message {
			t.Errorf("%s:%d: %s: Laktory's message is now\n  %s\nthe table says\n  %s", rulesDoc, row.Line, r.ID, r.Message, row.Message)
		}
		if !slices.Contains(ruleWhens, row.When) {
			t.Errorf("%s:%d: %s: when %q is not one of %v", rulesDoc, row.Line, r.ID, row.When, ruleWhens)
		}
		switch {
		case strings.HasPrefix(row.Here, "n/a: "):
			na++
		case strings.HasPrefix(row.Here, "gap: "):
			gaps++
		case strings.HasPrefix(row.Here, "LK"):
			mapped++
			for _, c := range codeRe.FindAllString(row.Here, -1) {
				if _, ok := Lookup(c); !ok {
					t.Errorf("%s:%d: %s maps to %s, which validate.Codes does not document", rulesDoc, row.Line, r.ID, c)
				}
			}
		default:
			t.Errorf("%s:%d: %s: `here` must name codes (LK...), or start with `n/a: ` (why) or `gap: ` (what), got %q", rulesDoc, row.Line, r.ID, row.Here)
		}
	}
	for _, row := range rows {
		if !known[row.ID] {
			t.Errorf("%s:%d: %s is not a rule of Laktory %s (%s): remove the row", rulesDoc, row.Line, row.ID, lk.Laktory, rulesJSON)
		}
	}
	t.Logf("Laktory %s: %d validators and %d execution checks, %d rules: %d with a code here, %d n/a, %d gaps",
		lk.Laktory, lk.Validators, lk.Checks, len(lk.Rules), mapped, na, gaps)
}

// ruleCase is a workspace of the rules corpus: a YAML file alone, or a
// folder whose pipeline.yaml (or stack.yaml) is the file Laktory loads and
// whose other files it includes.
type ruleCase struct {
	file    string            // the file Laktory loads
	files   map[string]string // the workspace: name -> content
	main    string            // the name of file in files
	rules   []string          // the rules it breaks
	laktory string            // where Laktory refuses it: "load", "run", or "run-spark" (a run on Spark, not checked here)
	run     string            // the run's arguments (# run:)
	want    []W
}

var ruleRe = regexp.MustCompile(`^# rule: (\S+)$`)

func readRulesCorpus(t *testing.T) []ruleCase {
	t.Helper()
	entries, err := os.ReadDir(rulesCorpus)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no rules corpus in %s: %v", rulesCorpus, err)
	}
	var out []ruleCase
	for _, e := range entries {
		c := ruleCase{files: map[string]string{}}
		p := filepath.Join(rulesCorpus, e.Name())
		switch {
		case e.IsDir():
			err := filepath.WalkDir(p, func(q string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(q)
				rel, _ := filepath.Rel(p, q)
				c.files[filepath.ToSlash(rel)] = string(b)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []string{"pipeline.yaml", "stack.yaml"} {
				if _, ok := c.files[m]; ok {
					c.main, c.file = m, filepath.Join(p, m)
				}
			}
			if c.main == "" {
				t.Errorf("%s: a folder case needs a pipeline.yaml or a stack.yaml", p)
				continue
			}
		case strings.HasSuffix(e.Name(), ".yaml"):
			b, _ := os.ReadFile(p)
			c.main, c.file = e.Name(), p
			c.files[c.main] = string(b)
		default:
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(c.files[c.main]))
		for sc.Scan() {
			line := sc.Text()
			if m := ruleRe.FindStringSubmatch(line); m != nil {
				c.rules = append(c.rules, m[1])
			} else if m := wantRe.FindStringSubmatch(line); m != nil {
				ln, _ := strconv.Atoi(m[2])
				col, _ := strconv.Atoi(m[3])
				file := c.main
				if ln == 0 {
					file = "" // a run's diagnostic, of no file
				}
				c.want = append(c.want, D(file, ln, col, m[1], m[4]))
			} else if v, ok := strings.CutPrefix(line, "# laktory: "); ok {
				c.laktory = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "# run: "); ok {
				c.run = strings.TrimSpace(v)
			}
		}
		if len(c.rules) == 0 || !slices.Contains([]string{"load", "run", "run-spark"}, c.laktory) {
			t.Errorf("%s: needs `# rule: ID` lines and `# laktory: load|run|run-spark`", c.file)
		}
		out = append(out, c)
	}
	return out
}

// runRequest reads a case's `# run:` arguments: the refresh, the
// reset_mode, the parameters and the selected nodes (names, in every
// pipeline of the case).
func (c ruleCase) runRequest() (RunRequest, map[string]string, []string, bool) {
	if c.run == "" {
		return RunRequest{}, nil, nil, false
	}
	var req RunRequest
	var selects []string
	params := map[string]string{}
	for _, part := range strings.Fields(c.run) {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "refresh":
			req.Refresh = v
		case "reset_mode":
			req.ResetMode = v
		case "selects":
			selects = strings.Split(v, ",")
		case "params":
			for _, p := range strings.Split(v, ",") {
				if pk, pv, ok := strings.Cut(p, "="); ok {
					params[pk] = pv
				}
			}
		}
	}
	return req, params, selects, true
}

// TestLaktoryRulesCorpus: each workspace of the rules corpus gives exactly
// its `# want:` diagnostics (with its `# run:` arguments, the run's
// parameter checks too), and every rule the table maps to a code has a
// workspace giving one of them (or names the test that covers it: "tested
// by TestX").
func TestLaktoryRulesCorpus(t *testing.T) {
	cases := readRulesCorpus(t)
	covered := map[string][]string{} // rule -> codes its workspaces give
	for _, c := range cases {
		t.Run(strings.TrimPrefix(filepath.ToSlash(c.file), rulesCorpus+"/"), func(t *testing.T) {
			req, params, selects, hasRun := c.runRequest()
			s := workspacetest.Load(t, c.files, workspace.Options{Params: params})
			ds := Check(s, Options{})
			if len(selects) > 0 {
				req.Selection = map[string][]string{}
				for _, p := range s.Pipelines {
					req.Selection[p.Name] = selects
				}
			}
			if hasRun {
				_, rds := RunParameters(s, req)
				ds = append(ds, rds...)
			}
			if *printRules {
				for _, d := range ds {
					t.Logf("# want: %s %d:%d %s", d.Code, d.Line, d.Col, d.Message)
				}
			}
			workspacetest.Expect(t, s, ds, c.want)
		})
		for _, r := range c.rules {
			for _, w := range c.want {
				covered[r] = append(covered[r], w.Code)
			}
		}
	}
	tests := testNames(t)
	for _, row := range readRuleTable(t) {
		codes := codeRe.FindAllString(row.Here, -1)
		if !strings.HasPrefix(row.Here, "LK") || len(codes) == 0 {
			continue
		}
		if m := testedByRe.FindStringSubmatch(row.Here); m != nil {
			if !tests[m[1]] {
				t.Errorf("%s:%d: %s is %q, but no test is named %s", rulesDoc, row.Line, row.ID, row.Here, m[1])
			}
			continue
		}
		if !slices.ContainsFunc(codes, func(c string) bool { return slices.Contains(covered[row.ID], c) }) {
			t.Errorf("%s:%d: %s maps to %s, but no workspace of %s names it (`# rule: %s`) and gives that code", rulesDoc, row.Line, row.ID, strings.Join(codes, ", "), rulesCorpus, row.ID)
		}
	}
}

// testNames lists the Test functions of the repository's test files.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	out := map[string]bool{}
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != ".." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				out[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// literalParts are the fixed parts of a Laktory message as its source
// writes it (an f-string's text between its {...} fields), longest first.
func literalParts(msg string) []string {
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "f'"), `f"`)
	msg = strings.TrimSuffix(strings.TrimSuffix(msg, "'"), `"`)
	var parts []string
	var cur strings.Builder
	flush := func() {
		if p := strings.TrimSpace(cur.String()); len(p) >= 12 {
			parts = append(parts, p)
		}
		cur.Reset()
	}
	depth := 0
	for i := 0; i < len(msg); i++ {
		switch {
		case depth == 0 && strings.HasPrefix(msg[i:], "{{"), depth == 0 && strings.HasPrefix(msg[i:], "}}"):
			cur.WriteByte(msg[i]) // an f-string's literal brace
			i++
		case msg[i] == '{':
			if depth == 0 {
				flush()
			}
			depth++
		case msg[i] == '}' && depth > 0:
			depth--
		case depth == 0:
			cur.WriteByte(msg[i])
		}
	}
	flush()
	slices.SortFunc(parts, func(a, b string) int { return len(b) - len(a) })
	return parts
}

// TestLaktoryRulesParity loads each workspace of the rules corpus with
// Laktory 0.13.1 (scripts/interop/laktory_rules.py): a `load` case must be
// refused at load and a `run` case loaded and then refused by its run, each
// with the message of every rule it names.
func TestLaktoryRulesParity(t *testing.T) {
	py := interopPython(t)
	cases := readRulesCorpus(t)
	byID := map[string]laktoryRule{}
	for _, r := range readLaktoryRules(t).Rules {
		byID[r.ID] = r
	}
	args := []string{filepath.Join("..", "scripts", "interop", "laktory_rules.py")}
	for _, c := range cases {
		args = append(args, c.file)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, args...)
	cmd.Stderr = nil
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("laktory_rules.py: %v", err)
	}
	type verdict struct {
		File      string `json:"file"`
		Load      string `json:"load"`
		LoadError string `json:"load_error"`
		Run       string `json:"run"`
		RunError  string `json:"run_error"`
	}
	got := map[string]verdict{}
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "{") {
			continue // what Laktory prints
		}
		var v verdict
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got[v.File] = v
	}
	agree, spark := 0, 0
	for _, c := range cases {
		v, ok := got[c.file]
		if !ok {
			t.Errorf("%s: no verdict from Laktory", c.file)
			continue
		}
		said := v.LoadError
		switch {
		case c.laktory == "load" && v.Load != "reject":
			t.Errorf("%s: Laktory loads it; the case says Laktory refuses it at load", c.file)
			continue
		case c.laktory != "load" && v.Load != "accept":
			t.Errorf("%s: Laktory refuses it at load (%s); the case says at run", c.file, firstLine(v.LoadError))
			continue
		case c.laktory == "run" && v.Run != "error":
			t.Errorf("%s: Laktory runs it (%s); the case says its run fails", c.file, v.Run)
			continue
		case c.laktory == "run":
			said = v.RunError
		case c.laktory == "run-spark":
			spark++ // Laktory loads it; its run needs Spark (the opt-in checks)
			continue
		}
		ok = true
		for _, id := range c.rules {
			r, known := byID[id]
			if !known {
				t.Errorf("%s: names %s, which is not a rule of %s", c.file, id, rulesJSON)
				ok = false
				continue
			}
			parts := literalParts(r.Message)
			if len(parts) > 0 && !strings.Contains(said, parts[0]) {
				t.Errorf("%s: Laktory does not say %s's message (%q):\n%s", c.file, id, parts[0], said)
				ok = false
			}
		}
		if ok {
			agree++
		}
	}
	t.Logf("%d of %d workspaces: refused by Laktory 0.13.1 as the cases say, with the rules' messages; %d loaded by Laktory and refused by its run on Spark (not run here)", agree, len(cases), spark)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return fmt.Sprint(s)
}
