package runner

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/validate"
)

// TestLaktoryParserEverywhere: a source's filter and selects and every
// expectation are read by Laktory's own SQL parser on both backends
// (Laktory 0.13.1's sql_expr; expectations are always NARWHALS): what it
// refuses is refused at validate with its exception and message, a list
// item of selects is named as polars and narwhals name it (after its
// leftmost column), and on PYSPARK the narwhals expression computes what
// narwhals computes on Spark (true division: NaN and infinities by zero,
// not Spark SQL's DIVIDE_BY_ZERO; floored modulo; COUNT(x) counts every
// row), on POLARS what it computes on polars (names are case-sensitive).
func TestLaktoryParserEverywhere(t *testing.T) {
	const data = `{"id": 1, "a": 7, "b": 3, "s": "x"}` + "\n" + `{"id": 2, "a": 4, "b": 0, "s": null}` + "\n" + `{"id": 3, "a": 0, "b": 0, "s": "z"}` + "\n"
	pipeline := func(backend, src, exp string) string {
		return "name: pl\ndataframe_backend: " + backend + "\nnodes:\n- name: n\n  sources:\n  - path: ../data/in.jsonl\n    format: JSONL\n" + src +
			"  sinks:\n  - path: ../out/n\n    format: DELTA\n    mode: OVERWRITE\n" + exp
	}
	type refusal struct{ at, msg string }
	tests := []struct {
		name, src, exp string
		backends       []string
		refused        *refusal // at validate, at line:col
		rows           string   // SELECT * FROM the sink, ordered by id
	}{
		// The five raises of laktory/sqlparser.py (docs/laktory-rules.md),
		// the expression as sqlglot prints it.
		{name: "filter IN", src: "    filter: id IN (1, 2)\n", backends: []string{"POLARS", "PYSPARK"},
			refused: &refusal{"8:16", "[Exception] expression id IN (1, 2) of type '<class 'sqlglot.expressions.core.In'>' is not currently supported"}},
		{name: "filter a.b.c", src: "    filter: s.x.y = 'a'\n", backends: []string{"POLARS", "PYSPARK"},
			refused: &refusal{"8:13", "[Exception] Column expression s.x.y with more than 2 parts is not supported"}},
		{name: "filter IS 5", src: "    filter: (a IS NOT 5) AND b > 0\n", backends: []string{"POLARS", "PYSPARK"},
			refused: &refusal{"8:23", "[Exception] IS expression with right-hand side 5 of type '<class 'sqlglot.expressions.core.Literal'>' is not currently supported"}},
		{name: "filter COALESCE", src: "    filter: COALESCE(s, 'x') = 'x'\n", backends: []string{"POLARS", "PYSPARK"},
			refused: &refusal{"8:13", "[ValueError] Unsupported function s of type <class 'sqlglot.expressions.functions.Coalesce'>"}},
		{name: "IS over a comparison, as sqlglot reads it", src: "    filter: b = 0 = a IS NULL\n", backends: []string{"POLARS", "PYSPARK"},
			rows: "[[1 7 3 x]]"},
		{name: "filter LIKE", src: "    filter: s LIKE 'x%'\n", backends: []string{"POLARS", "PYSPARK"},
			refused: &refusal{"8:15", "Unsupported binary operator <class 'sqlglot.expressions.core.Like'>"}},
		{name: "filter CAST", src: "    filter: CAST(id AS STRING) = '1'\n", backends: []string{"POLARS", "PYSPARK"},
			refused: &refusal{"8:13", "module 'narwhals' has no attribute 'Utf8'"}},
		{name: "expectation COUNT(*)", exp: "  expectations:\n  - {name: e, expr: COUNT(*) > 1, type: AGGREGATE, action: FAIL}\n", backends: []string{"POLARS", "PYSPARK"},
			refused: &refusal{"13:21", "expression * of type '<class 'sqlglot.expressions.core.Star'>' is not currently supported"}},
		{name: "POLARS names are case-sensitive", src: "    filter: ID > 1\n", backends: []string{"POLARS"},
			refused: &refusal{"8:13", `[ColumnNotFoundError] unable to find column "ID"`}},
		{name: "Spark names are not", src: "    filter: ID > 1\n", backends: []string{"PYSPARK"}, rows: "[[2 4 0 NULL] [3 0 0 z]]"},
		{name: "a missing column on Spark is Spark's error", src: "    filter: idd > 1\n", backends: []string{"PYSPARK"},
			refused: &refusal{"8:13", "[UNRESOLVED_COLUMN.WITH_SUGGESTION]"}},
		{name: "selects: a list item named after its leftmost column", src: "    selects: [id, b - a]\n", backends: []string{"POLARS", "PYSPARK"},
			rows: "[[1 -4] [2 -4] [3 0]]"},
		{name: "selects: two items of one name", src: "    selects: [id, id + b]\n", backends: []string{"POLARS"},
			refused: &refusal{"8:14", "[DuplicateError] the name 'id' is duplicate"}},
		{name: "selects: a mapping's name", src: "    selects: {id: id, b - a: total}\n", backends: []string{"POLARS", "PYSPARK"},
			rows: "[[1 -4] [2 -4] [3 0]]"},
		{name: "true division and floored modulo", src: "    selects: {id: id, (b - a) / b: q, (b - a) % 3: m}\n", backends: []string{"POLARS", "PYSPARK"},
			rows: "[[1 -1.3333333333333333 2] [2 -Infinity 2] [3 NaN 0]]"},
		{name: "IS TRUE is false on NULL", src: "    filter: (s = 'x') IS NOT TRUE\n", backends: []string{"POLARS", "PYSPARK"},
			rows: "[[2 4 0 NULL] [3 0 0 z]]"},
		{name: "COUNT(x) counts every row", exp: "  expectations:\n  - {name: e, expr: COUNT(s) > 2, type: AGGREGATE, action: FAIL}\n", backends: []string{"POLARS", "PYSPARK"},
			rows: "[[1 7 3 x] [2 4 0 NULL] [3 0 0 z]]"},
	}
	r := testRunner(t)
	for _, tt := range tests {
		for _, backend := range tt.backends {
			t.Run(tt.name+"/"+backend, func(t *testing.T) {
				w := newWS(t, map[string]string{"data/in.jsonl": data, "pipelines/pl.yaml": pipeline(backend, tt.src, tt.exp)})
				snap := w.load()
				if tt.refused != nil {
					pe := planErr(t, r, snap, Request{})
					found := false
					for _, d := range pe.Diagnostics {
						found = found || fmt.Sprintf("%d:%d", d.Line, d.Col) == tt.refused.at && d.Code == validate.CodeSQLBind && strings.Contains(d.Message, tt.refused.msg)
					}
					if !found {
						t.Fatalf("want LK301 at %s saying %q: %v", tt.refused.at, tt.refused.msg, pe.Diagnostics)
					}
					return
				}
				mustRun(t, r, snap, Request{})
				cols := "id, a, b, s"
				if strings.Contains(tt.src, "selects") {
					cols = "id, " + map[bool]string{true: "b", false: "total"}[strings.Contains(tt.src, "[id, b - a]")]
					if strings.Contains(tt.src, " q, ") {
						cols = "id, q, m"
					}
				}
				got := query(t, r, filepath.Join(w.dir, "out", "n"), "SELECT "+cols+" FROM t ORDER BY id")
				if fmt.Sprint(got) != tt.rows {
					t.Errorf("%s: %v, want %s", cols, got, tt.rows)
				}
			})
		}
	}
}
