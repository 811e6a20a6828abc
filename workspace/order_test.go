package workspace

import (
	"fmt"
	"testing"
)

// TestOrderReads: reads are added by reader, table and writer, each one
// closing a cycle left out with the cycle; fixed edges count; an edge the
// graph already has is neither added nor broken.
func TestOrderReads(t *testing.T) {
	tests := []struct {
		name         string
		fixed        map[string][]string
		reads        []ReadEdge
		kept, broken string
	}{
		{name: "no cycle", reads: []ReadEdge{{From: "z.w", To: "a.r", Table: "t"}, {From: "a.r", To: "b.s", Table: "u"}},
			kept: "[z.w->a.r a.r->b.s]", broken: "[]"},
		{name: "two pipelines", reads: []ReadEdge{{From: "a.x", To: "b.y", Table: "ta"}, {From: "b.y", To: "a.x", Table: "tb"}},
			kept: "[b.y->a.x]", broken: "[a.x->b.y:[a.x b.y a.x]]"},
		{name: "through a pipeline's DAG", fixed: map[string][]string{"a.r": {"a.x"}},
			reads: []ReadEdge{{From: "b.y", To: "a.r", Table: "tb"}, {From: "a.x", To: "b.y", Table: "ta"}},
			kept:  "[b.y->a.r]", broken: "[a.x->b.y:[a.x b.y a.r a.x]]"},
		{name: "already ordered", fixed: map[string][]string{"a.x": {"b.y"}},
			reads: []ReadEdge{{From: "a.x", To: "b.y", Table: "ta"}}, kept: "[]", broken: "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, broken := OrderReads(tt.fixed, tt.reads)
			k := []string{}
			for _, e := range kept {
				k = append(k, e.From+"->"+e.To)
			}
			b := []string{}
			for _, e := range broken {
				b = append(b, fmt.Sprintf("%s->%s:%v", e.From, e.To, e.Cycle))
			}
			if fmt.Sprint(k) != tt.kept || fmt.Sprint(b) != tt.broken {
				t.Fatalf("kept %v broken %v, want %s %s", k, b, tt.kept, tt.broken)
			}
		})
	}
}
