package history

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// seedRuns records n runs: run i has status succeeded, failed or cancelled
// by i%3, selects pl-even when i is even, and runs a node of pl-five when i
// is a multiple of 5. It returns the filter each run matches.
func seedRuns(t *testing.T, s *Store, n int) map[int64]func(Filter) bool {
	t.Helper()
	ctx := context.Background()
	statuses := []Status{StatusSucceeded, StatusFailed, StatusCancelled}
	match := map[int64]func(Filter) bool{}
	for i := 1; i <= n; i++ {
		var pls []string
		if i%2 == 0 {
			pls = []string{"pl-even"}
		}
		id, err := s.StartRun(ctx, RunStart{Workspace: "/ws", Pipelines: pls})
		mustNil(t, err, "start run")
		if i%5 == 0 {
			mustNil(t, s.StartTask(ctx, id, TaskStart{Pipeline: "pl-five", Node: "n"}), "start task")
		}
		st := statuses[i%3]
		mustNil(t, s.FinishRun(ctx, id, RunEnd{Status: st}), "finish run")
		match[id] = func(f Filter) bool {
			return (f.Status == "" || f.Status == st) &&
				(f.Pipeline == "" || (f.Pipeline == "pl-even" && i%2 == 0) || (f.Pipeline == "pl-five" && i%5 == 0))
		}
	}
	return match
}

func TestListRunsPaging(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	const n = 53
	match := seedRuns(t, s, n)

	filters := []Filter{{}, {Status: StatusFailed}, {Pipeline: "pl-even"}, {Pipeline: "pl-five"},
		{Pipeline: "pl-even", Status: StatusCancelled}, {Pipeline: "none"}}
	for _, f := range filters {
		var want []int64 // newest first
		for id := int64(n); id >= 1; id-- {
			if match[id](f) {
				want = append(want, id)
			}
		}
		count, err := s.CountRuns(ctx, f)
		mustNil(t, err, "count")
		if count != int64(len(want)) {
			t.Errorf("%+v: CountRuns %d, want %d", f, count, len(want))
		}
		for _, limit := range []int{1, 7, 10, 53, 100} {
			t.Run(fmt.Sprintf("%+v/limit=%d", f, limit), func(t *testing.T) {
				// Older and older pages.
				var got []int64
				var pages []RunPage
				p := Page{Limit: limit}
				for {
					page, err := s.ListRuns(ctx, p, f)
					mustNil(t, err, "list runs")
					if len(page.Runs) > limit {
						t.Fatalf("page of %d runs, limit %d", len(page.Runs), limit)
					}
					if page.HasNewer != (len(pages) > 0) {
						t.Fatalf("page %d: HasNewer %v", len(pages), page.HasNewer)
					}
					pages = append(pages, page)
					for _, r := range page.Runs {
						got = append(got, r.ID)
					}
					if !page.HasOlder {
						break
					}
					if len(pages) > n+1 {
						t.Fatal("paging does not end")
					}
					p.Before = page.Runs[len(page.Runs)-1].ID
				}
				if !slices.Equal(got, want) {
					t.Fatalf("pages gave %v, want %v", got, want)
				}
				// And back to the newest, with After.
				var back []int64
				for i := len(pages) - 1; i > 0; i-- {
					page, err := s.ListRuns(ctx, Page{Limit: limit, After: pages[i].Runs[0].ID}, f)
					mustNil(t, err, "list runs after")
					if !slices.EqualFunc(page.Runs, pages[i-1].Runs, func(a, b Run) bool { return a.ID == b.ID }) {
						t.Fatalf("previous page of %d: %v, want %v", pages[i].Runs[0].ID, ids(page.Runs), ids(pages[i-1].Runs))
					}
					if page.HasNewer != (i > 1) || !page.HasOlder {
						t.Fatalf("previous page %d: HasNewer %v HasOlder %v", i-1, page.HasNewer, page.HasOlder)
					}
					back = append(back, ids(page.Runs)...)
				}
				if len(pages) > 1 && len(back)+len(pages[len(pages)-1].Runs) != len(want) {
					t.Fatalf("paging back saw %d runs", len(back))
				}
			})
		}
	}

	// Cursors that name no run, or lie beyond the ends.
	tests := []struct {
		name           string
		page           Page
		first, size    int64
		older, younger bool
	}{
		{"before beyond the newest", Page{Limit: 5, Before: 1000}, 53, 5, true, false},
		{"after beyond the newest", Page{Limit: 5, After: 1000}, 0, 0, true, false},
		{"before the oldest", Page{Limit: 5, Before: 1}, 0, 0, false, true},
		{"after the oldest", Page{Limit: 5, After: 1}, 6, 5, true, true},
		{"default limit", Page{}, 53, DefaultLimit, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := s.ListRuns(ctx, tt.page, Filter{})
			mustNil(t, err, "list")
			var first int64
			if len(page.Runs) > 0 {
				first = page.Runs[0].ID
			}
			if first != tt.first || int64(len(page.Runs)) != tt.size || page.HasOlder != tt.older || page.HasNewer != tt.younger {
				t.Fatalf("got first %d, %d runs, older %v, newer %v", first, len(page.Runs), page.HasOlder, page.HasNewer)
			}
		})
	}

	last, err := s.LastRun(ctx, Filter{Pipeline: "pl-five", Status: StatusSucceeded})
	mustNil(t, err, "last run")
	if last.ID != 45 { // 45%5 == 0, 45%3 == 0 -> succeeded
		t.Fatalf("last succeeded run of pl-five: %d, want 45", last.ID)
	}
	if page, _ := s.ListRuns(ctx, Page{Limit: 1}, Filter{Pipeline: "pl-even"}); page.Runs[0].Pipelines[0] != "pl-even" {
		t.Fatalf("pipelines not read back: %+v", page.Runs[0])
	}
}

func ids(runs []Run) []int64 {
	out := make([]int64, len(runs))
	for i, r := range runs {
		out[i] = r.ID
	}
	return out
}
