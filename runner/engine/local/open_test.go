package local

import (
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
)

// TestParser: texts are serialized and rendered in their order (repeats
// included), a text that does not parse gets DuckDB's error, one that is
// not a query its refusal, and nothing runs.
func TestParser(t *testing.T) {
	p := OpenParser()
	defer p.Close()
	texts := []string{"SELECT a = 1", "SELECT (", "SELECT a = 1", "COPY t TO 'x.csv'", "SELECT 1; SELECT 2", "SELECT * FROM read_csv('/no/such/file')"}
	trees, rendered, err := p.Serialize(texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != len(texts) || len(rendered) != len(texts) {
		t.Fatalf("%d trees, %d rendered for %d texts", len(trees), len(rendered), len(texts))
	}
	type res struct {
		Error        bool   `json:"error"`
		ErrorMessage string `json:"error_message"`
		Statements   []any  `json:"statements"`
	}
	want := []struct {
		err        string
		statements int
		rendered   string
	}{
		{"", 1, "SELECT (a = 1)"},
		{"syntax error", 0, ""},
		{"", 1, "SELECT (a = 1)"},
		{"Only SELECT statements", 0, ""},
		{"", 2, "SELECT 1; SELECT 2"},
		{"", 1, "SELECT * FROM read_csv('/no/such/file')"},
	}
	for i, w := range want {
		var r res
		if err := json.Unmarshal([]byte(trees[i]), &r); err != nil {
			t.Fatalf("%q: %v", texts[i], err)
		}
		if r.Error != (w.err != "") || !strings.Contains(r.ErrorMessage, w.err) || len(r.Statements) != w.statements || rendered[i] != w.rendered {
			t.Errorf("%q: %+v, rendered %q; want %+v", texts[i], r, rendered[i], w)
		}
	}
	names, err := p.Deterministic()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if n == "random" || n == "read_csv" || n == "now" {
			t.Errorf("%s listed as deterministic", n)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Serialize([]string{"SELECT 1"}); !errors.Is(err, errParserClosed) {
		t.Fatalf("closed: %v", err)
	}
}

// TestParserOnEngineDB: the engine's parser uses the engine's database,
// whose macros (the Spark SQL front end's) are not built-in functions,
// and its Close leaves that database open.
func TestParserOnEngineDB(t *testing.T) {
	db, err := OpenDB(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE MACRO lk_upper_macro(x) AS upper(x)"); err != nil {
		t.Fatal(err)
	}
	p := New(db, nil).Parser()
	names, err := p.Deterministic()
	if err != nil {
		t.Fatal(err)
	}
	upper := false
	for _, n := range names {
		upper = upper || n == "upper"
		if n == "lk_upper_macro" {
			t.Fatal("a macro of the database is listed")
		}
	}
	if !upper {
		t.Fatal("upper is not listed")
	}
	if err := p.Close(); err != nil || db.Ping() != nil {
		t.Fatalf("Close closed the engine's database: %v", err)
	}
}

// TestOpenDBThreads: Options.Threads is DuckDB's threads setting of the
// database, confined (set before its configuration is locked) or not; 0
// leaves DuckDB's default.
func TestOpenDBThreads(t *testing.T) {
	dir := t.TempDir()
	def := runtime.NumCPU()
	for _, tc := range []struct {
		name    string
		sandbox *delta.Confinement
		threads int
		want    int
	}{
		{"open, 1", nil, 1, 1},
		{"open, default", nil, 0, def},
		{"confined, 1", &delta.Confinement{Dirs: []string{dir}}, 1, 1},
		{"confined, 3", &delta.Confinement{Dirs: []string{dir}}, 3, 3},
		{"confined, default", &delta.Confinement{Dirs: []string{dir}}, 0, def},
	} {
		db, err := OpenDBWith(t.Context(), tc.sandbox, Options{Threads: tc.threads})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got int
		if err := db.QueryRowContext(t.Context(), "SELECT current_setting('threads')").Scan(&got); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s: threads %d, want %d", tc.name, got, tc.want)
		}
		if tc.sandbox != nil {
			if _, err := db.ExecContext(t.Context(), "SET threads = 2"); err == nil {
				t.Errorf("%s: SET threads ran on a locked configuration", tc.name)
			}
		}
		db.Close()
	}
}
