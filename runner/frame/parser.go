package frame

import (
	"math/big"
	"strconv"
)

// Parse parses a Python expression as eval() does. A *syntaxError means
// Python would raise SyntaxError (Laktory then keeps the text as a plain
// string); an *Error with ErrUnsupported names valid Python that local
// runs do not evaluate (lambda, comprehensions, slices, ...).
func Parse(src string) (Node, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	for p.peek().kind == tNewline {
		p.next()
	}
	if p.peek().kind == tEOF {
		return nil, syntaxErr(0, "invalid syntax")
	}
	n, err := p.exprList()
	if err != nil {
		return nil, err
	}
	for p.peek().kind == tNewline {
		p.next()
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.unexpected(t)
	}
	return n, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) peekN(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *parser) isName(kw string) bool {
	t := p.peek()
	return t.kind == tName && t.text == kw
}

func (p *parser) expect(op string) (token, error) {
	if !p.isOp(op) {
		return token{}, p.unexpected(p.peek())
	}
	return p.next(), nil
}

// unexpected is the error at a token the grammar does not allow there:
// a keyword of a construct local runs do not evaluate, or a syntax error.
func (p *parser) unexpected(t token) error {
	switch {
	case t.kind == tName && t.text == "for":
		return unsupportedAt(t.pos, "", "a comprehension")
	case t.kind == tName && t.text == "if":
		return unsupportedAt(t.pos, "use nw.when(...).then(...).otherwise(...)", "a conditional expression (x if c else y)")
	case t.kind == tOp && t.text == ":=":
		return unsupportedAt(t.pos, "", "an assignment expression (:=)")
	case t.kind == tEOF:
		return syntaxErr(t.pos, "unexpected EOF while parsing")
	}
	return syntaxErr(t.pos, "invalid syntax")
}

// exprList is expr [, expr]* [,]: a bare tuple when there is a comma.
func (p *parser) exprList() (Node, error) {
	start := p.peek().pos
	first, err := p.expr()
	if err != nil {
		return nil, err
	}
	if !p.isOp(",") {
		return first, nil
	}
	elts := []Node{first}
	for p.isOp(",") {
		p.next()
		if p.endOfList() {
			break
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		elts = append(elts, e)
	}
	return &Tuple{Elts: elts, P: start}, nil
}

func (p *parser) endOfList() bool {
	t := p.peek()
	return t.kind == tEOF || t.kind == tNewline || t.kind == tOp && (t.text == ")" || t.text == "]" || t.text == "}")
}

// expr is a test: or_test, maybe the start of a conditional or a lambda.
func (p *parser) expr() (Node, error) {
	t := p.peek()
	if t.kind == tName && t.text == "lambda" {
		return nil, unsupportedAt(t.pos, "", "a lambda")
	}
	if t.kind == tName && (t.text == "await" || t.text == "yield") {
		return nil, unsupportedAt(t.pos, "", "`%s`", t.text)
	}
	if t.kind == tOp && (t.text == "*" || t.text == "**") {
		return nil, unsupportedAt(t.pos, "pass the values one by one", "unpacking with %s", t.text)
	}
	n, err := p.orTest()
	if err != nil {
		return nil, err
	}
	if p.isName("if") {
		return nil, p.unexpected(p.peek())
	}
	if p.isOp(":=") {
		return nil, p.unexpected(p.peek())
	}
	return n, nil
}

func (p *parser) orTest() (Node, error) {
	return p.boolOp("or", p.andTest)
}

func (p *parser) andTest() (Node, error) {
	return p.boolOp("and", p.notTest)
}

func (p *parser) boolOp(op string, sub func() (Node, error)) (Node, error) {
	start := p.peek().pos
	x, err := sub()
	if err != nil {
		return nil, err
	}
	if !p.isName(op) {
		return x, nil
	}
	xs := []Node{x}
	for p.isName(op) {
		p.next()
		y, err := sub()
		if err != nil {
			return nil, err
		}
		xs = append(xs, y)
	}
	return &BoolOp{Op: op, Xs: xs, P: start}, nil
}

func (p *parser) notTest() (Node, error) {
	if p.isName("not") {
		t := p.next()
		x, err := p.notTest()
		if err != nil {
			return nil, err
		}
		return &UnaryOp{Op: "not", X: x, P: t.pos}, nil
	}
	return p.comparison()
}

func (p *parser) compOp() (string, bool) {
	t := p.peek()
	if t.kind == tOp {
		switch t.text {
		case "<", ">", "==", ">=", "<=", "!=":
			p.next()
			return t.text, true
		}
		return "", false
	}
	if t.kind == tName {
		switch t.text {
		case "in":
			p.next()
			return "in", true
		case "not":
			if n := p.peekN(1); n.kind == tName && n.text == "in" {
				p.next()
				p.next()
				return "not in", true
			}
		case "is":
			p.next()
			if p.isName("not") {
				p.next()
				return "is not", true
			}
			return "is", true
		}
	}
	return "", false
}

func (p *parser) comparison() (Node, error) {
	l, err := p.bitOr()
	if err != nil {
		return nil, err
	}
	var ops []string
	var rs []Node
	pos := p.peek().pos
	for {
		op, ok := p.compOp()
		if !ok {
			break
		}
		r, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		ops, rs = append(ops, op), append(rs, r)
	}
	if len(ops) == 0 {
		return l, nil
	}
	return &Compare{L: l, Ops: ops, Rs: rs, P: pos}, nil
}

// binLevel parses a left-associative binary level.
func (p *parser) binLevel(ops []string, sub func() (Node, error)) (Node, error) {
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		found := false
		if t.kind == tOp {
			for _, o := range ops {
				if t.text == o {
					found = true
				}
			}
		}
		if !found {
			return l, nil
		}
		p.next()
		r, err := sub()
		if err != nil {
			return nil, err
		}
		l = &BinOp{Op: t.text, L: l, R: r, P: t.pos}
	}
}

func (p *parser) bitOr() (Node, error)  { return p.binLevel([]string{"|"}, p.bitXor) }
func (p *parser) bitXor() (Node, error) { return p.binLevel([]string{"^"}, p.bitAnd) }
func (p *parser) bitAnd() (Node, error) { return p.binLevel([]string{"&"}, p.shift) }
func (p *parser) shift() (Node, error)  { return p.binLevel([]string{"<<", ">>"}, p.arith) }
func (p *parser) arith() (Node, error)  { return p.binLevel([]string{"+", "-"}, p.term) }
func (p *parser) term() (Node, error) {
	return p.binLevel([]string{"*", "/", "//", "%", "@"}, p.factor)
}

func (p *parser) factor() (Node, error) {
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~") {
		p.next()
		x, err := p.factor()
		if err != nil {
			return nil, err
		}
		// -1 and -1.5 are constants, as Python's compiler folds them.
		if c, ok := x.(*Const); ok && t.text == "-" && (c.Kind == ConstInt || c.Kind == ConstFloat) {
			nc := *c
			nc.P = t.pos
			nc.Text = "-" + c.Text
			if c.Kind == ConstInt {
				nc.Int = -c.Int
			} else {
				nc.Float = -c.Float
			}
			return &nc, nil
		}
		return &UnaryOp{Op: t.text, X: x, P: t.pos}, nil
	}
	return p.power()
}

func (p *parser) power() (Node, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	if p.isOp("**") {
		t := p.next()
		y, err := p.factor()
		if err != nil {
			return nil, err
		}
		return &BinOp{Op: "**", L: x, R: y, P: t.pos}, nil
	}
	return x, nil
}

func (p *parser) primary() (Node, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp {
			return x, nil
		}
		switch t.text {
		case ".":
			p.next()
			n := p.peek()
			if n.kind != tName || pyKeywords[n.text] {
				return nil, syntaxErr(n.pos, "invalid syntax")
			}
			p.next()
			x = &Attr{X: x, Name: n.text, P: n.pos}
		case "(":
			c, err := p.call(x)
			if err != nil {
				return nil, err
			}
			x = c
		case "[":
			p.next()
			if p.isOp("]") {
				return nil, syntaxErr(p.peek().pos, "invalid syntax")
			}
			idx, err := p.subscript()
			if err != nil {
				return nil, err
			}
			if _, err := p.expect("]"); err != nil {
				return nil, err
			}
			x = &Subscript{X: x, Index: idx, P: t.pos}
		default:
			return x, nil
		}
	}
}

func (p *parser) subscript() (Node, error) {
	if p.isOp(":") {
		return nil, unsupportedAt(p.peek().pos, "", "a slice")
	}
	n, err := p.exprList()
	if err != nil {
		return nil, err
	}
	if p.isOp(":") {
		return nil, unsupportedAt(p.peek().pos, "", "a slice")
	}
	return n, nil
}

func (p *parser) call(fn Node) (Node, error) {
	open := p.next()
	c := &Call{Fn: fn, P: open.pos}
	seenKw := false
	for !p.isOp(")") {
		t := p.peek()
		if t.kind == tOp && (t.text == "*" || t.text == "**") {
			if n := p.peekN(1); n.kind == tOp && (n.text == ")" || n.text == ",") || n.kind == tEOF {
				return nil, syntaxErr(t.pos, "invalid syntax")
			}
			return nil, unsupportedAt(t.pos, "pass the values one by one", "unpacking with %s", t.text)
		}
		if t.kind == tName && !pyKeywords[t.text] && p.peekN(1).kind == tOp && p.peekN(1).text == "=" {
			p.next()
			p.next()
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			for _, k := range c.Kw {
				if k.Name == t.text {
					return nil, syntaxErr(t.pos, "keyword argument repeated: "+t.text)
				}
			}
			c.Kw = append(c.Kw, Keyword{Name: t.text, Value: v, P: t.pos})
			seenKw = true
		} else {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			if p.isName("for") {
				return nil, p.unexpected(p.peek())
			}
			if seenKw {
				return nil, syntaxErr(a.Pos(), "positional argument follows keyword argument")
			}
			c.Args = append(c.Args, a)
		}
		if p.isOp(",") {
			p.next()
			continue
		}
		if !p.isOp(")") {
			return nil, p.unexpected(p.peek())
		}
	}
	p.next()
	return c, nil
}

func (p *parser) atom() (Node, error) {
	t := p.peek()
	switch t.kind {
	case tName:
		switch t.text {
		case "None":
			p.next()
			return &Const{Kind: ConstNone, Text: t.text, P: t.pos}, nil
		case "True", "False":
			p.next()
			return &Const{Kind: ConstBool, Bool: t.text == "True", Text: t.text, P: t.pos}, nil
		}
		if pyKeywords[t.text] {
			return nil, p.unexpected(t)
		}
		p.next()
		return &Name{ID: t.text, P: t.pos}, nil
	case tNumber:
		p.next()
		if t.isFloat {
			return &Const{Kind: ConstFloat, Float: t.f, Text: t.text, P: t.pos}, nil
		}
		if t.big {
			return nil, unsupportedAt(t.pos, "", "an integer beyond 64 bits (%s)", bigText(t.text))
		}
		return &Const{Kind: ConstInt, Int: t.i, Text: t.text, P: t.pos}, nil
	case tString:
		p.next()
		s, isBytes, text := t.str, t.bytes, t.text
		for p.peek().kind == tString {
			n := p.next()
			if n.bytes != isBytes {
				return nil, syntaxErr(n.pos, "cannot mix bytes and nonbytes literals")
			}
			s += n.str
			text += " " + n.text
		}
		k := ConstStr
		if isBytes {
			k = ConstBytes
		}
		return &Const{Kind: k, Str: s, Text: text, P: t.pos}, nil
	case tOp:
		switch t.text {
		case "(":
			p.next()
			if p.isOp(")") {
				p.next()
				return &Tuple{P: t.pos}, nil
			}
			n, err := p.exprList()
			if err != nil {
				return nil, err
			}
			if p.isName("for") {
				return nil, p.unexpected(p.peek())
			}
			if _, err := p.expect(")"); err != nil {
				return nil, err
			}
			if tu, ok := n.(*Tuple); ok {
				tu.P = t.pos
			}
			return n, nil
		case "[":
			p.next()
			l := &List{P: t.pos}
			for !p.isOp("]") {
				e, err := p.expr()
				if err != nil {
					return nil, err
				}
				if p.isName("for") {
					return nil, p.unexpected(p.peek())
				}
				l.Elts = append(l.Elts, e)
				if p.isOp(",") {
					p.next()
					continue
				}
				if !p.isOp("]") {
					return nil, p.unexpected(p.peek())
				}
			}
			p.next()
			return l, nil
		case "{":
			return p.dict()
		case "...":
			return nil, unsupportedAt(t.pos, "", "Ellipsis (...)")
		}
	}
	return nil, p.unexpected(t)
}

func (p *parser) dict() (Node, error) {
	open := p.next()
	d := &Dict{P: open.pos}
	for !p.isOp("}") {
		k, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			if p.isOp(",") || p.isOp("}") {
				return nil, unsupportedAt(open.pos, "use a list", "a set")
			}
			return nil, p.unexpected(p.peek())
		}
		p.next()
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.isName("for") {
			return nil, p.unexpected(p.peek())
		}
		d.Keys, d.Values = append(d.Keys, k), append(d.Values, v)
		if p.isOp(",") {
			p.next()
			continue
		}
		if !p.isOp("}") {
			return nil, p.unexpected(p.peek())
		}
	}
	p.next()
	return d, nil
}

func bigText(s string) string {
	if v, ok := new(big.Int).SetString(s, 0); ok {
		return v.String()
	}
	return strconv.Quote(s)
}
