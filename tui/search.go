package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Search (`/`) filters the focused pane as the query is typed: the tree's
// items (with their parents), the graph's rows (by writer or table), the
// problems, the past runs and the rows of the table preview. enter keeps
// the filter, n/N move to the next or previous match, esc clears it. Each
// pane keeps its own query.

// searchable is a pane that can be searched.
type searchable interface {
	// query is the pane's search ("" none).
	query() string
	// search filters the pane to what matches q ("" clears the filter),
	// moving the cursor to the first match from where it is, and returns
	// the number of matches.
	search(q string) int
	// step moves the cursor to the next match (or the previous one).
	step(forward bool)
}

// matches reports whether any of texts holds q, ignoring case and styles.
func matches(q string, texts ...string) bool {
	if q == "" {
		return true
	}
	q = strings.ToLower(q)
	for _, s := range texts {
		if strings.Contains(strings.ToLower(ansi.Strip(s)), q) {
			return true
		}
	}
	return false
}

// stepIndex is the next (or previous) of n positions from cur that ok
// accepts, wrapping; cur when none does.
func stepIndex(cur, n int, forward bool, ok func(int) bool) int {
	for i := 1; i <= n; i++ {
		j := cur - i
		if forward {
			j = cur + i
		}
		j = ((j % n) + n) % n
		if ok(j) {
			return j
		}
	}
	return cur
}
