package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/validate"
)

func mustType(t *testing.T, s string) *sparksql.Type {
	t.Helper()
	ty, err := sparksql.ParseType(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// TestSparkSQLByBackend: a PYSPARK pipeline's SQL runs with Spark's
// semantics (the session time zone from the job cluster's spark_conf, a
// flow's spark_conf over it), a POLARS pipeline's with polars' (a cast to
// an integer truncates; polars 1.32.0 refuses substring(s, 0, 2), so the
// POLARS step writes SUBSTR(s, 1, 2)), without a diagnostic.
func TestSparkSQLByBackend(t *testing.T) {
	step := `SELECT CAST(12.7 AS INT) AS i, substring('ABC', 0, 2) AS s, CAST(CAST('2024-03-10 12:00:00+00:00' AS TIMESTAMP) AS STRING) AS ts FROM {df}`
	pipeline := func(name, head string) string {
		return "name: " + name + "\n" + head + "nodes:\n- name: a\n  sources:\n  - path: ../data/in.jsonl\n    format: JSONL\n  transformer:\n    nodes:\n    - expr: " + step + "\n  sinks:\n  - path: ../out/" + name + "\n    format: DELTA\n    mode: APPEND\n"
	}
	w := newWS(t, map[string]string{
		"data/in.jsonl":         `{"x": 1}` + "\n",
		"pipelines/spark.yaml":  pipeline("spark", ""),
		"pipelines/tokyo.yaml":  pipeline("tokyo", "orchestrator:\n  type: LAKEFLOW_JOB\n  job_clusters:\n  - job_cluster_key: node-cluster\n    new_cluster:\n      spark_conf: {spark.sql.session.timeZone: Asia/Tokyo}\n"),
		"pipelines/polars.yaml": strings.NewReplacer("CAST(CAST('2024-03-10 12:00:00+00:00' AS TIMESTAMP) AS STRING)", "'-'", "substring('ABC', 0, 2)", "SUBSTR('ABC', 1, 2)").Replace(pipeline("polars", "dataframe_backend: POLARS\n")),
	})
	r := testRunner(t)
	snap := w.load()
	ds, err := r.Validate(context.Background(), snap, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Severity != validate.Info {
			t.Errorf("%s:%d: %s %s", d.File, d.Line, d.Code, d.Message)
		}
	}
	mustRun(t, r, snap, Request{})
	for name, want := range map[string]string{
		"spark":  "[[12 AB 2024-03-10 12:00:00]]",
		"tokyo":  "[[12 AB 2024-03-10 21:00:00]]",
		"polars": "[[12 AB -]]",
	} {
		got := query(t, r, filepath.Join(w.dir, "out", name), "SELECT i, s, ts FROM t")
		if fmt.Sprint(got) != want {
			t.Errorf("%s: %v, want %s", name, got, want)
		}
	}
}
