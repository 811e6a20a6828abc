package jackson

import (
	"fmt"
	"strings"
)

// Normalize reads the first JSON value of s as Jackson does with the
// features f (what follows it is not read, as in Spark's from_json) and
// writes it as strict JSON: names and strings double-quoted and escaped,
// numbers as written, no comments or whitespace. ok is false when s holds
// no value (blank). An error wraps ErrMalformed where Jackson fails (Spark
// reads a malformed record) or ErrUnsupported; an object with a repeated
// name, which Spark reads field by field, is ErrUnsupported.
func Normalize(s string, f Features) (out string, ok bool, err error) {
	p := newParser(s, f)
	t, err := p.next()
	if err != nil {
		return "", false, err
	}
	if t == tNone {
		return "", false, nil
	}
	var b strings.Builder
	if err := normValue(p, &b); err != nil {
		return "", false, err
	}
	return b.String(), true, nil
}

func normValue(p *parser, b *strings.Builder) error {
	switch p.tok {
	case tStartObject:
		b.WriteByte('{')
		seen := map[string]bool{}
		for n := 0; ; n++ {
			t, err := p.next()
			if err != nil {
				return err
			}
			if t == tEndObject {
				b.WriteByte('}')
				return nil
			}
			if seen[p.name] {
				return fmt.Errorf("%w: an object with the name %q twice", ErrUnsupported, p.name)
			}
			seen[p.name] = true
			if n > 0 {
				b.WriteByte(',')
			}
			b.WriteString(Quote(p.name))
			b.WriteByte(':')
			if _, err := p.next(); err != nil {
				return err
			}
			if err := normValue(p, b); err != nil {
				return err
			}
		}
	case tStartArray:
		b.WriteByte('[')
		for n := 0; ; n++ {
			t, err := p.next()
			if err != nil {
				return err
			}
			if t == tEndArray {
				b.WriteByte(']')
				return nil
			}
			if n > 0 {
				b.WriteByte(',')
			}
			if err := normValue(p, b); err != nil {
				return err
			}
		}
	case tString:
		b.WriteString(Quote(p.text))
	case tInt, tFloat:
		b.WriteString(p.text)
	case tTrue:
		b.WriteString("true")
	case tFalse:
		b.WriteString("false")
	case tNull:
		b.WriteString("null")
	default:
		return fmt.Errorf("%w: unexpected token", ErrMalformed)
	}
	return nil
}

// Pretty re-writes compact JSON text (to_json's) as Jackson's
// DefaultPrettyPrinter writes it: objects one field a line, indented two
// spaces an object level, "k" : v; arrays on one line, [ 1, 2 ]; empty
// ones { } and [ ].
func Pretty(s string) string {
	var b strings.Builder
	type level struct{ object bool }
	var stack []level
	objects := 0
	indent := func() {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", objects))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(s[i : j+1])
			i = j
		case '{':
			if i+1 < len(s) && s[i+1] == '}' {
				b.WriteString("{ }")
				i++
				continue
			}
			stack = append(stack, level{object: true})
			objects++
			b.WriteByte('{')
			indent()
		case '[':
			if i+1 < len(s) && s[i+1] == ']' {
				b.WriteString("[ ]")
				i++
				continue
			}
			stack = append(stack, level{})
			b.WriteString("[ ")
		case '}':
			stack = stack[:len(stack)-1]
			objects--
			indent()
			b.WriteByte('}')
		case ']':
			stack = stack[:len(stack)-1]
			b.WriteString(" ]")
		case ',':
			if len(stack) > 0 && stack[len(stack)-1].object {
				b.WriteByte(',')
				indent()
			} else {
				b.WriteString(", ")
			}
		case ':':
			b.WriteString(" : ")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
