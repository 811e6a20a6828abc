package workspace

import (
	"regexp"
	"testing"
)

// TestVarRef: the scanner of ${vars.x} references finds what the pattern
// `\$\{vars?\.([a-zA-Z_][a-zA-Z0-9_]*)\}` finds, first match first.
func TestVarRef(t *testing.T) {
	re := regexp.MustCompile(`\$\{vars?\.([a-zA-Z_][a-zA-Z0-9_]*)\}`)
	for _, s := range []string{"", "plain", "${vars.a}", "${var.a}", "x${vars.Ab_9}y", "${vars.1a}", "${vars.}",
		"${varsx.a}", "${vars.a", "$${vars.a}", "${var${vars.a}}", "${vars.a-b}", "${vars._}", "${vars.a}${var.b}",
		"${VARS.a}", "${vars.[}", "${vars.@}", "${vars.é}", "${{ vars.a }}", "${vars.a9_Z}", "${vars"} {
		start, end, name := varRef(s)
		m := re.FindStringSubmatchIndex(s)
		switch {
		case m == nil && start != -1:
			t.Errorf("%q: found %q at %d, the pattern nothing", s, name, start)
		case m != nil && (start != m[0] || end != m[1] || name != s[m[2]:m[3]]):
			t.Errorf("%q: found %q at %d:%d, the pattern %q at %d:%d", s, name, start, end, s[m[2]:m[3]], m[0], m[1])
		}
	}
}
