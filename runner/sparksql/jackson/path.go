package jackson

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A path instruction of Spark's JsonPathParser.
type instr struct {
	op    byte // 'k' Key, 's' Subscript, 'w' Wildcard, 'i' Index, 'n' Named
	name  string
	index int64
}

// Path is a parsed get_json_object path.
type Path struct{ ins []instr }

var (
	pathWS    = regexp.MustCompile(`^[ \t\n\x0B\f\r]+`)
	pathName  = regexp.MustCompile(`^[^.\[]+`)
	pathQName = regexp.MustCompile(`^[^']+`)
	pathLong  = regexp.MustCompile(`^[0-9]+`)
)

// ParsePath parses p as Spark's JsonPathParser (scala RegexParsers):
// ok is false where Spark reads no path (get_json_object is NULL).
// Literal strings and regular expressions skip leading whitespace,
// single characters ('$', '.', '[', '*', ']') do not.
func ParsePath(p string) (path *Path, ok bool, err error) {
	if !strings.HasPrefix(p, "$") {
		return nil, false, nil
	}
	i := 1
	ws := func(j int) int {
		if m := pathWS.FindString(p[j:]); m != "" {
			return j + len(m)
		}
		return j
	}
	lit := func(j int, s string) (int, bool) {
		j = ws(j)
		if strings.HasPrefix(p[j:], s) {
			return j + len(s), true
		}
		return 0, false
	}
	re := func(j int, r *regexp.Regexp) (int, string, bool) {
		j = ws(j)
		m := r.FindString(p[j:])
		if m == "" {
			return 0, "", false
		}
		return j + len(m), m, true
	}
	var ins []instr
	for {
		// wildcard: ".*" | "['*']"
		if j, ok := lit(i, ".*"); ok {
			ins, i = append(ins, instr{op: 'w'}), j
			continue
		}
		if j, ok := lit(i, "['*']"); ok {
			ins, i = append(ins, instr{op: 'w'}), j
			continue
		}
		// named: '.' ~> [^.\[]+ | "['" ~> [^']+ <~ "']"
		if i < len(p) && p[i] == '.' {
			if j, name, ok := re(i+1, pathName); ok {
				ins, i = append(ins, instr{op: 'k'}, instr{op: 'n', name: name}), j
				continue
			}
		}
		if j, ok := lit(i, "['"); ok {
			if j, name, ok := re(j, pathQName); ok {
				if j, ok := lit(j, "']"); ok {
					ins, i = append(ins, instr{op: 'k'}, instr{op: 'n', name: name}), j
					continue
				}
			}
		}
		// subscript: '[' ~> ('*' | \d+) <~ ']'
		if i < len(p) && p[i] == '[' {
			if i+2 < len(p) && p[i+1] == '*' && p[i+2] == ']' {
				ins, i = append(ins, instr{op: 's'}, instr{op: 'w'}), i+3
				continue
			}
			if j, digits, ok := re(i+1, pathLong); ok && j < len(p) && p[j] == ']' {
				n, err := strconv.ParseInt(digits, 10, 64)
				if err != nil {
					return nil, false, fmt.Errorf("%w: a JSON path index beyond 64 bits", ErrUnsupported)
				}
				ins, i = append(ins, instr{op: 's'}, instr{op: 'i', index: n}), j+1
				continue
			}
		}
		break
	}
	if ws(i) != len(p) {
		return nil, false, nil
	}
	return &Path{ins: ins}, true, nil
}

// HasWildcard: the path has [*], .* or ['*'].
func (p *Path) HasWildcard() bool {
	for _, in := range p.ins {
		if in.op == 'w' {
			return true
		}
	}
	return false
}

type style int

const (
	rawStyle style = iota
	quotedStyle
	flattenStyle
)

// GetJSONObject is Spark's get_json_object(json, path) of a non-NULL
// json: ok is false for NULL. Spark's shared JsonFactory reads single
// quotes and raw control characters.
func GetJSONObject(json string, path *Path) (out string, ok bool, err error) {
	p := newParser(json, Features{SingleQuotes: true, ControlChars: true})
	g := &gen{}
	res, err := func() (bool, error) {
		if _, err := p.next(); err != nil {
			return false, err
		}
		return evaluate(p, g, rawStyle, path.ins)
	}()
	if err != nil {
		if errors.Is(err, ErrMalformed) {
			return "", false, nil
		}
		return "", false, err
	}
	if !res {
		return "", false, nil
	}
	return g.b.String(), true, nil
}

func isWild(in []instr, k int) bool { return len(in) > k && in[k].op == 'w' }

// evaluate is GetJsonObjectEvaluator.evaluatePath.
func evaluate(p *parser, g *gen, st style, path []instr) (bool, error) {
	tok := p.tok
	switch {
	case tok == tString && len(path) == 0 && st == rawStyle:
		g.raw(p.text)
		return true, nil
	case tok == tStartArray && len(path) == 0 && st == flattenStyle:
		dirty := false
		for {
			t, err := p.next()
			if err != nil {
				return false, err
			}
			if t == tEndArray {
				return dirty, nil
			}
			d, err := evaluate(p, g, st, nil)
			if err != nil {
				return false, err
			}
			dirty = dirty || d
		}
	case len(path) == 0:
		return true, g.copy(p)
	case tok == tStartObject && path[0].op == 'k':
		dirty := false
		for {
			t, err := p.next()
			if err != nil {
				return false, err
			}
			if t == tEndObject {
				return dirty, nil
			}
			if dirty {
				if err := p.skipChildren(); err != nil {
					return false, err
				}
				continue
			}
			if dirty, err = evaluate(p, g, st, path[1:]); err != nil {
				return false, err
			}
		}
	case tok == tStartArray && path[0].op == 's' && isWild(path, 1) && len(path) > 3 && path[2].op == 's' && path[3].op == 'w':
		// Hive's non-structure-preserving double wildcard.
		dirty := false
		if err := g.startArray(); err != nil {
			return false, err
		}
		for {
			t, err := p.next()
			if err != nil {
				return false, err
			}
			if t == tEndArray {
				break
			}
			d, err := evaluate(p, g, flattenStyle, path[4:])
			if err != nil {
				return false, err
			}
			dirty = dirty || d
		}
		return dirty, g.endArray()
	case tok == tStartArray && path[0].op == 's' && isWild(path, 1) && st != quotedStyle:
		next := quotedStyle
		if st == flattenStyle {
			next = flattenStyle
		}
		buf := &gen{}
		if err := buf.startArray(); err != nil {
			return false, err
		}
		dirty := 0
		for {
			t, err := p.next()
			if err != nil {
				return false, err
			}
			if t == tEndArray {
				break
			}
			d, err := evaluate(p, buf, next, path[2:])
			if err != nil {
				return false, err
			}
			if d {
				dirty++
			}
		}
		if err := buf.endArray(); err != nil {
			return false, err
		}
		s := buf.b.String()
		switch {
		case dirty > 1:
			g.rawValue(s)
		case dirty == 1:
			g.rawValue(s[1 : len(s)-1])
		}
		return dirty > 0, nil
	case tok == tStartArray && path[0].op == 's' && isWild(path, 1):
		dirty := false
		if err := g.startArray(); err != nil {
			return false, err
		}
		for {
			t, err := p.next()
			if err != nil {
				return false, err
			}
			if t == tEndArray {
				break
			}
			d, err := evaluate(p, g, quotedStyle, path[2:])
			if err != nil {
				return false, err
			}
			dirty = dirty || d
		}
		return dirty, g.endArray()
	case tok == tStartArray && path[0].op == 's' && len(path) > 1 && path[1].op == 'i':
		rest := path[2:]
		next := st
		if len(rest) > 1 && rest[0].op == 's' && rest[1].op == 'w' {
			next = quotedStyle
		}
		if _, err := p.next(); err != nil {
			return false, err
		}
		return arrayIndex(p, path[1].index, func() (bool, error) { return evaluate(p, g, next, rest) })
	case tok == tField && path[0].op == 'n' && p.name == path[0].name:
		t, err := p.next()
		if err != nil {
			return false, err
		}
		if t == tNull {
			return false, nil
		}
		return evaluate(p, g, st, path[1:])
	case tok == tField && path[0].op == 'w':
		if _, err := p.next(); err != nil {
			return false, err
		}
		return evaluate(p, g, st, path[1:])
	}
	return false, p.skipChildren()
}

// arrayIndex is GetJsonObjectEvaluator.arrayIndex (Spark 4): the element
// idx of the array whose first element is the current token.
func arrayIndex(p *parser, idx int64, f func() (bool, error)) (bool, error) {
	for {
		if p.tok == tEndArray {
			return false, nil
		}
		if idx == 0 {
			dirty, err := f()
			if err != nil {
				return false, err
			}
			for {
				t, err := p.next()
				if err != nil {
					return false, err
				}
				if t == tEndArray {
					return dirty, nil
				}
				if t == tNone {
					return false, p.fail("unexpected end of input")
				}
				if err := p.skipChildren(); err != nil {
					return false, err
				}
			}
		}
		if idx < 0 {
			return false, nil
		}
		if err := p.skipChildren(); err != nil {
			return false, err
		}
		if _, err := p.next(); err != nil {
			return false, err
		}
		idx--
	}
}

// gen is Jackson's JsonGenerator (compact): commas between the values of
// an array or object, a space between root values.
type gen struct {
	b     strings.Builder
	stack []frame
	roots int
}

var errGenerate = fmt.Errorf("%w: JsonGenerationException", ErrMalformed)

func (g *gen) beforeValue() {
	if len(g.stack) == 0 {
		if g.roots > 0 {
			g.b.WriteByte(' ')
		}
		g.roots++
		return
	}
	top := &g.stack[len(g.stack)-1]
	if !top.object && top.n > 0 {
		g.b.WriteByte(',')
	}
	if !top.object {
		top.n++
	}
}

func (g *gen) startArray() error {
	if err := g.checkValue(); err != nil {
		return err
	}
	g.beforeValue()
	g.b.WriteByte('[')
	g.stack = append(g.stack, frame{})
	return nil
}

func (g *gen) endArray() error {
	if len(g.stack) == 0 || g.stack[len(g.stack)-1].object {
		return errGenerate
	}
	g.stack = g.stack[:len(g.stack)-1]
	g.b.WriteByte(']')
	return nil
}

// checkValue: a value in an object needs its field name first.
func (g *gen) checkValue() error {
	if len(g.stack) > 0 && g.stack[len(g.stack)-1].object && g.stack[len(g.stack)-1].n%2 == 0 {
		return errGenerate
	}
	if len(g.stack) > 0 && g.stack[len(g.stack)-1].object {
		g.stack[len(g.stack)-1].n++
	}
	return nil
}

func (g *gen) raw(s string) { g.b.WriteString(s) }

func (g *gen) rawValue(s string) {
	g.beforeValue()
	g.b.WriteString(s)
}

func (g *gen) scalar(s string) error {
	if err := g.checkValue(); err != nil {
		return err
	}
	g.beforeValue()
	g.b.WriteString(s)
	return nil
}

// copy is JsonGenerator.copyCurrentStructure.
func (g *gen) copy(p *parser) error {
	switch p.tok {
	case tNone:
		return errGenerate // "No current event to copy"
	case tEndArray, tEndObject:
		return errGenerate
	case tField:
		if err := g.field(p.name); err != nil {
			return err
		}
		if _, err := p.next(); err != nil {
			return err
		}
		return g.copy(p)
	case tStartObject:
		if err := g.checkValue(); err != nil {
			return err
		}
		g.beforeValue()
		g.b.WriteByte('{')
		g.stack = append(g.stack, frame{object: true})
		for {
			t, err := p.next()
			if err != nil {
				return err
			}
			if t == tEndObject {
				g.stack = g.stack[:len(g.stack)-1]
				g.b.WriteByte('}')
				return nil
			}
			if err := g.copy(p); err != nil {
				return err
			}
		}
	case tStartArray:
		if err := g.startArray(); err != nil {
			return err
		}
		for {
			t, err := p.next()
			if err != nil {
				return err
			}
			if t == tEndArray {
				return g.endArray()
			}
			if err := g.copy(p); err != nil {
				return err
			}
		}
	case tString:
		return g.scalar(Quote(p.text))
	case tInt:
		return g.scalar(intText(p.text))
	case tFloat:
		s, err := JavaDouble(p.text)
		if err != nil {
			return err
		}
		return g.scalar(s)
	case tTrue:
		return g.scalar("true")
	case tFalse:
		return g.scalar("false")
	case tNull:
		return g.scalar("null")
	}
	return errGenerate
}

func (g *gen) field(name string) error {
	if len(g.stack) == 0 || !g.stack[len(g.stack)-1].object || g.stack[len(g.stack)-1].n%2 == 1 {
		return errGenerate
	}
	top := &g.stack[len(g.stack)-1]
	if top.n > 0 {
		g.b.WriteByte(',')
	}
	top.n++
	g.b.WriteString(Quote(name))
	g.b.WriteByte(':')
	return nil
}

// Quote is s as a JSON string, escaped as Jackson's generator escapes it.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// JavaDouble is Java's Double.toString of the double the JSON number s
// reads as (Double.parseDouble): the shortest digits that read back, in
// Java's layout (1.0E10, 1.0E-4, 0.001, 1234567.0). Subnormal doubles
// and numbers beyond the double range, where JDK 17 prints otherwise or
// Jackson writes a string, are ErrUnsupported.
func JavaDouble(s string) (string, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return "", fmt.Errorf("%w: the number %s", ErrUnsupported, s)
	}
	if math.IsInf(f, 0) || f != 0 && math.Abs(f) < 2.2250738585072014e-308 {
		return "", fmt.Errorf("%w: the number %s beyond the normal doubles", ErrUnsupported, s)
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0", nil
		}
		return "0.0", nil
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	digits := strings.Replace(mant, ".", "", 1)
	if f >= 1e-3 && f < 1e7 {
		if exp >= 0 {
			for len(digits) < exp+2 {
				digits += "0"
			}
			return sign + digits[:exp+1] + "." + digits[exp+1:], nil
		}
		return sign + "0." + strings.Repeat("0", -exp-1) + digits, nil
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp), nil
}
