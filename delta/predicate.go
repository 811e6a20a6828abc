package delta

import (
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// This file prunes files with a scan's WHERE clause. The clause is DuckDB
// SQL and DuckDB evaluates it in full; here a small parser extracts what it
// can (comparisons of a column with a literal, IN, BETWEEN, IS [NOT] NULL,
// combined with AND, OR, NOT and parentheses) to skip files whose
// partition values or min/max stats prove no row can match. Anything else
// (functions, LIKE, arithmetic, casts, nested fields) counts as "may
// match", so pruning never drops a file DuckDB would keep rows from.

// predicate is a pruning predicate over one file.
type predicate interface {
	// mayMatch is false only when no row of the file can make the
	// predicate TRUE.
	mayMatch(f *fileFacts) bool
	// allMatch is true only when every row of the file makes the
	// predicate TRUE (a delete then removes the file without reading it).
	allMatch(f *fileFacts) bool
}

type (
	andPred  []predicate
	orPred   []predicate
	truePred struct{} // unknown: may match
	cmpPred  struct {
		col string
		op  string // = != < <= > >=
		lit literal
	}
	inPred struct {
		col  string
		lits []literal
		not  bool
	}
	betweenPred struct {
		col    string
		lo, hi literal
		not    bool
	}
	nullPred struct {
		col string
		not bool // IS NOT NULL
	}
)

func (p andPred) mayMatch(f *fileFacts) bool {
	for _, x := range p {
		if !x.mayMatch(f) {
			return false
		}
	}
	return true
}

func (p orPred) mayMatch(f *fileFacts) bool {
	for _, x := range p {
		if x.mayMatch(f) {
			return true
		}
	}
	return false
}

func (truePred) mayMatch(*fileFacts) bool { return true }

func (p andPred) allMatch(f *fileFacts) bool {
	for _, x := range p {
		if !x.allMatch(f) {
			return false
		}
	}
	return true
}

// allMatch of an OR holds when one of its terms holds for every row (a
// file whose rows each match a different term is not recognized).
func (p orPred) allMatch(f *fileFacts) bool {
	for _, x := range p {
		if x.allMatch(f) {
			return true
		}
	}
	return false
}

func (truePred) allMatch(*fileFacts) bool { return false }

// literal is a SQL literal of the WHERE clause before coercion to a
// column's type.
type literal struct {
	kind string // number, string, bool, null, date, timestamp, timestamptz
	text string
}

// coerce converts a literal to a value comparable with a column of type
// dt, following DuckDB's implicit casts; ok is false when the comparison
// cannot be judged here.
func (l literal) coerce(dt DataType) (value, bool) {
	switch l.kind {
	case "number":
		switch dt.(type) {
		case DecimalType:
		default:
			switch dt {
			case LongType, IntegerType, ShortType, ByteType, FloatType, DoubleType:
			default:
				return nil, false
			}
		}
		switch dt {
		case DoubleType:
			// DuckDB compares a DOUBLE column with a number literal
			// (DECIMAL or integer) as DOUBLEs: 0.1 is the double 0.1,
			// not the exact tenth (which no double equals, so a file of
			// d = 0.1 rows was pruned from `d = 0.1`).
			f, err := strconv.ParseFloat(l.text, 64)
			return f, err == nil
		case FloatType:
			// A FLOAT's stats hold the float's shortest text: compared
			// with a literal its double may differ from it; not judged.
			return nil, false
		}
		if n, err := strconv.ParseInt(l.text, 10, 64); err == nil {
			return n, true
		}
		if r, ok := new(big.Rat).SetString(l.text); ok {
			return r, true
		}
		return nil, false
	case "string":
		v, err := parseScalar(dt, l.text)
		return v, err == nil
	case "bool":
		if dt == BooleanType {
			return strings.EqualFold(l.text, "true"), true
		}
	case "date":
		if dt == DateType || dt == TimestampType || dt == TimestampNTZType {
			d, err := time.Parse("2006-01-02", strings.TrimSpace(l.text))
			return d, err == nil
		}
	case "timestamp":
		if dt == TimestampType || dt == TimestampNTZType {
			ts, err := parseTimestamp(strings.TrimSpace(l.text), false)
			return ts, err == nil
		}
	case "timestamptz":
		if dt == TimestampType {
			ts, err := parseTimestamp(strings.TrimSpace(l.text), true)
			return ts, err == nil
		}
	}
	return nil, false
}

// colRange is what a file tells about one column: its exact value (a
// partition column) or min/max bounds and null facts (stats).
type colRange struct {
	known    bool  // false: nothing is known, anything may match
	exact    bool  // partition column: every row has value v
	v        value // exact value (nil = NULL)
	min, max value // bounds (nil when absent)
	allNull  bool
	noNull   bool
}

// fileFacts resolves columns of one file for pruning.
type fileFacts struct {
	s     *Snapshot
	add   *Add
	stats *Stats
	read  bool // stats parsed
}

func (f *fileFacts) column(name string) (DataType, colRange) {
	field := f.s.schema.Field(name)
	if field == nil {
		return nil, colRange{}
	}
	dt := field.Type
	if _, prim := dt.(PrimitiveType); !prim {
		if _, dec := dt.(DecimalType); !dec {
			return dt, colRange{}
		}
	}
	phys := field.PhysicalName(f.s.mapping)
	if f.s.isPartitionColumn(field.Name) {
		raw, ok := f.add.PartitionValues[phys]
		if !ok {
			raw, ok = f.add.PartitionValues[field.Name]
		}
		if !ok {
			return dt, colRange{known: true, exact: true} // missing -> NULL
		}
		v, err := parsePartitionValue(dt, raw)
		if err != nil {
			return dt, colRange{}
		}
		return dt, colRange{known: true, exact: true, v: v}
	}
	if !f.read {
		f.read = true
		f.stats, _ = ParseStats(f.add.Stats)
	}
	st := f.stats
	if st == nil {
		return dt, colRange{}
	}
	r := colRange{known: true}
	if nc, ok := st.NullCount[phys].(interface{ Int64() (int64, error) }); ok {
		if n, err := nc.Int64(); err == nil {
			r.allNull = n == st.NumRecords
			r.noNull = n == 0
		}
	}
	if _, widened := field.Metadata[MetaTypeChanges]; widened {
		// Files written before the type widened hold min/max in the old
		// type (a float's shortest text is not its double's): only the
		// null counts are bounds.
		return dt, r
	}
	if v, ok := statValue(dt, st.MinValues[phys]); ok {
		r.min = v
	}
	if v, ok := statValue(dt, st.MaxValues[phys]); ok {
		r.max = v
		switch dt {
		case TimestampType, TimestampNTZType:
			// Stats are truncated to milliseconds: the real max may be
			// up to 999µs later.
			r.max = v.(time.Time).Add(time.Millisecond - time.Microsecond)
		case StringType:
			// A truncated max (writers cut strings at 32 characters) is
			// not an upper bound unless the writer fixed it up: ignore
			// long ones.
			if len([]rune(v.(string))) >= 32 {
				r.max = nil
			}
		}
	}
	return dt, r
}

func (p cmpPred) mayMatch(f *fileFacts) bool {
	dt, r := f.column(p.col)
	if !r.known {
		return true
	}
	lit, ok := p.lit.coerce(dt)
	if !ok {
		return true
	}
	if r.exact {
		if r.v == nil {
			return false // NULL compared to anything is never TRUE
		}
		c, ok := compareValues(r.v, lit)
		if !ok {
			return true
		}
		return cmpHolds(c, p.op)
	}
	if r.allNull {
		return false
	}
	lo, hi := 1, -1 // compare(min, lit), compare(max, lit); unknown bounds stay open
	loOK, hiOK := false, false
	if r.min != nil {
		lo, loOK = compareValues(r.min, lit)
	}
	if r.max != nil {
		hi, hiOK = compareValues(r.max, lit)
	}
	switch p.op {
	case "=":
		return !(loOK && lo > 0) && !(hiOK && hi < 0)
	case "!=":
		return !(loOK && hiOK && lo == 0 && hi == 0)
	case "<":
		return !(loOK && lo >= 0)
	case "<=":
		return !(loOK && lo > 0)
	case ">":
		return !(hiOK && hi <= 0)
	case ">=":
		return !(hiOK && hi < 0)
	}
	return true
}

// allMatch needs the column's exact value, or no NULL and both bounds.
// Float columns never qualify: NaN, which DuckDB orders above every
// number, may lie outside the min/max a writer records.
func (p cmpPred) allMatch(f *fileFacts) bool {
	dt, r := f.column(p.col)
	if !r.known || dt == FloatType || dt == DoubleType {
		return false
	}
	lit, ok := p.lit.coerce(dt)
	if !ok {
		return false
	}
	if r.exact {
		if r.v == nil {
			return false
		}
		c, ok := compareValues(r.v, lit)
		return ok && cmpHolds(c, p.op)
	}
	if !r.noNull || r.min == nil || r.max == nil {
		return false
	}
	lower := r.min
	if dt == TimestampType || dt == TimestampNTZType {
		// A min truncated to milliseconds toward zero (a time before
		// 1970) may be up to 999µs above the real one.
		lower = r.min.(time.Time).Add(time.Microsecond - time.Millisecond)
	}
	lo, loOK := compareValues(lower, lit)
	hi, hiOK := compareValues(r.max, lit)
	if !loOK || !hiOK {
		return false
	}
	switch p.op {
	case "=":
		return lo == 0 && hi == 0
	case "!=":
		return lo > 0 || hi < 0
	case "<":
		return hi < 0
	case "<=":
		return hi <= 0
	case ">":
		return lo > 0
	case ">=":
		return lo >= 0
	}
	return false
}

func cmpHolds(c int, op string) bool {
	switch op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return true
}

func (p inPred) mayMatch(f *fileFacts) bool {
	if p.not {
		for _, l := range p.lits {
			if l.kind == "null" {
				return false // x NOT IN (..., NULL) is never TRUE
			}
		}
		and := make(andPred, len(p.lits))
		for i, l := range p.lits {
			and[i] = cmpPred{col: p.col, op: "!=", lit: l}
		}
		return and.mayMatch(f)
	}
	or := make(orPred, len(p.lits))
	for i, l := range p.lits {
		or[i] = cmpPred{col: p.col, op: "=", lit: l}
	}
	return or.mayMatch(f)
}

func (p inPred) allMatch(f *fileFacts) bool {
	if p.not {
		for _, l := range p.lits {
			if l.kind == "null" {
				return false
			}
		}
		and := make(andPred, len(p.lits))
		for i, l := range p.lits {
			and[i] = cmpPred{col: p.col, op: "!=", lit: l}
		}
		return and.allMatch(f)
	}
	or := make(orPred, len(p.lits))
	for i, l := range p.lits {
		or[i] = cmpPred{col: p.col, op: "=", lit: l}
	}
	return or.allMatch(f)
}

func (p betweenPred) allMatch(f *fileFacts) bool {
	if p.not {
		return orPred{cmpPred{p.col, "<", p.lo}, cmpPred{p.col, ">", p.hi}}.allMatch(f)
	}
	return andPred{cmpPred{p.col, ">=", p.lo}, cmpPred{p.col, "<=", p.hi}}.allMatch(f)
}

func (p betweenPred) mayMatch(f *fileFacts) bool {
	if p.not {
		return orPred{cmpPred{p.col, "<", p.lo}, cmpPred{p.col, ">", p.hi}}.mayMatch(f)
	}
	return andPred{cmpPred{p.col, ">=", p.lo}, cmpPred{p.col, "<=", p.hi}}.mayMatch(f)
}

func (p nullPred) mayMatch(f *fileFacts) bool {
	_, r := f.column(p.col)
	if !r.known {
		return true
	}
	if r.exact {
		return (r.v == nil) != p.not
	}
	if p.not {
		return !r.allNull
	}
	return !r.noNull
}

func (p nullPred) allMatch(f *fileFacts) bool {
	_, r := f.column(p.col)
	if !r.known {
		return false
	}
	if r.exact {
		return (r.v == nil) != p.not
	}
	if p.not {
		return r.noNull
	}
	return r.allNull
}

// ---- parser ----

type token struct {
	kind string // ident, qident, string, number, op, eof
	text string
}

// quoted reads the quoted text starting at s[i] (a ' or "), where a doubled
// quote stands for one, and returns it with the index after the closing
// quote (or past the end when it is missing).
func quoted(s string, i int) (string, int) {
	q := s[i]
	var b strings.Builder
	for i++; i < len(s); i++ {
		if s[i] == q {
			if i+1 < len(s) && s[i+1] == q {
				b.WriteByte(q)
				i++
				continue
			}
			break
		}
		b.WriteByte(s[i])
	}
	return b.String(), i + 1
}

func tokenize(s string) []token {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'':
			var text string
			text, i = quoted(s, i)
			toks = append(toks, token{"string", text})
		case c == '"':
			var text string
			text, i = quoted(s, i)
			toks = append(toks, token{"qident", text})
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == '_' ||
				(s[j] == 'e' || s[j] == 'E') || ((s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E'))) {
				j++
			}
			toks = append(toks, token{"number", strings.ReplaceAll(s[i:j], "_", "")})
			i = j
		case c == '_' || c >= 0x80 || unicode.IsLetter(rune(c)):
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 0x80 || unicode.IsLetter(rune(s[j])) || s[j] >= '0' && s[j] <= '9' || s[j] == '$') {
				j++
			}
			toks = append(toks, token{"ident", s[i:j]})
			i = j
		default:
			op := string(c)
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "<=", ">=", "<>", "!=", "==", "::", "||", "->", "**":
					op = two
				}
			}
			toks = append(toks, token{"op", op})
			i += len(op)
		}
	}
	return append(toks, token{"eof", ""})
}

type predParser struct {
	toks []token
	i    int
}

func (p *predParser) peek() token { return p.toks[p.i] }
func (p *predParser) next() token {
	t := p.toks[p.i]
	if t.kind != "eof" {
		p.i++
	}
	return t
}

func (p *predParser) isKeyword(word string) bool {
	t := p.peek()
	return t.kind == "ident" && strings.EqualFold(t.text, word)
}

func (p *predParser) isOp(op string) bool {
	t := p.peek()
	return t.kind == "op" && t.text == op
}

// parsePredicate parses a WHERE clause into a pruning predicate; parts it
// does not understand become "may match". An empty clause matches all.
func parsePredicate(where string) predicate {
	if strings.TrimSpace(where) == "" {
		return truePred{}
	}
	p := &predParser{toks: tokenize(where)}
	pred := p.parseOr(false)
	if p.peek().kind != "eof" {
		return truePred{} // trailing tokens: the structure is not what we think
	}
	return pred
}

func (p *predParser) parseOr(neg bool) predicate {
	parts := []predicate{p.parseAnd(neg)}
	for p.isKeyword("OR") {
		p.next()
		parts = append(parts, p.parseAnd(neg))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	if neg { // NOT (a OR b) = NOT a AND NOT b
		return andPred(parts)
	}
	return orPred(parts)
}

func (p *predParser) parseAnd(neg bool) predicate {
	parts := []predicate{p.parseNot(neg)}
	for p.isKeyword("AND") {
		p.next()
		parts = append(parts, p.parseNot(neg))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	if neg { // NOT (a AND b) = NOT a OR NOT b
		return orPred(parts)
	}
	return andPred(parts)
}

func (p *predParser) parseNot(neg bool) predicate {
	if p.isKeyword("NOT") {
		p.next()
		return p.parseNot(!neg)
	}
	return p.parseAtom(neg)
}

// parseAtom parses one comparison; on anything unexpected it skips to the
// end of the atom and returns "may match".
func (p *predParser) parseAtom(neg bool) predicate {
	start := p.i
	if p.isOp("(") {
		p.next()
		inner := p.parseOr(neg)
		if p.isOp(")") {
			p.next()
			if p.atAtomEnd() {
				return inner
			}
		}
		p.i = start
		p.skipAtom()
		return truePred{}
	}
	pred, ok := p.tryComparison(neg)
	if ok && p.atAtomEnd() {
		return pred
	}
	p.i = start
	p.skipAtom()
	return truePred{}
}

func (p *predParser) atAtomEnd() bool {
	t := p.peek()
	return t.kind == "eof" || t.kind == "op" && t.text == ")" || p.isKeyword("AND") || p.isKeyword("OR")
}

// skipAtom advances past an atom it cannot interpret: up to the next AND /
// OR / ')' at depth 0, pairing BETWEEN with its AND and CASE with END.
func (p *predParser) skipAtom() {
	depth, between := 0, 0
	for {
		t := p.peek()
		switch {
		case t.kind == "eof":
			return
		case t.kind == "op" && t.text == "(":
			depth++
		case t.kind == "op" && t.text == ")":
			if depth == 0 {
				return
			}
			depth--
		case t.kind == "ident" && strings.EqualFold(t.text, "CASE"):
			depth++
		case t.kind == "ident" && strings.EqualFold(t.text, "END"):
			depth--
		case t.kind == "ident" && strings.EqualFold(t.text, "BETWEEN") && depth == 0:
			between++
		case t.kind == "ident" && strings.EqualFold(t.text, "AND") && depth == 0:
			if between == 0 {
				return
			}
			between--
		case t.kind == "ident" && strings.EqualFold(t.text, "OR") && depth == 0:
			return
		}
		p.next()
	}
}

var negatedOp = map[string]string{"=": "!=", "!=": "=", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
var flippedOp = map[string]string{"=": "=", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

func (p *predParser) tryComparison(neg bool) (predicate, bool) {
	leftCol, leftIsCol := p.tryColumn()
	var leftLit literal
	if !leftIsCol {
		var ok bool
		if leftLit, ok = p.tryLiteral(); !ok {
			return nil, false
		}
	}
	t := p.peek()
	switch {
	case t.kind == "op" && (t.text == "=" || t.text == "==" || t.text == "!=" || t.text == "<>" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">="):
		p.next()
		op := map[string]string{"==": "=", "<>": "!="}[t.text]
		if op == "" {
			op = t.text
		}
		if leftIsCol {
			lit, ok := p.tryLiteral()
			if !ok {
				return nil, false
			}
			if neg {
				op = negatedOp[op]
			}
			return cmpPred{col: leftCol, op: op, lit: lit}, true
		}
		col, ok := p.tryColumn()
		if !ok {
			return nil, false
		}
		op = flippedOp[op]
		if neg {
			op = negatedOp[op]
		}
		return cmpPred{col: col, op: op, lit: leftLit}, true
	case !leftIsCol:
		return nil, false
	case p.isKeyword("IS"):
		p.next()
		not := false
		if p.isKeyword("NOT") {
			p.next()
			not = true
		}
		if !p.isKeyword("NULL") {
			return nil, false
		}
		p.next()
		return nullPred{col: leftCol, not: not != neg}, true
	}
	not := false
	if p.isKeyword("NOT") {
		p.next()
		not = true
	}
	switch {
	case p.isKeyword("IN"):
		p.next()
		if !p.isOp("(") {
			return nil, false
		}
		p.next()
		var lits []literal
		for {
			l, ok := p.tryLiteral()
			if !ok {
				return nil, false
			}
			lits = append(lits, l)
			if p.isOp(",") {
				p.next()
				continue
			}
			if !p.isOp(")") {
				return nil, false
			}
			p.next()
			break
		}
		return inPred{col: leftCol, lits: lits, not: not != neg}, true
	case p.isKeyword("BETWEEN"):
		p.next()
		lo, ok := p.tryLiteral()
		if !ok || !p.isKeyword("AND") {
			return nil, false
		}
		p.next()
		hi, ok := p.tryLiteral()
		if !ok {
			return nil, false
		}
		return betweenPred{col: leftCol, lo: lo, hi: hi, not: not != neg}, true
	}
	return nil, false
}

// tryColumn reads a plain column reference (not a function call, not a
// nested field).
func (p *predParser) tryColumn() (string, bool) {
	t := p.peek()
	if t.kind == "qident" || t.kind == "ident" && !isSQLKeyword(t.text) {
		save := p.i
		p.next()
		if p.isOp("(") || p.isOp(".") || p.isOp("::") || p.isOp("[") || p.isOp("->") {
			p.i = save
			return "", false
		}
		return t.text, true
	}
	return "", false
}

// tryLiteral reads a literal: number (optionally signed), 'string', TRUE,
// FALSE, NULL, DATE '...', TIMESTAMP '...', TIMESTAMPTZ '...'. A literal
// followed by a cast (::) or an operator is not a literal.
func (p *predParser) tryLiteral() (literal, bool) {
	save := p.i
	var lit literal
	t := p.next()
	switch {
	case t.kind == "number":
		lit = literal{"number", t.text}
	case t.kind == "op" && (t.text == "-" || t.text == "+") && p.peek().kind == "number":
		n := p.next()
		text := n.text
		if t.text == "-" {
			text = "-" + text
		}
		lit = literal{"number", text}
	case t.kind == "string":
		lit = literal{"string", t.text}
	case t.kind == "ident" && (strings.EqualFold(t.text, "TRUE") || strings.EqualFold(t.text, "FALSE")):
		lit = literal{"bool", strings.ToLower(t.text)}
	case t.kind == "ident" && strings.EqualFold(t.text, "NULL"):
		lit = literal{"null", ""}
	case t.kind == "ident" && p.peek().kind == "string":
		kind := strings.ToLower(t.text)
		switch kind {
		case "date", "timestamp", "timestamptz":
		case "datetime":
			kind = "timestamp"
		default:
			p.i = save
			return literal{}, false
		}
		lit = literal{kind, p.next().text}
	default:
		p.i = save
		return literal{}, false
	}
	if tt := p.peek(); tt.kind == "op" && tt.text != ")" && tt.text != "," && tt.text != "=" && tt.text != "!=" &&
		tt.text != "<>" && tt.text != "==" && tt.text != "<" && tt.text != "<=" && tt.text != ">" && tt.text != ">=" {
		p.i = save // e.g. 5 + x, '1'::DATE
		return literal{}, false
	}
	return lit, true
}

var sqlKeywords = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "NULL": true, "TRUE": true, "FALSE": true,
	"BETWEEN": true, "LIKE": true, "ILIKE": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true,
	"END": true, "CAST": true, "EXISTS": true, "SELECT": true, "DATE": true, "TIMESTAMP": true,
	"TIMESTAMPTZ": true, "INTERVAL": true, "SIMILAR": true, "GLOB": true,
}

func isSQLKeyword(s string) bool { return sqlKeywords[strings.ToUpper(s)] }
