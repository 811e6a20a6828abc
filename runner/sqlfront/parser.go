package sqlfront

import (
	"fmt"
	"strconv"
	"strings"
)

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 500

type parser struct {
	syn   *Syntax
	src   string
	toks  []token
	i     int
	depth int
	// notQuery marks token indexes where a bracketed query was tried and
	// failed, so that ((SELECT ...) > 1) backtracks once per bracket.
	notQuery map[int]bool
}

func newParser(sql string, syn *Syntax) (*parser, error) {
	toks, err := lex(sql, syn)
	if err != nil {
		return nil, err
	}
	return &parser{syn: syn, src: sql, toks: toks}, nil
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
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) accept(kw string) bool {
	if p.peek().is(kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) acceptOp(op string) bool {
	if p.peek().isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expect(kw string) error {
	if !p.accept(kw) {
		return p.syntaxWant(p.peek(), kw)
	}
	return nil
}

func (p *parser) expectOp(op string) error {
	if !p.acceptOp(op) {
		return p.syntaxWant(p.peek(), "'"+op+"'")
	}
	return nil
}

// syntax is Spark's "Syntax error at or near" for token t.
func (p *parser) syntax(t token) *Error {
	if t.kind == tokEOF {
		return p.syn.errAt(t.pos, "Syntax error at or near end of input")
	}
	return p.syn.errAt(t.pos, fmt.Sprintf("Syntax error at or near '%s'", t.text))
}

func (p *parser) syntaxWant(t token, want string) *Error {
	e := p.syntax(t)
	e.Msg += ": expected " + want
	return e
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.syn.errAt(p.peek().pos, "the SQL is nested too deeply")
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// ident reads a name (unquoted or backquoted).
func (p *parser) ident() (Ident, error) {
	t := p.peek()
	switch t.kind {
	case tokIdent:
		p.i++
		return Ident{Name: t.val, P: t.pos}, nil
	case tokQuoted:
		p.i++
		return Ident{Name: t.val, Quoted: true, P: t.pos}, nil
	}
	return Ident{}, p.syntaxWant(t, "a name")
}

func (p *parser) identList() ([]Ident, error) {
	var out []Ident
	for {
		id, err := p.ident()
		if err != nil {
			return nil, err
		}
		out = append(out, id)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

// parenIdents reads (a, b, c).
func (p *parser) parenIdents() ([]Ident, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	ids, err := p.identList()
	if err != nil {
		return nil, err
	}
	return ids, p.expectOp(")")
}

// noImplicitAlias are words that end an expression or a table rather than
// name it (SELECT a FROM: FROM is not an alias of a).
var noImplicitAlias = keywordSet(`FROM WHERE GROUP HAVING ORDER LIMIT OFFSET UNION EXCEPT INTERSECT MINUS
	WINDOW QUALIFY LATERAL JOIN INNER LEFT RIGHT FULL CROSS NATURAL SEMI ANTI ON USING AS SORT CLUSTER
	DISTRIBUTE PIVOT UNPIVOT TABLESAMPLE WHEN THEN ELSE END AND OR IS IN NOT BETWEEN LIKE ILIKE RLIKE
	REGEXP ESCAPE OVER FILTER SELECT WITH VALUES`)

func keywordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// optAlias reads [AS] alias; an implicit alias must not be a clause word.
func (p *parser) optAlias() (*Ident, error) {
	if p.accept("AS") {
		id, err := p.ident()
		return &id, err
	}
	t := p.peek()
	if t.kind == tokQuoted || (t.kind == tokIdent && !noImplicitAlias[strings.ToUpper(t.text)]) {
		id, _ := p.ident()
		return &id, nil
	}
	return nil, nil
}

// ---------------------------------------------------------------- queries

func (p *parser) query() (*Query, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	q := &Query{P: p.peek().pos}
	if p.accept("WITH") {
		if p.peek().is("RECURSIVE") {
			return nil, unsupported(p.peek().pos, "", "WITH RECURSIVE")
		}
		for {
			name, err := p.ident()
			if err != nil {
				return nil, err
			}
			cte := &CTE{Name: name}
			if p.peek().isOp("(") {
				if cte.Columns, err = p.parenIdents(); err != nil {
					return nil, err
				}
			}
			p.accept("AS")
			if err := p.expectOp("("); err != nil {
				return nil, err
			}
			if cte.Query, err = p.query(); err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			q.With = append(q.With, cte)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	body, err := p.setExpr()
	if err != nil {
		return nil, err
	}
	q.Body = body
	if err := p.queryTail(q); err != nil {
		return nil, err
	}
	return q, nil
}

// queryTail reads ORDER BY, LIMIT and OFFSET of a query.
func (p *parser) queryTail(q *Query) error {
	var err error
	for _, kw := range []string{"SORT", "CLUSTER", "DISTRIBUTE"} {
		if t := p.peek(); t.is(kw) && p.peekN(1).is("BY") {
			return unsupported(t.pos, "use ORDER BY", "%s BY", kw)
		}
	}
	if p.peek().is("ORDER") && p.peekN(1).is("BY") {
		p.i += 2
		if q.OrderBy, err = p.orderItems(); err != nil {
			return err
		}
	}
	if p.accept("LIMIT") {
		if !p.accept("ALL") {
			if q.Limit, err = p.expr(); err != nil {
				return err
			}
		}
	}
	if p.accept("OFFSET") {
		if q.Offset, err = p.expr(); err != nil {
			return err
		}
	}
	return nil
}

// setExpr reads terms joined by UNION/EXCEPT/MINUS (INTERSECT binds
// tighter, as in Spark).
func (p *parser) setExpr() (QueryExpr, error) {
	l, err := p.intersectExpr()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		op := ""
		switch {
		case t.is("UNION"):
			op = "UNION"
		case t.is("EXCEPT"), t.is("MINUS"):
			op = "EXCEPT"
		default:
			return l, nil
		}
		p.i++
		s := &SetOp{Op: op, L: l, P: t.pos}
		p.setQuantifier(s)
		if s.R, err = p.intersectExpr(); err != nil {
			return nil, err
		}
		l = s
	}
}

func (p *parser) setQuantifier(s *SetOp) {
	switch {
	case p.accept("ALL"):
		s.All = true
	case p.accept("DISTINCT"):
		s.Distinct = true
	}
	if p.peek().is("BY") && p.peekN(1).is("NAME") {
		p.i += 2
		s.ByName = true
	}
}

func (p *parser) intersectExpr() (QueryExpr, error) {
	l, err := p.queryTerm()
	if err != nil {
		return nil, err
	}
	for p.peek().is("INTERSECT") {
		t := p.next()
		s := &SetOp{Op: "INTERSECT", L: l, P: t.pos}
		p.setQuantifier(s)
		if s.R, err = p.queryTerm(); err != nil {
			return nil, err
		}
		l = s
	}
	return l, nil
}

func (p *parser) queryTerm() (QueryExpr, error) {
	t := p.peek()
	switch {
	case t.is("SELECT"):
		return p.selectBlock()
	case t.is("VALUES"):
		p.i++
		rows, err := p.valuesRows()
		if err != nil {
			return nil, err
		}
		return &Values{Rows: rows, P: t.pos}, nil
	case t.isOp("("):
		p.i++
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		return q, p.expectOp(")")
	case t.is("FROM"):
		return nil, unsupported(t.pos, "write SELECT ... FROM ...", "a query starting with FROM")
	case t.is("TABLE"):
		return nil, unsupported(t.pos, "write SELECT * FROM ...", "TABLE name as a query")
	}
	return nil, p.syntaxWant(t, "SELECT, VALUES or (")
}

// valuesRows reads (a, b), (c, d) or a, b (one column per row).
func (p *parser) valuesRows() ([][]Expr, error) {
	var rows [][]Expr
	for {
		var row []Expr
		if p.peek().isOp("(") && !p.startsQuery(1) {
			p.i++
			items, err := p.exprList()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			row = items
		} else {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			row = []Expr{e}
		}
		rows = append(rows, row)
		if !p.acceptOp(",") {
			return rows, nil
		}
	}
}

// startsQuery reports whether the token n ahead starts a query.
func (p *parser) startsQuery(n int) bool {
	t := p.peekN(n)
	if t.is("SELECT") || t.is("WITH") || t.is("VALUES") {
		return true
	}
	if t.isOp("(") {
		// ((SELECT ...)) and similar.
		k := n
		for p.peekN(k).isOp("(") {
			k++
		}
		u := p.peekN(k)
		return u.is("SELECT") || u.is("WITH")
	}
	return false
}

func (p *parser) selectBlock() (*Select, error) {
	t := p.next() // SELECT
	s := &Select{P: t.pos}
	switch {
	case p.accept("DISTINCT"):
		s.Distinct = true
	case p.accept("ALL"):
	}
	for {
		it, err := p.selectItem()
		if err != nil {
			return nil, err
		}
		s.Items = append(s.Items, it)
		if !p.acceptOp(",") {
			break
		}
		// Spark accepts a trailing comma before FROM.
		if p.peek().is("FROM") {
			break
		}
	}
	var err error
	if p.accept("FROM") {
		for {
			te, err := p.tableItem()
			if err != nil {
				return nil, err
			}
			s.From = append(s.From, te)
			if !p.acceptOp(",") {
				break
			}
		}
		for p.peek().is("LATERAL") && p.peekN(1).is("VIEW") {
			lv, err := p.lateralView()
			if err != nil {
				return nil, err
			}
			s.Laterals = append(s.Laterals, lv)
		}
		for _, kw := range []string{"PIVOT", "UNPIVOT"} {
			if t := p.peek(); t.is(kw) {
				return nil, unsupported(t.pos, "", "%s", kw)
			}
		}
	}
	if p.accept("WHERE") {
		if s.Where, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if t := p.peek(); t.is("GROUP") && p.peekN(1).is("BY") {
		p.i += 2
		if s.GroupBy, err = p.groupBy(t.pos); err != nil {
			return nil, err
		}
	}
	if p.accept("HAVING") {
		if s.Having, err = p.expr(); err != nil {
			return nil, err
		}
	}
	for range 2 {
		switch {
		case p.peek().is("WINDOW") && s.Windows == nil:
			p.i++
			if s.Windows, err = p.windowClause(); err != nil {
				return nil, err
			}
		case p.peek().is("QUALIFY") && s.Qualify == nil:
			p.i++
			if s.Qualify, err = p.expr(); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func (p *parser) selectItem() (*SelectItem, error) {
	if st, ok, err := p.tryStar(); ok || err != nil {
		return &SelectItem{Expr: st}, err
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	it := &SelectItem{Expr: e}
	if p.peek().is("AS") && p.peekN(1).isOp("(") {
		p.i++
		if it.Aliases, err = p.parenIdents(); err != nil {
			return nil, err
		}
		return it, nil
	}
	it.Alias, err = p.optAlias()
	return it, err
}

// tryStar reads *, t.*, a.b.* with an optional EXCEPT (cols).
func (p *parser) tryStar() (*Star, bool, error) {
	start := p.i
	var qual []Ident
	for {
		t := p.peek()
		if t.isOp("*") {
			p.i++
			st := &Star{Qualifier: qual, P: p.toks[start].pos}
			if p.peek().is("EXCEPT") && p.peekN(1).isOp("(") && !p.startsQuery(2) {
				p.i += 2
				for {
					c, err := p.columnRefOnly()
					if err != nil {
						return nil, true, err
					}
					st.Except = append(st.Except, c)
					if !p.acceptOp(",") {
						break
					}
				}
				if err := p.expectOp(")"); err != nil {
					return nil, true, err
				}
			}
			return st, true, nil
		}
		if (t.kind == tokIdent || t.kind == tokQuoted) && p.peekN(1).isOp(".") {
			id, _ := p.ident()
			p.i++ // .
			qual = append(qual, id)
			continue
		}
		p.i = start
		return nil, false, nil
	}
}

func (p *parser) columnRefOnly() (*ColumnRef, error) {
	id, err := p.ident()
	if err != nil {
		return nil, err
	}
	c := &ColumnRef{Parts: []Ident{id}, P: id.P}
	for p.acceptOp(".") {
		id, err := p.ident()
		if err != nil {
			return nil, err
		}
		c.Parts = append(c.Parts, id)
	}
	return c, nil
}

func (p *parser) groupBy(pos int) (*GroupBy, error) {
	g := &GroupBy{P: pos}
	if p.peek().is("ALL") && !p.peekN(1).isOp("(") && !p.peekN(1).isOp(".") {
		p.i++
		g.All = true
		return g, nil
	}
	for {
		t := p.peek()
		kind := ""
		switch {
		case t.is("ROLLUP") && p.peekN(1).isOp("("):
			kind = "ROLLUP"
		case t.is("CUBE") && p.peekN(1).isOp("("):
			kind = "CUBE"
		case t.is("GROUPING") && p.peekN(1).is("SETS"):
			kind = "GROUPING SETS"
			p.i++
		}
		if kind != "" {
			p.i++
			gs := &GroupingSets{Kind: kind, P: t.pos}
			if err := p.expectOp("("); err != nil {
				return nil, err
			}
			for {
				var set []Expr
				if p.peek().isOp("(") && p.peekN(1).isOp(")") {
					p.i += 2
				} else if p.peek().isOp("(") && kind == "GROUPING SETS" || p.peek().isOp("(") && p.isParenList() {
					p.i++
					items, err := p.exprList()
					if err != nil {
						return nil, err
					}
					if err := p.expectOp(")"); err != nil {
						return nil, err
					}
					set = items
				} else {
					e, err := p.expr()
					if err != nil {
						return nil, err
					}
					set = []Expr{e}
				}
				gs.Sets = append(gs.Sets, set)
				if !p.acceptOp(",") {
					break
				}
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			g.Items = append(g.Items, gs)
		} else {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			g.Items = append(g.Items, e)
		}
		if !p.acceptOp(",") {
			break
		}
	}
	if p.peek().is("WITH") && (p.peekN(1).is("ROLLUP") || p.peekN(1).is("CUBE")) {
		g.With = strings.ToUpper(p.peekN(1).text)
		p.i += 2
	}
	return g, nil
}

// isParenList reports whether the ( at the cursor holds a comma list at
// its top level: (a, b) rather than (a + b).
func (p *parser) isParenList() bool {
	depth := 0
	for k := p.i; k < len(p.toks); k++ {
		t := p.toks[k]
		switch {
		case t.isOp("(") || t.isOp("["):
			depth++
		case t.isOp(")") || t.isOp("]"):
			depth--
			if depth == 0 {
				return false
			}
		case t.isOp(",") && depth == 1:
			return true
		case t.kind == tokEOF:
			return false
		}
	}
	return false
}

func (p *parser) windowClause() ([]*NamedWindow, error) {
	var out []*NamedWindow
	for {
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AS"); err != nil {
			return nil, err
		}
		spec, err := p.windowSpec()
		if err != nil {
			return nil, err
		}
		out = append(out, &NamedWindow{Name: name, Spec: spec})
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

func (p *parser) lateralView() (*LateralView, error) {
	t := p.next() // LATERAL
	p.next()      // VIEW
	lv := &LateralView{P: t.pos, Outer: p.accept("OUTER")}
	name, err := p.ident()
	if err != nil {
		return nil, err
	}
	if !p.peek().isOp("(") {
		return nil, p.syntaxWant(p.peek(), "'(' after the LATERAL VIEW function name")
	}
	c, err := p.call(name)
	if err != nil {
		return nil, err
	}
	call, ok := c.(*Call)
	if !ok || call.Over != nil {
		return nil, p.syn.errAt(name.P, "LATERAL VIEW needs a generator function call such as explode(xs)")
	}
	lv.Func = call
	if lv.Table, err = p.ident(); err != nil {
		return nil, err
	}
	if lv.Table.Name != "" && strings.EqualFold(lv.Table.Name, "AS") && !lv.Table.Quoted {
		return nil, p.syn.errAt(lv.Table.P, "LATERAL VIEW needs a table name before AS: LATERAL VIEW explode(xs) t AS x")
	}
	p.accept("AS")
	t2 := p.peek()
	if t2.kind == tokQuoted || (t2.kind == tokIdent && !noImplicitAlias[strings.ToUpper(t2.text)]) {
		if lv.Columns, err = p.identList(); err != nil {
			return nil, err
		}
	}
	return lv, nil
}

// tableItem reads a table primary followed by joins.
func (p *parser) tableItem() (TableExpr, error) {
	l, err := p.tablePrimary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		j := &Join{L: l, P: t.pos}
		if p.accept("NATURAL") {
			j.Natural = true
		}
		switch {
		case p.accept("JOIN"):
			j.Kind = "INNER"
		case p.accept("INNER"):
			j.Kind = "INNER"
		case p.accept("CROSS"):
			j.Kind = "CROSS"
		case p.accept("LEFT"):
			j.Kind = "LEFT"
			switch {
			case p.accept("SEMI"):
				j.Kind = "LEFT SEMI"
			case p.accept("ANTI"):
				j.Kind = "LEFT ANTI"
			default:
				p.accept("OUTER")
			}
		case p.accept("RIGHT"):
			j.Kind = "RIGHT"
			p.accept("OUTER")
		case p.accept("FULL"):
			j.Kind = "FULL"
			p.accept("OUTER")
		case p.accept("SEMI"):
			j.Kind = "LEFT SEMI"
		case p.accept("ANTI"):
			j.Kind = "LEFT ANTI"
		default:
			if j.Natural {
				return nil, p.syntaxWant(p.peek(), "JOIN after NATURAL")
			}
			return l, nil
		}
		if !p.toks[p.i-1].is("JOIN") {
			if err := p.expect("JOIN"); err != nil {
				return nil, err
			}
		}
		if j.R, err = p.tablePrimary(); err != nil {
			return nil, err
		}
		switch {
		case p.accept("ON"):
			if j.On, err = p.expr(); err != nil {
				return nil, err
			}
		case p.accept("USING"):
			if j.Using, err = p.parenIdents(); err != nil {
				return nil, err
			}
		}
		l = j
	}
}

func (p *parser) tablePrimary() (TableExpr, error) {
	t := p.peek()
	var te TableExpr
	var alias **Ident
	var cols *[]Ident
	switch {
	case t.kind == tokPlaceholder:
		p.i++
		tn := &TableName{Placeholder: t.val, P: t.pos}
		te, alias, cols = tn, &tn.Alias, &tn.Columns
	case t.is("LATERAL") && p.peekN(1).isOp("("):
		p.i += 2
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		dt := &DerivedTable{Query: q, Lateral: true, P: t.pos}
		te, alias, cols = dt, &dt.Alias, &dt.Columns
	case t.isOp("(") && p.startsQuery(1):
		start := p.i
		p.i++
		q, err := p.query()
		if err == nil {
			err = p.expectOp(")")
		}
		if err != nil {
			// ((SELECT ...) AS a JOIN b ON ...): a bracketed join whose
			// first table is a subquery.
			p.i = start + 1
			inner, err2 := p.tableItem()
			if err2 == nil && p.acceptOp(")") {
				return inner, nil
			}
			return nil, err
		}
		dt := &DerivedTable{Query: q, P: t.pos}
		te, alias, cols = dt, &dt.Alias, &dt.Columns
	case t.isOp("("):
		p.i++
		inner, err := p.tableItem()
		if err != nil {
			return nil, err
		}
		return inner, p.expectOp(")")
	case t.is("VALUES"):
		p.i++
		rows, err := p.valuesRows()
		if err != nil {
			return nil, err
		}
		vt := &ValuesTable{Rows: rows, P: t.pos}
		te, alias, cols = vt, &vt.Alias, &vt.Columns
	case t.kind == tokIdent || t.kind == tokQuoted:
		id, _ := p.ident()
		if p.peek().isOp("(") {
			c, err := p.call(id)
			if err != nil {
				return nil, err
			}
			call, ok := c.(*Call)
			if !ok || call.Over != nil {
				return nil, p.syn.errAt(t.pos, "a table function call cannot have OVER")
			}
			tf := &TableFunc{Func: call, P: t.pos}
			te, alias, cols = tf, &tf.Alias, &tf.Columns
			break
		}
		tn := &TableName{Parts: []Ident{id}, P: t.pos}
		for p.acceptOp(".") {
			id, err := p.ident()
			if err != nil {
				return nil, err
			}
			tn.Parts = append(tn.Parts, id)
		}
		te, alias, cols = tn, &tn.Alias, &tn.Columns
	default:
		return nil, p.syntaxWant(t, "a table, {df}, a subquery or VALUES")
	}
	if u := p.peek(); p.syn.Pivot && (u.is("PIVOT") || u.is("UNPIVOT")) {
		// The table's alias, if any, is already read: PIVOT applies to
		// the item and may take its own alias.
		return p.pivot(te)
	}
	for _, kw := range []string{"TABLESAMPLE", "PIVOT", "UNPIVOT"} {
		if u := p.peek(); u.is(kw) {
			return nil, unsupported(u.pos, "", "%s", kw)
		}
	}
	if u := p.peek(); u.is("FOR") || (u.is("VERSION") || u.is("TIMESTAMP")) && p.peekN(1).is("AS") {
		return nil, unsupported(u.pos, "", "time travel in a query")
	}
	a, err := p.optAlias()
	if err != nil {
		return nil, err
	}
	*alias = a
	if a != nil && p.peek().isOp("(") {
		if *cols, err = p.parenIdents(); err != nil {
			return nil, err
		}
	}
	return te, nil
}

// ------------------------------------------------------------ expressions

func (p *parser) exprList() ([]Expr, error) {
	var out []Expr
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

func (p *parser) expr() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	return p.orExpr()
}

func (p *parser) orExpr() (Expr, error) {
	l, err := p.andExpr()
	if err != nil {
		return nil, err
	}
	for p.peek().is("OR") {
		t := p.next()
		r, err := p.andExpr()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: "OR", L: l, R: r, P: t.pos}
	}
	return l, nil
}

func (p *parser) andExpr() (Expr, error) {
	l, err := p.notExpr()
	if err != nil {
		return nil, err
	}
	for p.peek().is("AND") {
		t := p.next()
		r, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: "AND", L: l, R: r, P: t.pos}
	}
	return l, nil
}

func (p *parser) notExpr() (Expr, error) {
	t := p.peek()
	if t.is("NOT") || t.isOp("!") {
		p.i++
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		return &Unary{Op: "NOT", X: x, P: t.pos}, nil
	}
	if t.is("EXISTS") && p.peekN(1).isOp("(") && p.startsQuery(2) {
		p.i += 2
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		return &Exists{Query: q, P: t.pos}, nil
	}
	return p.predicate()
}

// predicate reads a comparison followed by IS, BETWEEN, IN, LIKE forms
// (with Syntax.Sqlglot, those forms bind tighter than the comparisons).
func (p *parser) predicate() (Expr, error) {
	if p.syn.Sqlglot {
		return p.sqlglotEquality()
	}
	x, err := p.comparison()
	if err != nil {
		return nil, err
	}
	return p.predicates(x, p.comparison)
}

// predicates reads the IS, BETWEEN, IN, LIKE forms after x, their
// operands read by operand.
func (p *parser) predicates(x Expr, operand func() (Expr, error)) (Expr, error) {
	var err error
	for {
		t := p.peek()
		not := false
		k := 0
		if t.is("NOT") {
			not, k = true, 1
		}
		u := p.peekN(k)
		switch {
		case t.is("IS"):
			p.i++
			n := p.accept("NOT")
			switch {
			case p.accept("NULL"), p.syn.Sqlglot && p.accept("UNKNOWN"):
				x = &IsNull{X: sqlglotIsOperand(p.syn, x), Not: n, P: t.pos}
			case p.peek().is("TRUE"), p.peek().is("FALSE"), p.peek().is("UNKNOWN"):
				x = &IsBool{X: sqlglotIsOperand(p.syn, x), Not: n, Value: strings.ToUpper(p.next().text), P: t.pos}
			case p.accept("DISTINCT"):
				if err := p.expect("FROM"); err != nil {
					return nil, err
				}
				r, err := operand()
				if err != nil {
					return nil, err
				}
				x = &IsDistinct{L: x, R: r, Not: n, P: t.pos}
			case p.syn.Sqlglot:
				r, err := operand()
				if err != nil {
					return nil, err
				}
				x = &IsExpr{X: sqlglotIsOperand(p.syn, x), R: r, Not: n, P: t.pos}
			default:
				return nil, p.syntaxWant(p.peek(), "NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS")
			}
		case u.is("BETWEEN"):
			p.i += k + 1
			lo, err := operand()
			if err != nil {
				return nil, err
			}
			if err := p.expect("AND"); err != nil {
				return nil, err
			}
			hi, err := operand()
			if err != nil {
				return nil, err
			}
			x = &Between{X: x, Lo: lo, Hi: hi, Not: not, P: t.pos}
		case u.is("IN"):
			p.i += k + 1
			if err := p.expectOp("("); err != nil {
				return nil, err
			}
			if q, ok := p.tryBracketedQuery(); ok {
				x = &InQuery{X: x, Query: q, Not: not, P: t.pos}
				continue
			}
			list, err := p.exprList()
			if err != nil {
				return nil, err
			}
			x = &InList{X: x, List: list, Not: not, P: t.pos}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
		case p.syn.RegexOperators && !not && (t.isOp("~") || t.isOp("~*") || t.isOp("!~") || t.isOp("!~*")):
			p.i++
			pat, err := operand()
			if err != nil {
				return nil, err
			}
			x = &Like{X: x, Op: strings.TrimPrefix(t.text, "!"), Not: strings.HasPrefix(t.text, "!"), Pattern: pat, P: t.pos}
		case u.is("LIKE"), u.is("ILIKE"), u.is("RLIKE"), u.is("REGEXP"):
			p.i += k + 1
			lk := &Like{X: x, Op: strings.ToUpper(u.text), Not: not, P: t.pos}
			if q := p.peek(); (q.is("ANY") || q.is("ALL") || q.is("SOME")) && p.peekN(1).isOp("(") && (lk.Op == "LIKE" || lk.Op == "ILIKE") {
				p.i += 2
				lk.Quant = strings.ToUpper(q.text)
				if lk.Patterns, err = p.exprList(); err != nil {
					return nil, err
				}
				if err := p.expectOp(")"); err != nil {
					return nil, err
				}
			} else {
				if lk.Pattern, err = operand(); err != nil {
					return nil, err
				}
				if p.accept("ESCAPE") {
					e := p.peek()
					if e.kind != tokString {
						return nil, p.syntaxWant(e, "a string after ESCAPE")
					}
					p.i++
					lk.Escape = &Literal{Kind: LitString, Value: e.val, P: e.pos}
				}
			}
			x = lk
		default:
			return x, nil
		}
	}
}

// sqlglotEquality reads sqlglot's equality level (=, ==, <>, !=, <=>)
// over its comparisons (<, <=, >, >=) over its range predicates (IS,
// BETWEEN, IN, LIKE over a bitwise expression).
func (p *parser) sqlglotEquality() (Expr, error) {
	return p.sqlglotLevel(map[string]bool{"=": true, "==": true, "<>": true, "!=": true, "<=>": true}, func() (Expr, error) {
		return p.sqlglotLevel(map[string]bool{"<": true, "<=": true, ">": true, ">=": true}, p.sqlglotRange)
	})
}

func (p *parser) sqlglotRange() (Expr, error) {
	x, err := p.bitOr()
	if err != nil {
		return nil, err
	}
	return p.predicates(x, p.bitOr)
}

func (p *parser) sqlglotLevel(ops map[string]bool, sub func() (Expr, error)) (Expr, error) {
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t.kind == tokOp && ops[t.text]; t = p.peek() {
		p.i++
		r, err := sub()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: t.text, L: sqlglotBracketIs(l), R: sqlglotBracketIs(r), P: t.pos}
	}
	return l, nil
}

// sqlglotBracketIs is x as an operand of a comparison: sqlglot brackets
// an IS (or NOT of one) there.
func sqlglotBracketIs(x Expr) Expr {
	y := x
	if u, ok := x.(*Unary); ok && u.Op == "NOT" {
		y = u.X
	}
	switch y.(type) {
	case *IsNull, *IsBool, *IsExpr, *IsDistinct:
		return &Paren{X: x, P: x.Pos()}
	}
	return x
}

// sqlglotIsOperand is the left operand of an IS: sqlglot brackets a
// comparison, a NOT, AND or OR there.
func sqlglotIsOperand(syn *Syntax, x Expr) Expr {
	if !syn.Sqlglot {
		return x
	}
	switch n := x.(type) {
	case *Unary:
		if n.Op != "NOT" {
			return x
		}
	case *Binary:
		if !comparisonOps[n.Op] && n.Op != "AND" && n.Op != "OR" {
			return x
		}
	default:
		return x
	}
	return &Paren{X: x, P: x.Pos()}
}

var comparisonOps = map[string]bool{"=": true, "==": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "<=>": true}

func (p *parser) comparison() (Expr, error) {
	l, err := p.bitOr()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t.kind == tokOp && comparisonOps[t.text]; t = p.peek() {
		p.i++
		r, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: t.text, L: l, R: r, P: t.pos}
	}
	return l, nil
}

// binaryLevel parses left-associative operators of one precedence level.
func (p *parser) binaryLevel(ops []string, sub func() (Expr, error)) (Expr, error) {
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		op := ""
		for _, o := range ops {
			if t.isOp(o) || (o == "DIV" && t.is("DIV")) {
				op = o
			}
		}
		if op == "" {
			return l, nil
		}
		p.i++
		r, err := sub()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: op, L: l, R: r, P: t.pos}
	}
}

func (p *parser) bitOr() (Expr, error)  { return p.binaryLevel([]string{"|"}, p.bitXor) }
func (p *parser) bitXor() (Expr, error) { return p.binaryLevel([]string{"^"}, p.bitAnd) }
func (p *parser) bitAnd() (Expr, error) { return p.binaryLevel([]string{"&"}, p.shift) }
func (p *parser) shift() (Expr, error)  { return p.binaryLevel([]string{"<<", ">>"}, p.additive) }
func (p *parser) additive() (Expr, error) {
	return p.binaryLevel([]string{"+", "-", "||"}, p.multiplicative)
}
func (p *parser) multiplicative() (Expr, error) {
	return p.binaryLevel([]string{"*", "/", "%", "DIV"}, p.unary)
}

func (p *parser) unary() (Expr, error) {
	t := p.peek()
	if t.isOp("-") || t.isOp("+") || t.isOp("~") {
		p.i++
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		// -5 is a negative literal (Spark names it "-5", not "(- 5)").
		if t.text == "-" && p.peek().kind == tokNumber {
			n := p.next()
			lit, err := p.numberLiteral(n)
			if err != nil {
				return nil, err
			}
			lit.Value = "-" + lit.Value
			lit.P = t.pos
			return p.postfix(lit)
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &Unary{Op: t.text, X: x, P: t.pos}, nil
	}
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	return p.postfix(x)
}

// postfix reads x[i], x.f and x::type after a primary expression.
func (p *parser) postfix(x Expr) (Expr, error) {
	for {
		t := p.peek()
		switch {
		case t.isOp("["):
			p.i++
			idx, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			x = &Subscript{X: x, Index: idx, P: t.pos}
		case t.isOp(".") && (p.peekN(1).kind == tokIdent || p.peekN(1).kind == tokQuoted):
			p.i++
			id, _ := p.ident()
			if c, ok := x.(*ColumnRef); ok {
				c.Parts = append(c.Parts, id)
				continue
			}
			x = &FieldAccess{X: x, Field: id, P: t.pos}
		case t.isOp("::"):
			p.i++
			ty, err := p.typeName()
			if err != nil {
				return nil, err
			}
			x = &Cast{X: x, Type: ty, Colon: true, P: t.pos}
		case p.syn.ColonPaths && t.isOp(":"):
			p.i++
			path, err := p.colonPath()
			if err != nil {
				return nil, err
			}
			x = &PathExtract{X: x, Path: path, P: t.pos}
		default:
			return x, nil
		}
	}
}

// colonPath reads the path of x:path as Spark's grammar has it: a first
// part (a name, ['key'], [n] or [*]), then .name, ['key'], [n] or [*]
// parts; it returns the path as written.
func (p *parser) colonPath() (string, error) {
	start := p.peek().pos
	for first := true; ; first = false {
		t := p.peek()
		switch {
		case (first && (t.kind == tokIdent || t.kind == tokQuoted)) || (!first && t.isOp(".") && (p.peekN(1).kind == tokIdent || p.peekN(1).kind == tokQuoted)):
			if !first {
				p.i++
			}
			p.i++
		case t.isOp("["):
			in := p.peekN(1)
			if !(in.kind == tokString || in.kind == tokNumber || in.isOp("*")) || !p.peekN(2).isOp("]") {
				return "", p.syntax(in)
			}
			p.i += 3
		case first:
			return "", p.syntax(t)
		default:
			return p.src[start:p.toks[p.i-1].end], nil
		}
	}
}

func (p *parser) numberLiteral(t token) (*Literal, error) {
	s := t.text
	up := strings.ToUpper(s)
	lit := &Literal{P: t.pos}
	switch {
	case strings.HasSuffix(up, "BD"):
		lit.Kind, s = LitBigDecimal, s[:len(s)-2]
	case strings.HasSuffix(up, "L"):
		lit.Kind, s = LitLong, s[:len(s)-1]
	case strings.HasSuffix(up, "S"):
		lit.Kind, s = LitShort, s[:len(s)-1]
	case strings.HasSuffix(up, "Y"):
		lit.Kind, s = LitTiny, s[:len(s)-1]
	case strings.HasSuffix(up, "D"):
		lit.Kind, s = LitDouble, s[:len(s)-1]
	case strings.HasSuffix(up, "F"):
		lit.Kind, s = LitFloat, s[:len(s)-1]
	case strings.ContainsAny(s, "eE"):
		lit.Kind = LitDouble
	case strings.Contains(s, "."):
		lit.Kind = LitDecimal
	default:
		lit.Kind = LitInt
	}
	integral := !strings.ContainsAny(s, ".eE")
	if (lit.Kind == LitLong || lit.Kind == LitShort || lit.Kind == LitTiny) && !integral {
		return nil, p.syn.errAt(t.pos, fmt.Sprintf("Syntax error at or near '%s'", t.text))
	}
	lit.Value = s
	return lit, nil
}

// IntervalUnits maps interval unit spellings (upper case) to their
// singular names.
var IntervalUnits = map[string]string{
	"YEAR": "YEAR", "YEARS": "YEAR", "MONTH": "MONTH", "MONTHS": "MONTH", "WEEK": "WEEK", "WEEKS": "WEEK",
	"DAY": "DAY", "DAYS": "DAY", "HOUR": "HOUR", "HOURS": "HOUR", "MINUTE": "MINUTE", "MINUTES": "MINUTE",
	"SECOND": "SECOND", "SECONDS": "SECOND", "MILLISECOND": "MILLISECOND", "MILLISECONDS": "MILLISECOND",
	"MICROSECOND": "MICROSECOND", "MICROSECONDS": "MICROSECOND",
}

func (p *parser) intervalValueAhead(k int) bool {
	t := p.peekN(k)
	return t.kind == tokString || t.kind == tokNumber || (t.isOp("-") || t.isOp("+")) && (p.peekN(k+1).kind == tokNumber || p.peekN(k+1).kind == tokString)
}

func (p *parser) interval(pos int) (Expr, error) {
	iv := &Interval{P: pos}
	for p.intervalValueAhead(0) {
		sign := ""
		if t := p.peek(); t.isOp("-") || t.isOp("+") {
			p.i++
			if t.text == "-" {
				sign = "-"
			}
		}
		v := p.next()
		part := IntervalPart{Value: sign + v.val, Str: v.kind == tokString}
		if v.kind == tokNumber {
			part.Value = sign + v.text
		}
		u := p.peek()
		unit, ok := IntervalUnits[strings.ToUpper(u.text)]
		if u.kind != tokIdent || !ok {
			if part.Str && len(iv.Parts) == 0 {
				iv.Parts = append(iv.Parts, part) // INTERVAL '1 day 2 hours'
				return iv, nil
			}
			return nil, p.syntaxWant(u, "an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...)")
		}
		p.i++
		part.Unit = unit
		if p.accept("TO") {
			tu := p.peek()
			to, ok := IntervalUnits[strings.ToUpper(tu.text)]
			if tu.kind != tokIdent || !ok {
				return nil, p.syntaxWant(tu, "an interval unit after TO")
			}
			p.i++
			part.To = to
		}
		iv.Parts = append(iv.Parts, part)
	}
	if len(iv.Parts) == 0 {
		return nil, p.syntaxWant(p.peek(), "an interval value after INTERVAL")
	}
	return iv, nil
}

func (p *parser) primary() (Expr, error) {
	t := p.peek()
	switch t.kind {
	case tokNumber:
		p.i++
		return p.numberLiteral(t)
	case tokString:
		p.i++
		return &Literal{Kind: LitString, Value: t.val, P: t.pos}, nil
	case tokBinary:
		p.i++
		if len(t.val)%2 != 0 || !isHex(t.val) {
			return nil, p.syn.errAt(t.pos, fmt.Sprintf("%s is not a binary literal: X'' needs an even number of hex digits", t.text))
		}
		return &Literal{Kind: LitBinary, Value: strings.ToUpper(t.val), P: t.pos}, nil
	case tokPlaceholder:
		if p.syn.PlaceholderQualifiers && p.peekN(1).isOp(".") {
			p.i += 2
			id, err := p.ident()
			if err != nil {
				return nil, err
			}
			return &ColumnRef{Parts: []Ident{{Name: t.text, P: t.pos}, id}, P: t.pos}, nil
		}
		return nil, p.syn.errAt(t.pos, t.text+" names a table: use it after FROM or JOIN")
	case tokOp:
		switch t.text {
		case "(":
			return p.parenthesized()
		case "*":
			return nil, p.syn.errAt(t.pos, "* is only allowed in the select list and in count(*)")
		case "[":
			if p.syn.BracketArrays {
				return p.bracketArray(t.pos)
			}
		}
		return nil, p.syntax(t)
	case tokQuoted:
		id, _ := p.ident()
		if p.peek().isOp("(") {
			return p.call(id)
		}
		if p.peek().isOp("->") {
			return p.lambda([]Ident{id}, t.pos)
		}
		return &ColumnRef{Parts: []Ident{id}, P: t.pos}, nil
	case tokEOF:
		return nil, p.syntax(t)
	}
	// A word.
	up := strings.ToUpper(t.text)
	next := p.peekN(1)
	switch up {
	case "NULL":
		p.i++
		return &Literal{Kind: LitNull, P: t.pos}, nil
	case "TRUE", "FALSE":
		p.i++
		return &Literal{Kind: LitBool, Value: up, P: t.pos}, nil
	case "CASE":
		return p.caseExpr()
	case "CAST", "TRY_CAST":
		if next.isOp("(") {
			return p.cast(up == "TRY_CAST")
		}
	case "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ":
		if next.kind == tokString {
			p.i += 2
			kind := map[string]LitKind{"DATE": LitDate, "TIMESTAMP": LitTimestamp, "TIMESTAMP_LTZ": LitTimestamp, "TIMESTAMP_NTZ": LitTimestampNTZ}[up]
			return &Literal{Kind: kind, Value: next.val, Text: up, P: t.pos}, nil
		}
	case "INTERVAL":
		if p.intervalValueAhead(1) {
			p.i++
			return p.interval(t.pos)
		}
	case "EXISTS":
		if next.isOp("(") && p.startsQuery(2) {
			return p.notExpr()
		}
	case "ARRAY":
		if next.isOp("[") && p.syn.BracketArrays {
			p.i++
			return p.bracketArray(t.pos)
		}
	}
	if notAColumn[up] && !next.isOp("(") {
		return nil, p.syntax(t)
	}
	id, _ := p.ident()
	if p.peek().isOp("(") {
		return p.call(id)
	}
	if p.peek().isOp("->") {
		return p.lambda([]Ident{id}, t.pos)
	}
	return &ColumnRef{Parts: []Ident{id}, P: t.pos}, nil
}

// bracketArray reads [a, b, ...] (the cursor at the bracket) as a Call
// of ARRAY with Syntax BRACKETS.
func (p *parser) bracketArray(pos int) (Expr, error) {
	p.i++ // [
	call := &Call{Name: Ident{Name: "ARRAY", P: pos}, Syntax: "BRACKETS", P: pos}
	if p.acceptOp("]") {
		return call, nil
	}
	items, err := p.exprList()
	if err != nil {
		return nil, err
	}
	call.Args = items
	return call, p.expectOp("]")
}

// notAColumn are clause words never read as a column name (quote such a
// column: `from`).
var notAColumn = keywordSet(`FROM WHERE SELECT UNION EXCEPT INTERSECT MINUS HAVING JOIN ON THEN ELSE END WHEN AND OR`)

// parenthesized reads (expr), (a, b), (SELECT ...) or (x, y) -> body.
func (p *parser) parenthesized() (Expr, error) {
	t := p.next() // (
	if q, ok := p.tryBracketedQuery(); ok {
		return &Subquery{Query: q, P: t.pos}, nil
	}
	// (x, y) -> body
	if params, ok := p.lambdaParams(); ok {
		return p.lambda(params, t.pos)
	}
	items, err := p.exprList()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if len(items) == 1 {
		if p.syn.Sqlglot {
			return &Paren{X: items[0], P: t.pos}, nil
		}
		return items[0], nil
	}
	return &Row{Items: items, P: t.pos}, nil
}

// tryBracketedQuery reads "query )" after an opening bracket when a query
// starts there; else (an expression such as ((SELECT 1) + 1)) it restores
// the cursor and reports false.
func (p *parser) tryBracketedQuery() (*Query, bool) {
	start := p.i
	if !p.startsQuery(0) || p.notQuery[start] {
		return nil, false
	}
	q, err := p.query()
	if err == nil && p.acceptOp(")") {
		return q, true
	}
	if p.notQuery == nil {
		p.notQuery = map[int]bool{}
	}
	p.notQuery[start] = true
	p.i = start
	return nil, false
}

// lambdaParams reads "x, y) ->" after an opening bracket, or restores the
// cursor and reports false.
func (p *parser) lambdaParams() ([]Ident, bool) {
	start := p.i
	var params []Ident
	for {
		t := p.peek()
		if t.kind != tokIdent && t.kind != tokQuoted {
			p.i = start
			return nil, false
		}
		id, _ := p.ident()
		params = append(params, id)
		if p.acceptOp(",") {
			continue
		}
		if p.acceptOp(")") && p.peek().isOp("->") {
			return params, true
		}
		p.i = start
		return nil, false
	}
}

func (p *parser) lambda(params []Ident, pos int) (Expr, error) {
	if err := p.expectOp("->"); err != nil {
		return nil, err
	}
	body, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &Lambda{Params: params, Body: body, P: pos}, nil
}

func (p *parser) caseExpr() (Expr, error) {
	t := p.next() // CASE
	c := &Case{P: t.pos}
	var err error
	if !p.peek().is("WHEN") {
		if c.Operand, err = p.expr(); err != nil {
			return nil, err
		}
	}
	for p.accept("WHEN") {
		w := &When{}
		if w.Cond, err = p.expr(); err != nil {
			return nil, err
		}
		if err := p.expect("THEN"); err != nil {
			return nil, err
		}
		if w.Result, err = p.expr(); err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		return nil, p.syntaxWant(p.peek(), "WHEN")
	}
	if p.accept("ELSE") {
		if c.Else, err = p.expr(); err != nil {
			return nil, err
		}
	}
	return c, p.expect("END")
}

func (p *parser) cast(try bool) (Expr, error) {
	t := p.next() // CAST
	p.next()      // (
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expect("AS"); err != nil {
		return nil, err
	}
	ty, err := p.typeName()
	if err != nil {
		return nil, err
	}
	if u := p.peek(); p.syn.TypeWords != nil && !u.isOp(")") && u.kind != tokEOF {
		return nil, Rejected(u.pos, "SQLInterfaceError", "sql parser error: Expected: ), found: %s", u.text)
	}
	return &Cast{X: x, Type: ty, Try: try, P: t.pos}, p.expectOp(")")
}

// sqlTypeName reads a plain type name with sqlparser-rs' grammar
// (Syntax.TypeWords): a name of one or more words, a width, UNSIGNED. It
// returns nil (the cursor unmoved) for names it leaves to typeName.
func (p *parser) sqlTypeName(t token) (*TypeName, error) {
	written, name, n := "", "", 0
	var words []string
	for k := 0; k < 4; k++ {
		w := p.peekN(k)
		if w.kind != tokIdent {
			break
		}
		words = append(words, strings.ToLower(w.text))
		key := strings.Join(words, " ")
		if c, ok := p.syn.TypeWords[key]; ok {
			written, name, n = key, c, k+1
		}
	}
	if n == 0 {
		c, ok := p.syn.TypeNames[words[0]]
		if !ok || !p.syn.TypeWidths[words[0]] && p.syn.Unsigned[words[0]] == "" {
			return nil, nil
		}
		written, name, n = words[0], c, 1
	}
	p.i += n
	ty := &TypeName{Name: name, Written: written, P: t.pos}
	if p.syn.TypeWidths[written] && p.acceptOp("(") {
		w := p.peek()
		v, err := strconv.Atoi(w.text)
		if w.kind != tokNumber || err != nil {
			return nil, p.syntaxWant(w, "a number")
		}
		p.i++
		ty.Params = []int{v}
		if u := p.peek(); !u.isOp(")") {
			return nil, Rejected(u.pos, "SQLInterfaceError", "sql parser error: Expected: ), found: %s", u.text)
		}
		p.i++
	}
	if u := p.syn.Unsigned[written]; u != "" && p.accept("UNSIGNED") {
		ty.Name = u
	}
	return ty, nil
}

// typeName reads a type, its name one of the dialect's TypeNames.
func (p *parser) typeName() (*TypeName, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.peek()
	if t.kind != tokIdent {
		return nil, p.syntaxWant(t, "a type name")
	}
	if p.syn.TypeWords != nil {
		if ty, err := p.sqlTypeName(t); ty != nil || err != nil {
			return ty, err
		}
	}
	name, ok := p.syn.TypeNames[strings.ToLower(t.text)]
	if !ok {
		return nil, p.syn.UnknownType(t.pos, t.text)
	}
	p.i++
	ty := &TypeName{Name: name, P: t.pos}
	switch name {
	case "decimal", "varchar", "char":
		if p.acceptOp("(") {
			for {
				n := p.peek()
				v, err := strconv.Atoi(n.text)
				if n.kind != tokNumber || err != nil {
					return nil, p.syntaxWant(n, "a number")
				}
				p.i++
				ty.Params = append(ty.Params, v)
				if !p.acceptOp(",") {
					break
				}
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
		}
	case "array":
		if err := p.expectOp("<"); err != nil {
			return nil, err
		}
		el, err := p.typeName()
		if err != nil {
			return nil, err
		}
		ty.Elem = el
		return ty, p.closeAngle()
	case "map":
		if err := p.expectOp("<"); err != nil {
			return nil, err
		}
		k, err := p.typeName()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
		v, err := p.typeName()
		if err != nil {
			return nil, err
		}
		ty.Key, ty.Value = k, v
		return ty, p.closeAngle()
	case "struct":
		if err := p.expectOp("<"); err != nil {
			return nil, err
		}
		if p.peek().isOp(">") {
			p.i++
			return ty, nil
		}
		for {
			fn, err := p.ident()
			if err != nil {
				return nil, err
			}
			p.acceptOp(":")
			ft, err := p.typeName()
			if err != nil {
				return nil, err
			}
			if p.accept("NOT") {
				if err := p.expect("NULL"); err != nil {
					return nil, err
				}
			}
			if p.peek().is("COMMENT") && p.peekN(1).kind == tokString {
				p.i += 2
			}
			ty.Fields = append(ty.Fields, StructField{Name: fn, Type: ft})
			if !p.acceptOp(",") {
				break
			}
		}
		return ty, p.closeAngle()
	case "interval":
		return nil, unsupported(t.pos, "", "the interval type in a cast")
	}
	return ty, nil
}

// closeAngle reads the > closing a type, splitting a >> token.
func (p *parser) closeAngle() error {
	t := p.peek()
	if t.isOp(">>") {
		p.toks[p.i] = token{kind: tokOp, text: ">", pos: t.pos + 1, end: t.end}
		return nil
	}
	return p.expectOp(">")
}

// call reads name(args) with its aggregate and window clauses; name was
// read. TRIM, SUBSTRING, POSITION, EXTRACT and OVERLAY also take their
// SQL-standard forms.
func (p *parser) call(name Ident) (Expr, error) {
	p.next() // (
	c := &Call{Name: name, P: name.P}
	upper := strings.ToUpper(name.Name)
	if !name.Quoted {
		done, err := p.specialCall(c, upper)
		if err != nil {
			return nil, err
		}
		if done {
			return p.callTail(c)
		}
	}
	switch {
	case p.accept("DISTINCT"):
		c.Distinct = true
	case p.peek().is("ALL") && !p.peekN(1).isOp(")") && !p.peekN(1).isOp(","):
		p.i++
	}
	if p.peek().isOp("*") && p.peekN(1).isOp(")") {
		p.i++
		c.StarArg = true
	} else if !p.peek().isOp(")") {
		for {
			var arg Expr
			if st, ok, err := p.tryStar(); err != nil {
				return nil, err
			} else if ok {
				arg = st
			} else if t := p.peek(); (t.kind == tokIdent || t.kind == tokQuoted) && p.peekN(1).isOp("=>") {
				return nil, unsupported(t.pos, "pass the arguments by position", "a named argument (%s => ...)", t.text)
			} else if arg, err = p.expr(); err != nil {
				return nil, err
			}
			c.Args = append(c.Args, arg)
			var alias *Ident
			if p.accept("AS") {
				id, err := p.ident()
				if err != nil {
					return nil, err
				}
				alias = &id
			}
			if alias != nil || c.Aliases != nil {
				for len(c.Aliases) < len(c.Args)-1 {
					c.Aliases = append(c.Aliases, nil)
				}
				c.Aliases = append(c.Aliases, alias)
			}
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if (p.peek().is("IGNORE") || p.peek().is("RESPECT")) && p.peekN(1).is("NULLS") {
		c.Nulls = strings.ToUpper(p.next().text)
		p.i++
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	return p.callTail(c)
}

// specialCall reads the SQL-standard argument forms; it reports false
// (cursor unchanged) for an ordinary argument list.
func (p *parser) specialCall(c *Call, upper string) (bool, error) {
	start := p.i
	switch upper {
	case "TRIM":
		mode := ""
		for _, m := range []string{"BOTH", "LEADING", "TRAILING"} {
			if p.peek().is(m) {
				mode = m
			}
		}
		if mode != "" {
			p.i++
		}
		var chars Expr
		if !p.peek().is("FROM") {
			e, err := p.expr()
			if err != nil {
				return false, err
			}
			chars = e
		}
		if !p.accept("FROM") {
			if mode != "" {
				return false, p.syntaxWant(p.peek(), "FROM")
			}
			p.i = start
			return false, nil
		}
		src, err := p.expr()
		if err != nil {
			return false, err
		}
		if mode == "" {
			mode = "BOTH"
		}
		c.Syntax = "TRIM_" + mode
		c.Args = []Expr{src}
		if chars != nil {
			c.Args = append(c.Args, chars)
		}
		return true, p.expectOp(")")
	case "SUBSTRING", "SUBSTR", "POSITION", "EXTRACT", "OVERLAY":
		// POSITION(a IN s): a is read below the IN predicate.
		first, err := p.comparison()
		if err != nil {
			return false, err
		}
		sep := map[string]string{"SUBSTRING": "FROM", "SUBSTR": "FROM", "POSITION": "IN", "EXTRACT": "FROM", "OVERLAY": "PLACING"}[upper]
		if !p.accept(sep) {
			p.i = start
			return false, nil
		}
		second, err := p.expr()
		if err != nil {
			return false, err
		}
		c.Args = []Expr{first, second}
		switch upper {
		case "SUBSTRING", "SUBSTR":
			c.Syntax = "SUBSTRING_FROM"
			if p.accept("FOR") {
				n, err := p.expr()
				if err != nil {
					return false, err
				}
				c.Args = append(c.Args, n)
			}
		case "POSITION":
			c.Syntax = "POSITION_IN"
		case "EXTRACT":
			c.Syntax = "EXTRACT"
			f, ok := first.(*ColumnRef)
			if !ok || len(f.Parts) != 1 {
				return false, p.syn.errAt(first.Pos(), "EXTRACT needs a field name: EXTRACT(YEAR FROM d)")
			}
		case "OVERLAY":
			c.Syntax = "OVERLAY"
			if err := p.expect("FROM"); err != nil {
				return false, err
			}
			pos, err := p.expr()
			if err != nil {
				return false, err
			}
			c.Args = append(c.Args, pos)
			if p.accept("FOR") {
				n, err := p.expr()
				if err != nil {
					return false, err
				}
				c.Args = append(c.Args, n)
			}
		}
		return true, p.expectOp(")")
	}
	return false, nil
}

// callTail reads WITHIN GROUP, FILTER, IGNORE NULLS and OVER after a call.
func (p *parser) callTail(c *Call) (Expr, error) {
	var err error
	if p.peek().is("WITHIN") && p.peekN(1).is("GROUP") {
		p.i += 2
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		if err := p.expect("ORDER"); err != nil {
			return nil, err
		}
		if err := p.expect("BY"); err != nil {
			return nil, err
		}
		if c.Within, err = p.orderItems(); err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	if p.peek().is("FILTER") && p.peekN(1).isOp("(") {
		p.i += 2
		if err := p.expect("WHERE"); err != nil {
			return nil, err
		}
		if c.Filter, err = p.expr(); err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	if (p.peek().is("IGNORE") || p.peek().is("RESPECT")) && p.peekN(1).is("NULLS") {
		if c.Nulls != "" {
			return nil, p.syntax(p.peek())
		}
		c.Nulls = strings.ToUpper(p.next().text)
		p.i++
	}
	if p.accept("OVER") {
		if c.Over, err = p.windowSpec(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (p *parser) windowSpec() (*WindowSpec, error) {
	t := p.peek()
	w := &WindowSpec{P: t.pos}
	if !t.isOp("(") {
		id, err := p.ident()
		if err != nil {
			return nil, err
		}
		w.Name = id.Name
		return w, nil
	}
	p.i++
	w.Paren = true
	if u := p.peek(); (u.kind == tokIdent || u.kind == tokQuoted) && !u.is("PARTITION") && !u.is("DISTRIBUTE") && !u.is("ORDER") && !u.is("SORT") && !u.is("ROWS") && !u.is("RANGE") {
		id, _ := p.ident()
		w.Name = id.Name
	}
	var err error
	if (p.peek().is("PARTITION") || p.peek().is("DISTRIBUTE")) && p.peekN(1).is("BY") {
		p.i += 2
		if w.PartitionBy, err = p.exprList(); err != nil {
			return nil, err
		}
	}
	if (p.peek().is("ORDER") || p.peek().is("SORT")) && p.peekN(1).is("BY") {
		p.i += 2
		if w.OrderBy, err = p.orderItems(); err != nil {
			return nil, err
		}
	}
	if u := p.peek(); u.is("ROWS") || u.is("RANGE") {
		p.i++
		f := &Frame{Unit: strings.ToUpper(u.text)}
		if p.accept("BETWEEN") {
			if f.Start, err = p.bound(); err != nil {
				return nil, err
			}
			if err := p.expect("AND"); err != nil {
				return nil, err
			}
			if f.End, err = p.bound(); err != nil {
				return nil, err
			}
		} else if f.Start, err = p.bound(); err != nil {
			return nil, err
		}
		w.Frame = f
	}
	return w, p.expectOp(")")
}

func (p *parser) bound() (*Bound, error) {
	switch {
	case p.accept("UNBOUNDED"):
		switch {
		case p.accept("PRECEDING"):
			return &Bound{Kind: "UNBOUNDED PRECEDING"}, nil
		case p.accept("FOLLOWING"):
			return &Bound{Kind: "UNBOUNDED FOLLOWING"}, nil
		}
		return nil, p.syntaxWant(p.peek(), "PRECEDING or FOLLOWING")
	case p.peek().is("CURRENT") && p.peekN(1).is("ROW"):
		p.i += 2
		return &Bound{Kind: "CURRENT ROW"}, nil
	}
	e, err := p.additive()
	if err != nil {
		return nil, err
	}
	switch {
	case p.accept("PRECEDING"):
		return &Bound{Kind: "PRECEDING", Offset: e}, nil
	case p.accept("FOLLOWING"):
		return &Bound{Kind: "FOLLOWING", Offset: e}, nil
	}
	return nil, p.syntaxWant(p.peek(), "PRECEDING or FOLLOWING")
}

func (p *parser) orderItems() ([]*OrderItem, error) {
	var out []*OrderItem
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		it := &OrderItem{X: e}
		switch {
		case p.accept("ASC"):
			it.Dir = true
		case p.accept("DESC"):
			it.Dir, it.Desc = true, true
		}
		if p.accept("NULLS") {
			switch {
			case p.accept("FIRST"):
				it.Nulls = "FIRST"
			case p.accept("LAST"):
				it.Nulls = "LAST"
			default:
				return nil, p.syntaxWant(p.peek(), "FIRST or LAST")
			}
		}
		out = append(out, it)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}
