package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// expectData has NULLs in both columns the expectations read: per row,
// x > 2 is TRUE (1, 6), FALSE (2, 4) or NULL (3, 5), y > 2 TRUE (1, 2),
// FALSE (3, 4, 6) or NULL (5).
// (No negative numbers: our POLARS JSONL reader types a column of
// them DECIMAL(38,0) where Polars reads Int64, a difference of the
// reader, not of expectations.)
const expectData = `{"id": 1, "x": 5, "y": 3}
{"id": 2, "x": 1, "y": 3}
{"id": 3, "x": null, "y": 1}
{"id": 4, "x": 0, "y": 1}
{"id": 5, "x": null, "y": null}
{"id": 6, "x": 3, "y": 0}
`

// expectNode is a node reading expectData with the given expectations,
// writing its output to lake/NAME and its quarantine frame to lake/NAME_q.
func expectNode(name, expectations string) string {
	return fmt.Sprintf(`- name: %[1]s
  sources:
  - path: ../data/t.jsonl
    format: JSONL
  expectations:
%[2]s  sinks:
  - path: ../lake/%[1]s
    format: DELTA
    mode: OVERWRITE
  - path: ../lake/%[1]s_q
    format: DELTA
    mode: OVERWRITE
    is_quarantine: true
`, name, expectations)
}

// expectNodes are every expectation action and combination, on data with
// NULLs: a row whose expectation is NULL is neither a failure, nor kept by
// DROP or QUARANTINE, nor quarantined; QUARANTINE expectations quarantine
// the rows failing all of them; without a QUARANTINE expectation the
// quarantine sink gets the whole frame; tolerances abs and rel; WARN
// messages with Laktory's counts.
var expectNodes = []struct{ name, exps string }{
	{"warn", "  - {name: xp, expr: x > 2, action: WARN}\n"},
	{"drop", "  - {name: xp, expr: x > 2, action: DROP}\n"},
	{"quarantine", "  - {name: xp, expr: x > 2, action: QUARANTINE}\n"},
	{"quarantine2", "  - {name: xp, expr: x > 2, action: QUARANTINE}\n  - {name: yp, expr: y > 2, action: QUARANTINE}\n"},
	{"quarantine_drop", "  - {name: xp, expr: x > 2, action: QUARANTINE}\n  - {name: yp, expr: y > 2, action: DROP}\n"},
	{"drop_warn", "  - {name: yp, expr: y > 2, action: DROP, tolerance: {abs: 3}}\n  - {name: xp, expr: x > 2, action: WARN, tolerance: {rel: 0.3}}\n"},
	{"fail_tolerated", "  - {name: xp, expr: x > 2, action: FAIL, tolerance: {abs: 2}}\n  - {name: yp, expr: y > 2, action: FAIL, tolerance: {rel: 0.5}}\n  - {name: nn, expr: x IS NOT NULL OR y IS NULL, action: QUARANTINE}\n"},
	{"null_only", "  - {name: xn, expr: x + y > 100 OR x > 4, action: DROP}\n"},
}

// expectScenario runs expectNodes in one POLARS pipeline, then a FAIL
// expectation beyond its tolerance (both runs fail, nothing is written)
// and one within it.
func expectScenario() execScenario {
	var b strings.Builder
	b.WriteString("name: pl-dq\ndataframe_backend: POLARS\nnodes:\n")
	tables := map[string]string{}
	for _, n := range expectNodes {
		b.WriteString(expectNode(n.name, n.exps))
		tables[n.name], tables[n.name+"_q"] = "lake/"+n.name, "lake/"+n.name+"_q"
	}
	fail := "name: pl-fail\ndataframe_backend: POLARS\nnodes:\n" +
		expectNode("fail", "  - {name: yp, expr: y > 2, action: WARN}\n  - {name: xp, expr: x > 2, action: FAIL, tolerance: {rel: 0.3}}\n")
	tables["fail"], tables["fail_q"] = "lake/fail", "lake/fail_q"
	return execScenario{
		name: "expectations on data with NULLs",
		files: map[string]string{
			"pipelines/pl-dq.yaml":   b.String(),
			"pipelines/pl-fail.yaml": fail,
			"data/t.jsonl":           expectData,
		},
		tables: tables,
		steps: []execStep{
			{name: "every action", pipeline: "pl-dq"},
			{name: "FAIL beyond tolerance", pipeline: "pl-fail",
				fails: "Expectation 'xp' failed on node 'fail' | expr: x > 2 | status: FAIL | fails count: 2 / 6 (33.33 %)"},
			{name: "FAIL within tolerance", pipeline: "pl-fail",
				files: map[string]string{"pipelines/pl-fail.yaml": strings.Replace(fail, "rel: 0.3", "rel: 0.34", 1)}},
		},
	}
}

// expectCorpusFile is a file of the expectation parity corpus
// (runner/testdata/expectations; heldout.json says how a scenario runs).
type expectCorpusFile struct {
	// Schema is the columns' types ("": id, x, y bigint, s string); a
	// DOUBLE column's "NaN" is a float NaN.
	Schema    string             `json:"schema"`
	Batches   [][]map[string]any `json:"batches"`
	Scenarios []struct {
		Name           string           `json:"name"`
		Stream         bool             `json:"stream"`
		QuarantineSink bool             `json:"quarantine_sink"`
		Expectations   []map[string]any `json:"expectations"`
	} `json:"scenarios"`
}

// expectCorpusScenarios are the batch scenarios of the expectation parity
// corpus on POLARS (Laktory 0.13.1 streams on PYSPARK only: the stream
// ones are TestExpectationsLaktoryParity's), each a pipeline over a folder
// of JSON lines (a corpus with a schema, floats with NaN: CSV files read
// with infer_schema): a first run over batches[0], a second once batches[1]
// has landed beside it (sinks OVERWRITE). Each step must end as Laktory's
// does: both succeed, or both fail with Laktory's message; then the
// warnings, output and quarantine tables must be the same.
//
// AGGREGATE ones need pandas in $LAKTORY_PYTHON, as Laktory does (LK153;
// scripts/requirements-interop.txt installs it): without it they are left
// out, saying so.
func expectCorpusScenarios(t *testing.T, py string) []execScenario {
	t.Helper()
	pandas := exec.Command(py, "-c", "import pandas").Run() == nil
	var out []execScenario
	for _, part := range []string{"dev", "heldout", "nan", "nan_heldout", "dfexpr", "dfexpr_heldout", "combos"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "runner", "testdata", "expectations", part+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var c expectCorpusFile
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s.json: %v", part, err)
		}
		lines := make([]string, len(c.Batches))
		format, ext := "JSONL", "jsonl"
		if c.Schema != "" {
			// Floats with NaN: JSON has no NaN, a CSV file does (polars
			// reads NaN as a Float64 NaN, an empty field as NULL).
			format, ext = "CSV, infer_schema: true", "csv"
		}
		for k, batch := range c.Batches {
			var b strings.Builder
			if c.Schema != "" {
				names := schemaNames(c.Schema)
				doubles := map[string]bool{}
				for _, f := range strings.Split(c.Schema, ",") {
					if fs := strings.Fields(f); strings.EqualFold(fs[1], "DOUBLE") {
						doubles[fs[0]] = true
					}
				}
				b.WriteString(strings.Join(names, ",") + "\n")
				for _, row := range batch {
					fields := make([]string, len(names))
					for j, n := range names {
						switch v := row[n].(type) {
						case nil:
						case float64:
							// A DOUBLE column's numbers with a point, so
							// that polars infers Float64 from any of them.
							fields[j] = strconv.FormatFloat(v, 'f', -1, 64)
							if doubles[n] && !strings.ContainsAny(fields[j], ".e") {
								fields[j] += ".0"
							}
						default:
							fields[j] = fmt.Sprint(v)
						}
					}
					b.WriteString(strings.Join(fields, ",") + "\n")
				}
				lines[k] = b.String()
				continue
			}
			for _, row := range batch {
				// The columns in one order, so that polars reads them so.
				fmt.Fprintf(&b, `{"id": %s, "x": %s, "y": %s, "s": %s}`+"\n", jsonText(t, row["id"]), jsonText(t, row["x"]), jsonText(t, row["y"]), jsonText(t, row["s"]))
			}
			lines[k] = b.String()
		}
		for _, sc := range c.Scenarios {
			if sc.Stream {
				continue
			}
			exps, err := json.Marshal(sc.Expectations)
			if !pandas && strings.Contains(string(exps), `"AGGREGATE"`) {
				t.Logf("expectation corpus %s %s left out: %s has no pandas, which Laktory's AGGREGATE expectations need on POLARS (pip install -r scripts/requirements-interop.txt)", part, sc.Name, py)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			y := `name: pl
dataframe_backend: POLARS
nodes:
- name: n
  sources:
  - {path: ../data/src/, format: ` + format + `}
  expectations: ` + string(exps) + `
  sinks:
  - {path: ../lake/out, format: DELTA, mode: OVERWRITE}
`
			tables := map[string]string{"out": "lake/out"}
			if sc.QuarantineSink {
				y += "  - {path: ../lake/quarantine, format: DELTA, mode: OVERWRITE, is_quarantine: true}\n"
				tables["quarantine"] = "lake/quarantine"
			}
			out = append(out, execScenario{
				name:   "expectation corpus " + part + " " + sc.Name,
				files:  map[string]string{"pipelines/pl.yaml": y, "data/src/0." + ext: lines[0]},
				tables: tables,
				steps: []execStep{
					{name: "first run", pipeline: "pl", sameOutcome: true},
					{name: "more rows", pipeline: "pl", sameOutcome: true, files: map[string]string{"data/src/1." + ext: lines[1]}},
				},
			})
		}
	}
	return out
}

// schemaNames are the column names of a corpus schema ("id BIGINT, s
// STRING, ...").
func schemaNames(schema string) []string {
	var names []string
	for _, f := range strings.Split(schema, ",") {
		names = append(names, strings.Fields(f)[0])
	}
	return names
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
