package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		name string
		in   string
		w    int
		want []string
	}{
		{"fits", "delete 100 rows", 20, []string{"delete 100 rows"}},
		{"word boundaries, never at hyphens", "the rows of pl-client-acme.orders and pl-client-globex.orders", 30,
			[]string{"the rows of", "pl-client-acme.orders and", "pl-client-globex.orders"}},
		{"hanging indent under a mark", " ✂ delete 100 rows of pl-prices.feed_a from prices", 30,
			[]string{" ✂ delete 100 rows of", "   pl-prices.feed_a from", "   prices"}},
		{"a path breaks after a slash", "↺ reset the checkpoint (.laktory/checkpoints/pl-client-acme/orders/table-main.default.all_orders)", 40,
			[]string{"↺ reset the checkpoint", "  (.laktory/checkpoints/pl-client-acme/", "  orders/table-main.default.all_orders)"}},
		{"a long name breaks after a dot, not a short tail", "    flow pl-prices.gld_prices_a/table-main.default.gld_prices_a", 40,
			[]string{"    flow pl-prices.gld_prices_a/", "    table-main.default.gld_prices_a"}},
		{"no short tail", "ab pl-prices.gld_prices_a/table-main.default.gld_prices_a", 50,
			[]string{"ab pl-prices.gld_prices_a/table-main.default.", "gld_prices_a"}},
		{"a long word without breaks", "x abcdefghijklmnopqrstuvwxyz", 10, []string{"x", "abcdefghij", "klmnopqrst", "uvwxyz"}},
		{"leading spaces kept", "    read 1 · written 2 · deleted 3", 20, []string{"    read 1 · written", "    2 · deleted 3"}},
		{"newlines split", "one\ntwo three", 20, []string{"one", "two three"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrap(tt.in, tt.w)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("wrap(%q, %d) =\n%q\nwant\n%q", tt.in, tt.w, got, tt.want)
			}
			for _, l := range got {
				if ansi.StringWidth(l) > tt.w {
					t.Fatalf("line %q is wider than %d", l, tt.w)
				}
			}
		})
	}
}

// TestWrapKeepsStyles checks that a style spanning a break is closed at
// the end of the line and reopened on the next, so each line stands
// alone (the dialog draws lines over other panes).
func TestWrapKeepsStyles(t *testing.T) {
	bold := "\x1b[1m"
	in := "plain " + bold + "bold words that wrap" + "\x1b[0m" + " end"
	got := wrapText(in, 12, 0)
	if len(got) < 2 {
		t.Fatalf("no wrap: %q", got)
	}
	for _, l := range got {
		if i, j := strings.LastIndex(l, bold), strings.LastIndex(l, "\x1b[0m"); i > j {
			t.Fatalf("line %q leaves its style open", l)
		}
	}
	if plain := ansi.Strip(strings.Join(got, " ")); plain != "plain bold words that wrap end" {
		t.Fatalf("text changed: %q", plain)
	}
	if !strings.HasPrefix(got[1], bold) {
		t.Fatalf("the style is not reopened on the next line: %q", got)
	}
}
