package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/laktory/workbench/validate"
	"gopkg.in/yaml.v3"
)

// completeCase is a case of testdata/complete: one node streaming src in
// COMPLETE mode through its SQL steps.
type completeCase struct {
	Name  string   `json:"name"`
	Steps []string `json:"steps"`
}

// completePipeline is the case's pipeline, as
// scripts/interop/laktory_complete_spark.py runs it.
func completePipeline(c completeCase) string {
	text := strings.Join(c.Steps, "\n")
	sources := []map[string]any{{"table_name": "src", "as_stream": true}}
	if strings.Contains(text, "{sources.dim}") {
		sources = append(sources, map[string]any{"name": "dim", "table_name": "dim"})
	}
	if strings.Contains(text, "{sources.s2}") {
		sources = append(sources, map[string]any{"name": "s2", "table_name": "s2", "as_stream": true})
	}
	node := map[string]any{"name": "n", "sources": sources,
		"sinks": []map[string]any{{"table_name": "out_" + c.Name, "mode": "COMPLETE"}}}
	if len(c.Steps) > 0 {
		var steps []map[string]any
		for _, s := range c.Steps {
			steps = append(steps, map[string]any{"expr": s})
		}
		node["transformer"] = map[string]any{"nodes": steps}
	}
	b, err := yaml.Marshal(map[string]any{"name": "pl-" + strings.ReplaceAll(c.Name, "_", "-"), "nodes": []any{node}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// completeNoAgg is the start of Spark 4.2's refusal of COMPLETE mode for a
// query without a streaming aggregation, as Laktory's run reports it.
const completeNoAgg = "[STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION]"

// completeKnown are the cases where LK168 and Spark 4.2 disagree, with
// why: a case that comes to agree, or a new disagreement, fails the test.
var completeKnown = map[string]string{
	"d08_group_by_in_block_comment": "LK168 reads the text: GROUP BY in a comment",
	"h04_select_distinct":           "LK168 reads the text: DISTINCT is no GROUP BY",
	"h05_window_count_over":         "LK168 reads the text: count(*) OVER is a window",
	"h09_scalar_subquery_batch_agg": "LK168 reads the text: max() in a subquery over a batch table",
	"h11_agg_on_batch_side":         "LK168 reads the text: GROUP BY over the batch side of a join",
	"h25_agg_in_comment":            "LK168 reads the text: count(*) in a comment",
	"h26_in_subquery_batch_agg":     "LK168 reads the text: GROUP BY in an IN subquery over a batch table",
}

// completeVerdicts is what scripts/interop/laktory_complete_spark.py
// recorded: Laktory's run of each case on Spark ("" when it wrote its
// table, else its error's class and first line), and the names of Spark's
// aggregate functions.
type completeVerdicts struct {
	Laktory, Spark string
	Cases          map[string]string
	Aggregates     []string
}

func readCompleteVerdicts(t *testing.T, set string) completeVerdicts {
	t.Helper()
	var v completeVerdicts
	b, err := os.ReadFile("testdata/complete/laktory_spark_" + set + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Laktory != "0.13.1" || !strings.HasPrefix(v.Spark, "4.2") {
		t.Fatalf("laktory_spark_%s.json was made with Laktory %s on Spark %s", set, v.Laktory, v.Spark)
	}
	return v
}

// TestCompleteModeCorpus: LK168 (COMPLETE mode on a node without a
// streaming aggregation) is reported exactly where Laktory 0.13.1's run on
// Spark 4.2 fails with Spark's refusal (testdata/complete/laktory_spark_*.json,
// recorded by scripts/interop/laktory_complete_spark.py: the default suite
// needs no JVM). Where Spark refuses the query for another reason, LK168
// must not be what is reported. Development and held-out figures are logged
// apart.
func TestCompleteModeCorpus(t *testing.T) {
	r := testRunner(t)
	for _, set := range []string{"dev", "heldout"} {
		spark := readCompleteVerdicts(t, set)
		b, err := os.ReadFile("testdata/complete/" + set + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var corpus struct{ Cases []completeCase }
		if err := json.Unmarshal(b, &corpus); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for _, c := range corpus.Cases {
			files["pipelines/"+c.Name+".yaml"] = completePipeline(c)
		}
		snap := newWS(t, files).load()
		lk168 := map[string]string{}
		for _, d := range validate.Check(snap, validate.Options{SQL: r.SQL()}) {
			if d.Code == validate.CodeCompleteNoAgg {
				name := strings.TrimSuffix(d.File[strings.LastIndexAny(d.File, `/\`)+1:], ".yaml")
				lk168[name] = d.String()
			}
		}
		var agree, refused, accepted, other int
		var wrong []string
		for _, c := range corpus.Cases {
			got, ok := spark.Cases[c.Name]
			if !ok {
				t.Fatalf("%s/%s: no Spark verdict in laktory_spark_%[1]s.json: run scripts/interop/laktory_complete_spark.py", set, c.Name)
			}
			want := strings.Contains(got, completeNoAgg)
			switch {
			case want:
				refused++
			case got == "":
				accepted++
			default:
				other++
			}
			_, has := lk168[c.Name]
			if has == want {
				agree++
				if why, known := completeKnown[c.Name]; known {
					t.Errorf("%s/%s now agrees with Spark (known: %s): remove it from completeKnown", set, c.Name, why)
				}
				continue
			}
			verdict := "ran"
			if got != "" {
				verdict = got
			}
			msg := fmt.Sprintf("%s/%s: LK168 %v, Spark 4.2: %s\n  %s", set, c.Name, has, verdict, strings.Join(c.Steps, "\n  "))
			wrong = append(wrong, msg)
			if _, known := completeKnown[c.Name]; !known {
				t.Error(msg)
			}
		}
		sort.Strings(wrong)
		t.Logf("%s: LK168 as Spark 4.2 on %d of %d (Spark: %d refused for no streaming aggregation, %d ran, %d other errors)",
			set, agree, len(corpus.Cases), refused, accepted, other)
		for _, w := range wrong {
			t.Log(w)
		}
	}
}
