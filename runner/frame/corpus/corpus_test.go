// Package corpus holds the differential corpus of the frame front end:
// func_name steps with what Laktory 0.13.1 computes for them
// (scripts/frame/corpus.sh), run here through runner/frame on DuckDB.
package corpus

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"gopkg.in/yaml.v3"

	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/frame"
	"github.com/laktory/workbench/runner/sparksql"
)

var (
	update  = flag.Bool("update", false, "rewrite testdata/status.txt")
	heldout = flag.Bool("heldout", true, "run the held-out part (testdata/heldout)")
)

// The corpus: each case's steps are translated (frame.Compile) and run on
// DuckDB over the fixture tables; the outcome must be Laktory's (the same
// column names, types and rows, or a failure where Laktory fails), or a
// refusal at translation naming the construct. A different result, or a
// success where Laktory fails, fails the test. testdata/status.txt records
// every case's outcome (regenerate with -update and read the diff).

type corpusFile struct {
	Backends []string     `yaml:"backends"`
	Cases    []corpusCase `yaml:"cases"`
}

type corpusCase struct {
	Name     string            `yaml:"name"`
	Input    string            `yaml:"input"`
	Sources  map[string]string `yaml:"sources"`
	Nodes    map[string]string `yaml:"nodes"`
	Backends []string          `yaml:"backends"`
	API      string            `yaml:"api"`
	Ordered  bool              `yaml:"ordered"`
	Steps    []yaml.Node       `yaml:"steps"`
}

type expected struct {
	Columns [][2]string       `json:"columns"`
	Rows    []json.RawMessage `json:"rows"`
	Error   string            `json:"error"`
	Delta   [][2]string       `json:"delta"`
}

type table struct {
	Columns yaml.Node `yaml:"columns"`
	Rows    [][]any   `yaml:"rows"`
}

// fixtureType maps a fixture type (tables.yaml) to DuckDB's.
func fixtureType(t string, spark bool) string {
	t = strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(t, "list<"):
		return fixtureType(t[5:len(t)-1], spark) + "[]"
	case strings.HasPrefix(t, "struct<"):
		var fs []string
		for _, f := range splitTop(t[7 : len(t)-1]) {
			n, ft, _ := strings.Cut(f, ":")
			fs = append(fs, `"`+n+`" `+fixtureType(ft, spark))
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	case strings.HasPrefix(t, "decimal"):
		return strings.ToUpper(t)
	}
	m := map[string]string{"i8": "TINYINT", "i16": "SMALLINT", "i32": "INTEGER", "i64": "BIGINT", "u32": "UINTEGER",
		"f32": "FLOAT", "f64": "DOUBLE", "str": "VARCHAR", "bool": "BOOLEAN", "date": "DATE", "datetime": "TIMESTAMP",
		"datetime_utc": "TIMESTAMPTZ"}
	if spark && t == "u32" {
		return "BIGINT"
	}
	return m[t]
}

func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// literal is a fixture value as a DuckDB literal of type t.
func literal(v any, t string) string {
	if v == nil {
		return "NULL"
	}
	switch x := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		inner := strings.TrimSuffix(t, "[]")
		var parts []string
		for _, e := range x {
			parts = append(parts, "CAST("+literal(e, inner)+" AS "+inner+")")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		fields := splitTop(strings.TrimSuffix(strings.TrimPrefix(t, "STRUCT("), ")"))
		for _, f := range fields {
			name, ft, _ := strings.Cut(f, " ")
			name = strings.Trim(name, `"`)
			parts = append(parts, "'"+name+"': CAST("+literal(x[name], ft)+" AS "+ft+")")
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

func loadTables(t *testing.T, db *sql.DB, spark bool) map[string][]frame.Column {
	raw, err := os.ReadFile("testdata/tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var tables map[string]table
	if err := yaml.Unmarshal(raw, &tables); err != nil {
		t.Fatal(err)
	}
	out := map[string][]frame.Column{}
	for name, tb := range tables {
		var cols []frame.Column
		for i := 0; i+1 < len(tb.Columns.Content); i += 2 {
			cols = append(cols, frame.Column{Name: tb.Columns.Content[i].Value, Type: fixtureType(tb.Columns.Content[i+1].Value, spark)})
		}
		var defs []string
		for _, c := range cols {
			defs = append(defs, `"`+c.Name+`" `+c.Type)
		}
		if _, err := db.Exec(fmt.Sprintf(`CREATE TABLE "%s" (%s)`, name, strings.Join(defs, ", "))); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range tb.Rows {
			var vals []string
			for i, v := range r {
				vals = append(vals, "CAST("+literal(v, cols[i].Type)+" AS "+cols[i].Type+")")
			}
			if _, err := db.Exec(fmt.Sprintf(`INSERT INTO "%s" VALUES (%s)`, name, strings.Join(vals, ", "))); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		out[name] = cols
	}
	return out
}

// stepOf decodes a step of the YAML as the workspace decodes func_args
// and func_kwargs: positional then named arguments.
func stepOf(n *yaml.Node) (frame.Step, error) {
	var raw struct {
		FuncName string         `yaml:"func_name"`
		Args     []any          `yaml:"func_args"`
		Kwargs   yaml.Node      `yaml:"func_kwargs"`
		API      string         `yaml:"dataframe_api"`
		Other    map[string]any `yaml:",inline"`
	}
	if err := n.Decode(&raw); err != nil {
		return frame.Step{}, err
	}
	st := frame.Step{Func: raw.FuncName}
	if raw.API == "NATIVE" {
		st.API = frame.Native
	} else if raw.API == "NARWHALS" {
		st.API = frame.Narwhals
	}
	for _, a := range raw.Args {
		st.Args = append(st.Args, frame.Arg{Value: normalize(a)})
	}
	for i := 0; i+1 < len(raw.Kwargs.Content); i += 2 {
		var v any
		if err := raw.Kwargs.Content[i+1].Decode(&v); err != nil {
			return frame.Step{}, err
		}
		st.Args = append(st.Args, frame.Arg{Name: raw.Kwargs.Content[i].Value, Value: normalize(v)})
	}
	return st, nil
}

// normalize turns yaml.v3's ints into int64.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	}
	return v
}

// outcome is one case's result here.
type outcome struct {
	kind string // exact, refused, different
	msg  string
}

func runCase(t *testing.T, db *sql.DB, tables map[string][]frame.Column, cs *corpusCase, backend string, exp *expected, seq *int) outcome {
	env := frame.Env{Backend: frame.Polars, API: frame.Narwhals}
	if backend == "PYSPARK" {
		env.Backend = frame.PySpark
	}
	if cs.API == "NATIVE" {
		env.API = frame.Native
	}
	var named []frame.Input
	for k, tb := range cs.Sources {
		named = append(named, frame.Input{Ref: "sources." + k, Relation: tb, Columns: tables[tb]})
	}
	for k, tb := range cs.Nodes {
		named = append(named, frame.Input{Ref: "nodes." + k, Relation: tb, Columns: tables[tb]})
	}
	cur := frame.Input{Ref: "df", Relation: cs.Input, Columns: tables[cs.Input]}
	var res *frame.Result
	for i := range cs.Steps {
		st, err := stepOf(&cs.Steps[i])
		if err != nil {
			t.Fatalf("%s: step %d: %v", cs.Name, i+1, err)
		}
		res, err = frame.Compile(env, st, cur, named)
		if err != nil {
			var fe *frame.Error
			if !errors.As(err, &fe) {
				t.Fatalf("%s: %v", cs.Name, err)
			}
			where := fmt.Sprintf("step %d", i+1)
			if fe.Arg != "" {
				where += " " + fe.Arg
			}
			if exp.Error != "" {
				if errors.Is(err, frame.ErrLaktory) {
					return outcome{"exact", "fails as Laktory: " + where + ": " + fe.Msg}
				}
				return outcome{"refused", where + ": " + fe.Msg}
			}
			if errors.Is(err, frame.ErrLaktory) {
				return outcome{"different", fmt.Sprintf("%s: we say Laktory fails (%s), Laktory computes %d rows", where, fe.Msg, len(exp.Rows))}
			}
			return outcome{"refused", where + ": " + fe.Msg}
		}
		*seq++
		view := fmt.Sprintf("v%d", *seq)
		if _, err := db.Exec(fmt.Sprintf(`CREATE VIEW "%s" AS %s`, view, res.SQL)); err != nil {
			if exp.Error != "" {
				return outcome{"exact", "fails at run time as Laktory: " + firstLine(err.Error())}
			}
			return outcome{"different", fmt.Sprintf("step %d: DuckDB rejects the translation: %v\n%s", i+1, err, res.SQL)}
		}
		cur = frame.Input{Ref: "df", Relation: view, Columns: res.Columns}
	}
	rows, err := queryRows(db, cur.Relation, res)
	if err != nil {
		if exp.Error != "" {
			return outcome{"exact", "fails at run time as Laktory: " + firstLine(err.Error())}
		}
		return outcome{"different", fmt.Sprintf("the query fails: %v\n%s", err, res.SQL)}
	}
	if exp.Error != "" {
		return outcome{"different", "Laktory fails (" + exp.Error + "), we compute " + strconv.Itoa(len(rows)) + " rows"}
	}
	// Column names and types.
	var want, got []string
	for _, c := range exp.Columns {
		want = append(want, c[0]+":"+c[1])
	}
	for i, c := range res.Columns {
		got = append(got, c.Name+":"+res.Types[i])
	}
	if strings.Join(want, ", ") != strings.Join(got, ", ") {
		return outcome{"different", fmt.Sprintf("columns:\n  laktory %s\n  ours    %s", strings.Join(want, ", "), strings.Join(got, ", "))}
	}
	var wantRows [][]any
	for _, r := range exp.Rows {
		var v []any
		dec := json.NewDecoder(strings.NewReader(string(r)))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		wantRows = append(wantRows, v)
	}
	// Spark's sort is not stable: ties come in any order there.
	if msg := compareRows(wantRows, rows, cs.Ordered && backend == "POLARS"); msg != "" {
		return outcome{"different", msg + "\n" + res.SQL}
	}
	return outcome{"exact", fmt.Sprintf("%d rows", len(rows))}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func queryRows(db *sql.DB, view string, res *frame.Result) ([][]any, error) {
	r, err := db.Query(fmt.Sprintf(`SELECT * FROM "%s"`, view))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out [][]any
	for r.Next() {
		vals := make([]any, len(res.Columns))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := r.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]any, len(vals))
		for i, v := range vals {
			row[i] = canon(v, res.Types[i])
		}
		out = append(out, row)
	}
	return out, r.Err()
}

// canon converts a DuckDB value to the JSON form the script writes.
func canon(v any, typ string) any {
	switch x := v.(type) {
	case nil:
		return nil
	case time.Time:
		switch {
		case typ == "Date" || typ == "date":
			return x.Format("2006-01-02")
		case strings.Contains(typ, "time_zone='"):
			return isoTime(x.UTC()) + "Z"
		case typ == "timestamp":
			// pyspark collects a TIMESTAMP as a naive datetime of the session zone (UTC).
			return isoTime(x.UTC())
		}
		return isoTime(x)
	case float64:
		return canonFloat(x)
	case float32:
		return canonFloat(float64(x))
	case duckdb.Interval:
		return map[string]any{"micros": json.Number(strconv.FormatInt(int64(x.Days)*86400000000+x.Micros+int64(x.Months)*30*86400000000, 10))}
	case duckdb.Decimal:
		return x.String()
	case []any:
		inner := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(typ, "List("), "array<"), ")")
		inner = strings.TrimSuffix(inner, ">")
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canon(e, inner)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = canon(e, "")
		}
		return out
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, int:
		return json.Number(fmt.Sprint(x))
	case bool, string:
		return x
	}
	return fmt.Sprint(v)
}

func canonFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

func isoTime(t time.Time) string {
	s := t.Format("2006-01-02T15:04:05")
	if us := t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}

// equalValue compares a value of Laktory's JSON with ours (floats within
// a relative 1e-12).
func equalValue(want, got any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case json.Number:
		switch g := got.(type) {
		case json.Number:
			if w == g {
				return true
			}
			wf, _ := w.Float64()
			gf, _ := g.Float64()
			return wf == gf
		case float64:
			wf, err := w.Float64()
			if err != nil {
				return false
			}
			return closeFloat(wf, g)
		}
		return false
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !equalValue(w[i], g[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k := range w {
			if !equalValue(w[k], g[k]) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(want) == fmt.Sprint(got)
}

func closeFloat(a, b float64) bool {
	if a == b {
		return true
	}
	d := math.Abs(a - b)
	return d <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

func rowKey(r []any) string {
	b, _ := json.Marshal(r)
	return string(b)
}

func compareRows(want, got [][]any, ordered bool) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d rows, Laktory %d:\n  laktory %s\n  ours    %s", len(got), len(want), rowsText(want), rowsText(got))
	}
	if !ordered {
		sort.Slice(want, func(i, j int) bool { return rowKey(want[i]) < rowKey(want[j]) })
		sort.Slice(got, func(i, j int) bool { return rowKey(got[i]) < rowKey(got[j]) })
	}
	for i := range want {
		for j := range want[i] {
			if !equalValue(want[i][j], got[i][j]) {
				// Unordered rows sorted apart by a float's last digits: match greedily.
				if !ordered && matchAll(want, got) {
					return ""
				}
				return fmt.Sprintf("row %d, column %d: Laktory %v, ours %v:\n  laktory %s\n  ours    %s", i, j, want[i][j], got[i][j], rowsText(want), rowsText(got))
			}
		}
	}
	return ""
}

func matchAll(want, got [][]any) bool {
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for k, g := range got {
			if used[k] {
				continue
			}
			same := true
			for j := range w {
				same = same && equalValue(w[j], g[j])
			}
			if same {
				used[k], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func rowsText(rs [][]any) string {
	var parts []string
	for i, r := range rs {
		if i == 8 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, rowKey(r))
	}
	return strings.Join(parts, " ")
}

func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	if *heldout {
		held, _ := filepath.Glob("testdata/heldout/*.yaml")
		files = append(files, held...)
	}
	var status []string
	counts := map[string]map[string]int{}
	for _, spark := range []bool{false, true} {
		backend := "POLARS"
		if spark {
			backend = "PYSPARK"
		}
		db, err := sql.Open("duckdb", "")
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		if _, err := db.Exec("SET TimeZone = 'UTC'"); err != nil {
			t.Fatal(err)
		}
		// The scalar functions the translations call (spark_percentile,
		// spark_xxhash64, ...), as the local engine registers them.
		if err := local.RegisterFunctions(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		if err := sparksql.Install(context.Background(), func(ctx context.Context, s string) error {
			_, err := db.ExecContext(ctx, s)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		tables := loadTables(t, db, spark)
		seq := 0
		for _, path := range files {
			if strings.HasSuffix(path, "tables.yaml") {
				continue
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var cf corpusFile
			if err := yaml.Unmarshal(raw, &cf); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			expRaw, err := os.ReadFile(strings.TrimSuffix(path, ".yaml") + ".expected.json")
			if err != nil {
				t.Fatalf("%s: the expectations are missing: run scripts/frame/corpus.sh", path)
			}
			var exps map[string]*expected
			if err := json.Unmarshal(expRaw, &exps); err != nil {
				t.Fatal(err)
			}
			family := strings.TrimSuffix(strings.TrimPrefix(path, "testdata/"), ".yaml")
			for i := range cf.Cases {
				cs := &cf.Cases[i]
				bs := cs.Backends
				if bs == nil {
					bs = cf.Backends
				}
				if bs == nil {
					bs = []string{"POLARS"}
				}
				for _, b := range bs {
					if b != backend {
						continue
					}
					exp, ok := exps[cs.Name+"@"+b]
					if !ok {
						t.Errorf("%s: %s@%s has no expectation: run scripts/frame/corpus.sh", path, cs.Name, b)
						continue
					}
					o := runCase(t, db, tables, cs, b, exp, &seq)
					part := "dev"
					if strings.HasPrefix(family, "heldout/") {
						part = "heldout"
					}
					k := b + " " + part
					if counts[k] == nil {
						counts[k] = map[string]int{}
					}
					counts[k][o.kind]++
					status = append(status, fmt.Sprintf("%s %s@%s: %s: %s", family, cs.Name, b, o.kind, strings.ReplaceAll(o.msg, "\n", " | ")))
					if o.kind == "different" {
						t.Errorf("%s %s@%s: %s", family, cs.Name, b, o.msg)
					}
				}
			}
		}
		db.Close()
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var summary []string
	for _, k := range keys {
		c := counts[k]
		summary = append(summary, fmt.Sprintf("%s: %d exact, %d refused, %d different", k, c["exact"], c["refused"], c["different"]))
	}
	t.Log("\n" + strings.Join(summary, "\n"))
	text := strings.Join(summary, "\n") + "\n\n" + strings.Join(status, "\n") + "\n"
	if *update {
		if err := os.WriteFile("testdata/status.txt", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
