package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// recorder is a translator that records what it is asked and upper-cases
// a marker, so a test sees that the runner executes its output.
type recorder struct {
	mu    sync.Mutex
	steps []dialect.Step
	fail  string // text that gets an error diagnostic
}

func (r *recorder) Translate(ctx context.Context, st dialect.Step) (dialect.Result, error) {
	r.mu.Lock()
	r.steps = append(r.steps, st)
	r.mu.Unlock()
	if st.Text == r.fail {
		return dialect.Result{Diagnostics: []dialect.Diagnostic{{Offset: 0, Severity: workspace.SeverityError, Message: "cannot translate " + st.Text}}}, nil
	}
	st.Text = strings.ReplaceAll(st.Text, "'marker'", "'MARKER'")
	return dialect.DuckDB{}.Translate(ctx, st)
}

// TestDialectTranslatesEveryPiece: every SQL text of a node (source
// filter, expr step, expectation) goes through the node's translator with
// its inputs' columns, the run executes the translation, and an error
// diagnostic fails the task with its message; func_name steps between
// them go through runner/frame (their sql_expr through the backend's SQL
// front end, as decided for func_name steps).
func TestDialectTranslatesEveryPiece(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/prices.csv
    format: CSV
    infer_schema: true
    filter: price > 0
  transformer:
    nodes:
    - expr: SELECT *, 'marker' AS tag FROM {df}
    - func_name: filter
      func_args: ['nw.col("symbol") != "ZZZ"']
    - func_name: laktory.groupby_and_agg
      func_kwargs:
        groupby_columns: [tag]
        agg_expressions: [{expr: 'nw.len().alias("n")'}]
  expectations:
  - name: some
    expr: n > 0
  sinks:
  - table_name: out
    mode: OVERWRITE
`,
		"data/prices.csv": "symbol,price\nAAA,10.5\nBBB,0.5\nZZZ,3\n",
	})
	rec := &recorder{}
	r := testRunner(t, func(c *Config) { c.Dialect = func(*workspace.Node) dialect.Translator { return rec } })
	mustRun(t, r, w.load(), Request{})
	if got := query(t, r, w.table("out"), "SELECT tag, n FROM t"); fmt.Sprint(got) != "[[MARKER 2]]" {
		t.Fatalf("out %v: want the translated SQL's rows", got)
	}
	var texts []string
	for _, st := range rec.steps {
		texts = append(texts, st.Text)
		if len(st.Inputs) == 0 || st.Inputs[0].Columns == nil {
			t.Errorf("%q: inputs without columns %+v", st.Text, st.Inputs)
		}
		if (st.Kind == dialect.Query) != strings.Contains(st.Text, "{df}") {
			t.Errorf("%q: kind %d", st.Text, st.Kind)
		}
	}
	for _, want := range []string{"price > 0", "SELECT *, 'marker' AS tag FROM {df}", "n > 0"} {
		if !slices.Contains(texts, want) {
			t.Errorf("%q was not translated (translated: %q)", want, texts)
		}
	}

	// The schema flow asks the same translator: the run is refused before
	// it starts, at the text (a new runner: the flow caches a node's
	// translation).
	rec.fail = "n > 0"
	r = testRunner(t, func(c *Config) { c.Dialect = func(*workspace.Node) dialect.Translator { return rec } })
	_, err := r.Plan(context.Background(), w.load(), Request{})
	var pe *PlanError
	if !errors.As(err, &pe) || len(pe.Diagnostics) != 1 || pe.Diagnostics[0].Code != validate.CodeSQLDialect ||
		pe.Diagnostics[0].Line != 20 || !strings.Contains(pe.Diagnostics[0].Message, "cannot translate n > 0") {
		t.Fatalf("plan: %v", err)
	}
}
