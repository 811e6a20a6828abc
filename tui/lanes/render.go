package lanes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Paint wraps text in the escape sequences of a style, computed once: the
// renderer styles thousands of cells per frame, and concatenation is much
// cheaper than lipgloss.Style.Render.
type Paint struct{ pre, post string }

// NewPaint captures the escape sequences s puts around its text. s must not
// set a width, padding, margins or borders.
func NewPaint(s lipgloss.Style) Paint {
	const probe = "\uE000"
	r := s.Render(probe)
	i := strings.Index(r, probe)
	if i < 0 {
		return Paint{}
	}
	return Paint{pre: r[:i], post: r[i+len(probe):]}
}

// Wrap paints text.
func (p Paint) Wrap(text string) string {
	if p.pre == "" || text == "" {
		return text
	}
	return p.pre + text + p.post
}

// Styles paints the parts of the matrix.
type Styles struct {
	Header, HeaderSelected Paint // lane labels
	Axis, AxisSelected     Paint // lanes passing through a row
	Bus                    Paint // the selected row's bus
	Label, LabelSelected   Paint // row labels (the cursor's, focused)
	LabelDimmed            Paint // the cursor's row label, unfocused
	Owner                  Paint // ownership text next to a mark
	Hint                   Paint // the scroll hint
	// Marks paints marks and state characters by validation state.
	Marks [Error + 1]Paint
}

// Glyph is the mark of an ownership kind.
func Glyph(k Kind) string {
	switch k {
	case KindColumn:
		return "●"
	case KindWhere:
		return "◆"
	case KindTable:
		return "■"
	case KindFlow:
		return "○"
	case KindMixed:
		return "◈"
	}
	return " "
}

// StateChar is the character after a mark that repeats its state for
// terminals without colour.
func StateChar(s State) string {
	switch s {
	case Error:
		return "✗"
	case Warning:
		return "!"
	}
	return " "
}

// LegendItems are the explanations of the marks and row markers, in the
// order the legend shows them.
func LegendItems(st *Styles) []string {
	return []string{
		st.Owner.Wrap("● writer column"), st.Owner.Wrap("◆ where"), st.Owner.Wrap("■ whole table"), st.Owner.Wrap("○ flow"),
		st.Owner.Wrap("◈ mixed"), st.Marks[Warning].Wrap("! warning"), st.Marks[Error].Wrap("✗ error"),
		st.Owner.Wrap("+ group (space expands)"), st.Owner.Wrap("- in a group"),
	}
}

// Legend explains the marks and the row markers in lines of at most width
// columns (whole items on each line).
func Legend(st *Styles, width int) []string {
	var lines []string
	line, lw := "", 0
	for _, it := range LegendItems(st) {
		w := ansi.StringWidth(it)
		switch {
		case lw == 0:
			line, lw = it, w
		case lw+2+w <= width:
			line, lw = line+"  "+it, lw+2+w
		default:
			lines = append(lines, line)
			line, lw = it, w
		}
	}
	return append(lines, line)
}

// Selection is the cursor of the matrix.
type Selection struct {
	Row, Lane int
	// FirstLane is the first lane shown by the previous frame: the window
	// of lanes only scrolls when the selected lane leaves it.
	FirstLane int
	// Focused draws the cursor's row highlighted; else it is dimmed (the
	// focus is in another pane).
	Focused bool
}

// View is a rendered matrix.
type View struct {
	Lines []string
	// HeaderLines is the number of lines of lane labels above the rows.
	HeaderLines int
	// FirstLane and Lanes are the lanes shown: [FirstLane, FirstLane+Lanes).
	FirstLane, Lanes int
	// LabelWidth is the width of the row label column.
	LabelWidth int
}

const (
	minLaneWidth  = 3  // a mark, its state and a blank
	minLabelWidth = 12 // row labels are not shortened below this
	ownerGap      = 3  // a mark, its state and a blank before the owner
)

// Render draws rows of g at width columns: one line of lane labels, then
// one line per row; no line is wider than width. Lane labels are never
// cut while one lane fits: when the lanes do not all fit, the row labels
// are shortened (staying distinct, never below what tells them apart),
// then the lanes scroll. The owner text of a mark shows only where it fits
// whole.
func Render(g *Graph, rows []Row, sel Selection, width int, st *Styles) View {
	n := len(g.Lanes)
	if n == 0 || width < 8 {
		return View{Lines: []string{st.Hint.Wrap(ansi.Truncate("no table is written by this workspace", max(width, 0), "…"))}}
	}
	lay := arrange(g, rows, sel, width)
	r := renderer{g: g, st: st, lay: lay, width: width, focused: sel.Focused,
		spaces: strings.Repeat(" ", width), bus: strings.Repeat("─", width)}
	lines := make([]string, 0, 1+len(rows))
	lines = append(lines, r.header())
	for i := range rows {
		lines = append(lines, r.row(&rows[i], lay.labels[i], i == sel.Row))
	}
	return View{Lines: lines, HeaderLines: 1, FirstLane: lay.lo, Lanes: lay.visible, LabelWidth: lay.lw}
}

// arrangement is how the matrix uses the width: the lanes shown, their
// widths, the label column and the row labels as shown.
type arrangement struct {
	lo, visible int
	lane        int   // the selected lane
	widths      []int // of the lanes shown
	lw          int   // the label column: cursor, marker, label, a blank
	labels      []string
}

// laneMin is the narrowest lane k that shows its label whole.
func laneMin(g *Graph, k int) int { return max(g.Lanes[k].labelW+1, minLaneWidth) }

func arrange(g *Graph, rows []Row, sel Selection, width int) arrangement {
	n := len(g.Lanes)
	a := arrangement{lane: min(max(sel.Lane, 0), n-1)}
	full := minLabelWidth
	for _, r := range rows {
		full = max(full, r.labelW)
	}
	full += 3
	sum := func(lo, hi int) int {
		s := 0
		for k := lo; k < hi; k++ {
			s += laneMin(g, k)
		}
		return s
	}
	// The narrowest label column that keeps node names whole and pipelines
	// told apart: below it the lanes scroll instead.
	need := min(full, max(minLabelWidth, readableWidth(rows))+3)
	switch {
	case full+sum(0, n) <= width:
		a.lo, a.visible, a.lw = 0, n, full
	case need+sum(0, n) <= width:
		a.lo, a.visible, a.lw = 0, n, width-sum(0, n)
	default:
		// Scroll: the window keeps its first lane unless the selected lane
		// leaves it; the labels take what the lanes leave.
		floor := min(need, max(width*2/5, minLabelWidth+3))
		lo := min(max(sel.FirstLane, 0), a.lane)
		for lo < a.lane && floor+sum(lo, a.lane+1) > width {
			lo++
		}
		hi := a.lane + 1
		for hi < n && floor+sum(lo, hi+1) <= width {
			hi++
		}
		for lo > 0 && floor+sum(lo-1, hi) <= width {
			lo--
		}
		a.lo, a.visible = lo, hi-lo
		a.lw = max(min(full, width-sum(lo, hi)), min(floor, width-minLaneWidth))
	}
	a.widths = make([]int, a.visible)
	left := width - a.lw
	for v := range a.visible {
		a.widths[v] = min(laneMin(g, a.lo+v), max(left, 1))
		left -= a.widths[v]
	}
	// What is left widens the lanes, left to right, to show their owners.
	for v := range a.visible {
		want := max(maxOwner(rows, a.lo+v)+ownerGap+1, a.widths[v])
		if grow := want - a.widths[v]; grow > 0 && grow <= left {
			a.widths[v] += grow
			left -= grow
		}
	}
	a.labels = shortLabels(rows, a.lw-3)
	return a
}

// maxOwner is the widest owner text of lane k among rows.
func maxOwner(rows []Row, k int) int {
	w := 0
	for _, r := range rows {
		if r.Cells[k].Kind != KindNone {
			w = max(w, r.Cells[k].ownerW)
		}
	}
	return w
}

// shortLabels fits the row labels in w columns: a label that does not fit
// keeps its node and shortens its pipeline ("pl-client-a….orders"), or
// keeps its head and tail; labels that would then look alike keep their
// tails. Labels that fit are untouched.
func shortLabels(rows []Row, w int) []string {
	out := make([]string, len(rows))
	seen := map[string]int{}
	for i, r := range rows {
		out[i] = shorten(r.Label, r.labelW, w)
		seen[out[i]]++
	}
	for i, r := range rows {
		if seen[out[i]] > 1 && r.labelW > w {
			out[i] = tail(r.Label, w)
		}
	}
	return out
}

// readableWidth is the widest row label once shortened to keep its node
// and the part of its pipeline's name that tells it from the others
// ("pl-client-a….orders").
func readableWidth(rows []Row) int {
	var pls []string
	for _, r := range rows {
		if pl, _, ok := strings.Cut(r.Label, "."); ok && !slices.Contains(pls, pl) {
			pls = append(pls, pl)
		}
	}
	w := 0
	for _, r := range rows {
		pl, node, ok := strings.Cut(r.Label, ".")
		if !ok {
			w = max(w, r.labelW)
			continue
		}
		p := uniquePrefix(pl, pls)
		w = max(w, min(r.labelW, ansi.StringWidth(p)+1+1+ansi.StringWidth(node)))
	}
	return w
}

// uniquePrefix is the shortest prefix of s that no other of names starts
// with (s itself when there is none).
func uniquePrefix(s string, names []string) string {
	r := []rune(s)
	for n := 1; n < len(r); n++ {
		p := string(r[:n])
		clash := false
		for _, o := range names {
			clash = clash || (o != s && strings.HasPrefix(o, p))
		}
		if !clash {
			return p
		}
	}
	return s
}

func shorten(label string, lw, w int) string {
	if lw <= w {
		return label
	}
	if pl, node, ok := strings.Cut(label, "."); ok {
		if nw := ansi.StringWidth(node); nw+3 <= w {
			return ansi.Truncate(pl, w-nw-1, "…") + "." + node
		}
	}
	head := max(w/3, 1)
	return ansi.Truncate(label, head, "…") + tail(label, w-head+1)[len("…"):]
}

// tail is "…" and the end of s, w columns in all.
func tail(s string, w int) string {
	r := []rune(s)
	n := max(w-1, 0)
	if n >= len(r) {
		return s
	}
	return "…" + string(r[len(r)-n:])
}

type renderer struct {
	g       *Graph
	st      *Styles
	lay     arrangement
	width   int
	focused bool
	spaces  string
	bus     string
	b       strings.Builder
}

func (r *renderer) pad(n int) string { return r.spaces[:max(n, 0)] }

func (r *renderer) busFill(n int) string { return r.bus[:3*max(n, 0)] } // "─" is 3 bytes

// header draws the lane labels on one line, after the label column's
// title (and the range of lanes shown when they scroll).
func (r *renderer) header() string {
	r.b.Reset()
	lay := r.lay
	room := lay.lw - 3 // a blank before the first lane
	text := "writer"
	if lay.lo > 0 || lay.lo+lay.visible < len(r.g.Lanes) {
		rng := fmt.Sprintf("%d-%d/%d", lay.lo+1, lay.lo+lay.visible, len(r.g.Lanes))
		for _, t := range []string{"writer  tables " + rng, "tables " + rng, rng} {
			if text = t; ansi.StringWidth(t) <= room {
				break
			}
		}
	}
	text = ansi.Truncate(text, max(room, 0), "…")
	r.b.WriteString("  ")
	r.b.WriteString(r.st.Hint.Wrap(text))
	r.b.WriteString(r.pad(room + 1 - ansi.StringWidth(text)))
	for v, w := range lay.widths {
		k := lay.lo + v
		label := r.g.Lanes[k].Label
		if r.g.Lanes[k].labelW > w-1 {
			label = ansi.Truncate(label, max(w-1, 1), "…") // only when one lane does not fit
		}
		p := r.st.Header
		if k == lay.lane {
			p = r.st.HeaderSelected
		}
		r.b.WriteString(p.Wrap(label))
		r.b.WriteString(r.pad(w - ansi.StringWidth(label)))
	}
	return r.b.String()
}

func (r *renderer) axis(k int) {
	if k == r.lay.lane {
		r.b.WriteString(r.st.AxisSelected.Wrap("┃"))
	} else {
		r.b.WriteString(r.st.Axis.Wrap("│"))
	}
}

func (r *renderer) row(row *Row, label string, selected bool) string {
	r.b.Reset()
	lay := r.lay
	cursor, marker := " ", " "
	if selected {
		cursor = "▸"
	}
	switch row.Kind {
	case RowCollapsed:
		marker = "+"
	case RowExpanded:
		marker = "-"
	}
	r.b.WriteString(cursor)
	r.b.WriteString(marker)
	busPaint := r.st.Bus
	switch {
	case selected && r.focused:
		r.b.WriteString(r.st.LabelSelected.Wrap(label))
	case selected:
		r.b.WriteString(r.st.LabelDimmed.Wrap(label))
		busPaint = r.st.Axis
	default:
		r.b.WriteString(r.st.Label.Wrap(label))
	}
	rest := lay.lw - 2 - ansi.StringWidth(label)

	// The bus of the selected row runs from its label to its last mark.
	last := -1
	if selected {
		for v := range lay.visible {
			if row.Cells[lay.lo+v].Kind != KindNone {
				last = v
			}
		}
		for k := lay.lo + lay.visible; k < len(row.Cells); k++ {
			if row.Cells[k].Kind != KindNone {
				last = lay.visible
				break
			}
		}
	}
	if last >= 0 && rest > 1 {
		r.b.WriteString(" ")
		r.b.WriteString(busPaint.Wrap(r.busFill(rest - 1)))
	} else {
		r.b.WriteString(r.pad(rest))
	}
	for v, cw := range lay.widths {
		k := lay.lo + v
		c := &row.Cells[k]
		onBus := v < last
		if c.Kind == KindNone {
			if onBus {
				r.b.WriteString(busPaint.Wrap("┼" + r.busFill(cw-1)))
			} else {
				r.axis(k)
				r.b.WriteString(r.pad(cw - 1))
			}
			continue
		}
		mark := r.st.Marks[c.State]
		r.b.WriteString(mark.Wrap(Glyph(c.Kind)))
		if cw < 2 {
			continue
		}
		switch {
		case c.State >= Warning:
			r.b.WriteString(mark.Wrap(StateChar(c.State)))
		case onBus:
			r.b.WriteString(busPaint.Wrap("─"))
		default:
			r.b.WriteString(" ")
		}
		used := 0
		if c.ownerW <= cw-ownerGap { // whole, or not at all
			r.b.WriteString(r.st.Owner.Wrap(c.Owner))
			used = c.ownerW
		}
		fill := cw - 2 - used
		if onBus {
			r.b.WriteString(busPaint.Wrap(r.busFill(fill)))
		} else {
			r.b.WriteString(r.pad(fill))
		}
	}
	return r.b.String()
}
