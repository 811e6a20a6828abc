package sqlfront

import (
	"fmt"
	"testing"
)

// TestInspect: every column reference of a query is visited, through
// nested expressions, lists and subqueries; returning false at a node
// skips what is below it.
func TestInspect(t *testing.T) {
	q, err := standard.ParseQuery("SELECT a + b AS s, f(c, d) FROM t WHERE e IN (SELECT x FROM u) ORDER BY g")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		prune bool
		want  string
	}{
		{"all", false, "[a b c d e x g]"},
		{"not into subqueries", true, "[a b c d e g]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			Inspect(q, func(n any) bool {
				switch n := n.(type) {
				case *ColumnRef:
					got = append(got, identPath(n.Parts))
					return false
				case *Query:
					return !tc.prune || n == q
				case *Subquery:
					return !tc.prune
				}
				return true
			})
			if fmt.Sprint(got) != tc.want {
				t.Fatalf("visited %v, want %s", got, tc.want)
			}
		})
	}
}
