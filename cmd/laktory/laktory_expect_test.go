package main

import (
	"fmt"
	"strings"
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
