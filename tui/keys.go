package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap is every key binding of the workbench. Panes pick theirs from it
// for the footer; `?` shows them all.
type KeyMap struct {
	Up, Down, Left, Right        key.Binding
	PageUp, PageDown             key.Binding
	DetailUp, DetailDown         key.Binding // scroll the graph's table detail
	Home, End                    key.Binding
	Enter, Back, Toggle          key.Binding
	NextPane, PrevPane           key.Binding
	Graph, Problems, Runs        key.Binding
	Table, NextTab, PrevTab      key.Binding
	Run, Full, Reset, Cancel     key.Binding
	RunAll, Watch, Engine        key.Binding
	Search, NextMatch, PrevMatch key.Binding
	Edit, Reload                 key.Binding
	Yes, No                      key.Binding
	// DeleteOverlapping confirms a run whose steps delete rows that also
	// match another writer's predicate (y alone does not).
	DeleteOverlapping          key.Binding
	Help, Quit                 key.Binding
	OpenProblem, OpenRun, Open key.Binding // enter, as each pane names it
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		Up:                b([]string{"up", "k"}, "↑/k", "up"),
		Down:              b([]string{"down", "j"}, "↓/j", "down"),
		Left:              b([]string{"left", "h"}, "←/h", "left"),
		Right:             b([]string{"right", "l"}, "→/l", "right"),
		PageUp:            b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:          b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		DetailUp:          b([]string{"K", "shift+up"}, "K", "detail up"),
		DetailDown:        b([]string{"J", "shift+down"}, "J", "detail down"),
		Home:              b([]string{"home", "g"}, "g", "top"),
		End:               b([]string{"end", "G"}, "G", "bottom"),
		Enter:             b([]string{"enter"}, "enter", "select"),
		Back:              b([]string{"esc", "backspace"}, "esc", "back"),
		Toggle:            b([]string{" ", "enter"}, "space", "expand/collapse"),
		NextPane:          b([]string{"tab"}, "tab", "next pane"),
		PrevPane:          b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Graph:             b([]string{"1"}, "1", "graph"),
		Problems:          b([]string{"2"}, "2", "problems"),
		Runs:              b([]string{"3"}, "3", "runs"),
		Table:             b([]string{"4"}, "4", "table"),
		NextTab:           b([]string{"]"}, "]", "next tab"),
		PrevTab:           b([]string{"["}, "[", "previous tab"),
		Run:               b([]string{"r"}, "r", "run"),
		Full:              b([]string{"f"}, "f", "full refresh"),
		Reset:             b([]string{"R"}, "R", "reset"),
		Cancel:            b([]string{"x"}, "x", "cancel run"),
		RunAll:            b([]string{"a"}, "a", "run all (incremental)"),
		Watch:             b([]string{"w"}, "w", "watch on/off"),
		Engine:            b([]string{"e"}, "e", "engine (dialog)"),
		Search:            b([]string{"/"}, "/", "search"),
		NextMatch:         b([]string{"n"}, "n", "next match"),
		PrevMatch:         b([]string{"N"}, "N", "previous match"),
		Edit:              b([]string{"e"}, "e", "edit file"),
		Reload:            b([]string{"ctrl+r"}, "ctrl+r", "re-read tables"),
		Yes:               b([]string{"y"}, "y", "yes"),
		No:                b([]string{"n", "esc"}, "n/esc", "no"),
		DeleteOverlapping: b([]string{"D"}, "D", "run, deleting the other writers' rows listed too"),
		Help:              b([]string{"?"}, "?", "all keys"),
		Quit:              b([]string{"q", "ctrl+c"}, "q", "quit"),
		OpenProblem:       b([]string{"enter"}, "enter", "open in $EDITOR"),
		OpenRun:           b([]string{"enter"}, "enter", "run details"),
		Open:              b([]string{"enter"}, "enter", "open table"),
	}
}

// move applies a movement key to a position in a list or a scroll: a line
// up or down, a page, the top, the end (last). It reports whether km is
// one; the caller clamps the position.
func (k *KeyMap) move(km tea.KeyMsg, pos, page, last int) (int, bool) {
	switch {
	case key.Matches(km, k.Up):
		return pos - 1, true
	case key.Matches(km, k.Down):
		return pos + 1, true
	case key.Matches(km, k.PageUp):
		return pos - page, true
	case key.Matches(km, k.PageDown):
		return pos + page, true
	case key.Matches(km, k.Home):
		return 0, true
	case key.Matches(km, k.End):
		return last, true
	}
	return pos, false
}
