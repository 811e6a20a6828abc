package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// paramWorkspace is two pipelines sharing a table by where predicates, one
// of them from a parameter: pa owns client_id = 1 (its default), pb
// client_id = 2.
func paramWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"pipelines/pa.yaml": `name: pa
parameters:
  own:
    default: client_id = 1
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: ${params.own}
`,
		"pipelines/pb.yaml": `name: pb
nodes:
- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: client_id = 2
`,
		"data/a/1.jsonl": "{\"id\": 1, \"client_id\": 1}\n{\"id\": 2, \"client_id\": 1}\n{\"id\": 3, \"client_id\": 1}\n",
		"data/b/1.jsonl": "{\"id\": 4, \"client_id\": 2}\n{\"id\": 5, \"client_id\": 2}\n",
	})
	return dir
}

// TestValidateParams: validate --param checks the pipelines with a run's
// parameter values: a where predicate from a parameter is checked against
// the other writers after substitution; an empty or undeclared --param is
// refused.
func TestValidateParams(t *testing.T) {
	dir := paramWorkspace(t)
	if code, out, errs := runCLI(t, nil, "validate", dir); code != ExitOK {
		t.Fatalf("the default: exit %d\n%s%s", code, out, errs)
	}
	tests := []struct {
		param string
		code  int
		want  string
	}{
		{"own=client_id = 3", ExitOK, "no problems"},
		{"own=client_id = 2", ExitProblems, "LK108 pa.a and pb.b write main.default.orders with the same `shared.where` (client_id = 2)"},
		{"own=client_id IN (1, 2)", ExitProblems, "LK111 the `where` predicates of pa.a (client_id IN (1, 2)) and pb.b (client_id = 2) overlap"},
		{"own=", ExitProblems, "LK020 --param own= gives parameter 'own' an empty value"},
		{"other=1", ExitUsage, "--param other: no pipeline declares it"},
	}
	for _, tt := range tests {
		t.Run(tt.param, func(t *testing.T) {
			code, out, errs := runCLI(t, nil, "validate", "--param", tt.param, dir)
			if code != tt.code || !strings.Contains(out+errs, tt.want) {
				t.Fatalf("exit %d (want %d), want %q in\n%s%s", code, tt.code, tt.want, out, errs)
			}
		})
	}
}

// TestParamWhereOverlapRefused: the new user's loss of issue 24 item 1. A
// where predicate from --param that validation cannot prove disjoint from
// the other writer's (different columns) would have a FULL refresh delete
// pb's rows: the plan names pb.b and the 2 rows, --yes alone is refused
// (nothing changes), --delete-overlapping runs it.
func TestParamWhereOverlapRefused(t *testing.T) {
	dir := paramWorkspace(t)
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errs)
	}
	full := []string{"run", dir, "-p", "pa", "--refresh", "FULL", "--param", "own=client_id = 1 OR id > 0"}
	code, out, _ := runCLI(t, nil, append([]string{"plan"}, full[1:]...)...)
	if code != ExitOK || !strings.Contains(out, "delete the rows of writer pa.a (where client_id = 1 OR id > 0) from main.default.orders (5 rows); 2 rows of them also match writer pb.b (where client_id = 2)") {
		t.Fatalf("plan: exit %d\n%s", code, out)
	}
	code, out, errs := runCLI(t, nil, append(full, "--yes")...)
	if code != ExitProblems || !strings.Contains(errs, "Refused: 1 step(s) above would delete rows that also match another writer's predicate (pa.a: 2 rows of writer pb.b)") {
		t.Fatalf("--yes alone: exit %d\n%s%s", code, out, errs)
	}
	scan := func() string {
		_, out, _ := runCLI(t, nil, "table", "scan", "orders", "--dir", dir, "--json", "--where", "client_id = 2")
		return out
	}
	if n := strings.Count(scan(), "\n"); n != 2 {
		t.Fatalf("pb's rows after the refusal: %d", n)
	}
	if code, out, errs := runCLI(t, nil, append(full, "--yes", "--delete-overlapping")...); code != ExitOK {
		t.Fatalf("acknowledged: exit %d\n%s%s", code, out, errs)
	}
	if n := strings.Count(scan(), "\n"); n != 0 {
		t.Fatalf("acknowledged: pb's rows were to go, %d left", n)
	}
}

// TestRunWatchRefusesDestructive: a pipeline saved during run --watch
// that switches a sink of a shared table to OVERWRITE without `shared` is
// listed and not run (a watch cannot ask): the other writer's rows stay.
func TestRunWatchRefusesDestructive(t *testing.T) {
	dir := paramWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"run", dir, "--watch"}, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	}()
	wait := func(what string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(out.String(), what) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%q never printed:\n%s%s", what, out.String(), errb.String())
	}
	wait("Watching " + dir + ": waiting for changes")
	workspacetest.Write(t, dir, map[string]string{"pipelines/pa.yaml": `name: pa
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: OVERWRITE
`})
	wait("watch: not run: this run of")
	if s := out.String(); !strings.Contains(s, "overwrite main.default.orders (mode OVERWRITE, not `shared`): every row is replaced, the rows of its other writers (pb.b) included (5 rows)") {
		t.Fatalf("the refused run's effects:\n%s", s)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("--watch did not end on Ctrl-C")
	}
	_, rows, _ := runCLI(t, nil, "table", "scan", "orders", "--dir", dir, "--json", "--where", "client_id = 2")
	if n := strings.Count(rows, "\n"); n != 2 {
		t.Fatalf("pb's rows after the watch: %d", n)
	}
}

// TestRowsWrittenNotCopied: after OPTIMIZE put both writers' rows in one
// file, a FULL refresh of pa deletes its 3 rows by rewriting that file
// (copying pb's 2): the summary's rows written are pa's 3 new rows, not 5.
func TestRowsWrittenNotCopied(t *testing.T) {
	dir := paramWorkspace(t)
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, nil, "table", "optimize", "orders", "--dir", dir); code != ExitOK {
		t.Fatalf("optimize: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, nil, "run", dir, "-p", "pa", "--full-refresh", "--yes", "--json")
	var res runResult
	if code != ExitOK || json.Unmarshal([]byte(out), &res) != nil || res.Summary == nil {
		t.Fatalf("FULL: exit %d\n%s%s", code, out, errs)
	}
	if s := res.Summary; s.RowsWritten != 3 || s.RowsDeleted != 3 {
		t.Fatalf("rows written %d, deleted %d; want 3 and 3\n%s", s.RowsWritten, s.RowsDeleted, out)
	}
}

// TestForgetWriter: after writer pl.b is renamed pl.c, validate --deep's
// LK202 hint is a command deleting exactly pl.b's rows (and one for the
// rows whose writer is NULL); forget-writer plans and asks (refused
// without a terminal and --yes), refuses a current writer's id, and
// deletes only the rows it names.
func TestForgetWriter(t *testing.T) {
	dir := t.TempDir()
	yaml := func(b string) map[string]string {
		return map[string]string{"pl.yaml": `name: pl
nodes:
- name: a
  sources: [{path: data/a/, format: JSONL}]
  sinks: [{table_name: t, mode: APPEND, shared: true}]
- name: ` + b + `
  sources: [{path: data/b/, format: JSONL}]
  sinks: [{table_name: t, mode: APPEND, shared: true}]
`, "data/a/1.jsonl": "{\"k\": \"a\", \"v\": 1}\n", "data/b/1.jsonl": "{\"k\": \"b\", \"v\": 2}\n{\"k\": \"b\", \"v\": 3}\n"}
	}
	workspacetest.Write(t, dir, yaml("b"))
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	root := filepath.Join(dir, ".laktory", "lake", "main", "default", "t")
	if _, err := delta.Append(ctx, db, root, "SELECT 'n' AS k, 9::BIGINT AS v, NULL::VARCHAR AS _laktory_writer", delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	workspacetest.Write(t, dir, yaml("c"))
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("run after the rename: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, nil, "validate", "--deep", dir)
	for _, want := range []string{"LK202 table main.default.t holds rows of writer ids no current writer declares: 'pl.b' (2 rows), NULL (1 rows)",
		"laktory table forget-writer t --writer pl.b && laktory table forget-writer t --null"} {
		if !strings.Contains(out, want) {
			t.Fatalf("validate --deep: want %q in\n%s", want, out)
		}
	}
	rows := func(where string) int {
		_, out, _ := runCLI(t, nil, "table", "scan", "t", "--dir", dir, "--json", "--where", where)
		return strings.Count(out, "\n")
	}
	total, others := rows("true"), rows("_laktory_writer IN ('pl.a', 'pl.c')")
	code, out, errs := runCLI(t, nil, "table", "forget-writer", "t", "--writer", "pl.b", "--dir", dir)
	if code != ExitProblems || !strings.Contains(out, "This would delete the rows of writer id 'pl.b' from main.default.t: 2 rows") || !strings.Contains(errs, "Refused") || rows("true") != total {
		t.Fatalf("without a terminal: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, nil, "table", "forget-writer", "t", "--writer", "pl.a", "--dir", dir, "--yes"); code == ExitOK || !strings.Contains(errs, "a current writer of main.default.t") {
		t.Fatalf("a current writer's id: exit %d %s", code, errs)
	}
	if code, out, errs := runCLI(t, nil, "table", "forget-writer", "t", "--writer", "pl.b", "--dir", dir, "--yes"); code != ExitOK || !strings.Contains(out, "Deleted 2 rows of writer id 'pl.b'") {
		t.Fatalf("--yes: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, nil, "table", "forget-writer", "t", "--null", "--dir", dir, "--yes"); code != ExitOK || !strings.Contains(out, "Deleted 1 rows of writer id NULL") {
		t.Fatalf("--null: exit %d\n%s%s", code, out, errs)
	}
	if n, m := rows("true"), rows("_laktory_writer IN ('pl.a', 'pl.c')"); n != total-3 || m != others || m != n {
		t.Fatalf("after forgetting pl.b and NULL: %d rows (%d of the current writers), want %d, all theirs", n, m, total-3)
	}
	if _, out, _ := runCLI(t, nil, "validate", "--deep", dir); strings.Contains(out, "LK202") {
		t.Fatalf("LK202 after forgetting:\n%s", out)
	}
}
