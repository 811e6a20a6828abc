package lanes

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/laktory/workbench/tui/internal/tuitest"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func demo(t testing.TB) *workspace.Snapshot {
	t.Helper()
	dir := workspacetest.Demo(t)
	s, err := workspace.Load(context.Background(), dir, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func generated(t testing.TB, pipelines, nodes, tables int) *workspace.Snapshot {
	return tuitest.Lanes(t, pipelines, nodes, tables)
}

var plain = &Styles{}

func TestBuildDemo(t *testing.T) {
	s := demo(t)
	g := Build(s, func(w *workspace.Writer) State {
		if w.Node == "feed_b" {
			return Error
		}
		return OK
	})
	var lanes []string
	for _, l := range g.Lanes {
		lanes = append(lanes, fmt.Sprintf("%s shared=%v writers=%d state=%d", l.Label, l.Shared, l.Writers, l.State))
	}
	want := []string{
		"all_orders shared=true writers=2 state=0",
		"events shared=true writers=2 state=0",
		"prices shared=true writers=2 state=3",
		"gld_prices_a shared=false writers=1 state=0",
	}
	if strings.Join(lanes, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lanes:\n%s\nwant:\n%s", strings.Join(lanes, "\n"), strings.Join(want, "\n"))
	}
	var groups []string
	for _, gr := range g.Groups {
		groups = append(groups, fmt.Sprintf("%s (%d)", gr.Label, len(gr.Members)))
	}
	wantGroups := "pl-client-*.orders (2)|pl-events.events_* (2)|pl-prices.feed_* (2)|pl-prices.gld_prices_a (1)"
	if got := strings.Join(groups, "|"); got != wantGroups {
		t.Fatalf("groups %s, want %s", got, wantGroups)
	}
	tests := []struct {
		name      string
		member    string
		lane      string
		kind      Kind
		owner     string
		wantState State
	}{
		{"where predicate", "pl-client-acme.orders", "all_orders", KindWhere, "client_id = 1", OK},
		{"writer column", "pl-prices.feed_a", "prices", KindColumn, "pl-prices.feed_a", OK},
		{"state from the validation", "pl-prices.feed_b", "prices", KindColumn, "pl-prices.feed_b", Error},
		{"declarative flow", "pl-events.events_live", "events", KindFlow, "events__events_live", OK},
		{"whole table", "pl-prices.gld_prices_a", "gld_prices_a", KindTable, "whole table", OK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := cellOf(g, tt.member, tt.lane)
			if !ok {
				t.Fatalf("no mark of %s in %s", tt.member, tt.lane)
			}
			if c.Kind != tt.kind || c.Owner != tt.owner || c.State != tt.wantState {
				t.Fatalf("cell %+v, want kind %d owner %q state %d", c, tt.kind, tt.owner, tt.wantState)
			}
		})
	}
}

func cellOf(g *Graph, member, lane string) (Cell, bool) {
	for _, gr := range g.Groups {
		for _, m := range gr.Members {
			if m.Label != member {
				continue
			}
			for i, l := range g.Lanes {
				if l.Label == lane && m.Cells[i].Kind != KindNone {
					return m.Cells[i], true
				}
			}
		}
	}
	return Cell{}, false
}

func TestRowsCollapse(t *testing.T) {
	g := Build(generated(t, 6, 4, 4), nil)
	all := g.Rows(func(*Group) bool { return false })
	if len(all) != 24 {
		t.Fatalf("expanded: %d rows, want one per node (24)", len(all))
	}
	def := g.Rows(nil)
	collapsed := 0
	for _, r := range def {
		if r.Kind == RowCollapsed {
			collapsed++
			if r.N < CollapseMin || !strings.Contains(r.Label, fmt.Sprintf("×%d", r.N)) {
				t.Fatalf("collapsed row %q holds %d nodes", r.Label, r.N)
			}
			if got := len(g.Members(r)); got != r.N {
				t.Fatalf("Members of %q: %d, want %d", r.Label, got, r.N)
			}
		}
	}
	if collapsed == 0 || len(def) >= len(all) {
		t.Fatalf("default rows: %d (%d collapsed), want groups of %d+ nodes collapsed", len(def), collapsed, CollapseMin)
	}
	// Rows are ordered by the mean lane of their targets.
	prev := -1.0
	for _, r := range def {
		b := barycenter(g.Groups[r.Group].Targets)
		if b < prev {
			t.Fatalf("row %q (barycenter %.1f) after one at %.1f", r.Label, b, prev)
		}
		prev = b
	}
}

func TestGroupLabel(t *testing.T) {
	tests := []struct {
		name string
		ms   [][2]string
		want string
	}{
		{"one node", [][2]string{{"pl", "a"}}, "pl.a"},
		{"same node, pipelines differ", [][2]string{{"pl-client-acme", "orders"}, {"pl-client-globex", "orders"}}, "pl-client-*.orders"},
		{"same pipeline, nodes differ", [][2]string{{"pl-x", "cdc_a"}, {"pl-x", "cdc_b"}}, "pl-x.cdc_*"},
		{"both differ", [][2]string{{"a1", "x"}, {"a2", "y"}}, "a1.x…"},
		{"multi-byte cut", [][2]string{{"pé", "x"}, {"pè", "x"}}, "p*.x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms []Member
			for _, m := range tt.ms {
				ms = append(ms, Member{Pipeline: m[0], Node: m[1], Label: m[0] + "." + m[1]})
			}
			if got := groupLabel(ms); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRenderGolden(t *testing.T) {
	s := demo(t)
	g := Build(s, func(w *workspace.Writer) State {
		switch w.Node {
		case "feed_b":
			return Error
		case "events_live":
			return Warning
		}
		return OK
	})
	big := Build(generated(t, 20, 10, 20), nil)
	tests := []struct {
		name  string
		g     *Graph
		rows  func(*Graph) []Row
		sel   Selection
		width int
	}{
		{"demo_80", g, nil, Selection{Row: 2, Lane: 2}, 80},
		{"demo_160", g, nil, Selection{Row: 0, Lane: 0}, 160},
		{"demo_narrow", g, nil, Selection{Row: 5, Lane: 3}, 40},
		{"demo_collapsed", g, func(g *Graph) []Row { return g.Rows(func(*Group) bool { return true }) }, Selection{Row: 1, Lane: 1}, 80},
		{"big_80", big, nil, Selection{Row: 3, Lane: 12, FirstLane: 0}, 80},
		{"big_160", big, nil, Selection{Row: 0, Lane: 0}, 160},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := tt.g.Rows(nil)
			if tt.rows != nil {
				rows = tt.rows(tt.g)
			}
			v := Render(tt.g, rows, tt.sel, tt.width, plain)
			for i, l := range v.Lines {
				if w := len([]rune(l)); w > tt.width {
					t.Fatalf("line %d is %d wide (> %d): %q", i, w, tt.width, l)
				}
			}
			if tt.sel.Lane < v.FirstLane || tt.sel.Lane >= v.FirstLane+v.Lanes {
				t.Fatalf("selected lane %d not shown (lanes %d+%d)", tt.sel.Lane, v.FirstLane, v.Lanes)
			}
			golden.RequireEqual(t, strings.Join(v.Lines, "\n")+"\n")
		})
	}
}

func TestRenderEmpty(t *testing.T) {
	v := Render(&Graph{}, nil, Selection{}, 80, plain)
	if len(v.Lines) != 1 || !strings.Contains(v.Lines[0], "no table") {
		t.Fatalf("empty graph: %q", v.Lines)
	}
}

func TestPaint(t *testing.T) {
	p := Paint{pre: "<", post: ">"}
	if got := p.Wrap("x"); got != "<x>" {
		t.Fatalf("Wrap: %q", got)
	}
	if got := p.Wrap(""); got != "" {
		t.Fatalf("Wrap of nothing: %q", got)
	}
}

func BenchmarkRender200x20(b *testing.B) {
	g := Build(generated(b, 20, 10, 20), nil)
	for _, tc := range []struct {
		name      string
		collapsed func(*Group) bool
		width     int
	}{
		{"expanded_160", func(*Group) bool { return false }, 160},
		{"expanded_80", func(*Group) bool { return false }, 80},
		{"collapsed_160", nil, 160},
	} {
		rows := g.Rows(tc.collapsed)
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				Render(g, rows, Selection{Row: i % len(rows), Lane: i % len(g.Lanes)}, tc.width, plain)
				i++
			}
		})
	}
}

func BenchmarkBuild200x20(b *testing.B) {
	s := generated(b, 20, 10, 20)
	b.ReportAllocs()
	for b.Loop() {
		Build(s, nil)
	}
}

// TestRenderWholeNames: at the widths of the workbench (the main pane at
// 80, 120 and 200 columns, the graph beside its detail), lane labels are on
// one line and whole, distinct writers have distinct labels, and rows keep
// their whole names where the width allows (the lanes scroll first).
func TestRenderWholeNames(t *testing.T) {
	demoG := Build(demo(t), nil)
	big := Build(generated(t, 20, 10, 20), nil)
	for _, tc := range []struct {
		name       string
		g          *Graph
		expanded   bool
		width      int
		wholeNames bool
	}{
		{"demo_57", demoG, false, 57, true}, // 80x24
		{"demo_88", demoG, false, 88, true}, // 120x40
		{"demo_95", demoG, false, 95, true}, // 200x60, beside the detail
		{"demo_40", demoG, false, 40, false},
		{"big_57", big, true, 57, false},
		{"big_95", big, true, 95, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := tc.g.Rows(nil)
			if tc.expanded {
				rows = tc.g.Rows(func(*Group) bool { return false })
			}
			for sel := range []int{0, len(tc.g.Lanes) - 1} {
				v := Render(tc.g, rows, Selection{Row: 0, Lane: sel * (len(tc.g.Lanes) - 1)}, tc.width, plain)
				if v.HeaderLines != 1 {
					t.Fatalf("%d header lines", v.HeaderLines)
				}
				for k := v.FirstLane; k < v.FirstLane+v.Lanes; k++ {
					if !strings.Contains(v.Lines[0], " "+tc.g.Lanes[k].Label+" ") && !strings.HasSuffix(v.Lines[0], " "+tc.g.Lanes[k].Label) {
						t.Fatalf("lane %s is not whole in the header %q", tc.g.Lanes[k].Label, v.Lines[0])
					}
				}
				seen := map[string]bool{}
				for i, l := range v.Lines[1:] {
					label := strings.Fields(strings.TrimLeft(l, "▸"))[0]
					if seen[label] {
						t.Fatalf("two rows read %q:\n%s", label, strings.Join(v.Lines, "\n"))
					}
					seen[label] = true
					if tc.wholeNames && !strings.Contains(l, rows[i].Label) {
						t.Fatalf("row %q is shown as %q", rows[i].Label, l)
					}
				}
			}
		})
	}
	legend := strings.Join(Legend(plain, 57), "\n")
	for _, item := range []string{"+ group (space expands)", "- in a group", "● writer column", "✗ error"} {
		if !strings.Contains(legend, item) {
			t.Fatalf("the legend lacks %q:\n%s", item, legend)
		}
	}
	for _, l := range Legend(plain, 57) {
		if len([]rune(l)) > 57 {
			t.Fatalf("legend line %q is wider than 57", l)
		}
	}
}

// TestDescribe: the selected row's writers in full.
func TestDescribe(t *testing.T) {
	g := Build(demo(t), nil)
	want := map[string]string{
		"pl-client-acme.orders":  "all_orders: where client_id = 1",
		"pl-prices.feed_a":       "prices: writer id 'pl-prices.feed_a' in _laktory_writer",
		"pl-events.events_live":  "events: append flow events__events_live",
		"pl-prices.gld_prices_a": "gld_prices_a: the whole table",
	}
	for _, r := range g.Rows(func(*Group) bool { return false }) {
		if w, ok := want[r.Label]; ok {
			if got := strings.Join(g.Describe(r), "; "); got != w {
				t.Errorf("%s: %q, want %q", r.Label, got, w)
			}
		}
	}
	for _, r := range g.Rows(func(*Group) bool { return true }) {
		if r.Kind == RowCollapsed && !strings.Contains(strings.Join(g.Describe(r), ""), "2 writers (space expands the group)") {
			t.Errorf("collapsed %s: %q", r.Label, g.Describe(r))
		}
	}
}
