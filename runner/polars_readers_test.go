package runner

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/polarsread"
	"github.com/laktory/workbench/runner/polarssql"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// The Polars reader corpus (runner/polarsread/testdata/corpus): file
// sources of POLARS pipelines with the options and reader_kwargs people
// pass, and what Laktory 0.13.1's FileDataSource.read() gives for them
// (polars 1.32.0; scripts/polars/readers_corpus.py). Each case is read
// by readFileList, the local runs' reader, and classed: the same names,
// dtypes and rows (exact); both fail (polars' error, which Laktory's run
// fails with); refused (what local runs do not read as polars does,
// polarsread.ErrUnsupported, named at run time); or different, which must
// not happen. The heldout/ part was written before the reader code.

type readerCase struct {
	Name         string            `json:"name"`
	Format       string            `json:"format"`
	HasHeader    *bool             `json:"has_header"`
	InferSchema  *bool             `json:"infer_schema"`
	ReaderKwargs json.RawMessage   `json:"reader_kwargs"`
	Content      *string           `json:"content"`
	Files        map[string]string `json:"files"`
	Parquet      json.RawMessage   `json:"parquet"`
	IPC          string            `json:"ipc"`
	// Schema is the source's `schema` (Laktory's spelling).
	Schema json.RawMessage `json:"schema"`
}

// errValidate marks a case validate refuses (an error diagnostic).
var errValidate = errors.New("refused at validate")

type readerExpected struct {
	Schema  [][2]string       `json:"schema"`
	Rows    []json.RawMessage `json:"rows"`
	Error   string            `json:"error"`
	Message string            `json:"message"`
}

func TestPolarsReaderCorpus(t *testing.T) {
	ctx := context.Background()
	db, err := local.OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "SET TimeZone = 'America/St_Johns'"); err != nil {
		t.Fatal(err)
	}
	if err := polarssql.Install(ctx, func(ctx context.Context, s string) error { _, err := db.ExecContext(ctx, s); return err }); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("polarsread", "testdata", "corpus")
	var files []string
	for _, pat := range []string{"*.json", "heldout/*.json"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, f := range m {
			if !strings.HasSuffix(f, ".expected.json") {
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	type tally struct{ exact, fails, refused, different int }
	sums := map[string]*tally{}
	for _, f := range files {
		part := "dev"
		if strings.Contains(f, "heldout") {
			part = "held-out"
		}
		var cases []readerCase
		readJSON(t, f, &cases)
		var want map[string]readerExpected
		readJSON(t, strings.TrimSuffix(f, ".json")+".expected.json", &want)
		for _, c := range cases {
			exp, ok := want[c.Name]
			if !ok {
				t.Fatalf("%s: %s has no expectation (run scripts/polars/readers_corpus.py)", f, c.Name)
			}
			key := part + " " + strings.ToUpper(c.Format)
			if c.Schema != nil {
				key = part + " schema"
				if strings.ToUpper(c.Format) == "JSON" {
					key += " JSON"
				} else if b := filepath.Base(f); b != "schema.json" {
					key += " " + strings.TrimSuffix(b, ".json")
				}
			}
			if sums[key] == nil {
				sums[key] = &tally{}
			}
			s := sums[key]
			got, err := readCase(ctx, t, db, c)
			switch {
			case errors.Is(err, errValidate) && exp.Error == "":
				s.different++
				t.Errorf("%s %s: %v, Laktory reads %v %s", part, c.Name, err, exp.Schema, joinRaw(exp.Rows))
			case errors.Is(err, errValidate) && exp.Error != "ValidationError" && !strings.Contains(err.Error(), exp.Message):
				// polars' exception must be named as it is; Laktory's own
				// model refusals (pydantic) are counted as refused.
				s.different++
				t.Errorf("%s %s: %v, Laktory fails: [%s] %s", part, c.Name, err, exp.Error, exp.Message)
			case errors.Is(err, errValidate):
				s.refused++
				t.Logf("%s %s: %v", part, c.Name, err)
			case errors.Is(err, polarsread.ErrUnsupported):
				s.refused++
				t.Logf("%s %s: refused: %v", part, c.Name, err)
			case err != nil && exp.Error == "TypeError" && !strings.Contains(err.Error(), "TypeError: "+exp.Message):
				// polars' TypeError is raised before a file is read, and
				// validate reports it as it is: the message must be polars'.
				s.different++
				t.Errorf("%s %s: failed saying %v, Laktory fails: [%s] %s", part, c.Name, err, exp.Error, exp.Message)
			case err != nil && exp.Error != "":
				s.fails++
			case err != nil:
				s.different++
				t.Errorf("%s %s: failed, Laktory reads %v %s: %v", part, c.Name, exp.Schema, joinRaw(exp.Rows), err)
			case exp.Error != "":
				s.different++
				t.Errorf("%s %s: read %s, Laktory fails: [%s] %s", part, c.Name, got, exp.Error, exp.Message)
			default:
				if w := canonExpected(t, exp); got != w {
					s.different++
					t.Errorf("%s %s:\n got  %s\n want %s", part, c.Name, got, w)
				} else {
					s.exact++
				}
			}
		}
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := sums[k]
		t.Logf("%-16s exact %d, both fail %d, refused %d, different %d", k, s.exact, s.fails, s.refused, s.different)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// yamlValue converts JSON values to what the workspace decoder gives for
// YAML (integers int64).
func yamlValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = yamlValue(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = yamlValue(x[k])
		}
	}
	return v
}

var exts = map[string]string{"CSV": "csv", "JSON": "json", "JSONL": "jsonl", "NDJSON": "ndjson", "PARQUET": "parquet", "IPC": "arrow"}

// readCase writes a case's files and reads them as a POLARS source:
// "schema [[name, dtype]...] rows [...]" in the corpus' canonical JSON.
func readCase(ctx context.Context, t *testing.T, db *sql.DB, c readerCase) (string, error) {
	dir := filepath.Join(t.TempDir(), c.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	switch {
	case c.Files != nil:
		for n, text := range c.Files {
			p := filepath.Join(dir, n)
			os.WriteFile(p, []byte(text), 0o644) //nolint:errcheck
			paths = append(paths, p)
		}
		sort.Strings(paths)
	case c.IPC != "":
		p, err := filepath.Abs(filepath.Join("polarsread", "testdata", "corpus", "ipc", c.IPC+".arrow"))
		if err != nil {
			t.Fatal(err)
		}
		paths = []string{p}
	case c.Parquet != nil:
		p := filepath.Join(dir, "data.parquet")
		if err := writeParquet(ctx, db, p, c.Parquet); err != nil {
			t.Fatal(err)
		}
		paths = []string{p}
	default:
		p := filepath.Join(dir, "data."+exts[strings.ToUpper(c.Format)])
		os.WriteFile(p, []byte(*c.Content), 0o644) //nolint:errcheck
		paths = []string{p}
	}
	src := &workspace.Source{Kind: workspace.SourceFile, Backend: "POLARS", Format: strings.ToUpper(c.Format), HasHeader: c.HasHeader, InferSchema: c.InferSchema}
	if c.ReaderKwargs != nil {
		dec := json.NewDecoder(bytes.NewReader(c.ReaderKwargs))
		dec.UseNumber()
		var kw map[string]any
		if err := dec.Decode(&kw); err != nil {
			t.Fatal(err)
		}
		src.ReaderKwargs = yamlValue(kw).(map[string]any)
	}
	if c.Schema != nil {
		// The source as the workspace decodes it, checked by validate.
		yaml := "name: pl\ndataframe_backend: POLARS\nnodes:\n- name: a\n  sources:\n  - path: " + dir + "\n    format: " + src.Format +
			"\n    schema: " + string(c.Schema) + "\n  sinks:\n  - path: out/\n    format: DELTA\n    mode: APPEND\n"
		snap := workspacetest.Load(t, map[string]string{"pl.yaml": yaml}, workspace.Options{})
		for _, d := range validate.Check(snap, validate.Options{}) {
			if d.Severity == validate.Error {
				return "", fmt.Errorf("%w: %s %s", errValidate, d.Code, d.Message)
			}
		}
		src.Schema = snap.Pipelines[0].Nodes[0].Sources[0].Schema
	}
	q, err := readFileList(ctx, db, paths, src.Format, readOptions{src: src})
	if err != nil {
		return "", err
	}
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return "", err
	}
	schema := make([][2]string, len(cts))
	for i, ct := range cts {
		schema[i] = [2]string{ct.Name(), polarsDtypeOf(ct.DatabaseTypeName())}
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		cells := make([]string, len(vals))
		for i, v := range vals {
			cells[i] = canonValue(v, cts[i].DatabaseTypeName())
		}
		out = append(out, "["+strings.Join(cells, ", ")+"]")
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	sb, _ := json.Marshal(schema)
	// The rows of a table are a set (the database keeps no order); the
	// order matters where polars' order decides what is read: a row index
	// numbers the rows, n_rows takes the first ones (both kept in rows).
	sort.Strings(out)
	return fmt.Sprintf("schema %s rows [%s]", sb, strings.Join(out, ", ")), nil
}

// writeParquet writes a case's columns ({"a": [1, 2], ...}, in the JSON's
// key order) as polars would: integers Int64, floats Float64, strings.
func writeParquet(ctx context.Context, db *sql.DB, path string, raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return err
	}
	var names []string
	var cols [][]any
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var vals []any
		if err := dec.Decode(&vals); err != nil {
			return err
		}
		names = append(names, tok.(string))
		cols = append(cols, vals)
	}
	sel := make([]string, len(names))
	for i, n := range names {
		typ := "VARCHAR"
		for _, v := range cols[i] {
			switch x := v.(type) {
			case json.Number:
				if strings.ContainsAny(x.String(), ".eE") {
					typ = "DOUBLE"
				} else if typ != "DOUBLE" {
					typ = "BIGINT"
				}
			case bool:
				typ = "BOOLEAN"
			}
		}
		lits := make([]string, len(cols[i]))
		for j, v := range cols[i] {
			switch x := v.(type) {
			case nil:
				lits[j] = "NULL"
			case string:
				lits[j] = quoteString(x)
			default:
				lits[j] = fmt.Sprint(x)
			}
		}
		sel[i] = fmt.Sprintf("CAST(unnest([%s]) AS %s) AS %s", strings.Join(lits, ", "), typ, quoteIdent(n))
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf("COPY (SELECT %s) TO %s (FORMAT parquet)", strings.Join(sel, ", "), quoteString(path)))
	return err
}

func polarsDtypeOf(duck string) string {
	switch duck {
	case "BIGINT":
		return "Int64"
	case "INTEGER":
		return "Int32"
	case "UINTEGER":
		return "UInt32"
	case "UTINYINT":
		return "UInt8"
	case "USMALLINT":
		return "UInt16"
	case "UBIGINT":
		return "UInt64"
	case "HUGEINT":
		return "Int128"
	case "DOUBLE":
		return "Float64"
	case "BOOLEAN":
		return "Boolean"
	case "VARCHAR":
		return "String"
	case "DATE":
		return "Date"
	case "FLOAT":
		return "Float32"
	case "SMALLINT":
		return "Int16"
	case "TINYINT":
		return "Int8"
	case "TIMESTAMP":
		return "Datetime(time_unit='us', time_zone=None)"
	case "TIMESTAMP_MS":
		return "Datetime(time_unit='ms', time_zone=None)"
	case "TIMESTAMP_NS":
		return "Datetime(time_unit='ns', time_zone=None)"
	case "TIMESTAMPTZ":
		return "Datetime(time_unit='us', time_zone='UTC')"
	case `"NULL"`, "NULL", "JSON":
		// DuckDB's JSON reader types a key null in every object JSON;
		// polarssql reads such a column as polars' Null.
		return "Null"
	}
	if strings.HasPrefix(duck, "DECIMAL(") {
		p, sc, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(duck, "DECIMAL("), ")"), ",")
		return fmt.Sprintf("Decimal(precision=%s, scale=%s)", strings.TrimSpace(p), strings.TrimSpace(sc))
	}
	if strings.HasSuffix(duck, "[]") {
		return "List(" + polarsDtypeOf(strings.TrimSuffix(duck, "[]")) + ")"
	}
	if strings.HasPrefix(duck, "STRUCT(") {
		var fields []string
		depth, start := 0, len("STRUCT(")
		body := duck[:len(duck)-1]
		for i := start; i <= len(body); i++ {
			if i == len(body) || body[i] == ',' && depth == 0 {
				f := strings.TrimSpace(body[start:i])
				name, typ, _ := strings.Cut(f, " ")
				fields = append(fields, "'"+strings.Trim(name, `"`)+"': "+polarsDtypeOf(typ))
				start = i + 1
				continue
			}
			switch body[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		return "Struct({" + strings.Join(fields, ", ") + "})"
	}
	return duck
}

func canonValue(v any, typ string) string {
	if f, ok := v.(float32); ok {
		v = float64(f) // as Python's float of a Float32
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		switch {
		case math.IsNaN(x):
			return `"nan"`
		case math.IsInf(x, 1):
			return `"inf"`
		case math.IsInf(x, -1):
			return `"-inf"`
		}
		return canonFloat(x)
	case duckdb.Decimal:
		// As Python's str(Decimal): every digit of the scale.
		d := x.Value.String()
		neg := strings.HasPrefix(d, "-")
		d = strings.TrimPrefix(d, "-")
		if x.Scale > 0 {
			for len(d) <= int(x.Scale) {
				d = "0" + d
			}
			d = d[:len(d)-int(x.Scale)] + "." + d[len(d)-int(x.Scale):]
		}
		if neg {
			d = "-" + d
		}
		return `"` + d + `"`
	case time.Time:
		switch typ {
		case "DATE":
			return `"` + x.Format("2006-01-02") + `"`
		case "TIMESTAMPTZ":
			return `"` + x.UTC().Format("2006-01-02T15:04:05.000000") + `Z"`
		}
		return `"` + x.Format("2006-01-02T15:04:05.000000") + `"`
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// canonFloat writes a float as Python's json does (1.0, not 1).
func canonFloat(x float64) string {
	b, _ := json.Marshal(x)
	s := string(b)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// canonExpected is an expectation in readCase's form.
func canonExpected(t *testing.T, e readerExpected) string {
	sb, _ := json.Marshal(e.Schema)
	rows := make([]string, len(e.Rows))
	for i, r := range e.Rows {
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.UseNumber()
		var cells []any
		if err := dec.Decode(&cells); err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(cells))
		for j, c := range cells {
			switch x := c.(type) {
			case json.Number:
				if strings.ContainsAny(x.String(), ".eE") {
					f, _ := x.Float64()
					out[j] = canonFloat(f)
				} else {
					out[j] = x.String()
				}
			default:
				b, _ := json.Marshal(x)
				out[j] = string(b)
			}
		}
		rows[i] = "[" + strings.Join(out, ", ") + "]"
	}
	sort.Strings(rows)
	return fmt.Sprintf("schema %s rows [%s]", sb, strings.Join(rows, ", "))
}

func joinRaw(rows []json.RawMessage) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = string(r)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

var _ = slices.Contains[[]string]
