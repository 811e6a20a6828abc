package workspace

import (
	"bytes"
	"strings"
)

// syntaxAt improves where yaml.v3 places a syntax error and what it says:
// yaml.v3 reports an unclosed flow bracket at the line before it and a
// mis-indented key at the start of the enclosing block. line and col are
// yaml.v3's; the result is the line that is wrong.
func syntaxAt(content []byte, line, col int, msg string) (int, int, string) {
	lines := strings.Split(strings.ReplaceAll(string(content), "\r\n", "\n"), "\n")
	if l, c, ok := tabAt(lines, line); ok {
		return l, c, "a tab character indents this line: YAML indents with spaces only"
	}
	switch {
	case strings.Contains(msg, "expected ',' or ']'") || strings.Contains(msg, "expected ',' or '}'"):
		if l, c, b, ok := unclosedFlow(lines); ok {
			closer := map[byte]string{'[': "]", '{': "}"}[b]
			return l, c, "unclosed `" + string(b) + "`: close it with `" + closer + "` on this line (or the lines after it)"
		}
	case strings.Contains(msg, "did not find expected key") || strings.Contains(msg, "mapping values are not allowed"):
		if l, c, ok := misIndented(lines); ok {
			return l, c, "this line is indented differently from the keys above it: " + msg
		}
	}
	return line, col, msg
}

// tabAt finds a tab in the indentation of a line up to line+1 (yaml.v3
// reports it at the token after it).
func tabAt(lines []string, line int) (int, int, bool) {
	for i := 0; i < len(lines) && i <= line; i++ {
		l := lines[i]
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if j := strings.IndexByte(indent, '\t'); j >= 0 {
			return i + 1, j + 1, true
		}
	}
	return 0, 0, false
}

// unclosedFlow finds the `[` or `{` that opens a flow collection never
// closed (outside quotes and comments).
func unclosedFlow(lines []string) (line, col int, bracket byte, ok bool) {
	var stack []struct {
		line, col int
		b         byte
	}
	for i, l := range lines {
		quote := byte(0)
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				if j == 0 || l[j-1] == ' ' || l[j-1] == '[' || l[j-1] == '{' || l[j-1] == ',' || l[j-1] == ':' {
					quote = c
				}
			case c == '#' && (j == 0 || l[j-1] == ' '):
				j = len(l)
			case c == '[' || c == '{':
				stack = append(stack, struct {
					line, col int
					b         byte
				}{i + 1, j + 1, c})
			case (c == ']' || c == '}') && len(stack) > 0:
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return 0, 0, 0, false
	}
	s := stack[len(stack)-1]
	return s.line, s.col, s.b, true
}

// misIndented finds the first line of a block mapping indented deeper than
// its siblings without a parent key opening a block above it. Block
// scalars (| and >) are skipped.
func misIndented(lines []string) (int, int, bool) {
	levels := []int{0}
	opens := true // the previous line opens a nested block
	scalar := -1  // inside a block scalar of a key at this indentation
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "---") {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if scalar >= 0 {
			if indent > scalar {
				continue
			}
			scalar = -1
		}
		for len(levels) > 1 && levels[len(levels)-1] > indent {
			levels = levels[:len(levels)-1]
		}
		top := levels[len(levels)-1]
		if indent > top {
			if !opens {
				return i + 1, indent + 1, true
			}
			levels = append(levels, indent)
		}
		body := t
		for strings.HasPrefix(body, "- ") {
			indent += 2
			levels = append(levels, indent)
			body = strings.TrimSpace(body[2:])
		}
		b := []byte(stripComment(body))
		opens = bytes.HasSuffix(b, []byte(":")) || body == "-"
		if bytes.HasSuffix(b, []byte("|")) || bytes.HasSuffix(b, []byte(">")) || bytes.HasSuffix(b, []byte("|-")) || bytes.HasSuffix(b, []byte(">-")) {
			scalar = indent
			opens = false
		}
	}
	return 0, 0, false
}

func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}
