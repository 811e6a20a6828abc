package lanes

import (
	"fmt"
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
	Label, LabelSelected   Paint // row labels
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

// Legend explains the marks.
func Legend(st *Styles) string {
	return st.Owner.Wrap("● writer column  ◆ where  ■ whole table  ○ flow  ◈ mixed  ") +
		st.Marks[Warning].Wrap("! warning") + "  " + st.Marks[Error].Wrap("✗ error")
}

// Selection is the cursor of the matrix.
type Selection struct {
	Row, Lane int
	// FirstLane is the first lane shown by the previous frame: the window
	// of lanes only scrolls when the selected lane leaves it.
	FirstLane int
}

// View is a rendered matrix.
type View struct {
	Lines []string
	// HeaderLines is the number of lines of lane labels above the rows.
	HeaderLines int
	// FirstLane and Lanes are the lanes shown: [FirstLane, FirstLane+Lanes).
	FirstLane, Lanes int
	// LabelWidth and LaneWidth are the widths of the row label column and
	// of each lane, for mouse hit-testing.
	LabelWidth, LaneWidth int
}

const (
	maxLaneWidth = 24
	minLaneWidth = 3
)

// Render draws rows of g at width columns. The lines hold the lane labels
// (HeaderLines of them) then one line per row; no line is wider than width.
func Render(g *Graph, rows []Row, sel Selection, width int, st *Styles) View {
	n := len(g.Lanes)
	if n == 0 || width < 8 {
		return View{Lines: []string{st.Hint.Wrap(ansi.Truncate("no table is written by this workspace", max(width, 0), "…"))}}
	}
	maxLabel := 6
	for _, r := range rows {
		maxLabel = max(maxLabel, r.labelW)
	}
	lw := min(maxLabel+4, max(12, width*2/5))
	if lw > width-minLaneWidth {
		lw = max(width-minLaneWidth, 1)
	}
	room := width - lw

	maxOwner, maxLane := 0, 0
	for _, r := range rows {
		for _, c := range r.Cells {
			maxOwner = max(maxOwner, c.ownerW)
		}
	}
	for _, l := range g.Lanes {
		maxLane = max(maxLane, l.labelW)
	}
	cw := min(max(maxOwner+3, 4), maxLaneWidth)
	if n*min(maxLane+2, maxLaneWidth) <= room {
		cw = max(cw, min(maxLane+2, maxLaneWidth)) // labels on one line
	}
	if n*cw > room {
		cw = max(minLaneWidth, min(cw, room/n))
	}
	visible := min(n, room/cw)
	if visible < 1 {
		visible = 1
		cw = room
	}
	lane := min(max(sel.Lane, 0), n-1)
	lo := min(max(sel.FirstLane, lane-visible+1), lane)
	lo = min(max(lo, 0), n-visible)

	h := 1
	for v := range visible {
		if g.Lanes[lo+v].labelW > cw-1 {
			h = min(3, visible)
			break
		}
	}
	r := renderer{g: g, st: st, lw: lw, cw: cw, lo: lo, visible: visible, lane: lane, width: width,
		spaces: strings.Repeat(" ", width), bus: strings.Repeat("─", width)}
	lines := make([]string, 0, h+len(rows))
	for l := range h {
		lines = append(lines, r.header(l, h))
	}
	for i := range rows {
		lines = append(lines, r.row(&rows[i], i == sel.Row))
	}
	return View{Lines: lines, HeaderLines: h, FirstLane: lo, Lanes: visible, LabelWidth: lw, LaneWidth: cw}
}

type renderer struct {
	g                         *Graph
	st                        *Styles
	lw, cw, lo, visible, lane int
	width                     int
	spaces, bus               string
	b                         strings.Builder
}

func (r *renderer) pad(n int) string { return r.spaces[:max(n, 0)] }

func (r *renderer) busFill(n int) string { return r.bus[:3*max(n, 0)] } // "─" is 3 bytes

// header draws line l of h lines of lane labels: lane v's label sits on
// line v%h, above its axis, which starts on the next line (a staircase).
func (r *renderer) header(l, h int) string {
	r.b.Reset()
	text := ""
	scrolled := r.lo > 0 || r.lo+r.visible < len(r.g.Lanes)
	rng := fmt.Sprintf("tables %d-%d/%d", r.lo+1, r.lo+r.visible, len(r.g.Lanes))
	switch {
	case l == h-1 && scrolled && h == 1:
		text = "writer  " + rng
	case l == h-1:
		text = "writer"
	case l == 0 && scrolled:
		text = rng
	}
	text = ansi.Truncate(text, r.lw-2, "…")
	r.b.WriteString("  ")
	r.b.WriteString(r.st.Hint.Wrap(text))
	r.b.WriteString(r.pad(r.lw - 2 - ansi.StringWidth(text)))
	for v := 0; v < r.visible; {
		k := r.lo + v
		lv := v % h
		switch {
		case lv == l:
			u := v + 1
			for u < r.visible && u%h > l {
				u++
			}
			room := (u-v)*r.cw - 1
			label := ansi.Truncate(r.g.Lanes[k].Label, room, "…")
			p := r.st.Header
			if k == r.lane {
				p = r.st.HeaderSelected
			}
			r.b.WriteString(p.Wrap(label))
			r.b.WriteString(r.pad((u-v)*r.cw - ansi.StringWidth(label)))
			v = u
			continue
		case lv < l:
			r.axis(k)
			r.b.WriteString(r.pad(r.cw - 1))
		default:
			r.b.WriteString(r.pad(r.cw))
		}
		v++
	}
	return r.b.String()
}

func (r *renderer) axis(k int) {
	if k == r.lane {
		r.b.WriteString(r.st.AxisSelected.Wrap("┃"))
	} else {
		r.b.WriteString(r.st.Axis.Wrap("│"))
	}
}

func (r *renderer) row(row *Row, selected bool) string {
	r.b.Reset()
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
	label := row.Label
	lwidth := row.labelW
	if lwidth > r.lw-4 {
		label = ansi.Truncate(label, r.lw-4, "…")
		lwidth = ansi.StringWidth(label)
	}
	r.b.WriteString(cursor)
	r.b.WriteString(marker)
	if selected {
		r.b.WriteString(r.st.LabelSelected.Wrap(label))
	} else {
		r.b.WriteString(r.st.Label.Wrap(label))
	}
	rest := r.lw - 2 - lwidth

	// The bus of the selected row runs from its label to its last mark.
	last := -1
	if selected {
		for v := range r.visible {
			if row.Cells[r.lo+v].Kind != KindNone {
				last = v
			}
		}
		for k := r.lo + r.visible; k < len(row.Cells); k++ {
			if row.Cells[k].Kind != KindNone {
				last = r.visible
				break
			}
		}
	}
	if last >= 0 && rest > 1 {
		r.b.WriteString(" ")
		r.b.WriteString(r.st.Bus.Wrap(r.busFill(rest - 1)))
	} else {
		r.b.WriteString(r.pad(rest))
	}
	for v := range r.visible {
		k := r.lo + v
		c := &row.Cells[k]
		onBus := v < last
		if c.Kind == KindNone {
			switch {
			case onBus:
				r.b.WriteString(r.st.Bus.Wrap("┼" + r.busFill(r.cw-1)))
			default:
				r.axis(k)
				r.b.WriteString(r.pad(r.cw - 1))
			}
			continue
		}
		mark := r.st.Marks[c.State]
		r.b.WriteString(mark.Wrap(Glyph(c.Kind)))
		if r.cw < 2 {
			continue
		}
		switch {
		case c.State >= Warning:
			r.b.WriteString(mark.Wrap(StateChar(c.State)))
		case onBus:
			r.b.WriteString(r.st.Bus.Wrap("─"))
		default:
			r.b.WriteString(" ")
		}
		room := r.cw - 3
		used := 0
		if room > 0 {
			owner := c.Owner
			used = c.ownerW
			if used > room {
				owner = ansi.Truncate(owner, room, "…")
				used = ansi.StringWidth(owner)
			}
			r.b.WriteString(r.st.Owner.Wrap(owner))
		}
		fill := r.cw - 2 - used
		if onBus {
			r.b.WriteString(r.st.Bus.Wrap(r.busFill(fill)))
		} else {
			r.b.WriteString(r.pad(fill))
		}
	}
	return r.b.String()
}
