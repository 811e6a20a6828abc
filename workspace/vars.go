package workspace

import (
	"fmt"
	"regexp"
	"strings"
)

// scope is one level of variables: a stack, its environment, a pipeline, a
// node... Inner scopes win; names are case-insensitive.
type scope struct {
	parent *scope
	vars   map[string]*vnode
}

func (s *scope) push(vars *vnode) *scope {
	if vars == nil || vars.kind != vMap || len(vars.keys) == 0 {
		return s
	}
	m := make(map[string]*vnode, len(vars.keys))
	for i, k := range vars.keys {
		m[strings.ToLower(k.value)] = vars.vals[i]
	}
	return &scope{parent: s, vars: m}
}

func (s *scope) lookup(name string) (*vnode, bool) {
	name = strings.ToLower(name)
	for c := s; c != nil; c = c.parent {
		if v, ok := c.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

var (
	exactVarRe  = regexp.MustCompile(`^\$\{vars?\.([a-zA-Z_][a-zA-Z0-9_]*)\}$`)
	pyExprRe    = regexp.MustCompile(`\$\{\{.*?\}\}`)
	maxVarDepth = 8
)

// MaxExpandedSize bounds the text one value may expand to with ${vars.x}
// substitution, so that a few variables repeating each other (an expansion
// bomb) cannot exhaust memory or time.
const MaxExpandedSize = 1 << 20

// MaxExpandedTotal bounds the text all the substitutions of one file
// produce, so that many references to a large value cannot either.
const MaxExpandedTotal = 16 << 20

// resolve substitutes ${vars.x} / ${var.x} in a scalar: pipeline (and
// inherited) variables first, then environment variables. A scalar that is
// exactly one variable takes the variable's value and type (a mapping, a
// list, a bool...). Unresolved variables stay as written, with a warning.
//
// Pipeline parameters (${params.x}) are substituted last, in one pass, as
// Laktory 0.13.1 resolves them after the variables: a parameter's value is
// literal text (a ${vars.x} or ${params.y} inside it stays as written), and
// the text it produces is bounded like the variables'.
func (d *decoder) resolve(n *vnode) *vnode {
	return d.applyParams(d.resolveDepth(n, 0))
}

// applyParams substitutes the ${params.x} references of a scalar with the
// values of the pipeline being decoded, once: the values are not expanded
// again. It stops at MaxExpandedSize (MaxExpandedTotal for the file) with
// CodeExpansion, as substitute does.
func (d *decoder) applyParams(n *vnode) *vnode {
	if n == nil || n.kind != vScalar || len(d.params) == 0 || !strings.Contains(n.value, "${params.") {
		return n
	}
	var b strings.Builder
	last, changed := 0, false
	for _, m := range paramRe.FindAllStringSubmatchIndex(n.value, -1) {
		v, ok := d.params[n.value[m[2]:m[3]]]
		if !ok {
			continue
		}
		grown := b.Len() + m[0] - last + len(v)
		if grown > MaxExpandedSize || d.expanded+grown > MaxExpandedTotal {
			d.expanded += grown
			d.errorf(n.pos(), CodeExpansion, "shorten the parameter's value, or reference it fewer times",
				"the value expands to more than %d KiB of text with its parameters' values (%d KiB in all for the file)", MaxExpandedSize>>10, MaxExpandedTotal>>20)
			return &vnode{kind: vScalar, tag: "!!str", file: n.file, line: n.line, col: n.col}
		}
		b.WriteString(n.value[last:m[0]])
		b.WriteString(v)
		last, changed = m[1], true
	}
	if !changed {
		return n
	}
	b.WriteString(n.value[last:])
	d.expanded += b.Len()
	out := *n
	out.value, out.tag = b.String(), "!!str"
	return &out
}

func (d *decoder) resolveDepth(n *vnode, depth int) *vnode {
	if n == nil || n.kind != vScalar || !strings.Contains(n.value, "${") {
		return n
	}
	if depth > maxVarDepth {
		d.errorf(n.pos(), CodeUnresolvedVar, "a variable cannot refer to itself, directly or not",
			"variables in %q refer to each other in a loop", n.value)
		return n
	}
	if pyExprRe.MatchString(n.value) && !d.warned[n.pos()] {
		d.warned[n.pos()] = true
		d.add(n.pos(), SeverityInfo, CodeExpression, "replace the expression with a ${vars.x} variable to see its value here",
			"Python expressions `${{ ... }}` are not evaluated by the workbench: the value is used as written")
	}
	if m := exactVarRe.FindStringSubmatch(n.value); m != nil {
		v, ok := d.lookupVar(m[1])
		if !ok {
			d.unresolved(n, m[1])
			return n
		}
		if v.kind != vScalar {
			return v
		}
		out := *n
		out.value, out.tag = v.value, v.tag
		if v.external {
			out = *v
		}
		return d.resolveDepth(&out, depth+1)
	}
	s, changed, over := d.substitute(n)
	if over != "" {
		d.errorf(n.pos(), CodeExpansion, "variables whose values repeat other variables grow exponentially: write the value out, or shorten it", "%s", over)
		return &vnode{kind: vScalar, tag: "!!str", file: n.file, line: n.line, col: n.col}
	}
	if !changed {
		return n
	}
	out := *n
	out.value, out.tag = s, "!!str"
	return d.resolveDepth(&out, depth+1)
}

// substitute replaces the ${vars.x} references of n's value with their
// values, one level. It stops as soon as the text would exceed
// MaxExpandedSize, or the file's substitutions MaxExpandedTotal, and then
// says so in over: the work is bounded by the text produced, whatever the
// variables and the machine.
func (d *decoder) substitute(n *vnode) (s string, changed bool, over string) {
	overSize := fmt.Sprintf("the value expands to more than %d KiB of text (variables within variables)", MaxExpandedSize>>10)
	overTotal := fmt.Sprintf("the values of the file expand to more than %d MiB of text in all (variables within variables)", MaxExpandedTotal>>20)
	var b strings.Builder
	rest := n.value
	for {
		i, j, name := varRef(rest)
		if i < 0 {
			break
		}
		repl := rest[i:j]
		if v, ok := d.lookupVar(name); !ok {
			d.unresolved(n, name)
		} else if v.kind == vScalar {
			repl, changed = v.value, true
		}
		grown := b.Len() + i + len(repl)
		switch {
		case !changed:
		case grown > MaxExpandedSize:
			return "", false, overSize
		case d.expanded+grown > MaxExpandedTotal:
			d.expanded += grown
			return "", false, overTotal
		}
		b.WriteString(rest[:i])
		b.WriteString(repl)
		rest = rest[j:]
	}
	if !changed {
		return n.value, false, ""
	}
	if b.Len()+len(rest) > MaxExpandedSize {
		return "", false, overSize
	}
	b.WriteString(rest)
	d.expanded += b.Len()
	return b.String(), true, ""
}

// varRef finds the first ${vars.x} (or ${var.x}) in s: where it starts and
// ends, and x; start is -1 when there is none.
func varRef(s string) (start, end int, name string) {
	for off := 0; ; {
		i := strings.Index(s[off:], "${var")
		if i < 0 {
			return -1, -1, ""
		}
		i += off
		j := i + len("${var")
		if j < len(s) && s[j] == 's' {
			j++
		}
		if j < len(s) && s[j] == '.' {
			k := j + 1
			for k < len(s) && (s[k] == '_' || 'a' <= s[k]|0x20 && s[k]|0x20 <= 'z' || k > j+1 && '0' <= s[k] && s[k] <= '9') {
				k++
			}
			if k > j+1 && k < len(s) && s[k] == '}' {
				return i, k + 1, s[j+1 : k]
			}
		}
		off = i + 1
	}
}

func (d *decoder) lookupVar(name string) (*vnode, bool) {
	if v, ok := d.scope.lookup(name); ok {
		return v, true
	}
	if d.getenv != nil {
		for _, k := range []string{name, strings.ToUpper(name), strings.ToLower(name)} {
			if v := d.getenv(k); v != "" {
				return &vnode{kind: vScalar, tag: "!!str", value: v}, true
			}
		}
	}
	// Then Laktory's settings, as its variable resolution falls back to
	// them: LAKTORY_<NAME> from the environment, else the default.
	if def, ok := laktorySettings[strings.ToLower(name)]; ok {
		v := def
		if d.getenv != nil {
			if e := d.getenv("LAKTORY_" + strings.ToUpper(name)); e != "" {
				v = e
			}
		}
		return &vnode{kind: vScalar, tag: "!!str", value: v}, true
	}
	return nil, false
}

// laktorySettings are the defaults of Laktory 0.13.1's settings that
// ${vars.x} falls back to (build_root, a per-machine cache folder, aside).
var laktorySettings = map[string]string{
	"workspace_root":    "/.laktory/",
	"runtime_root":      "./.laktory/",
	"dataframe_backend": "PYSPARK",
	"dataframe_api":     "NARWHALS",
	"log_level":         "INFO",
}

func (d *decoder) unresolved(n *vnode, name string) {
	key := n.pos()
	if d.warned[key] {
		return
	}
	d.warned[key] = true
	d.add(n.pos(), SeverityWarning, CodeUnresolvedVar,
		fmt.Sprintf("variable `%s` is not defined: the value stays %q", name, n.value),
		fmt.Sprintf("declare it under `variables:` (pipeline, node or stack) or set the environment variable %s", strings.ToUpper(name)))
}
