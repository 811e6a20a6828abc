package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cell is one character of a styled line with the SGR sequences in effect.
type cell struct {
	s     string // the character (with any zero-width runes after it)
	w     int
	style string
}

// cellsOf splits a styled line into cells. Escape sequences other than
// SGR are dropped (the workbench draws none).
func cellsOf(s string) []cell {
	var out []cell
	style := ""
	for i := 0; i < len(s); {
		if s[i] == '\x1b' && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				if p := s[i+2 : j]; p == "" || p == "0" {
					style = ""
				} else {
					style += s[i : j+1]
				}
			}
			i = j + 1
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		ch := s[i : i+n]
		i += n
		w := 1
		if r >= utf8.RuneSelf || r < ' ' {
			w = ansi.StringWidth(ch)
		}
		if w == 0 && len(out) > 0 && r != '\t' {
			out[len(out)-1].s += ch
			continue
		}
		out = append(out, cell{s: ch, w: w, style: style})
	}
	return out
}

// renderCells draws cells back, reopening styles where they change and
// closing them at the end, so every line stands alone.
func renderCells(cs []cell) string {
	var b strings.Builder
	cur := ""
	for _, c := range cs {
		if c.style != cur {
			if cur != "" {
				b.WriteString("\x1b[0m")
			}
			b.WriteString(c.style)
			cur = c.style
		}
		b.WriteString(c.s)
	}
	if cur != "" {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

func cellsWidth(cs []cell) int {
	n := 0
	for _, c := range cs {
		n += c.w
	}
	return n
}

// hangOf is the hanging indent of a line's continuation: its leading
// spaces, plus a leading mark ("✂ ", "! ", "↻ ") and the space after it.
func hangOf(s string) int {
	plain := ansi.Strip(s)
	rest := strings.TrimLeft(plain, " ")
	n := len(plain) - len(rest)
	if f := strings.Fields(rest); len(f) > 1 && ansi.StringWidth(f[0]) == 1 && strings.HasPrefix(rest, f[0]+" ") {
		if r := []rune(f[0])[0]; !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			n += 2
		}
	}
	return n
}

// wrap breaks a styled line into lines at most w cells wide, with the
// line's own hanging indent (hangOf).
func wrap(s string, w int) []string { return wrapText(s, w, hangOf(s)) }

// wrapText breaks a styled line into lines at most w cells wide on word
// boundaries (never inside a word like "pl-client-acme"), continuation
// lines indented by hang cells. A word longer than a line (a path) is
// broken after a '/', else after '.', '_', '-' or ':', else where the line
// ends. Styles carry over the breaks.
func wrapText(s string, w, hang int) []string {
	if w <= 0 {
		return []string{""}
	}
	if ansi.StringWidth(s) <= w && !strings.Contains(s, "\n") {
		return []string{s}
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrapCells(cellsOf(para), w, min(hang, w/3))...)
	}
	return out
}

func wrapCells(cs []cell, w, hang int) []string {
	var lines []string
	var line []cell
	lead := 0 // leading spaces of the first line are kept
	for lead < len(cs) && cs[lead].s == " " {
		lead++
	}
	line = append(line, cs[:lead]...)
	words := splitWords(cs[lead:])
	indent := func() []cell {
		out := make([]cell, hang)
		for i := range out {
			out[i] = cell{s: " ", w: 1}
		}
		return out
	}
	atStart := true // nothing but the indent on the line yet
	flush := func() {
		lines = append(lines, renderCells(trimRight(line)))
		line, atStart = indent(), true
	}
	for _, wd := range words {
		sep := wd.sep
		if atStart {
			sep = nil
		}
		ww := cellsWidth(wd.word)
		if cellsWidth(line)+cellsWidth(sep)+ww <= w {
			line = append(append(line, sep...), wd.word...)
			atStart = false
			continue
		}
		if !atStart && hang+ww <= w {
			flush()
			line = append(line, wd.word...)
			atStart = false
			continue
		}
		// A word longer than a line: break it, starting on this line
		// when a good part of it fits.
		word := wd.word
		for len(word) > 0 {
			room := w - cellsWidth(line) - cellsWidth(sep)
			if atStart {
				room = w - cellsWidth(line)
			}
			if cellsWidth(word) <= room {
				if !atStart {
					line = append(line, sep...)
				}
				line = append(line, word...)
				atStart = false
				break
			}
			cut := breakAt(word, room)
			if cut == 0 || (!atStart && room < max(12, w/2)) {
				if atStart { // nothing fits even alone: hard break
					cut = max(fitCells(word, room), 1)
				} else {
					flush()
					sep = nil
					continue
				}
			}
			if !atStart {
				line = append(line, sep...)
			}
			line = append(line, word[:cut]...)
			word = word[cut:]
			flush()
			sep = nil
		}
	}
	if !atStart || len(lines) == 0 {
		lines = append(lines, renderCells(trimRight(line)))
	}
	return lines
}

type wordCells struct{ sep, word []cell }

// splitWords splits cells at spaces; each word keeps the spaces before it.
func splitWords(cs []cell) []wordCells {
	var out []wordCells
	i := 0
	for i < len(cs) {
		j := i
		for j < len(cs) && cs[j].s == " " {
			j++
		}
		k := j
		for k < len(cs) && cs[k].s != " " {
			k++
		}
		if k > j {
			out = append(out, wordCells{sep: cs[i:j], word: cs[j:k]})
		}
		i = k
	}
	return out
}

// breakAt is where to break a word to fit room cells: after the last '/'
// that fits, else after '.', else after '_', '-', ':' or ','; never
// leaving less than 4 cells for the next line; 0 when none fits in the
// second half of the room (a break there would waste the line).
func breakAt(word []cell, room int) int {
	fit := fitCells(word, room)
	for _, set := range []string{"/", ".", "_-:,"} {
		for i := fit; i > 0; i-- {
			if !strings.Contains(set, word[i-1].s) || len(word)-i < 4 {
				continue
			}
			if i*2 >= fit || fit < 8 {
				return i
			}
			break
		}
	}
	return 0
}

// fitCells is how many leading cells fit in w.
func fitCells(cs []cell, w int) int {
	n := 0
	for i, c := range cs {
		if n+c.w > w {
			return i
		}
		n += c.w
	}
	return len(cs)
}

func trimRight(cs []cell) []cell {
	for len(cs) > 0 && cs[len(cs)-1].s == " " {
		cs = cs[:len(cs)-1]
	}
	return cs
}

// wrapAll wraps each line to w (wrap).
func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(l, w)...)
	}
	return out
}
