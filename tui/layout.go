package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// rect is a region of the screen.
type rect struct{ X, Y, W, H int }

func (r rect) contains(x, y int) bool { return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H }

// Minimum terminal size the workbench draws in.
const (
	minWidth  = 60
	minHeight = 16
)

// screenLayout places the parts of the screen.
type screenLayout struct {
	Header, Tree, Sep, Tabs, Main, Footer rect
	TooSmall                              bool
}

// computeLayout is the layout of a w x h terminal: a header line, the tree
// on the left, a separator, the tab bar over the main pane, and a footer
// line.
func computeLayout(w, h int) screenLayout {
	if w < minWidth || h < minHeight {
		return screenLayout{TooSmall: true}
	}
	tw := min(max(w/4, 22), 36)
	body := h - 2
	return screenLayout{
		Header: rect{0, 0, w, 1},
		Tree:   rect{0, 1, tw, body},
		Sep:    rect{tw, 1, 1, body},
		Tabs:   rect{tw + 1, 1, w - tw - 1, 1},
		Main:   rect{tw + 1, 2, w - tw - 1, body - 1},
		Footer: rect{0, h - 1, w, 1},
	}
}

// fitLine pads or truncates a (styled) line to exactly w cells.
func fitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	switch {
	case sw == w:
		return s
	case sw < w:
		return s + strings.Repeat(" ", w-sw)
	}
	return ansi.Truncate(s, w, "…")
}

// fitLines returns exactly h lines of exactly w cells.
func fitLines(lines []string, w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = fitLine(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return out
}

// overlay draws box (lines of equal width) centred over base (lines of
// width w).
func overlay(base []string, box []string, w int) []string {
	if len(box) == 0 {
		return base
	}
	bw := ansi.StringWidth(box[0])
	if bw > w {
		bw = w
	}
	top := max((len(base)-len(box))/2, 0)
	left := max((w-bw)/2, 0)
	out := append([]string(nil), base...)
	for i, b := range box {
		y := top + i
		if y >= len(out) {
			break
		}
		line := out[y]
		out[y] = ansi.Truncate(line, left, "") + fitLine(b, bw) + ansi.TruncateLeft(line, left+bw, "")
	}
	return out
}
