package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
)

// writeTestTable writes a small partitioned Delta table at root:
// version 0 creates it, version 1 appends rows a (price 1.50, 2.25),
// version 2 appends row b (price 10.00, with a timestamp), version 3
// deletes file a1.
func writeTestTable(t *testing.T, root string) {
	t.Helper()
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	copyTo := func(rel, query string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if _, err := db.Exec("COPY (" + query + ") TO '" + p + "' (FORMAT parquet)"); err != nil {
			t.Fatal(err)
		}
	}
	copyTo("writer=a/a1.parquet", "SELECT 1::BIGINT AS id, 1.50::DECIMAL(10,2) AS price, TIMESTAMPTZ '2024-05-01 10:00:00+00' AS ts")
	copyTo("writer=a/a2.parquet", "SELECT 2::BIGINT AS id, 2.25::DECIMAL(10,2) AS price, NULL::TIMESTAMPTZ AS ts")
	copyTo("writer=b/b1.parquet", "SELECT 3::BIGINT AS id, 10.00::DECIMAL(10,2) AS price, TIMESTAMPTZ '2024-05-02 08:30:00.5+00' AS ts")
	schema := `{"type":"struct","fields":[{"name":"id","type":"long","nullable":false,"metadata":{}},` +
		`{"name":"price","type":"decimal(10,2)","nullable":true,"metadata":{}},` +
		`{"name":"ts","type":"timestamp","nullable":true,"metadata":{}},` +
		`{"name":"writer","type":"string","nullable":true,"metadata":{}}]}`
	add := func(path, writer string) delta.Action {
		return delta.Action{Add: &delta.Add{Path: path, PartitionValues: map[string]*string{"writer": &writer}, Size: 100,
			ModificationTime: 1, DataChange: true, Stats: `{"numRecords":1}`}}
	}
	info := func(op string, ts int64) delta.Action {
		return delta.Action{CommitInfo: &delta.CommitInfo{Timestamp: ts, Operation: op, OperationParameters: map[string]any{"mode": "Append"}}}
	}
	commits := [][]delta.Action{
		{info("CREATE TABLE", 1714557600000), {Protocol: &delta.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}},
			{MetaData: &delta.Metadata{ID: "tbl-1", SchemaString: schema, PartitionColumns: []string{"writer"}, Configuration: map[string]string{"delta.appendOnly": "false"}}}},
		{info("WRITE", 1714557660000), add("writer=a/a1.parquet", "a"), add("writer=a/a2.parquet", "a"), {Txn: &delta.Txn{AppID: "app-1", Version: 4}}},
		{info("WRITE", 1714644000000), add("writer=b/b1.parquet", "b")},
		{info("DELETE", 1714730400000), {Remove: &delta.Remove{Path: "writer=a/a1.parquet", DataChange: true}}},
	}
	os.MkdirAll(filepath.Join(root, "_delta_log"), 0o755)
	for v, c := range commits {
		b, err := delta.MarshalCommit(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "_delta_log", delta.CommitFileName(int64(v))), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTableDescribe(t *testing.T) {
	ws := t.TempDir()
	root := filepath.Join(ws, ".laktory", "lake", "main", "sales", "prices")
	writeTestTable(t, root)

	code, out, stderr := runCLI(t, nil, "table", "describe", root)
	if code != ExitOK {
		t.Fatalf("code %d, stderr %s", code, stderr)
	}
	for _, want := range []string{"Version         3  (2024-05-03T10:00:00Z, DELETE)", "Partitioned by  writer", "Files           2", "Rows            2",
		"id      long           not null", "price   decimal(10,2)", "writer  string         partition", "delta.appendOnly = false", "app-1  version 4", "reader 1, writer 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe output lacks %q:\n%s", want, out)
		}
	}
	// By workspace table name, at an older version, as JSON.
	code, out, stderr = runCLI(t, nil, "table", "describe", "sales.prices", "--dir", ws, "--version", "1", "--json")
	if code != ExitOK {
		t.Fatalf("code %d, stderr %s", code, stderr)
	}
	var d describeJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != 1 || d.Files != 2 || d.Rows != 2 || !d.RowsExact || d.TableID != "tbl-1" || d.Operation != "WRITE" ||
		len(d.Columns) != 4 || !d.Columns[3].Partition || d.AppTransactions["app-1"] != 4 || d.Path != root {
		t.Fatalf("describe --json: %+v", d)
	}
	if !strings.Contains(out, `"schema_string": "{\"type\":\"struct\"`) || !strings.Contains(out, `"min_reader_version": 1`) {
		t.Fatalf("JSON lacks the schema or protocol:\n%s", out)
	}
	// The lake from the environment.
	if code, _, stderr := runCLI(t, map[string]string{"LAKTORY_LAKE": filepath.Join(ws, ".laktory", "lake")}, "table", "describe", "main.sales.prices"); code != ExitOK {
		t.Fatalf("LAKTORY_LAKE: code %d, %s", code, stderr)
	}
}

func TestTableLog(t *testing.T) {
	root := filepath.Join(t.TempDir(), "t")
	writeTestTable(t, root)
	code, out, stderr := runCLI(t, nil, "table", "log", root)
	if code != ExitOK {
		t.Fatalf("code %d, stderr %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "VERSION") || !strings.HasPrefix(lines[1], "3 ") ||
		!strings.Contains(lines[1], "DELETE") || !strings.Contains(lines[4], "CREATE TABLE") || !strings.Contains(lines[2], "mode=Append") {
		t.Fatalf("log:\n%s", out)
	}
	code, out, _ = runCLI(t, nil, "table", "log", root, "--limit", "2", "--json")
	var h []map[string]any
	if code != ExitOK || json.Unmarshal([]byte(out), &h) != nil || len(h) != 2 || h[0]["version"] != 3.0 ||
		h[0]["timestamp"] != "2024-05-03T10:00:00Z" || h[1]["operation"] != "WRITE" {
		t.Fatalf("log --json: %s", out)
	}
}

func TestTableScan(t *testing.T) {
	root := filepath.Join(t.TempDir(), "t")
	writeTestTable(t, root)
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, out string)
	}{
		{"table", []string{}, func(t *testing.T, out string) {
			if !strings.Contains(out, "id  price  ts") || !strings.Contains(out, "2.25") || !strings.Contains(out, "NULL") || !strings.Contains(out, "(2 rows)") {
				t.Fatalf("table:\n%s", out)
			}
		}},
		{"jsonl", []string{"--format", "jsonl", "--where", "writer = 'b'"}, func(t *testing.T, out string) {
			want := `{"id":3,"price":"10.00","ts":"2024-05-02T08:30:00.5Z","writer":"b"}` + "\n"
			if out != want {
				t.Fatalf("jsonl:\n got %s\nwant %s", out, want)
			}
		}},
		{"json alias, columns", []string{"--json", "--columns", "writer, id", "--where", "id = 2"}, func(t *testing.T, out string) {
			if out != `{"writer":"a","id":2}`+"\n" {
				t.Fatalf("json: %s", out)
			}
		}},
		{"csv", []string{"--format", "csv", "--where", "id >= 2"}, func(t *testing.T, out string) {
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(recs) != 3 || strings.Join(recs[0], ",") != "id,price,ts,writer" {
				t.Fatalf("csv: %v %v", recs, err)
			}
			got := map[string]string{recs[1][0]: strings.Join(recs[1], ","), recs[2][0]: strings.Join(recs[2], ",")}
			if got["2"] != "2,2.25,,a" || got["3"] != "3,10.00,2024-05-02T08:30:00.5Z,b" {
				t.Fatalf("csv rows: %v", got)
			}
		}},
		{"limit", []string{"--limit", "1", "--json"}, func(t *testing.T, out string) {
			if strings.Count(out, "\n") != 1 {
				t.Fatalf("limit 1: %s", out)
			}
		}},
		{"time travel by version", []string{"--version", "1", "--json", "--columns", "id"}, func(t *testing.T, out string) {
			if strings.Count(out, "\n") != 2 || !strings.Contains(out, `{"id":1}`) {
				t.Fatalf("version 1: %s", out)
			}
		}},
		{"time travel by timestamp", []string{"--timestamp", "2024-05-02 00:00:00", "--json", "--columns", "id"}, func(t *testing.T, out string) {
			if strings.Count(out, "\n") != 2 || strings.Contains(out, `{"id":3}`) {
				t.Fatalf("at 2024-05-02: %s", out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, nil, append([]string{"table", "scan", root}, tt.args...)...)
			if code != ExitOK {
				t.Fatalf("code %d, stderr %s", code, stderr)
			}
			tt.check(t, out)
		})
	}
}

// TestTableScanNotCut: machine output (jsonl, csv, --json) prints every
// row unless --limit is given; the table format keeps its default limit of
// 20 and says how many rows there are.
func TestTableScanNotCut(t *testing.T) {
	root := filepath.Join(t.TempDir(), "t")
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := delta.BeginCreate(root, delta.TableDefinition{}, delta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, "SELECT range AS id FROM range(25)"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args  []string
		lines int    // lines printed
		tail  string // the last line
	}{
		{[]string{"--format", "jsonl"}, 25, `{"id":24}`},
		{[]string{"--json"}, 25, `{"id":24}`},
		{[]string{"--format", "csv"}, 26, "24"},
		{[]string{"--format", "jsonl", "--limit", "5"}, 5, `{"id":4}`},
		{[]string{}, 22, "(20 of 25 rows; --limit 0 for all)"},
		{[]string{"--where", "id >= 3"}, 22, "(20 of 22 rows; --limit 0 for all)"},
		{[]string{"--limit", "0"}, 27, "(25 rows)"},
		{[]string{"--limit", "25"}, 27, "(25 rows)"},
	} {
		code, out, stderr := runCLI(t, nil, append([]string{"table", "scan", root}, tt.args...)...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != ExitOK || len(lines) != tt.lines || lines[len(lines)-1] != tt.tail {
			t.Errorf("scan %v: code %d, %d lines ending %q, want %d ending %q (stderr %s)", tt.args, code, len(lines), lines[len(lines)-1], tt.lines, tt.tail, stderr)
		}
	}
}

func TestTableErrors(t *testing.T) {
	root := filepath.Join(t.TempDir(), "t")
	writeTestTable(t, root)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"not a table", []string{"table", "describe", t.TempDir()}, "not a Delta table"},
		{"missing path", []string{"table", "scan", "./no/such/table"}, "does not exist"},
		{"unknown name", []string{"table", "log", "main.default.nope", "--dir", t.TempDir()}, "no table main.default.nope"},
		{"version and timestamp", []string{"table", "scan", root, "--version", "1", "--timestamp", "2024-01-01"}, "cannot be used together"},
		{"bad timestamp", []string{"table", "describe", root, "--timestamp", "yesterday"}, "RFC 3339"},
		{"future version", []string{"table", "describe", root, "--version", "9"}, "versions up to 3"},
		{"bad format", []string{"table", "scan", root, "--format", "xml"}, "use table, jsonl or csv"},
		{"unknown column", []string{"table", "scan", root, "--columns", "nope"}, `unknown column "nope"`},
		{"bad where", []string{"table", "scan", root, "--where", "id ==="}, "laktory:"},
		{"unknown subcommand", []string{"table", "drop", root}, "unknown table command"},
		{"missing data file", []string{"table", "scan", root, "--where", "writer = 'b'"}, "b1.parquet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "missing data file" {
				os.Remove(filepath.Join(root, "writer=b", "b1.parquet"))
			}
			code, _, stderr := runCLI(t, nil, tt.args...)
			if code != ExitUsage || !strings.Contains(stderr, tt.want) {
				t.Fatalf("code %d, stderr %q; want exit %d mentioning %q", code, stderr, ExitUsage, tt.want)
			}
		})
	}
}

// TestTableOptimize: `table optimize` compacts a table's small files, says
// so, and has nothing to do the second time; --json reports the metrics; a
// bad size is a usage error.
func TestTableOptimize(t *testing.T) {
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	root := filepath.Join(t.TempDir(), "t")
	for k := 0; k < 3; k++ {
		q := fmt.Sprintf("SELECT (%d * 10 + i)::BIGINT AS id FROM range(10) t(i)", k)
		if k == 0 {
			tx, _ := delta.BeginCreate(root, delta.TableDefinition{}, delta.WriteOptions{})
			if _, err := tx.Append(ctx, db, q); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := delta.Append(ctx, db, root, q, delta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runCLI(t, nil, "table", "optimize", root)
	if code != ExitOK || !strings.Contains(out, "version 3 (OPTIMIZE): 3 files") || !strings.Contains(out, "compacted into 1 file") {
		t.Fatalf("code %d, out %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, nil, "table", "optimize", root, "--json")
	var res optimizeJSON
	if err := json.Unmarshal([]byte(out), &res); code != ExitOK || err != nil || res.Committed || res.Version != 3 {
		t.Fatalf("second optimize: code %d, %q, %v", code, out, err)
	}
	if code, _, stderr := runCLI(t, nil, "table", "optimize", root, "--min-file-size", "big"); code != ExitUsage || !strings.Contains(stderr, "--min-file-size") {
		t.Fatalf("bad size: code %d, %q", code, stderr)
	}
}

// TestTableView: `laktory table describe` of a view prints its SQL, the
// tables it reads and its columns; `scan` evaluates it over the tables as
// they are (--where, --columns, --limit as for a table); `log` and a
// version say it has none; `laktory graph` tags it a view.
func TestTableView(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pl.yaml": `name: pl
nodes:
- name: t
  sources: [{path: data/, format: JSONL}]
  sinks: [{table_name: orders, mode: OVERWRITE}]
- name: v
  sources: [{node_name: t}]
  transformer: {nodes: [{expr: "SELECT k, v * 2 AS v2 FROM {df} WHERE v > 0"}]}
  sinks: [{table_name: orders_v, table_type: VIEW}]
`,
		"data/1.jsonl": "{\"k\": \"a\", \"v\": 0}\n{\"k\": \"b\", \"v\": 1}\n{\"k\": \"c\", \"v\": 2}\n",
	}
	for name, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("run: %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, nil, "table", "describe", "orders_v", "--dir", dir)
	if code != ExitOK || !strings.Contains(out, "CREATE OR REPLACE VIEW orders_v AS SELECT k, v * 2 AS v2 FROM orders WHERE v > 0") ||
		!strings.Contains(out, "Written by  pl.v") || !strings.Contains(out, "v2  BIGINT") {
		t.Fatalf("describe: %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, nil, "table", "describe", "orders_v", "--dir", dir, "--json")
	var d struct{ View delta.View }
	if code != ExitOK || json.Unmarshal([]byte(out), &d) != nil || d.View.Name != "orders_v" || len(d.View.Inputs) != 1 {
		t.Fatalf("describe --json: %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, nil, "table", "scan", "orders_v", "--dir", dir, "--json")
	if code != ExitOK || out != `{"k":"b","v2":2}`+"\n"+`{"k":"c","v2":4}`+"\n" {
		t.Fatalf("scan --json: %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, nil, "table", "scan", "orders_v", "--dir", dir, "--where", "v2 > 0", "--columns", "k", "--limit", "1")
	if code != ExitOK || !strings.Contains(out, "(1 of 2 rows; --limit 0 for all)") || strings.Contains(out, "v2") {
		t.Fatalf("scan --limit 1: %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, nil, "graph", dir)
	if code != ExitOK || !strings.Contains(out, "main.default.orders_v  view") || !strings.Contains(out, "<- pl.v  defines the view (its SQL, no rows)") {
		t.Fatalf("graph: %d\n%s%s", code, out, errs)
	}
	if code, out, errs = runCLI(t, nil, "table", "log", "orders_v", "--dir", dir); code == ExitOK || !strings.Contains(errs, "is a view") {
		t.Fatalf("log of a view: %d\n%s%s", code, out, errs)
	}
	if code, out, errs = runCLI(t, nil, "table", "scan", "orders_v", "--dir", dir, "--version", "0"); code != ExitUsage || !strings.Contains(errs, "has no versions") {
		t.Fatalf("scan --version of a view: %d\n%s%s", code, out, errs)
	}
}
