package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
)

// jsonInferCase is a case of testdata/json-infer/cases.json: rows whose
// shape changes after the rows DuckDB's JSON reader samples (20,480).
type jsonInferCase struct {
	Rows       int               `json:"rows"`
	ChangeAt   int               `json:"change_at"`
	Early      map[string]any    `json:"early"`
	Late       map[string]any    `json:"late"`
	Aggregates map[string]string `json:"aggregates"`
}

// jsonInferLines renders a case's rows as scripts/interop/spark_json_infer.py
// writes them (json.dumps: ", " and ": " separators, keys in the order of
// the case, which Go's maps do not keep: the keys are given in order).
func jsonInferLines(c jsonInferCase, order []string) string {
	fill := func(v any, i int) string {
		switch x := v.(type) {
		case nil:
			return "null"
		case string:
			switch x {
			case "i":
				return fmt.Sprint(i)
			case "i+0.5":
				return fmt.Sprint(float64(i) + 0.5)
			}
			b, _ := json.Marshal(strings.ReplaceAll(x, "{i}", fmt.Sprint(i)))
			return string(b)
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	var render func(m map[string]any, i int) string
	render = func(m map[string]any, i int) string {
		var parts []string
		for _, k := range order {
			v, ok := m[k]
			if !ok {
				continue
			}
			if sub, ok := v.(map[string]any); ok {
				parts = append(parts, fmt.Sprintf("%q: %s", k, render(sub, i)))
				continue
			}
			parts = append(parts, fmt.Sprintf("%q: %s", k, fill(v, i)))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	var b strings.Builder
	for i := 0; i < c.Rows; i++ {
		m := c.Early
		if i >= c.ChangeAt {
			m = c.Late
		}
		b.WriteString(render(m, i) + "\n")
	}
	return b.String()
}

// sameValue: the same text, or the same number (DuckDB and Python print
// doubles differently).
func sameValue(a, b string) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	return a == b || (errA == nil && errB == nil && x == y)
}

// sparkSimpleString is a Delta type as Spark's DataType.simpleString.
func sparkSimpleString(t delta.DataType) string {
	switch x := t.(type) {
	case delta.PrimitiveType:
		switch x {
		case delta.LongType:
			return "bigint"
		case delta.IntegerType:
			return "int"
		}
		return string(x)
	case *delta.StructType:
		parts := make([]string, len(x.Fields))
		for i, f := range x.Fields {
			parts[i] = f.Name + ":" + sparkSimpleString(f.Type)
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	case *delta.ArrayType:
		return "array<" + sparkSimpleString(x.ElementType) + ">"
	}
	return fmt.Sprint(t)
}

// TestJSONInferWholeFile: a PYSPARK JSON source is typed from every row,
// as Spark's JSON inference reads the whole file (samplingRatio 1.0): a key
// first seen after row 20,480 (DuckDB's sample) is a column (a field of a
// nested object too), a long column that holds a fraction later is a
// double, a column of nulls that holds numbers later is a bigint, with
// Spark's values. The schemas and aggregates were recorded from Spark 4.2
// by scripts/interop/spark_json_infer.py (testdata/json-infer/spark.json).
func TestJSONInferWholeFile(t *testing.T) {
	var cases map[string]jsonInferCase
	var want map[string]struct {
		Schema     string             `json:"schema"`
		Aggregates map[string]*string `json:"aggregates"`
	}
	for f, v := range map[string]any{"cases.json": &cases, "spark.json": &want} {
		b, err := os.ReadFile(filepath.Join("testdata", "json-infer", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	order := []string{"id", "v", "late", "z", "o", "k", "n"}
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	sort.Strings(names)
	files := map[string]string{}
	yaml := "name: pl\nnodes:\n"
	for _, name := range names {
		files["data/"+name+".jsonl"] = jsonInferLines(cases[name], order)
		yaml += "- name: " + name + "\n  sources:\n  - path: ../data/" + name + ".jsonl\n    format: JSONL\n" +
			"  sinks:\n  - table_name: " + name + "\n    mode: APPEND\n"
	}
	files["pipelines/pl.yaml"] = yaml
	w := newWS(t, files)
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	for _, name := range names {
		s, err := delta.LoadSnapshot(context.Background(), w.table(name))
		if err != nil {
			t.Fatal(err)
		}
		got := sparkSimpleString(s.Schema())
		if got != want[name].Schema {
			t.Errorf("%s: schema %s, Spark infers %s", name, got, want[name].Schema)
		}
		for agg, q := range cases[name].Aggregates {
			rows := query(t, r, w.table(name), q)
			v := rows[0][0]
			if w := want[name].Aggregates[agg]; w == nil || !sameValue(v, *w) {
				t.Errorf("%s: %s = %s, Spark gives %v", name, q, v, *w)
			}
		}
	}
}
