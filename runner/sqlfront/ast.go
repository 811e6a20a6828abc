package sqlfront

// The syntax tree of Spark SQL queries and expressions. Every node keeps
// the byte offset of its first token (P) for error messages.

// Node is a syntax tree node.
type Node interface{ Pos() int }

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Ident is a name: an unquoted word or a `backquoted` one.
type Ident struct {
	Name   string
	Quoted bool
	P      int
}

func (i Ident) Pos() int { return i.P }

// ColumnRef is a dotted name: a column, a qualified column (t.a) or a
// struct field path (s.f.g). Resolution decides which.
type ColumnRef struct {
	Parts []Ident
	P     int
}

// Star is * or t.* with an optional EXCEPT list.
type Star struct {
	Qualifier []Ident
	Except    []*ColumnRef
	P         int
}

// LitKind is the kind of a literal.
type LitKind int

const (
	LitNull         LitKind = iota
	LitBool                 // TRUE, FALSE
	LitInt                  // 1 (int, or bigint/decimal when too large)
	LitLong                 // 1L
	LitShort                // 1S
	LitTiny                 // 1Y
	LitDecimal              // 1.5, .5, 5.
	LitBigDecimal           // 1.5BD
	LitDouble               // 1.5D, 1e3
	LitFloat                // 1.5F
	LitString               // 'a', "a"
	LitBinary               // X'0A'
	LitDate                 // DATE '2024-01-01'
	LitTimestamp            // TIMESTAMP '...' and TIMESTAMP_LTZ '...'
	LitTimestampNTZ         // TIMESTAMP_NTZ '...'
)

// Literal is a constant. Value is the unescaped string, the number's
// digits (with a leading '-' for negative numbers, without suffix) or
// TRUE/FALSE. Text is the spelling kept for formatting typed literals
// (TIMESTAMP_LTZ).
type Literal struct {
	Kind  LitKind
	Value string
	Text  string
	P     int
}

// IntervalPart is one "value unit [TO unit]" of an interval literal.
type IntervalPart struct {
	Value string // digits (maybe signed) or the string's content
	Str   bool   // the value was a string literal
	Unit  string // upper-case, singular: YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND
	To    string // the end unit of "'1-2' YEAR TO MONTH", else ""
}

// Interval is INTERVAL '1' DAY, INTERVAL 1 DAY 2 HOURS, INTERVAL '1 day'.
type Interval struct {
	Parts []IntervalPart // one part with Unit "" for INTERVAL '1 day 2 hours'
	P     int
}

// Unary is -x, +x, ~x or NOT x.
type Unary struct {
	Op string // "-", "+", "~", "NOT"
	X  Expr
	P  int
}

// Binary is a binary operator: arithmetic, comparison, AND, OR, ||, DIV.
type Binary struct {
	Op   string // + - * / % DIV || & | ^ = == <> != < <= > >= <=> AND OR
	L, R Expr
	P    int // the operator's offset
}

// IsNull is x IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Not bool
	P   int
}

// IsBool is x IS [NOT] TRUE|FALSE|UNKNOWN.
type IsBool struct {
	X     Expr
	Not   bool
	Value string // TRUE, FALSE, UNKNOWN
	P     int
}

// IsExpr is x IS [NOT] r for any other r (Syntax.Sqlglot: sqlglot parses
// x IS 5 so).
type IsExpr struct {
	X, R Expr
	Not  bool
	P    int
}

// Paren is a bracketed expression (Syntax.Sqlglot only).
type Paren struct {
	X Expr
	P int
}

// IsDistinct is l IS [NOT] DISTINCT FROM r.
type IsDistinct struct {
	L, R Expr
	Not  bool
	P    int
}

// Between is x [NOT] BETWEEN lo AND hi.
type Between struct {
	X, Lo, Hi Expr
	Not       bool
	P         int
}

// InList is x [NOT] IN (a, b, ...).
type InList struct {
	X    Expr
	List []Expr
	Not  bool
	P    int
}

// InQuery is x [NOT] IN (SELECT ...).
type InQuery struct {
	X     Expr
	Query *Query
	Not   bool
	P     int
}

// Exists is EXISTS (SELECT ...).
type Exists struct {
	Query *Query
	P     int
}

// Like is x [NOT] LIKE|ILIKE|RLIKE|REGEXP pattern [ESCAPE 'c'],
// x [NOT] LIKE ANY|ALL|SOME (p1, p2, ...), or (Syntax.RegexOperators)
// x [!]~ pattern and x [!]~* pattern.
type Like struct {
	X        Expr
	Op       string // LIKE, ILIKE, RLIKE, REGEXP, ~, ~*
	Not      bool   // NOT LIKE ..., !~, !~*
	Pattern  Expr
	Escape   *Literal
	Quant    string // ANY, ALL, SOME or ""
	Patterns []Expr // with Quant
	P        int
}

// When is one WHEN cond THEN result of a CASE.
type When struct {
	Cond, Result Expr
}

// Case is CASE [operand] WHEN ... THEN ... [ELSE ...] END.
type Case struct {
	Operand Expr
	Whens   []*When
	Else    Expr
	P       int
}

// Cast is CAST(x AS t), TRY_CAST(x AS t) or x::t.
type Cast struct {
	X     Expr
	Type  *TypeName
	Try   bool
	Colon bool // written x::t
	P     int
}

// PathExtract is x:path, Spark's extraction from a semi-structured
// value (Syntax.ColonPaths): Path is the path as written after the colon
// (name, .name, [n], ['key'], [*] parts).
type PathExtract struct {
	X    Expr
	Path string
	P    int
}

// Call is a function call, maybe an aggregate with DISTINCT, FILTER,
// IGNORE NULLS or WITHIN GROUP, maybe a window function with OVER.
type Call struct {
	Name     Ident
	Args     []Expr
	Aliases  []*Ident // per argument: struct(a AS x); nil when none has one
	Distinct bool
	StarArg  bool // count(*)
	Filter   Expr
	Nulls    string // IGNORE or RESPECT (NULLS), or ""
	Within   []*OrderItem
	Over     *WindowSpec
	// Syntax marks SQL-standard spellings kept for formatting and names:
	// TRIM_BOTH/TRIM_LEADING/TRIM_TRAILING (TRIM(BOTH x FROM s)),
	// SUBSTRING_FROM, POSITION_IN, EXTRACT, OVERLAY, NOPAREN
	// (current_date without brackets).
	Syntax string
	P      int
}

// Lambda is x -> body or (x, y) -> body.
type Lambda struct {
	Params []Ident
	Body   Expr
	P      int
}

// Subscript is x[i].
type Subscript struct {
	X, Index Expr
	P        int
}

// FieldAccess is x.f on an expression that is not a plain name
// (f(x).a, xs[0].b).
type FieldAccess struct {
	X     Expr
	Field Ident
	P     int
}

// Subquery is a scalar subquery (SELECT ...).
type Subquery struct {
	Query *Query
	P     int
}

// Row is (a, b): a struct of col1, col2 (used by (a, b) IN ...).
type Row struct {
	Items []Expr
	P     int
}

// StructField is a field of a struct type name.
type StructField struct {
	Name Ident
	Type *TypeName
}

// TypeName is a Spark type as written: int, decimal(10,2), array<int>,
// map<string,int>, struct<a:int>.
type TypeName struct {
	Name   string // lower-case: int, bigint, decimal, string, array, map, struct, ...
	Params []int  // decimal(p,s), varchar(n), char(n)
	// Written is the name as written, lower case, its words joined by
	// one space ("double precision"), when the dialect reads type names
	// of several words (Syntax.TypeWords).
	Written string
	Elem    *TypeName
	Key     *TypeName
	Value   *TypeName
	Fields  []StructField
	P       int
}

// OrderItem is expr [ASC|DESC] [NULLS FIRST|LAST].
type OrderItem struct {
	X     Expr
	Desc  bool
	Dir   bool   // ASC or DESC was written
	Nulls string // FIRST, LAST or ""
}

// Bound is a window frame bound.
type Bound struct {
	Kind   string // UNBOUNDED PRECEDING, PRECEDING, CURRENT ROW, FOLLOWING, UNBOUNDED FOLLOWING
	Offset Expr   // with PRECEDING and FOLLOWING
}

// Frame is ROWS|RANGE BETWEEN start AND end (or a start alone).
type Frame struct {
	Unit       string // ROWS, RANGE
	Start, End *Bound // End nil when written without BETWEEN
}

// WindowSpec is OVER (...) or OVER name.
type WindowSpec struct {
	Name        string // OVER name, or (name ...) refining a named window
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Frame       *Frame
	Paren       bool // written in brackets
	P           int
}

func (n *ColumnRef) Pos() int   { return n.P }
func (n *Star) Pos() int        { return n.P }
func (n *Literal) Pos() int     { return n.P }
func (n *Interval) Pos() int    { return n.P }
func (n *Unary) Pos() int       { return n.P }
func (n *Binary) Pos() int      { return n.P }
func (n *IsNull) Pos() int      { return n.P }
func (n *IsBool) Pos() int      { return n.P }
func (n *IsDistinct) Pos() int  { return n.P }
func (n *IsExpr) Pos() int      { return n.P }
func (n *Paren) Pos() int       { return n.P }
func (n *Between) Pos() int     { return n.P }
func (n *InList) Pos() int      { return n.P }
func (n *InQuery) Pos() int     { return n.P }
func (n *Exists) Pos() int      { return n.P }
func (n *Like) Pos() int        { return n.P }
func (n *Case) Pos() int        { return n.P }
func (n *Cast) Pos() int        { return n.P }
func (n *PathExtract) Pos() int { return n.P }
func (n *Call) Pos() int        { return n.P }
func (n *Lambda) Pos() int      { return n.P }
func (n *Subscript) Pos() int   { return n.P }
func (n *FieldAccess) Pos() int { return n.P }
func (n *Subquery) Pos() int    { return n.P }
func (n *Row) Pos() int         { return n.P }
func (n *TypeName) Pos() int    { return n.P }

func (*ColumnRef) exprNode()   {}
func (*Star) exprNode()        {}
func (*Literal) exprNode()     {}
func (*Interval) exprNode()    {}
func (*Unary) exprNode()       {}
func (*Binary) exprNode()      {}
func (*IsNull) exprNode()      {}
func (*IsBool) exprNode()      {}
func (*IsDistinct) exprNode()  {}
func (*IsExpr) exprNode()      {}
func (*Paren) exprNode()       {}
func (*Between) exprNode()     {}
func (*InList) exprNode()      {}
func (*InQuery) exprNode()     {}
func (*Exists) exprNode()      {}
func (*Like) exprNode()        {}
func (*Case) exprNode()        {}
func (*Cast) exprNode()        {}
func (*PathExtract) exprNode() {}
func (*Call) exprNode()        {}
func (*Lambda) exprNode()      {}
func (*Subscript) exprNode()   {}
func (*FieldAccess) exprNode() {}
func (*Subquery) exprNode()    {}
func (*Row) exprNode()         {}

// Query is [WITH ...] body [ORDER BY ...] [LIMIT n] [OFFSET n].
type Query struct {
	With    []*CTE
	Body    QueryExpr
	OrderBy []*OrderItem
	Limit   Expr
	Offset  Expr
	P       int
}

// CTE is name [(cols)] AS (query) of a WITH clause.
type CTE struct {
	Name    Ident
	Columns []Ident
	Query   *Query
}

// QueryExpr is a query term: *Select, *SetOp, *Query (in brackets) or
// *Values.
type QueryExpr interface {
	Node
	queryNode()
}

// SetOp is l UNION|INTERSECT|EXCEPT [ALL|DISTINCT] r.
type SetOp struct {
	Op       string // UNION, INTERSECT, EXCEPT (MINUS is EXCEPT)
	All      bool
	Distinct bool // DISTINCT was written
	ByName   bool // UNION [ALL] BY NAME
	L, R     QueryExpr
	P        int
}

// Values is VALUES (..), (..) as a query.
type Values struct {
	Rows [][]Expr
	P    int
}

// SelectItem is expr [AS alias] or expr AS (a, b) for generators.
type SelectItem struct {
	Expr    Expr
	Alias   *Ident
	Aliases []Ident
}

// GroupingSets is ROLLUP(...), CUBE(...) or GROUPING SETS (...) in GROUP BY.
type GroupingSets struct {
	Kind string // ROLLUP, CUBE, GROUPING SETS
	Sets [][]Expr
	P    int
}

func (n *GroupingSets) Pos() int { return n.P }
func (*GroupingSets) exprNode()  {}

// GroupBy is GROUP BY ALL or GROUP BY items (expressions and grouping sets).
type GroupBy struct {
	All   bool
	Items []Expr
	With  string // WITH ROLLUP / WITH CUBE: ROLLUP, CUBE or ""
	P     int
}

// NamedWindow is name AS (spec) of a WINDOW clause.
type NamedWindow struct {
	Name Ident
	Spec *WindowSpec
}

// LateralView is LATERAL VIEW [OUTER] f(args) table [AS] col, ...
type LateralView struct {
	Outer   bool
	Func    *Call
	Table   Ident
	Columns []Ident
	P       int
}

// Select is one SELECT block.
type Select struct {
	Distinct bool
	Items    []*SelectItem
	From     []TableExpr // comma-separated (cross joined)
	Laterals []*LateralView
	Where    Expr
	GroupBy  *GroupBy
	Having   Expr
	Windows  []*NamedWindow
	Qualify  Expr
	P        int
}

func (n *Query) Pos() int  { return n.P }
func (n *SetOp) Pos() int  { return n.P }
func (n *Values) Pos() int { return n.P }
func (n *Select) Pos() int { return n.P }

func (*Query) queryNode()  {}
func (*SetOp) queryNode()  {}
func (*Values) queryNode() {}
func (*Select) queryNode() {}

// TableExpr is an item of FROM: *TableName, *DerivedTable, *ValuesTable,
// *TableFunc or *Join.
type TableExpr interface {
	Node
	tableNode()
}

// TableName is a table by name or placeholder ({df}), with an alias.
type TableName struct {
	Parts       []Ident
	Placeholder string // df, sources.x, nodes.x ("" for a name)
	Alias       *Ident
	Columns     []Ident
	P           int
}

// DerivedTable is [LATERAL] (query) [AS] alias [(cols)].
type DerivedTable struct {
	Query   *Query
	Lateral bool
	Alias   *Ident
	Columns []Ident
	P       int
}

// ValuesTable is VALUES ... AS alias(cols) in FROM.
type ValuesTable struct {
	Rows    [][]Expr
	Alias   *Ident
	Columns []Ident
	P       int
}

// TableFunc is a table-valued function in FROM: range(10), explode(xs).
type TableFunc struct {
	Func    *Call
	Alias   *Ident
	Columns []Ident
	P       int
}

// Join is l [NATURAL] kind JOIN r [ON cond | USING (cols)].
type Join struct {
	Kind    string // INNER, LEFT, RIGHT, FULL, CROSS, LEFT SEMI, LEFT ANTI
	Natural bool
	L, R    TableExpr
	On      Expr
	Using   []Ident
	P       int
}

func (n *TableName) Pos() int    { return n.P }
func (n *DerivedTable) Pos() int { return n.P }
func (n *ValuesTable) Pos() int  { return n.P }
func (n *TableFunc) Pos() int    { return n.P }
func (n *Join) Pos() int         { return n.P }

func (*TableName) tableNode()    {}
func (*DerivedTable) tableNode() {}
func (*ValuesTable) tableNode()  {}
func (*TableFunc) tableNode()    {}
func (*Join) tableNode()         {}
