package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/laktory/workbench/tui/lanes"
)

// Palette is the semantic colour scheme: every colour the workbench draws
// comes from here.
type Palette struct {
	Accent  lipgloss.TerminalColor // focus, selection, the app name
	Subtle  lipgloss.TerminalColor // secondary text, separators
	Text    lipgloss.TerminalColor // body text
	Error   lipgloss.TerminalColor
	Warning lipgloss.TerminalColor
	Info    lipgloss.TerminalColor
	OK      lipgloss.TerminalColor
	Running lipgloss.TerminalColor
}

// DefaultPalette reads on light and dark terminals.
func DefaultPalette() Palette {
	return Palette{
		Accent:  lipgloss.AdaptiveColor{Light: "#5A3FD6", Dark: "#A593FF"},
		Subtle:  lipgloss.AdaptiveColor{Light: "#8A8A8A", Dark: "#6C6C6C"},
		Text:    lipgloss.AdaptiveColor{Light: "#1F1F1F", Dark: "#DDDDDD"},
		Error:   lipgloss.AdaptiveColor{Light: "#C62828", Dark: "#FF6B6B"},
		Warning: lipgloss.AdaptiveColor{Light: "#A86700", Dark: "#F5C04A"},
		Info:    lipgloss.AdaptiveColor{Light: "#1565C0", Dark: "#6CB6FF"},
		OK:      lipgloss.AdaptiveColor{Light: "#2E7D32", Dark: "#6BD66B"},
		Running: lipgloss.AdaptiveColor{Light: "#00838F", Dark: "#4DD0E1"},
	}
}

// NoColorPalette has no colours at all (NO_COLOR).
func NoColorPalette() Palette {
	n := lipgloss.NoColor{}
	return Palette{Accent: n, Subtle: n, Text: n, Error: n, Warning: n, Info: n, OK: n, Running: n}
}

// Styles is every style of the workbench, built from a palette.
type Styles struct {
	AppName    lipgloss.Style
	Header     lipgloss.Style
	Tab        lipgloss.Style
	TabActive  lipgloss.Style
	PaneTitle  lipgloss.Style
	PaneFocus  lipgloss.Style
	Separator  lipgloss.Style
	Selected   lipgloss.Style // the cursor line of the focused pane
	Unfocused  lipgloss.Style // the cursor line of a pane without the focus (dimmed)
	Dim        lipgloss.Style
	Bold       lipgloss.Style
	Accent     lipgloss.Style
	Error      lipgloss.Style
	Warning    lipgloss.Style
	Info       lipgloss.Style
	OK         lipgloss.Style
	Running    lipgloss.Style
	Status     lipgloss.Style
	StatusErr  lipgloss.Style
	DialogBox  lipgloss.Style
	DialogHead lipgloss.Style
	Help       help.Styles
	Lanes      lanes.Styles
}

// NewStyles expands a palette into the styles.
func NewStyles(p Palette) *Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	s := &Styles{
		AppName:    fg(p.Accent).Bold(true),
		Header:     fg(p.Text),
		Tab:        fg(p.Subtle),
		TabActive:  fg(p.Accent).Bold(true).Underline(true),
		PaneTitle:  fg(p.Subtle),
		PaneFocus:  fg(p.Accent).Bold(true),
		Separator:  fg(p.Subtle),
		Selected:   lipgloss.NewStyle().Reverse(true),
		Unfocused:  lipgloss.NewStyle().Faint(true),
		Dim:        fg(p.Subtle),
		Bold:       lipgloss.NewStyle().Bold(true),
		Accent:     fg(p.Accent),
		Error:      fg(p.Error).Bold(true),
		Warning:    fg(p.Warning).Bold(true),
		Info:       fg(p.Info),
		OK:         fg(p.OK),
		Running:    fg(p.Running).Bold(true),
		Status:     fg(p.Accent),
		StatusErr:  fg(p.Error).Bold(true),
		DialogBox:  lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent).Padding(0, 1),
		DialogHead: fg(p.Accent).Bold(true),
	}
	s.Help = help.Styles{
		ShortKey:       fg(p.Accent),
		ShortDesc:      fg(p.Subtle),
		ShortSeparator: fg(p.Subtle),
		Ellipsis:       fg(p.Subtle),
		FullKey:        fg(p.Accent),
		FullDesc:       fg(p.Text),
		FullSeparator:  fg(p.Subtle),
	}
	s.Lanes = lanes.Styles{
		Header:         lanes.NewPaint(fg(p.Text)),
		HeaderSelected: lanes.NewPaint(fg(p.Accent).Bold(true)),
		Axis:           lanes.NewPaint(fg(p.Subtle)),
		AxisSelected:   lanes.NewPaint(fg(p.Accent)),
		Bus:            lanes.NewPaint(fg(p.Accent)),
		Label:          lanes.NewPaint(fg(p.Text)),
		LabelSelected:  lanes.NewPaint(lipgloss.NewStyle().Reverse(true).Bold(true)),
		LabelDimmed:    lanes.NewPaint(lipgloss.NewStyle().Faint(true)),
		Owner:          lanes.NewPaint(fg(p.Subtle)),
		Hint:           lanes.NewPaint(fg(p.Subtle)),
	}
	s.Lanes.Marks[lanes.OK] = lanes.NewPaint(fg(p.OK))
	s.Lanes.Marks[lanes.Info] = lanes.NewPaint(fg(p.OK))
	s.Lanes.Marks[lanes.Warning] = lanes.NewPaint(fg(p.Warning).Bold(true))
	s.Lanes.Marks[lanes.Error] = lanes.NewPaint(fg(p.Error).Bold(true))
	return s
}

// state returns the style of a validation state.
func (s *Styles) state(st lanes.State) lipgloss.Style {
	switch st {
	case lanes.Error:
		return s.Error
	case lanes.Warning:
		return s.Warning
	case lanes.Info:
		return s.Info
	}
	return s.OK
}
