package sparksql

import "testing"

// TestAnalyzeStream: which reads are streams, and whether an Aggregate
// reads one, as Spark's streaming check sees the analyzed plan.
func TestAnalyzeStream(t *testing.T) {
	streams := func(ph string) bool { return ph == "df" || ph == "sources.s2" }
	for _, tc := range []struct {
		sql                  string
		streaming, aggregate bool
	}{
		{"SELECT k, count(*) AS n FROM {df} GROUP BY k", true, true},
		{"SELECT k FROM {df}", true, false},
		{"SELECT k, count(*) AS n FROM {sources.dim} GROUP BY k", false, false},
		{"SELECT k, count(*) AS n FROM dim GROUP BY k", false, false},
		{"SELECT a.k FROM {sources.dim} a JOIN {sources.s2} b ON a.k = b.k GROUP BY a.k", true, true},
		{"SELECT k, sum(v) OVER (PARTITION BY k) AS s FROM {df}", true, false},
		{"SELECT k, (SELECT max(w) FROM dim) AS m FROM {df}", true, false},
		{"WITH t AS (SELECT k, max(v) AS m FROM {df} GROUP BY k) SELECT * FROM t", true, true},
		{"WITH t AS (SELECT k FROM dim GROUP BY k) SELECT s.k FROM {df} s JOIN t ON s.k = t.k", true, false},
		{"SELECT 1 AS one FROM {df} HAVING count(*) > 0", true, true},
		{"SELECT count(*) AS n FROM (SELECT k FROM {df} UNION ALL SELECT k FROM {sources.s2}) u", true, true},
		{"SELECT upper('count(*)') AS c FROM {df}", true, false},
		{"SELECT DISTINCT k FROM {df}", true, true},
		{"WITH t AS (SELECT k, count(*) AS n FROM {df} GROUP BY k) SELECT k FROM {df}", true, true},
		{"SELECT DISTINCT k FROM dim", false, false},
		{"SELECT k FROM {df} UNION SELECT k FROM dim", true, true},
		{"SELECT k FROM {df} UNION ALL SELECT k FROM dim", true, false},
		{"SELECT k FROM {df} INTERSECT SELECT k FROM dim", true, false},
	} {
		p, err := AnalyzeStream(tc.sql, streams)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if p.Streaming != tc.streaming || p.Aggregate != tc.aggregate {
			t.Errorf("%s: streaming %v aggregate %v, want %v %v", tc.sql, p.Streaming, p.Aggregate, tc.streaming, tc.aggregate)
		}
	}
	if _, err := AnalyzeStream("SELECT FROM WHERE", streams); err == nil {
		t.Error("a text that does not parse: no error")
	}
}

// TestAnalyzeStreamRefusals: what Spark 4.2's streaming check refuses
// after its output mode (a distinct aggregate, an INTERSECT of a stream,
// an aggregation over another's output), and what its analyzer refuses
// before (an unknown function, a distinct window function).
func TestAnalyzeStreamRefusals(t *testing.T) {
	streams := func(ph string) bool { return ph == "df" || ph == "sources.s2" }
	for _, tc := range []struct {
		sql                 string
		chained, intersect  bool
		distinct, unresolve string
	}{
		{"SELECT k, count(DISTINCT v) AS n FROM {df} GROUP BY k", false, false, "count(DISTINCT ...)", ""},
		{"SELECT k, count(*) AS n FROM {df} GROUP BY k HAVING sum(DISTINCT v) > 0", false, false, "sum(DISTINCT ...)", ""},
		{"SELECT k, count(DISTINCT w) AS n FROM dim GROUP BY k", false, false, "", ""},
		{"SELECT k, (SELECT count(DISTINCT w) FROM dim) AS n FROM {df}", false, false, "", ""},
		{"SELECT max(n) AS m FROM (SELECT k, count(*) AS n FROM {df} GROUP BY k) t", true, false, "", ""},
		{"WITH c AS (SELECT k, count(*) AS n FROM {df} GROUP BY k) SELECT max(n) AS m FROM c", false, false, "", ""},
		{"SELECT DISTINCT n FROM (SELECT k, count(*) AS n FROM {df} GROUP BY k) t", true, false, "", ""},
		{"SELECT k, count(*) AS n FROM {df} GROUP BY k UNION SELECT k, count(*) AS n FROM {sources.s2} GROUP BY k", true, false, "", ""},
		{"SELECT k, count(*) AS n FROM {df} GROUP BY k UNION ALL SELECT k, count(*) AS n FROM {sources.s2} GROUP BY k", false, false, "", ""},
		{"SELECT max(n) AS m FROM (SELECT k, count(*) AS n FROM dim GROUP BY k) t JOIN {df} s ON s.k = t.k", false, false, "", ""},
		{"SELECT k FROM {df} GROUP BY k INTERSECT SELECT k FROM dim", false, true, "", ""},
		{"SELECT k FROM dim INTERSECT SELECT k FROM dim", false, false, "", ""},
		{"SELECT k, sum(py_score(v)) AS s FROM {df} GROUP BY k", false, false, "", "[UNRESOLVED_ROUTINE] Cannot resolve routine `py_score`"},
		{"SELECT k, upper(k) AS u, window(ts, '1 hour') AS w FROM {df}", false, false, "", ""},
		{"SELECT k, count(DISTINCT v) OVER (PARTITION BY k) AS n FROM {df}", false, false, "", "[DISTINCT_WINDOW_FUNCTION_UNSUPPORTED] Distinct window functions are not supported: count(DISTINCT ...) OVER (...)"},
	} {
		p, err := AnalyzeStream(tc.sql, streams)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if p.Chained != tc.chained || p.Intersect != tc.intersect || p.Distinct != tc.distinct || p.Unresolved != tc.unresolve {
			t.Errorf("%s: chained %v intersect %v distinct %q unresolved %q, want %v %v %q %q", tc.sql,
				p.Chained, p.Intersect, p.Distinct, p.Unresolved, tc.chained, tc.intersect, tc.distinct, tc.unresolve)
		}
	}
	// A later step over an aggregating one ({df} is its output).
	p, err := AnalyzeStreamOver("SELECT max(s) AS m FROM {df}", func(string) StreamPlan { return StreamPlan{Streaming: true, Aggregated: true} })
	if err != nil || !p.Chained {
		t.Errorf("an aggregation over an aggregating step: chained %v (%v)", p.Chained, err)
	}
	p, err = AnalyzeStreamOver("SELECT k, s * 2 AS s2 FROM {df}", func(string) StreamPlan { return StreamPlan{Streaming: true, Aggregated: true} })
	if err != nil || p.Chained || !p.Aggregated {
		t.Errorf("a projection over an aggregating step: chained %v aggregated %v (%v)", p.Chained, p.Aggregated, err)
	}
	if _, err := AnalyzeStream("SELECT FROM WHERE", streams); err == nil {
		t.Error("a text that does not parse: no error")
	}
}
