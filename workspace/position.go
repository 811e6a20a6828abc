package workspace

import (
	"bytes"
	"strings"
)

// PosInValue returns the file position of the byte at offset inside a
// string value whose position is at (as recorded in Located.Fields): plain,
// quoted and block (| or >) scalars, and .sql files included with !use. A
// value built from a ${vars.x} variable maps to the variable's use.
func (s *Snapshot) PosInValue(at Pos, offset int) Pos {
	return posInValue(s.Content(at.File), at, offset)
}

func posInValue(content []byte, at Pos, offset int) Pos {
	if content == nil || at.Line < 1 || offset < 0 {
		return at
	}
	if strings.HasSuffix(at.File, ".sql") && at.Line == 1 && at.Col == 1 {
		content = trimBOM(content)
		if offset > len(content) {
			offset = len(content)
		}
		before := content[:offset]
		line := bytes.Count(before, []byte("\n")) + 1
		col := offset - (bytes.LastIndexByte(before, '\n') + 1) + 1
		return Pos{File: at.File, Line: line, Col: col}
	}
	lines := bytes.Split(content, []byte("\n"))
	if at.Line > len(lines) {
		return at
	}
	line := lines[at.Line-1]
	c0 := at.Col - 1
	if c0 < 0 || c0 >= len(line) {
		return at
	}
	switch rest := line[c0:]; {
	case bytes.HasPrefix(rest, []byte("${")):
		return at
	case rest[0] == '|' || rest[0] == '>':
		indent := -1
		for ln := at.Line; ln < len(lines); ln++ {
			text := lines[ln]
			if indent < 0 {
				if len(bytes.TrimSpace(text)) == 0 {
					offset-- // a blank line keeps its newline in the value
					if offset < 0 {
						return Pos{File: at.File, Line: ln + 1, Col: 1}
					}
					continue
				}
				indent = len(text) - len(bytes.TrimLeft(text, " "))
			}
			body := text
			if len(body) >= indent {
				body = body[indent:]
			} else {
				body = nil
			}
			if offset <= len(body) {
				return Pos{File: at.File, Line: ln + 1, Col: indent + offset + 1}
			}
			offset -= len(body) + 1
		}
		return at
	case rest[0] == '"' || rest[0] == '\'':
		return Pos{File: at.File, Line: at.Line, Col: at.Col + 1 + offset}
	}
	return Pos{File: at.File, Line: at.Line, Col: at.Col + offset}
}
