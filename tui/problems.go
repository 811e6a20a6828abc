package tui

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/workspace"
)

// problemsPane lists the diagnostics, errors first, then warnings, then
// infos, each by file: position, severity, code, message and hint. enter
// opens the file at the line in $EDITOR.
type problemsPane struct {
	c       *common
	ws      *wsView
	ds      []workspace.Diagnostic // ws.diags, errors first (those matching the search)
	q       string
	cursor  int
	offset  int // first line shown
	w, h    int
	focused bool
	lines   []string // every line of every item
	first   []int    // first line of each item
	last    []int    // last line of each item (inclusive)
	view    []string
}

func newProblemsPane(c *common) problemsPane { return problemsPane{c: c} }

// SetSize sets the pane's size.
func (p *problemsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.render()
}

func (p *problemsPane) setFocused(f bool) {
	p.focused = f
	p.render()
}

// setWorkspace shows a new list of diagnostics, keeping the cursor on the
// same problem when it is still there.
func (p *problemsPane) setWorkspace(ws *wsView) {
	var cur workspace.Diagnostic
	had := false
	if d, ok := p.selected(); ok {
		cur, had = d, true
	}
	p.ws = ws
	p.ds = p.ds[:0]
	for _, d := range ws.diags {
		if matches(p.q, d.Message, d.Code, d.Hint, d.File) {
			p.ds = append(p.ds, d)
		}
	}
	slices.SortStableFunc(p.ds, func(a, b workspace.Diagnostic) int { return cmp.Compare(a.Severity, b.Severity) })
	if had {
		for i, d := range p.ds {
			if d.File == cur.File && d.Code == cur.Code && d.Message == cur.Message {
				p.cursor = i
				break
			}
		}
	}
	p.render()
}

func (p *problemsPane) query() string { return p.q }

func (p *problemsPane) search(q string) int {
	p.q = q
	if p.ws != nil {
		p.setWorkspace(p.ws)
	}
	p.cursor = min(p.cursor, max(len(p.ds)-1, 0))
	p.render()
	if q == "" {
		return 0
	}
	return len(p.ds)
}

func (p *problemsPane) step(forward bool) {
	if len(p.ds) > 0 {
		p.cursor = stepIndex(p.cursor, len(p.ds), forward, func(int) bool { return true })
		p.render()
	}
}

// selected returns the diagnostic under the cursor.
func (p *problemsPane) selected() (workspace.Diagnostic, bool) {
	if p.ws == nil || p.cursor < 0 || p.cursor >= len(p.ds) {
		return workspace.Diagnostic{}, false
	}
	return p.ds[p.cursor], true
}

// Update moves the cursor.
func (p problemsPane) Update(msg tea.Msg) (problemsPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || p.ws == nil {
		return p, nil
	}
	k := p.c.keys
	n := len(p.ds)
	cur, moved := k.move(km, p.cursor, max(p.h/3, 1), n-1)
	if !moved {
		return p, nil
	}
	p.cursor = min(max(cur, 0), max(n-1, 0))
	p.render()
	return p, nil
}

// View returns the pane's lines.
func (p problemsPane) View() []string { return p.view }

// ShortHelp implements help.KeyMap.
func (p problemsPane) ShortHelp() []key.Binding {
	k := p.c.keys
	return []key.Binding{k.Up, k.Down, k.OpenProblem}
}

// FullHelp implements help.KeyMap.
func (p problemsPane) FullHelp() [][]key.Binding {
	k := p.c.keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.OpenProblem}}
}

// render lays out every item (at mutation time), then the window.
func (p *problemsPane) render() {
	if p.w <= 0 || p.h <= 0 {
		p.view = nil
		return
	}
	if p.ws == nil {
		p.view = fitLines(nil, p.w, p.h)
		return
	}
	st := p.c.st
	p.lines, p.first, p.last = p.lines[:0], p.first[:0], p.last[:0]
	ds, ix := p.ds, p.ws.ix
	summary := st.OK.Render("✓ no problems")
	if len(ds) > 0 {
		summary = fmt.Sprintf("%s  %s  %s", st.Error.Render(fmt.Sprintf("✗ %d", ix.counts[0])),
			st.Warning.Render(fmt.Sprintf("! %d", ix.counts[1])), st.Info.Render(fmt.Sprintf("i %d", ix.counts[2])))
	}
	head := []string{summary}
	file := "\x00"
	for i, d := range ds {
		if d.File != file {
			file = d.File
			name := "(run parameters)"
			if d.File != "" {
				name = p.ws.snap.Rel(d.File)
			}
			p.lines = append(p.lines, st.Bold.Render(ansi.Truncate(name, p.w, "…")))
		}
		p.first = append(p.first, len(p.lines))
		p.lines = append(p.lines, p.item(d, i == p.cursor)...)
		p.last = append(p.last, len(p.lines)-1)
	}
	rows := max(p.h-len(head), 1)
	if p.cursor < len(p.first) {
		top, last := p.first[p.cursor], p.last[p.cursor]
		if p.cursor == 0 || ds[p.cursor-1].File != ds[p.cursor].File {
			top-- // with its file's name
		}
		if last >= p.offset+rows {
			p.offset = last - rows + 1
		}
		if top < p.offset {
			p.offset = top
		}
	}
	p.offset = min(max(p.offset, 0), max(len(p.lines)-rows, 0))
	end := min(p.offset+rows, len(p.lines))
	p.view = fitLines(append(head, p.lines[p.offset:end]...), p.w, p.h)
}

// item renders one diagnostic: mark, line:col, code and message (wrapped),
// then the hint.
func (p *problemsPane) item(d workspace.Diagnostic, selected bool) []string {
	st := p.c.st
	mark := severityMark(st, d.Severity)
	pos := fmt.Sprintf("%d:%d", d.Line, d.Col)
	const indent = 3
	out := wrapText(fmt.Sprintf(" %s %s %s %s", mark, pos, st.Dim.Render(d.Code), d.Message), p.w, indent)
	if d.Hint != "" {
		out = append(out, wrapText("   "+st.Info.Render("hint: "+d.Hint), p.w, indent+len("hint: "))...)
	}
	if selected {
		for i := range out {
			plain := fitLine(ansi.Strip(out[i]), p.w)
			if i == 0 {
				plain = "›" + plain[1:]
			}
			if p.focused {
				out[i] = st.Selected.Render(plain)
			} else {
				out[i] = st.Unfocused.Render(plain)
			}
		}
	}
	return out
}
