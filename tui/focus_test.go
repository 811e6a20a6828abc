package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/laktory/workbench/workspace"
	"github.com/muesli/termenv"
)

var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// hasSGR reports whether line turns on the SGR attribute code (7 reverse
// video, 2 faint).
func hasSGR(line, code string) bool {
	for _, m := range sgr.FindAllStringSubmatch(line, -1) {
		for _, p := range strings.Split(m[1], ";") {
			if p == code {
				return true
			}
		}
	}
	return false
}

// cursorLines returns the lines of the view in reverse video and those
// dimmed.
func cursorLines(m Model) (reversed, faint []string) {
	for _, l := range strings.Split(m.View(), "\n") {
		if hasSGR(l, "7") {
			reversed = append(reversed, l)
		}
		if hasSGR(l, "2") {
			faint = append(faint, l)
		}
	}
	return reversed, faint
}

// TestFocusObvious: one cursor is highlighted (the focused pane's, in
// reverse video), the other pane's cursor is dimmed, in every tab.
func TestFocusObvious(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, tc := range []struct {
		tab        string
		mainCursor string // the cursor of the tab's pane
	}{{"1", "▸"}, {"2", "›"}, {"3", "›"}} {
		t.Run("tab"+tc.tab, func(t *testing.T) {
			m, _, _ := demoApp(t, 120, 40)
			m = run(t, m, keys(tc.tab))
			rev, faint := cursorLines(m)
			if len(rev) == 0 || !strings.Contains(rev[0], tc.mainCursor) || strings.Contains(strings.Join(rev, ""), "›▾") {
				t.Fatalf("main focused: reversed lines %q, want the tab's cursor only", rev)
			}
			if len(faint) == 0 || !strings.Contains(strings.Join(faint, ""), "›") {
				t.Fatalf("main focused: the tree's cursor is not dimmed: %q", faint)
			}
			m = run(t, m, keys("tab"))
			rev, faint = cursorLines(m)
			if len(rev) != 1 || !strings.Contains(rev[0], "›▾") {
				t.Fatalf("tree focused: reversed lines %q, want the tree's cursor", rev)
			}
			if len(faint) == 0 || !strings.Contains(strings.Join(faint, ""), tc.mainCursor) {
				t.Fatalf("tree focused: the tab's cursor is not dimmed: %q", faint)
			}
		})
	}
}

// TestProblemsErrorsFirst: errors come first in the Problems tab, then
// warnings, then infos, whatever their files.
func TestProblemsErrorsFirst(t *testing.T) {
	s := demo(t)
	diags := []workspace.Diagnostic{
		workspace.NewDiagnostic(workspace.Pos{File: s.Pipelines[0].Pos.File, Line: 1, Col: 1}, workspace.SeverityInfo, "LK900", "an info first in the file", ""),
		workspace.NewDiagnostic(workspace.Pos{File: s.Pipelines[0].Pos.File, Line: 2, Col: 1}, workspace.SeverityWarning, "LK901", "a warning", ""),
		workspace.NewDiagnostic(workspace.Pos{File: s.Pipelines[1].Pos.File, Line: 9, Col: 1}, workspace.SeverityError, "LK902", "an error in another file", ""),
	}
	m := app(t, s, Deps{Diagnostics: diags})
	m = run(t, run(t, m, size(120, 30)), keys("2"))
	v := viewText(m)
	e, w, i := strings.Index(v, "an error in another file"), strings.Index(v, "a warning"), strings.Index(v, "an info first")
	if e < 0 || w < 0 || i < 0 || !(e < w && w < i) {
		t.Fatalf("order error %d, warning %d, info %d:\n%s", e, w, i, v)
	}
	if d, ok := m.probs.selected(); !ok || d.Code != "LK902" {
		t.Fatalf("the cursor starts on %+v, want the error", d)
	}
}
