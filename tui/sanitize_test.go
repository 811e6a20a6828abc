package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// anyEscape matches the escape sequences a frame may hold: colours and
// styles.
var anyEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestFrameHasNoControlCharacters: names and messages from the YAML that
// hold escape sequences and control characters reach the frame as text.
func TestFrameHasNoControlCharacters(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pl.yaml": "name: \"pl\\e[2J\\e]0;pwned\\a\"\nnodes:\n- name: \"n\\e[5A\\rx\\u202e\"\n  sinks:\n  - table_name: t\n    mode: APPEND\n    comment_typo: \"\\e[8m\"\n"},
		workspace.Options{})
	if s.Pipelines[0].Name != "pl\x1b[2J\x1b]0;pwned\a" {
		t.Fatalf("the YAML did not load the hostile name: %q", s.Pipelines[0].Name)
	}
	m := app(t, s, Deps{})
	for _, k := range []string{"", "2", "1", "3", "4"} {
		if k == "" {
			m = step(t, m, size(120, 40))
		} else {
			m = step(t, m, keys(k))
		}
		rest := anyEscape.ReplaceAllString(m.View(), "")
		if i := strings.IndexFunc(rest, func(r rune) bool {
			return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e
		}); i >= 0 {
			t.Fatalf("after %q the frame holds %q near %q", k, rest[i], rest[max(0, i-20):min(len(rest), i+20)])
		}
		if k == "" && !strings.Contains(m.View(), `pl\x1b[2J\x1b]0;pwned\x07`) {
			t.Fatalf("the name is not shown as text:\n%s", m.View())
		}
	}
}
