package runner

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
)

// mergeExpectation is what Laktory 0.13.1 on Spark left in a scenario's
// target table after each run (scripts/interop/merge_parity.py writes it).
type mergeExpectation struct {
	Pipeline string `json:"pipeline"`
	Feed     string `json:"feed"`
	Runs     []struct {
		Batches    []int       `json:"batches"`
		Error      string      `json:"error"`
		Operations []string    `json:"operations"`
		Columns    []string    `json:"columns"`
		Rows       [][]*string `json:"rows"`
	} `json:"runs"`
}

// TestMergeParity runs the MERGE scenarios of testdata/merge (a pipeline
// and a CDC feed of several batches each) through the runner and compares
// the target table after each run, row for row, and the operations of the
// commits each run made, with what Laktory 0.13.1 on Spark 4.2 with Delta
// 4.4 did (scripts/interop/merge_parity.sh records it). Spark's empty
// target is a WRITE commit, ours a CREATE TABLE. With
// LAKTORY_MERGE_PARITY_KEEP=DIR, the workspaces are kept in DIR for
// Spark to read (merge_parity.sh --check).
func TestMergeParity(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "merge", "*", "expected.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no MERGE scenarios in testdata/merge (%v)", err)
	}
	// The workspaces outlive the subtests: delta-rs reads them at the end.
	root := os.Getenv("LAKTORY_MERGE_PARITY_KEEP")
	if root == "" {
		root = t.TempDir()
	}
	// Every version a run left is read with delta-rs too, at the end.
	var reads []deltaRSRead
	defer func() {
		if !t.Failed() {
			checkMergesWithDeltaRS(t, reads)
		}
	}()
	for _, f := range files {
		dir := filepath.Dir(f)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			var exp mergeExpectation
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &exp); err != nil {
				t.Fatal(err)
			}
			yaml, err := os.ReadFile(filepath.Join(dir, exp.Pipeline))
			if err != nil {
				t.Fatal(err)
			}
			w := &ws{t: t, dir: filepath.Join(root, name)}
			w.write(map[string]string{"pipelines/pl.yaml": string(yaml)})
			r := testRunner(t)
			target := filepath.Join(w.dir, "lake", "target")
			stream := strings.HasSuffix(name, "_stream")
			for i, run := range exp.Runs {
				for _, batch := range run.Batches {
					landBatch(t, r, w, filepath.Join("testdata", "merge", "feeds", exp.Feed), batch, stream)
				}
				before := tableVersion(t, target)
				o := start(t, r, planOK(t, r, w))
				if run.Error != "" {
					if o.err == nil {
						t.Fatalf("run %d: Laktory fails with %q, we succeed", i, run.Error)
					}
					continue
				}
				if o.err != nil {
					for _, ts := range o.sum.Tasks {
						t.Logf("task %s: %s", ts.Key, ts.Err)
					}
					t.Fatalf("run %d: %v", i, o.err)
				}
				if ops := operationsSince(t, target, before); !slices.Equal(ops, run.Operations) {
					t.Errorf("run %d: commits %v, Laktory's %v", i, ops, run.Operations)
				}
				cols, rows := canonicalRows(t, r, target)
				if !slices.Equal(cols, run.Columns) {
					t.Fatalf("run %d: columns %v, Laktory's %v", i, cols, run.Columns)
				}
				if want := rowKeys(run.Rows); !slices.Equal(rows, want) {
					t.Fatalf("run %d (batches %v): rows\n%s\nLaktory's\n%s", i, run.Batches, strings.Join(rows, "\n"), strings.Join(want, "\n"))
				}
				reads = append(reads, deltaRSRead{Path: target, Version: tableVersion(t, target), name: name + " run " + strconv.Itoa(i),
					columns: run.Columns, rows: rowKeys(run.Rows)})
			}
		})
	}
}

func planOK(t *testing.T, r *Runner, w *ws) *Plan {
	t.Helper()
	plan, err := r.Plan(context.Background(), w.load(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// landBatch puts batch i of a feed where the pipeline reads it: as the
// file landing/changes.parquet, or, for a streaming scenario, as a commit
// of one file appended to the Delta table landing/changes.
func landBatch(t *testing.T, r *Runner, w *ws, feed string, i int, stream bool) {
	t.Helper()
	src, err := filepath.Abs(filepath.Join(feed, "batch_"+strconv.Itoa(i)+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if !stream {
		w.write(map[string]string{"landing/changes.parquet": string(b)})
		return
	}
	ctx := context.Background()
	path := filepath.Join(w.dir, "landing", "changes")
	q := "SELECT * FROM read_parquet(" + quoteString(src) + ")"
	if tableVersion(t, path) < 0 {
		schema, err := delta.QuerySchema(ctx, r.db, q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := delta.Create(ctx, path, delta.TableDefinition{Schema: schema}, delta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := delta.Append(ctx, r.db, path, q, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// tableVersion is the table's latest version, -1 without a table.
func tableVersion(t *testing.T, path string) int64 {
	t.Helper()
	s, err := loadTable(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		return -1
	}
	return s.Version()
}

// operationsSince lists the operations of the commits after version
// since, the creation of the empty target named as Spark names it.
func operationsSince(t *testing.T, path string, since int64) []string {
	t.Helper()
	tbl, err := delta.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := tbl.History(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ops := []string{}
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Version <= since {
			continue
		}
		op := h[i].Operation
		if op == "CREATE TABLE" && h[i].Version == 0 {
			op = "WRITE"
		}
		ops = append(ops, op)
	}
	return ops
}

// canonicalRows reads a table's rows as merge_parity.py writes Spark's:
// values as text (timestamps in UTC without trailing zeros), rows as
// JSON arrays, sorted.
func canonicalRows(t *testing.T, r *Runner, path string) ([]string, []string) {
	t.Helper()
	ctx := context.Background()
	s, err := delta.LoadSnapshot(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	scan, err := s.ScanSQL(ctx, delta.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, f := range s.Schema().Fields {
		c := quoteIdent(f.Name)
		switch f.Type {
		case delta.TimestampType, delta.TimestampNTZType:
			ts := "CAST(" + c + " AS TIMESTAMP)"
			if f.Type == delta.TimestampType {
				ts = "timezone('UTC', " + c + ")"
			}
			exprs = append(exprs, "strftime("+ts+", '%Y-%m-%d %H:%M:%S') || CASE WHEN microsecond("+ts+") % 1000000 = 0 THEN '' ELSE '.' || rtrim(lpad(CAST(microsecond("+ts+") % 1000000 AS VARCHAR), 6, '0'), '0') END")
		default:
			exprs = append(exprs, "CAST("+c+" AS VARCHAR)")
		}
	}
	rows, err := r.db.QueryContext(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM ("+scan+")")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(exprs))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]*string, len(vals))
		for i, v := range vals {
			if v.Valid {
				row[i] = &vals[i].String
			}
		}
		b, _ := json.Marshal(row)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return s.Schema().FieldNames(), out
}

func rowKeys(rows [][]*string) []string {
	out := []string{}
	for _, r := range rows {
		b, _ := json.Marshal(r)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// deltaRSRead is a version of a MERGE target delta-rs must read as
// Laktory's table.
type deltaRSRead struct {
	Path    string `json:"path"`
	Version int64  `json:"version"`
	name    string
	columns []string
	rows    []string
}

// checkMergesWithDeltaRS reads the versions with delta-rs
// (testdata/read_merge_tables.py, $LAKTORY_PYTHON; skipped without it
// unless LAKTORY_REQUIRE_INTEROP=1) and compares them with Laktory's
// tables.
func checkMergesWithDeltaRS(t *testing.T, reads []deltaRSRead) {
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set (a Python with deltalake; see scripts/requirements-interop.txt)")
		}
		t.Log("LAKTORY_PYTHON not set: the MERGE tables are not read with delta-rs")
		return
	}
	req := filepath.Join(t.TempDir(), "reads.json")
	b, _ := json.Marshal(reads)
	if err := os.WriteFile(req, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, filepath.Join("testdata", "read_merge_tables.py"), req).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("read_merge_tables.py: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var got []struct {
		Columns []string    `json:"columns"`
		Rows    [][]*string `json:"rows"`
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(reads) {
		t.Fatalf("read_merge_tables.py: %v, %d results for %d reads", err, len(got), len(reads))
	}
	for i, r := range reads {
		if !slices.Equal(got[i].Columns, r.columns) || !slices.Equal(rowKeys(got[i].Rows), r.rows) {
			t.Errorf("%s: delta-rs reads version %d as %v\n%s\nLaktory's\n%s", r.name, r.Version, got[i].Columns,
				strings.Join(rowKeys(got[i].Rows), "\n"), strings.Join(r.rows, "\n"))
		}
	}
}
