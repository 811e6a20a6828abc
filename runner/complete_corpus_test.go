package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/sparksql"
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
var completeKnown = map[string]string{}

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

// TestCompleteModeFallback: where Spark SQL's front end cannot parse a
// step (CLUSTER BY is not translated), LK168 reads the SQL's text as it did
// before: GROUP BY in the text is an aggregation, none is not.
func TestCompleteModeFallback(t *testing.T) {
	r := testRunner(t)
	for _, tc := range []struct {
		name, sql string
		lk168     bool
	}{
		{"grouped", "SELECT k, count(*) AS n FROM {df} GROUP BY k CLUSTER BY k", false},
		{"plain", "SELECT k, v FROM {df} CLUSTER BY k", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := newWS(t, map[string]string{"pipelines/p.yaml": completePipeline(completeCase{Name: "c", Steps: []string{tc.sql}})}).load()
			got := false
			for _, d := range validate.Check(snap, validate.Options{SQL: r.SQL()}) {
				got = got || d.Code == validate.CodeCompleteNoAgg
			}
			if got != tc.lk168 {
				t.Errorf("LK168 %v, want %v", got, tc.lk168)
			}
		})
	}
}

// TestStreamAggregateNames: the functions LK168 takes for aggregates
// (sparksql.IsAggregate) are Spark 4.2's (the function registry's
// agg_funcs, recorded with the development verdicts).
func TestStreamAggregateNames(t *testing.T) {
	v := readCompleteVerdicts(t, "dev")
	if len(v.Aggregates) < 50 {
		t.Fatalf("%d aggregate functions recorded", len(v.Aggregates))
	}
	for _, name := range v.Aggregates {
		if !sparksql.IsAggregate(name) {
			t.Errorf("Spark's aggregate function %s is not an aggregate to sparksql.IsAggregate", name)
		}
	}
	for _, name := range []string{"upper", "coalesce", "row_number", "rank", "window", "explode"} {
		if sparksql.IsAggregate(name) {
			t.Errorf("%s is an aggregate to sparksql.IsAggregate", name)
		}
	}
}
