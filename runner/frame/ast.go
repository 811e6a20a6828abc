package frame

// The syntax tree of the Python expressions Laktory evaluates in method
// arguments. Every node keeps the byte offset of its first token (P) in
// the argument's text, for error messages.

// Node is a Python expression node.
type Node interface{ Pos() int }

// Name is a bare identifier: nw, pl, F, col, True is a Const.
type Name struct {
	ID string
	P  int
}

// ConstKind is the kind of a literal.
type ConstKind int

// Kinds of constants.
const (
	ConstNone ConstKind = iota
	ConstBool
	ConstInt
	ConstFloat
	ConstStr
	ConstBytes
)

// Const is a literal: None, True/False, a number or a string (adjacent
// strings joined). Int holds ints that fit in 64 bits; Text is the spelling.
type Const struct {
	Kind  ConstKind
	Bool  bool
	Int   int64
	Float float64
	Str   string
	Text  string
	P     int
}

// Attr is X.Name.
type Attr struct {
	X    Node
	Name string
	P    int // the offset of the name
}

// Keyword is name=value in a call.
type Keyword struct {
	Name  string
	Value Node
	P     int
}

// Call is F(args, name=value).
type Call struct {
	Fn   Node
	Args []Node
	Kw   []Keyword
	P    int // the offset of the opening parenthesis
}

// BinOp is L op R: + - * / // % ** & | ^ << >> @.
type BinOp struct {
	Op   string
	L, R Node
	P    int // the operator's offset
}

// UnaryOp is -X, +X, ~X or not X.
type UnaryOp struct {
	Op string // "-", "+", "~", "not"
	X  Node
	P  int
}

// Compare is L op1 R1 op2 R2 ... (Python chains comparisons).
type Compare struct {
	L   Node
	Ops []string // < > == != <= >= in "not in" is "is not"
	Rs  []Node
	P   int
}

// BoolOp is X and Y [and Z], or X or Y.
type BoolOp struct {
	Op string // "and" or "or"
	Xs []Node
	P  int
}

// List is [a, b].
type List struct {
	Elts []Node
	P    int
}

// Tuple is (a, b) or a bare a, b.
type Tuple struct {
	Elts []Node
	P    int
}

// Dict is {k: v, ...}.
type Dict struct {
	Keys, Values []Node
	P            int
}

// Subscript is X[Index].
type Subscript struct {
	X     Node
	Index Node
	P     int
}

func (n *Name) Pos() int      { return n.P }
func (n *Const) Pos() int     { return n.P }
func (n *Attr) Pos() int      { return n.X.Pos() }
func (n *Call) Pos() int      { return n.Fn.Pos() }
func (n *BinOp) Pos() int     { return n.L.Pos() }
func (n *UnaryOp) Pos() int   { return n.P }
func (n *Compare) Pos() int   { return n.L.Pos() }
func (n *BoolOp) Pos() int    { return n.P }
func (n *List) Pos() int      { return n.P }
func (n *Tuple) Pos() int     { return n.P }
func (n *Dict) Pos() int      { return n.P }
func (n *Subscript) Pos() int { return n.X.Pos() }
