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
