package sqlfront

// Syntax is a dialect's lexical and grammatical variant of the one parser:
// what quotes mean, which escapes and literal suffixes exist, and the class
// of its syntax errors. The grammar (queries, joins, windows, CASE, casts,
// typed literals, ...) is shared; each field switches one difference.
type Syntax struct {
	// Name is the dialect's name in messages ("Spark SQL", "Polars SQL").
	Name string
	// SyntaxErrorClass is the class of syntax errors (PARSE_SYNTAX_ERROR,
	// SQLSyntaxError).
	SyntaxErrorClass string
	// DoubleQuotedIdentifiers: "x" is an identifier (standard SQL, Polars)
	// rather than a string literal (Spark).
	DoubleQuotedIdentifiers bool
	// BackslashEscapes: strings take backslash escapes ('a\'b', '\n') and
	// r'...' raw strings (Spark); otherwise a quote is doubled ('a''b').
	BackslashEscapes bool
	// NumberSuffixes: numbers take Spark's type suffixes (1L, 1S, 1Y, 1.5F,
	// 1.5D, 1.5BD).
	NumberSuffixes bool
	// TypeNames maps the type names of casts and DDL (lower case) to the
	// canonical names the parser's grammar knows: boolean, tinyint,
	// smallint, int, bigint, float, double, decimal, string, varchar,
	// char, binary, date, timestamp, timestamp_ntz, array, map, struct,
	// void, interval, variant, or a dialect's own name of a plain type.
	TypeNames map[string]string
	// UnknownType is the error for a type name not in TypeNames.
	UnknownType func(pos int, name string) *Error
	// RegexOperators: PostgreSQL's regular expression matches x ~ p,
	// x ~* p (case-insensitive) and their negations x !~ p, x !~* p, at
	// LIKE's precedence (Polars SQL, which sqlparser-rs parses so); they
	// parse as a Like of Op "~" or "~*".
	RegexOperators bool
	// ColonPaths: x:path extracts from a semi-structured value (Spark's
	// semiStructuredExtract: x:a.b, x:['k'], x:[0], x:a[*]); it parses as
	// a PathExtract.
	ColonPaths bool
	// Pivot: FROM t PIVOT (...) and UNPIVOT (...) (Spark), parsed into
	// the aggregate or union they mean (pivot.go); otherwise refused.
	Pivot bool
	// Sqlglot: sqlglot's default grammar, which Laktory's own SQL parser
	// reads with. The equalities (=, ==, <>, !=, <=>) bind more loosely
	// than <, <=, >, >=, which bind more loosely than IS, IN, BETWEEN and
	// LIKE (a = b IS NULL is a = (b IS NULL)); IS takes any operand
	// (x IS 5 is an IsExpr; IS UNKNOWN is IS NULL); brackets are kept as
	// Paren nodes, as sqlglot keeps and prints them, and so are those
	// sqlglot adds around an IS beside a comparison.
	Sqlglot bool
	// BracketArrays: [a, b] and ARRAY[a, b] are array literals
	// (sqlparser-rs, which Polars SQL parses with); they parse as a Call
	// of ARRAY with Syntax BRACKETS.
	BracketArrays bool
	// PlaceholderQualifiers: {df}.x names the column x of the frame
	// {df} (Laktory renames the placeholder to a frame name before
	// Polars SQL parses it); it parses as a ColumnRef whose first part is
	// the placeholder as written.
	PlaceholderQualifiers bool
	// TypeWords, when set, reads type names as sqlparser-rs does (Polars
	// SQL): names of several words (lower case, one space between: "double
	// precision") mapped to canonical names, tried before TypeNames; the
	// names of TypeWidths take one number in brackets, INT(11), kept in
	// Params; the integer names of Unsigned take UNSIGNED after them (and
	// their width), giving the canonical name they map to; and a cast
	// whose type is followed by another token than ) is sqlparser-rs'
	// error (class SQLInterfaceError: "sql parser error: Expected: ),
	// found: SIGNED").
	TypeWords  map[string]string
	TypeWidths map[string]bool
	Unsigned   map[string]string
}

// Statements is the number of statements of sql separated by semicolons
// as the dialect's lexer reads it (quotes, escapes, comments); 1 when it
// does not lex, so that parsing reports the problem.
func (s *Syntax) Statements(sql string) int {
	toks, err := lex(sql, s)
	if err != nil {
		return 1
	}
	n, empty := 0, true
	for _, t := range toks {
		switch {
		case t.kind == tokEOF || t.isOp(";"):
			if !empty {
				n++
			}
			empty = true
		default:
			empty = false
		}
	}
	return n
}

// ParseQuery parses one query (a trailing semicolon is allowed).
func (s *Syntax) ParseQuery(sql string) (*Query, error) {
	p, err := newParser(sql, s)
	if err != nil {
		return nil, err
	}
	q, err := p.query()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.isOp(";") {
		p.i++
		if p.peek().kind != tokEOF {
			return nil, unsupported(t.pos, "write one query per step", "more than one statement in a step")
		}
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.syntax(t)
	}
	return q, nil
}

// ParseExpr parses one expression (filter, with_columns, expectations,
// where predicates).
func (s *Syntax) ParseExpr(sql string) (Expr, error) {
	p, err := newParser(sql, s)
	if err != nil {
		return nil, err
	}
	if p.peek().kind == tokEOF {
		return nil, p.syn.errAt(0, "the expression is empty")
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.syntax(t)
	}
	return e, nil
}

// ParseTypeName parses a type as written in DDL or a CAST (decimal(10,2),
// array<string>, struct<a:int>); the dialect maps the name to its type.
func (s *Syntax) ParseTypeName(sql string) (*TypeName, error) {
	p, err := newParser(sql, s)
	if err != nil {
		return nil, err
	}
	tn, err := p.typeName()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tokEOF {
		return nil, p.syntax(p.peek())
	}
	return tn, nil
}
