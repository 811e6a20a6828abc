package runner

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// The refresh property test: random sequences of INCREMENTAL, FULL, RESET
// and RESET with DROP or TRUNCATE runs over random subsets of the writers
// of two shared tables (one owned by a writer column, one by `where`), in
// two pipelines, with new files landing between runs. A model says what
// each writer's rows must be after each run; the table must hold exactly
// them (no loss, no duplicate), and each run's warnings must name exactly
// the writers it leaves needing a FULL refresh. A final normal run of
// every writer must leave each writer's rows as the model says too.
var (
	propSeeds = flag.Int("refresh.seeds", 3, "refresh property test: how many random sequences (fixed seeds 1..N unless -refresh.random)")
	propRuns  = flag.Int("refresh.runs", 10, "refresh property test: runs per sequence")
	propRand  = flag.Bool("refresh.random", false, "refresh property test: random seeds (printed, for -refresh.seed)")
	propSeed  = flag.Uint64("refresh.seed", 0, "refresh property test: run this one seed")
)

// propWriter is a writer of the property test's workspace.
type propWriter struct {
	pipeline, node, table string
}

func (w propWriter) key() string { return w.pipeline + "." + w.node }

var propWriters = []propWriter{
	{"p1", "a1", "t_col"}, {"p1", "c1", "t_col"}, {"p1", "b1", "t_where"},
	{"p2", "a2", "t_col"}, {"p2", "b2", "t_where"},
}

// propFiles is the workspace: each writer streams its own folder into its
// table; the where writers own the rows whose src is their node.
func propFiles() map[string]string {
	files := map[string]string{}
	for _, p := range []string{"p1", "p2"} {
		var b strings.Builder
		fmt.Fprintf(&b, "name: %s\n", p)
		if p == "p2" {
			// b2 owns its rows through a parameter (its default).
			b.WriteString("parameters:\n  own: {default: \"src = 'b2'\"}\n")
		}
		b.WriteString("nodes:\n")
		for _, w := range propWriters {
			if w.pipeline != p {
				continue
			}
			shared := "true"
			switch {
			case w.node == "b2":
				shared = `{where: "${params.own}"}`
			case w.table == "t_where":
				shared = fmt.Sprintf("{where: \"src = '%s'\"}", w.node)
			}
			fmt.Fprintf(&b, `- name: %s
  sources:
  - path: ../data/%s/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 2}
  sinks:
  - table_name: %s
    mode: APPEND
    shared: %s
`, w.node, w.node, w.table, shared)
		}
		files["pipelines/"+p+".yaml"] = b.String()
	}
	return files
}

// propModel is what each writer's rows and checkpoint must be.
type propModel struct {
	files map[string][]int       // writer -> its landed files
	rows  map[string]map[int]int // writer -> file -> copies in the table
	cp    map[string]map[int]bool
}

func (m *propModel) clearRows(w string) { m.rows[w] = map[int]int{} }
func (m *propModel) clearCP(w string)   { m.cp[w] = map[int]bool{} }

func (m *propModel) process(w string) {
	for _, f := range m.files[w] {
		if !m.cp[w][f] {
			m.rows[w][f]++
			m.cp[w][f] = true
		}
	}
}

// apply runs a request on the model and returns the writers the run
// leaves needing a FULL refresh.
func (m *propModel) apply(req Request) []string {
	sel := map[string]bool{}
	inRun := map[string]bool{}
	for _, w := range propWriters {
		if slices.Contains(req.Selectors, w.node) {
			sel[w.key()], inRun[w.pipeline] = true, true
		}
	}
	var needFull []string
	switch {
	case req.Refresh == "":
		for w := range sel {
			m.process(w)
		}
	case req.Refresh == validate.RefreshFull:
		for w := range sel {
			m.clearRows(w)
			m.clearCP(w)
			m.process(w)
		}
	case req.ResetMode == "":
		for w := range sel {
			m.clearRows(w)
			m.clearCP(w)
		}
	default: // the whole tables of the selected writers
		tables := map[string]bool{}
		for _, w := range propWriters {
			if sel[w.key()] {
				tables[w.table] = true
			}
		}
		for _, w := range propWriters {
			if !tables[w.table] {
				continue
			}
			m.clearRows(w.key())
			if inRun[w.pipeline] {
				m.clearCP(w.key())
			} else {
				needFull = append(needFull, w.key())
			}
		}
	}
	sort.Strings(needFull)
	return needFull
}

func TestRefreshProperty(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a few dozen refreshes")
	}
	seeds := make([]uint64, 0, *propSeeds)
	switch {
	case *propSeed != 0:
		seeds = append(seeds, *propSeed)
	case *propRand:
		for range *propSeeds {
			seeds = append(seeds, uint64(time.Now().UnixNano())+uint64(len(seeds)))
		}
	default:
		for i := range *propSeeds {
			seeds = append(seeds, uint64(i+1))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Parallel()
			propSequence(t, seed, *propRuns, nil)
		})
	}
}

// TestRefreshPropertyOverlap: the refused-overlap branch of the property
// test, deterministically (the random sequences take it only when a FULL
// refresh of b2 comes after b1 has rows, and then one time in two): a
// scripted start (every writer runs, then a FULL refresh of b2, planned
// with the overlapping parameter too) followed by seed 1's random runs.
// Start must refuse the overlapping plan once, naming b1's rows, and the
// sequence must hold the model throughout.
func TestRefreshPropertyOverlap(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a dozen refreshes")
	}
	var all Request
	for _, pw := range propWriters {
		all.Selectors = append(all.Selectors, pw.node)
	}
	script := []Request{all, {Refresh: "FULL", Selectors: []string{"b2"}}}
	if refused := propSequence(t, 1, 3, script); refused != 1 {
		t.Fatalf("the overlapping FULL refresh of b2 was refused %d times, want 1", refused)
	}
}

// propSequence runs the scripted requests, then runs random ones
// (reproduce them with -refresh.seed), and returns how many overlapping
// plans Start refused (a scripted FULL refresh of b2 always tries one).
func propSequence(t *testing.T, seed uint64, runs int, script []Request) int {
	rng := rand.New(rand.NewPCG(seed, 0x1a2b))
	w := newWS(t, propFiles())
	r := testRunner(t)
	snap := w.load()
	m := &propModel{files: map[string][]int{}, rows: map[string]map[int]int{}, cp: map[string]map[int]bool{}}
	next := 0
	land := func(pw propWriter) {
		f := next
		next++
		path := fmt.Sprintf("data/%s/%03d.jsonl", pw.node, f)
		w.write(map[string]string{path: jsonl(fmt.Sprintf("%s-%d", pw.node, f), 0, 1+f%3, fmt.Sprintf(`, "src": "%s"`, pw.node))})
		// Files land in order: each new one is the newest.
		touch(t, filepath.Join(w.dir, path), time.Now().Add(time.Duration(f-1000)*time.Second))
		m.files[pw.key()] = append(m.files[pw.key()], f)
	}
	for _, pw := range propWriters {
		m.clearRows(pw.key())
		m.clearCP(pw.key())
		land(pw)
	}
	refreshes := []Request{{}, {Refresh: "FULL"}, {Refresh: "RESET"}, {Refresh: "RESET", ResetMode: "DROP"}, {Refresh: "RESET", ResetMode: "TRUNCATE"}}
	var trail []string
	refused := 0
	for i := range len(script) + runs {
		for _, pw := range propWriters {
			if rng.IntN(3) == 0 {
				land(pw)
			}
		}
		var req Request
		overlap := false
		if i < len(script) {
			req = script[i]
			overlap = req.Refresh == "FULL" && slices.Contains(req.Selectors, "b2")
		} else {
			req = refreshes[rng.IntN(len(refreshes))]
			for _, pw := range propWriters {
				if rng.IntN(2) == 0 {
					req.Selectors = append(req.Selectors, pw.node)
				}
			}
			if len(req.Selectors) == 0 {
				req.Selectors = []string{propWriters[rng.IntN(len(propWriters))].node}
			}
			overlap = req.Refresh == "FULL" && slices.Contains(req.Selectors, "b2") && rng.IntN(2) == 0
		}
		trail = append(trail, fmt.Sprintf("%s%s %v", req.Refresh, resetSuffix(req.ResetMode), req.Selectors))
		if overlap && propOverlap(t, r, w, m, snap, req, trail[i]) {
			refused++
		}
		want := m.apply(req)
		o := mustRun(t, r, snap, req)
		if got := fullRefreshNamed(o.sum.Warnings); !slices.Equal(got, want) {
			t.Fatalf("seed %d, run %d (%s): warnings name %v as needing a FULL refresh, want %v:\n%s\nruns: %s",
				seed, i+1, trail[i], got, want, strings.Join(o.sum.Warnings, "\n"), strings.Join(trail, "; "))
		}
		propCheck(t, r, w, m, fmt.Sprintf("seed %d, after run %d (%s); runs: %s", seed, i+1, trail[i], strings.Join(trail, "; ")))
	}
	all := Request{}
	for _, pw := range propWriters {
		all.Selectors = append(all.Selectors, pw.node)
	}
	m.apply(all)
	mustRun(t, r, snap, Request{})
	propCheck(t, r, w, m, fmt.Sprintf("seed %d, after the final normal run; runs: %s", seed, strings.Join(trail, "; ")))
	return refused
}

// propOverlap plans req with b2's predicate from a parameter that the
// prover cannot decide and that also matches b1's rows (k LIKE 'b1-%'):
// the plan names b1's rows exactly when b1 has some, and Start refuses it
// then, changing nothing. It reports whether Start refused.
func propOverlap(t *testing.T, r *Runner, w *ws, m *propModel, snap *workspace.Snapshot, req Request, when string) bool {
	t.Helper()
	ps, err := workspace.WithParams(t.Context(), snap, map[string]string{"own": "src = 'b2' OR k LIKE 'b1-%'"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(t.Context(), ps, req)
	if err != nil {
		t.Fatalf("%s with the overlapping parameter: %v", when, err)
	}
	b1 := 0
	for f, copies := range m.rows["p1.b1"] {
		b1 += copies * (1 + f%3)
	}
	var named int64
	for _, e := range plan.Overlapping() {
		for _, o := range e.Overlaps {
			if o.Writer == "p1.b1" {
				named += o.Rows
			}
		}
	}
	if named != int64(b1) {
		t.Fatalf("%s with the overlapping parameter: the plan names %d rows of p1.b1, it has %d", when, named, b1)
	}
	if b1 == 0 {
		t.Logf("%s: p1.b1 has no rows, nothing overlaps", when)
		return false
	}
	if _, err := r.Start(t.Context(), plan); !errors.Is(err, ErrOverlap) {
		t.Fatalf("%s with the overlapping parameter: Start: %v", when, err)
	}
	t.Logf("%s: refused, the parameter would delete %d rows of p1.b1", when, b1)
	propCheck(t, r, w, m, when+", refused for the overlapping parameter")
	return true
}

// fullRefreshNamed returns the writers (pipeline.node) the warnings say
// need a FULL refresh.
func fullRefreshNamed(warnings []string) []string {
	var out []string
	for _, msg := range warnings {
		if !strings.Contains(msg, "need a FULL refresh") {
			continue
		}
		for _, pw := range propWriters {
			if strings.Contains(msg, pw.key()) && !slices.Contains(out, pw.key()) {
				out = append(out, pw.key())
			}
		}
	}
	sort.Strings(out)
	return out
}

// propCheck compares each writer's rows (count and distinct keys) with the
// model.
func propCheck(t *testing.T, r *Runner, w *ws, m *propModel, when string) {
	t.Helper()
	for _, table := range []string{"t_col", "t_where"} {
		got := map[string]string{}
		if s, err := loadTable(t.Context(), w.table(table)); err != nil {
			t.Fatal(err)
		} else if s != nil {
			owner := "_laktory_writer"
			if table == "t_where" {
				owner = "src"
			}
			for _, row := range query(t, r, w.table(table), "SELECT "+owner+", count(*), count(DISTINCT k) FROM t GROUP BY 1") {
				got[row[0]] = row[1] + "/" + row[2]
			}
		}
		want := map[string]string{}
		for _, pw := range propWriters {
			if pw.table != table {
				continue
			}
			n, d := 0, 0
			for f, copies := range m.rows[pw.key()] {
				rows := 1 + f%3
				n, d = n+copies*rows, d+rows
			}
			id := pw.key()
			if table == "t_where" {
				id = pw.node
			}
			if n > 0 {
				want[id] = fmt.Sprintf("%d/%d", n, d)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: %s rows/distinct keys per writer %v, want %v", when, table, got, want)
		}
	}
}
