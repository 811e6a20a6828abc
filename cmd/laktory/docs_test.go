package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The README is the entrance and docs/ the reference (docs/development.md,
// "Documentation"). These tests keep both current: the pages are linked,
// links lead somewhere, the commands table names real commands and flags,
// and the shared-sink example does what the README says.

const repoRoot = "../.."

// readmeLimit is the README's size budget: an entrance, not the reference.
const readmeLimit = 350

func readDoc(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docPages lists the pages of docs/, relative to the repository root.
func docPages(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no docs pages (%v)", err)
	}
	var pages []string
	for _, p := range m {
		rel, _ := filepath.Rel(repoRoot, p)
		pages = append(pages, filepath.ToSlash(rel))
	}
	sort.Strings(pages)
	return pages
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// links returns the targets of a page's Markdown links outside code blocks.
// codeSpan is an inline code span: Markdown renders no link inside one
// (`CHAR[ACTER] [VARYING](n)` is a type name, not a link to n).
var codeSpan = regexp.MustCompile("`[^`]*`")

func links(doc string) []string {
	var out []string
	inCode := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, "``"), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// anchors returns the heading anchors of a Markdown page as GitHub makes
// them: lower case, spaces to hyphens, punctuation other than - and _ dropped.
func anchors(doc string) map[string]bool {
	out := map[string]bool{}
	inCode := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// TestDocsLinked: every page of docs/ is linked from the README and from
// the docs index, and every relative link (and #anchor) of the README and
// the pages leads to a file (and heading) that exists.
func TestDocsLinked(t *testing.T) {
	readme := readDoc(t, "README.md")
	index := readDoc(t, "docs/README.md")
	linked := func(doc, base string) map[string]bool {
		m := map[string]bool{}
		for _, l := range links(doc) {
			p := strings.SplitN(l, "#", 2)[0]
			if p != "" && !strings.Contains(p, "://") {
				m[filepath.ToSlash(filepath.Clean(filepath.Join(base, p)))] = true
			}
		}
		return m
	}
	fromReadme, fromIndex := linked(readme, "."), linked(index, "docs")
	for _, p := range docPages(t) {
		if p == "docs/README.md" {
			if !fromReadme[p] {
				t.Errorf("README.md does not link the docs index %s", p)
			}
			continue
		}
		if !fromReadme[p] {
			t.Errorf("README.md does not link %s (each docs page is linked from the README)", p)
		}
		if !fromIndex[p] {
			t.Errorf("docs/README.md does not list %s (each docs page is in the index)", p)
		}
	}
	for _, page := range append([]string{"README.md"}, docPages(t)...) {
		doc := readDoc(t, page)
		for _, l := range links(doc) {
			if strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:") {
				continue
			}
			target, frag, _ := strings.Cut(l, "#")
			file := page
			if target != "" {
				file = filepath.ToSlash(filepath.Join(filepath.Dir(page), target))
				if _, err := os.Stat(filepath.Join(repoRoot, file)); err != nil {
					t.Errorf("%s links %s, which does not exist", page, l)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(file, ".md") && !anchors(readDoc(t, file))[frag] {
				t.Errorf("%s links %s: %s has no heading #%s", page, l, file, frag)
			}
		}
	}
}

// TestReadmeEntrance: the README stays an entrance (under readmeLimit
// lines) and keeps its two commands, which must work on a fresh checkout.
func TestReadmeEntrance(t *testing.T) {
	readme := readDoc(t, "README.md")
	if n := strings.Count(readme, "\n"); n >= readmeLimit {
		t.Errorf("README.md has %d lines, the budget is under %d: move reference text to a docs/ page", n, readmeLimit)
	}
	for _, cmd := range []string{"go run ./cmd/laktory tui --demo", "./scripts/test.sh"} {
		if !strings.Contains(readme, "```sh\n"+cmd+"\n```") {
			t.Errorf("README.md lost its command %q (a sh block of its own)", cmd)
		}
	}
	if st, err := os.Stat(filepath.Join(repoRoot, "scripts", "test.sh")); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("scripts/test.sh is missing or not executable (%v)", err)
	}
	c, _, err := testRoot().Find([]string{"tui"})
	if err != nil || c.Name() != "tui" || c.Flags().Lookup("demo") == nil {
		t.Errorf("laktory tui --demo, the README's first command, does not exist (%v)", err)
	}
}

func testRoot() *cobra.Command {
	a := &app{ctx: context.Background(), stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	return a.rootCommand()
}

var (
	commandRow  = regexp.MustCompile("^\\| `laktory ([^`]*)`([^|]*)\\|")
	commandWord = regexp.MustCompile(`^[a-z][a-z-]*$`)
	flagName    = regexp.MustCompile(`--([a-z][a-z-]*)`)
)

// TestReadmeCommands: the README's commands table has a row for every
// command, and each row shows exactly the command's flags (--help aside).
// A row may say "(the flags of `run` but ...)": run's row, less those.
func TestReadmeCommands(t *testing.T) {
	root := testRoot()
	rows := map[string][]string{} // command path -> flags its row shows
	for _, line := range strings.Split(readDoc(t, "README.md"), "\n") {
		m := commandRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		args := []string{}
		for _, f := range strings.Fields(m[1]) {
			if !commandWord.MatchString(f) {
				break
			}
			args = append(args, f)
		}
		c, rest, err := root.Find(args)
		if err != nil || len(rest) > 0 || c == root {
			t.Errorf("commands table: laktory %s is not a command (row %q)", m[1], line)
			continue
		}
		var flags []string
		for _, f := range flagName.FindAllStringSubmatch(m[1], -1) {
			flags = append(flags, f[1])
		}
		if _, but, ok := strings.Cut(m[2], "the flags of `run`"); ok {
			drop := map[string]bool{}
			for _, f := range flagName.FindAllStringSubmatch(but, -1) {
				drop[f[1]] = true
			}
			run, ok := rows["laktory run"]
			if !ok {
				t.Fatalf("commands table: %q refers to run's flags before run's row", line)
			}
			for _, f := range run {
				if !drop[f] {
					flags = append(flags, f)
				}
			}
		}
		rows[c.CommandPath()] = flags
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			if sub.HasSubCommands() {
				walk(sub)
				continue
			}
			shown, ok := rows[sub.CommandPath()]
			if !ok {
				t.Errorf("README.md's commands table has no row for %s", sub.CommandPath())
				continue
			}
			want := map[string]bool{}
			sub.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Name != "help" && !f.Hidden {
					want[f.Name] = true
				}
			})
			for _, f := range shown {
				if !want[f] {
					t.Errorf("commands table: %s has no flag --%s", sub.CommandPath(), f)
				}
				delete(want, f)
			}
			for f := range want {
				t.Errorf("commands table: the row of %s does not show its flag --%s", sub.CommandPath(), f)
			}
		}
	}
	walk(root)
}

// sharedSinkExample is the workspace of the README's shared-sink example.
const sharedSinkExample = "docs/examples/shared-sink"

// readmeBlocks returns the README's fenced blocks of a language whose first
// line is "# NAME": NAME -> the block without that line.
func readmeBlocks(readme, lang string) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(readme))
	var name string
	var body []string
	in := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && line == "```"+lang:
			in, name, body = true, "", nil
		case in && line == "```":
			in = false
			if name != "" {
				out[name] = strings.Join(body, "\n") + "\n"
			}
		case in && name == "" && len(body) == 0 && strings.HasPrefix(line, "# "):
			name = strings.TrimPrefix(line, "# ")
		case in:
			body = append(body, line)
		}
	}
	return out
}

// readmePlan returns the block the README shows after <!-- plan:KEY -->.
func readmePlan(t *testing.T, readme, key string) string {
	t.Helper()
	marker := "<!-- plan:" + key + " -->\n```\n"
	i := strings.Index(readme, marker)
	if i < 0 {
		t.Fatalf("README.md has no %q block", strings.TrimSpace(marker))
	}
	rest := readme[i+len(marker):]
	j := strings.Index(rest, "```")
	return rest[:j]
}

// TestReadmeSharedSinkExample: the README shows the example workspace's
// pipelines as they are; they validate here and load in Laktory; the plans
// the README prints are what `laktory plan` prints; and a FULL refresh of
// one writer deletes exactly its rows, in a commit of its own, leaving the
// other writers' rows as they were.
func TestReadmeSharedSinkExample(t *testing.T) {
	readme := readDoc(t, "README.md")
	blocks := readmeBlocks(readme, "yaml")
	files, _ := filepath.Glob(filepath.Join(repoRoot, sharedSinkExample, "pipelines", "*.yaml"))
	if len(files) == 0 {
		t.Fatalf("no pipelines in %s", sharedSinkExample)
	}
	for _, f := range files {
		name := "pipelines/" + filepath.Base(f)
		b, _ := os.ReadFile(f)
		if got, ok := blocks[name]; !ok {
			t.Errorf("README.md does not show %s/%s (a yaml block starting with # %s)", sharedSinkExample, name, name)
		} else if got != string(b) {
			t.Errorf("README.md's %s differs from %s/%s:\nREADME:\n%s\nfile:\n%s", name, sharedSinkExample, name, got, b)
		}
	}

	dir := t.TempDir()
	copyOver(t, dir, filepath.Join(repoRoot, sharedSinkExample))
	os.RemoveAll(filepath.Join(dir, ".laktory")) // a copy of a folder someone ran in
	if code, out, errs := runCLI(t, nil, "validate", dir); code != ExitOK || !strings.Contains(out, "no problems") {
		t.Fatalf("the example does not validate cleanly: code %d\n%s%s", code, out, errs)
	}
	t.Run("laktory loads it", func(t *testing.T) {
		py := laktoryPython(t)
		args := append([]string{filepath.Join(repoRoot, "scripts", "interop", "laktory_load.py")}, files...)
		out, err := exec.Command(py, args...).Output()
		if err != nil {
			t.Fatalf("laktory_load.py: %v", err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var v struct{ File, Verdict, Error string }
			if json.Unmarshal([]byte(line), &v) != nil || v.Verdict != "accept" {
				t.Errorf("Laktory 0.13.1 does not load the example: %s", line)
			}
		}
	})

	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("first run: code %d\n%s%s", code, out, errs)
	}
	count := func(table, column string) map[string]int {
		t.Helper()
		code, out, errs := runCLI(t, nil, "table", "scan", table, "--dir", dir, "--json", "--columns", column)
		if code != ExitOK {
			t.Fatalf("scan %s: code %d: %s", table, code, errs)
		}
		n := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var row map[string]any
			if json.Unmarshal([]byte(line), &row) == nil {
				b, _ := json.Marshal(row[column])
				n[string(b)]++
			}
		}
		return n
	}
	prices, orders := count("prices", "_laktory_writer"), count("all_orders", "client_id")
	if want := `map["pl-prices.feed_a":3 "vendor_b":2]`; fmtCounts(prices) != want {
		t.Fatalf("prices per writer after the first run: %s, want %s (README: 5 prices)", fmtCounts(prices), want)
	}
	if want := `map[1:2 2:3]`; fmtCounts(orders) != want {
		t.Fatalf("orders per client after the first run: %s, want %s (README: 5 orders)", fmtCounts(orders), want)
	}

	for _, tc := range []struct {
		key, table, column string
		args               []string
	}{
		{"pl-prices.feed_a", "prices", "_laktory_writer", []string{"--select", "pl-prices.feed_a"}},
		{"pl-orders-acme", "all_orders", "client_id", []string{"--pipeline", "pl-orders-acme"}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			code, out, errs := runCLI(t, nil, append([]string{"plan", dir, "--full-refresh"}, tc.args...)...)
			if code != ExitOK {
				t.Fatalf("plan: code %d\n%s%s", code, out, errs)
			}
			if want := readmePlan(t, readme, tc.key); out != want {
				t.Errorf("README.md shows for %s:\n%s\nlaktory plan prints:\n%s", tc.key, want, out)
			}
			before := count(tc.table, tc.column)
			code, out, errs = runCLI(t, nil, append([]string{"run", dir, "--full-refresh", "--yes", "--json"}, tc.args...)...)
			var res runResult
			if code != ExitOK || json.Unmarshal([]byte(out), &res) != nil {
				t.Fatalf("FULL refresh: code %d\n%s%s", code, out, errs)
			}
			if after := count(tc.table, tc.column); fmtCounts(after) != fmtCounts(before) {
				t.Errorf("rows per writer of %s: %s before the FULL refresh of %s, %s after", tc.table, fmtCounts(before), tc.key, fmtCounts(after))
			}
			code, out, errs = runCLI(t, nil, "table", "log", tc.table, "--dir", dir, "--json")
			var log []struct{ Operation string }
			if code != ExitOK || json.Unmarshal([]byte(out), &log) != nil || len(log) < 2 {
				t.Fatalf("table log: code %d\n%s%s", code, out, errs)
			}
			if log[1].Operation != "DELETE" || log[0].Operation == "DELETE" {
				t.Errorf("the FULL refresh of %s committed %s then %s, want a DELETE then the new rows (newest first: %v)", tc.key, log[1].Operation, log[0].Operation, log)
			}
		})
	}
}

func fmtCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("map[")
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + ":" + itoa(m[k]))
	}
	b.WriteString("]")
	return b.String()
}

// TestLinksSkipCode: links inside fenced blocks and inline code spans are
// not links; the others are found.
func TestLinksSkipCode(t *testing.T) {
	doc := "see [a](a.md) and `CHAR [VARYING](n)`\n```\n[b](b.md)\n```\n[c](c.md#x)"
	if got := fmt.Sprint(links(doc)); got != "[a.md c.md#x]" {
		t.Fatalf("links = %s", got)
	}
}
