package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// TestRunTouchesNothingOutside: paths that name the workspace itself, a
// folder above it or an outside folder are refused (by validation, and by
// the run's guard), and nothing there is removed or emptied.
func TestRunTouchesNothingOutside(t *testing.T) {
	tests := []struct {
		name    string
		sink    string
		refresh string
		stream  bool
	}{
		{"file sink OVERWRITE at the workspace", "  - path: ..\n    format: CSV\n    mode: OVERWRITE\n", "", false},
		{"file sink OVERWRITE outside", "  - path: ../../outside\n    format: CSV\n    mode: OVERWRITE\n", "", false},
		{"file sink APPEND outside", "  - path: ../../outside\n    format: CSV\n    mode: APPEND\n", "", false},
		{"file sink FULL refresh outside", "  - path: ../../outside\n    format: CSV\n    mode: APPEND\n", validate.RefreshFull, false},
		{"Delta path sink outside", "  - path: ../../outside\n    format: DELTA\n    mode: APPEND\n", validate.RefreshFull, false},
		{"checkpoint_path at the workspace", "  - table_name: t\n    mode: APPEND\n    checkpoint_path: ..\n", validate.RefreshFull, true},
		{"checkpoint_path outside", "  - table_name: t\n    mode: APPEND\n    checkpoint_path: ../../outside\n", validate.RefreshFull, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "ws")
			outside := filepath.Join(base, "outside")
			os.MkdirAll(outside, 0o755)
			keep := filepath.Join(outside, "keep.txt")
			os.WriteFile(keep, []byte("x"), 0o644)
			w := &ws{t: t, dir: dir}
			stream := ""
			if tt.stream {
				stream = "    as_stream: true\n"
			}
			os.MkdirAll(dir, 0o755)
			w.write(map[string]string{
				"pipelines/p.yaml": "name: p\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n" + stream + "  sinks:\n" + tt.sink,
				"data/1.jsonl":     jsonl("a", 0, 3, ""),
			})
			marks := []string{keep, filepath.Join(dir, "pipelines", "p.yaml"), filepath.Join(dir, "data", "1.jsonl")}
			r := testRunner(t)
			// A first run, then the refresh: at least one of them must fail.
			failed := false
			for _, req := range []Request{{}, {Refresh: tt.refresh}} {
				failed = failed || refused(t, r, w, req)
				if tt.refresh == "" {
					break
				}
			}
			if !failed {
				t.Error("the runs succeeded")
			}
			for _, m := range marks {
				if _, err := os.Stat(m); err != nil {
					t.Errorf("%s is gone: %v", m, err)
				}
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Errorf("the outside folder holds %d entries, want only keep.txt", len(entries))
			}
		})
	}
}

// TestRunRefusesSymlinkedTable: validation refuses a table folder that is
// a symbolic link out of the roots; one replaced by such a link after the
// run was planned is neither appended to, truncated nor dropped (the run's
// guard).
func TestRunRefusesSymlinkedTable(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/p.yaml": "name: p\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n  sinks:\n  - table_name: t\n    mode: APPEND\n",
		"data/1.jsonl":     jsonl("a", 0, 3, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	table := w.table("t")
	before, err := delta.LoadSnapshot(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	reqs := []Request{
		{},
		{Refresh: validate.RefreshReset, ResetMode: "TRUNCATE"},
		{Refresh: validate.RefreshReset, ResetMode: "DROP"},
		{Refresh: validate.RefreshFull},
	}
	var plans []*Plan
	for _, req := range reqs {
		plan, err := r.Plan(context.Background(), w.load(), req)
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, plan)
	}
	outside := filepath.Join(t.TempDir(), "t")
	if err := os.Rename(table, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, table); err != nil {
		t.Fatal(err)
	}
	for i, plan := range plans {
		o := start(t, r, plan)
		if got := taskSum(t, o.sum, "p.n").Err; !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(got, "outside the allowed roots") {
			t.Fatalf("%+v: %v, task error %q", reqs[i], o.err, got)
		}
		if !refused(t, r, w, reqs[i]) {
			t.Fatalf("%+v: a new plan ran", reqs[i])
		}
	}
	s, err := delta.LoadSnapshot(context.Background(), outside)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != before.Version() {
		t.Fatalf("the outside table is at version %d, want %d (untouched)", s.Version(), before.Version())
	}
}

// TestRunRefusesNamesThatArePaths: catalog_name and schema_name are
// identifiers, never path segments. `catalog_name: ../../x` would put the
// table in the workspace outside the lake (where the run's guard allows
// it), `schema_name: "."` with `table_name: default` would make the table
// the schema folder, whose DROP removes every table of the schema: every
// refresh of them is refused (LK050), and nothing is created or changed.
func TestRunRefusesNamesThatArePaths(t *testing.T) {
	sink := func(lines string) string {
		return "name: bad\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n  sinks:\n" + lines
	}
	tests := []struct{ name, sink string }{
		{"catalog_name out of the lake", "  - table_name: t\n    catalog_name: ../../x\n    mode: APPEND\n"},
		{"schema_name dot on the schema folder", "  - table_name: default\n    schema_name: \".\"\n    mode: APPEND\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{
				"pipelines/keep.yaml": "name: keep\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n  sinks:\n  - table_name: keep\n    mode: APPEND\n",
				"data/1.jsonl":        jsonl("a", 0, 3, ""),
			})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			keep, err := delta.LoadSnapshot(context.Background(), w.table("keep"))
			if err != nil {
				t.Fatal(err)
			}
			w.write(map[string]string{"pipelines/bad.yaml": sink(tt.sink)})
			for _, req := range []Request{{}, {Refresh: validate.RefreshFull},
				{Refresh: validate.RefreshReset, ResetMode: "TRUNCATE"}, {Refresh: validate.RefreshReset, ResetMode: "DROP"}} {
				req.Pipelines = []string{"bad"}
				plan, err := r.Plan(context.Background(), w.load(), req)
				if err == nil {
					o := start(t, r, plan)
					t.Errorf("%+v: planned and ran (%v), want a refusal for the name (%s)", req, o.err, workspace.CodeBadName)
					continue
				}
				var pe *PlanError
				if !errors.As(err, &pe) || !hasDiag(pe, workspace.CodeBadName, "") {
					t.Fatalf("%+v: %v, want a refusal for the name (%s)", req, err, workspace.CodeBadName)
				}
			}
			if _, err := os.Stat(filepath.Join(w.dir, "x")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the workspace holds x: %v", err)
			}
			s, err := delta.LoadSnapshot(context.Background(), w.table("keep"))
			if err != nil {
				t.Fatalf("the schema's table keep is gone: %v", err)
			}
			if s.Version() != keep.Version() {
				t.Fatalf("the schema's table keep is at version %d, want %d (untouched)", s.Version(), keep.Version())
			}
		})
	}
}

// TestRunWritesIntoConfiguredRoot: a root the workbench config names
// accepts sinks like the workspace does; its parent still does not.
func TestRunWritesIntoConfiguredRoot(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ws")
	os.MkdirAll(filepath.Join(base, "shared"), 0o755)
	w := &ws{t: t, dir: dir}
	os.MkdirAll(dir, 0o755)
	w.write(map[string]string{
		"laktory-workbench.yaml": "roots: [../shared]\n",
		"pipelines/p.yaml": "name: p\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n  sinks:\n" +
			"  - path: ../../shared/out\n    format: DELTA\n    mode: OVERWRITE\n",
		"data/1.jsonl": jsonl("a", 0, 3, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	mustRun(t, r, w.load(), Request{Refresh: validate.RefreshReset, ResetMode: "DROP"})
	if exists(filepath.Join(base, "shared", "out")) {
		t.Fatal("the DROP left the table in the configured root")
	}
	if !exists(filepath.Join(base, "shared")) {
		t.Fatal("the configured root itself was removed")
	}
}

// TestWherePayloadDeletesNothing: a `where` that is not one predicate on
// its own (`client_id = 1) OR (true`) is refused before the FULL refresh,
// and the runner never embeds it as text anyway.
func TestWherePayloadDeletesNothing(t *testing.T) {
	writer := func(id int, where string) string {
		return fmt.Sprintf("name: p%d\nnodes:\n- name: n\n  sources:\n  - path: ../data/%d/\n    format: JSONL\n  sinks:\n  - table_name: orders\n    mode: APPEND\n    shared: {where: %q}\n", id, id, where)
	}
	w := newWS(t, map[string]string{
		"pipelines/p1.yaml": writer(1, "client_id = 1"),
		"pipelines/p2.yaml": writer(2, "client_id = 2"),
		"data/1/a.jsonl":    `{"client_id": 1, "v": 1}` + "\n",
		"data/2/a.jsonl":    `{"client_id": 2, "v": 2}` + "\n" + `{"client_id": 2, "v": 3}` + "\n",
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	for _, payload := range []string{"client_id = 1) OR (true", "client_id = 1 OR (SELECT true)", "client_id = 1 OR random() < 2"} {
		w.write(map[string]string{"pipelines/p1.yaml": writer(1, payload)})
		pe := planErr(t, r, w.load(), Request{Pipelines: []string{"p1"}, Refresh: validate.RefreshFull})
		if !hasDiag(pe, validate.CodeWhereSyntax, "") && !hasDiag(pe, validate.CodeWhereReads, "") {
			t.Fatalf("%s: refused for another reason: %v", payload, pe)
		}
		cols := []sparksql.Column{{Name: "client_id", Type: mustType(t, "bigint")}}
		for _, backend := range []string{"PYSPARK", "POLARS"} {
			if got := whereSQL(r.sql, payload, backend, nil, cols); !strings.HasPrefix(got, "error(") {
				t.Fatalf("%s (%s) is embedded as %s", payload, backend, got)
			}
		}
	}
	if n := count(t, r, w.table("orders"), "client_id = 2"); n != 2 {
		t.Fatalf("the other writer has %d rows, want 2", n)
	}
}

// refused runs req and reports whether it was refused: by validation
// (LK403, before anything runs) or by the run's guard (a failed task).
func refused(t *testing.T, r *Runner, w *ws, req Request) bool {
	t.Helper()
	plan, err := r.Plan(context.Background(), w.load(), req)
	var pe *PlanError
	if errors.As(err, &pe) {
		if !hasDiag(pe, validate.CodePathOutside, "") {
			t.Fatalf("%+v: refused for another reason: %v", req, pe)
		}
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	o := start(t, r, plan)
	if o.err == nil {
		return false
	}
	for _, ts := range o.sum.Tasks {
		if ts.Err != "" && !strings.Contains(ts.Err, "outside the allowed roots") && !strings.Contains(ts.Err, "refusing") {
			t.Fatalf("%+v: task %s failed for another reason: %s", req, ts.Key, ts.Err)
		}
	}
	return errors.Is(o.err, ErrTasksFailed)
}

// TestRealPathAgrees: validation (workspace.RealPath) and the run's guard
// (delta.RealPath) resolve paths the same way.
func TestRealPathAgrees(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "f"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link"))
	os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "dangling"))
	os.Symlink("a/b", filepath.Join(dir, "rel"))
	os.Symlink("link", filepath.Join(dir, "link2"))
	for _, p := range []string{dir, filepath.Join(dir, "a", "b"), filepath.Join(dir, "link", "b", "new", "deeper"),
		filepath.Join(dir, "link"), filepath.Join(dir, "link2", "b", "x"), filepath.Join(dir, "dangling"),
		filepath.Join(dir, "dangling", "x"), filepath.Join(dir, "rel", ".."), filepath.Join(dir, "rel", "c"),
		filepath.Join(dir, "a", "f"), filepath.Join(dir, "a", "f", "x"), filepath.Join(dir, "missing"),
		filepath.Join(dir, "missing", "x"), ".", "relative/x", "/"} {
		w, werr := workspace.RealPath(p)
		d, derr := delta.RealPath(p)
		if w != d || (werr == nil) != (derr == nil) {
			t.Errorf("%s: workspace %q, %v; delta %q, %v", p, w, werr, d, derr)
		}
	}
}

// TestSandboxedSQL: with the workspace's Sandbox, the SQL of a pipeline
// reads and writes only the workspace (and the lake, the roots, the
// declared sources): elsewhere DuckDB refuses, in validation's binding as
// in a run (ErrSandbox says why); the runner's own reads and writes work.
// A text of several statements runs none of them, sandbox or not. The
// sandbox guards DuckDB SQL, which the rows marked duckdb run as written
// (the pass-through translator); a node's Spark SQL or Polars SQL cannot
// name DuckDB's file functions at all: their translations reject them. An
// expectation is read by Laktory's own SQL parser on every backend, which
// fails on the injected text (sqlglot's ParseError).
func TestSandboxedSQL(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "secret.csv")
	os.WriteFile(secret, []byte("s\n42\n"), 0o644)
	outside := filepath.Join(base, "stolen.csv")
	node := func(transformer, extra string) string {
		return "- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n" + transformer + "  sinks:\n  - table_name: n\n    mode: APPEND\n" + extra
	}
	polars := func(n string) string {
		n = strings.Replace(n, "- name: n\n", "- name: n\n  dataframe_backend: POLARS\n", 1)
		return strings.Replace(n, "  - table_name: n\n", "  - path: ../out/n\n    format: DELTA\n", 1)
	}
	step := func(expr string) string {
		return "  transformer:\n    nodes:\n    - expr: " + fmt.Sprintf("%q", expr) + "\n"
	}
	copyOut := "COPY (SELECT 1) TO '" + outside + "'"
	tests := []struct {
		name, node string
		sandbox    bool
		want       string // in the plan's or the task's error; "" = the run succeeds
		duckdb     bool   // the node's SQL is DuckDB SQL, run as written
	}{
		{"read inside", polars(node(step("SELECT k, v FROM {df}"), "")), true, "", true},
		{"read a file outside", polars(node(step("SELECT * FROM read_csv('"+secret+"')"), "")), true, "file system operations are disabled", true},
		{"glob outside", polars(node(step("SELECT * FROM glob('/etc/*')"), "")), true, "file system operations are disabled", true},
		{"COPY before the expr's query", polars(node(step(copyOut+"; SELECT * FROM {df}"), "")), false, "statement that is not a query", true},
		{"COPY in an expectation", polars(node("", "  expectations:\n  - name: e\n    expr: \"true) FROM (SELECT 1); "+copyOut+"; SELECT (true\"\n    action: WARN\n")),
			false, "more than one statement", true},
		{"Polars SQL: read inside", polars(node(step("SELECT k, v FROM {df}"), "")), true, "", false},
		{"Polars SQL: read_csv", polars(node(step("SELECT * FROM read_csv('"+secret+"')"), "")), false, "this FROM item in Polars SQL is not supported locally", false},
		{"Polars SQL: COPY before the expr's query", polars(node(step(copyOut+"; SELECT * FROM {df}"), "")), false, "statement that is not a query", false},
		{"Polars SQL: COPY in an expectation", polars(node("", "  expectations:\n  - name: e\n    expr: \"true) FROM (SELECT 1); "+copyOut+"; SELECT (true\"\n    action: WARN\n")),
			false, "does not bind: [ParseError]", false},
		{"Spark SQL: read inside", node(step("SELECT k, v FROM {df}"), ""), true, "", false},
		{"Spark SQL: read_csv", node(step("SELECT * FROM read_csv('"+secret+"')"), ""), false, "the table function `read_csv` is not supported locally", false},
		{"Spark SQL: a file by path", node(step("SELECT * FROM csv.`"+secret+"`"), ""), false, "is not supported locally", false},
		{"Spark SQL: COPY before the expr's query", node(step(copyOut+"; SELECT * FROM {df}"), ""), false, "statement that is not a query", false},
		{"Spark SQL: COPY in an expectation", node("", "  expectations:\n  - name: e\n    expr: \"true) FROM (SELECT 1); "+copyOut+"; SELECT (true\"\n    action: WARN\n"),
			false, "does not bind: [ParseError]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": "name: pl\nnodes:\n" + tt.node, "data/1.jsonl": jsonl("a", 0, 3, "")})
			snap := w.load()
			r := testRunner(t, func(c *Config) {
				if tt.sandbox {
					c.Sandbox = Sandbox(snap)
				}
				if tt.duckdb {
					c.Dialect = func(*workspace.Node) dialect.Translator { return dialect.DuckDB{} }
				}
			})
			var got string
			if plan, err := r.Plan(context.Background(), snap, Request{}); err != nil {
				got = err.Error()
			} else if o := start(t, r, plan); o.err != nil {
				got = taskSum(t, o.sum, "pl.n").Err
			}
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Fatalf("error %q, want %q", got, tt.want)
			}
			if exists(outside) {
				t.Fatal("the SQL wrote outside the workspace")
			}
		})
	}
}

// TestSessionRunsOneStatement: a text of several statements is refused
// before any of it runs (DuckDB's driver would run them all).
func TestSessionRunsOneStatement(t *testing.T) {
	r := testRunner(t)
	s, err := newSession(t.Context(), r.local)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	out := filepath.Join(t.TempDir(), "x.csv")
	inject := "SELECT 1 AS a; COPY (SELECT 1) TO '" + out + "'; SELECT 2 AS a"
	if _, err := s.view(t.Context(), "v", inject); !errors.Is(err, ErrStep) {
		t.Fatalf("view: %v", err)
	}
	if _, _, err := s.table(t.Context(), "t", inject); !errors.Is(err, ErrStep) {
		t.Fatalf("table: %v", err)
	}
	var n int
	if err := s.queryRow(t.Context(), inject, &n); !errors.Is(err, ErrStep) {
		t.Fatalf("queryRow: %v", err)
	}
	if _, err := s.columns(t.Context(), "(SELECT 1); COPY (SELECT 1) TO '"+out+"'"); !errors.Is(err, ErrStep) {
		t.Fatalf("columns: %v", err)
	}
	if exists(out) {
		t.Fatal("a statement ran")
	}
	if v, err := s.view(t.Context(), "v", "SELECT 1 AS a"); err != nil || v == "" {
		t.Fatalf("one statement: %v", err)
	}
}
