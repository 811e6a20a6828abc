package sparksql

import "github.com/laktory/workbench/runner/sqlfront"

// The syntax tree is the SQL front end's (runner/sqlfront): Spark SQL is
// parsed by the one parser with Spark's Syntax.

type (
	Node         = sqlfront.Node
	Expr         = sqlfront.Expr
	Ident        = sqlfront.Ident
	ColumnRef    = sqlfront.ColumnRef
	Star         = sqlfront.Star
	LitKind      = sqlfront.LitKind
	Literal      = sqlfront.Literal
	IntervalPart = sqlfront.IntervalPart
	Interval     = sqlfront.Interval
	Unary        = sqlfront.Unary
	Paren        = sqlfront.Paren
	Binary       = sqlfront.Binary
	IsNull       = sqlfront.IsNull
	IsBool       = sqlfront.IsBool
	IsDistinct   = sqlfront.IsDistinct
	Between      = sqlfront.Between
	InList       = sqlfront.InList
	InQuery      = sqlfront.InQuery
	Exists       = sqlfront.Exists
	Like         = sqlfront.Like
	When         = sqlfront.When
	Case         = sqlfront.Case
	Cast         = sqlfront.Cast
	PathExtract  = sqlfront.PathExtract
	Call         = sqlfront.Call
	Lambda       = sqlfront.Lambda
	Subscript    = sqlfront.Subscript
	FieldAccess  = sqlfront.FieldAccess
	Subquery     = sqlfront.Subquery
	Row          = sqlfront.Row
	StructField  = sqlfront.StructField
	TypeName     = sqlfront.TypeName
	OrderItem    = sqlfront.OrderItem
	Bound        = sqlfront.Bound
	Frame        = sqlfront.Frame
	WindowSpec   = sqlfront.WindowSpec
	Query        = sqlfront.Query
	CTE          = sqlfront.CTE
	QueryExpr    = sqlfront.QueryExpr
	SetOp        = sqlfront.SetOp
	Values       = sqlfront.Values
	SelectItem   = sqlfront.SelectItem
	GroupingSets = sqlfront.GroupingSets
	GroupBy      = sqlfront.GroupBy
	NamedWindow  = sqlfront.NamedWindow
	LateralView  = sqlfront.LateralView
	Select       = sqlfront.Select
	TableExpr    = sqlfront.TableExpr
	TableName    = sqlfront.TableName
	DerivedTable = sqlfront.DerivedTable
	ValuesTable  = sqlfront.ValuesTable
	TableFunc    = sqlfront.TableFunc
	Join         = sqlfront.Join
)

// Kinds of literals.
const (
	LitNull         = sqlfront.LitNull
	LitBool         = sqlfront.LitBool
	LitInt          = sqlfront.LitInt
	LitLong         = sqlfront.LitLong
	LitShort        = sqlfront.LitShort
	LitTiny         = sqlfront.LitTiny
	LitDecimal      = sqlfront.LitDecimal
	LitBigDecimal   = sqlfront.LitBigDecimal
	LitDouble       = sqlfront.LitDouble
	LitFloat        = sqlfront.LitFloat
	LitString       = sqlfront.LitString
	LitBinary       = sqlfront.LitBinary
	LitDate         = sqlfront.LitDate
	LitTimestamp    = sqlfront.LitTimestamp
	LitTimestampNTZ = sqlfront.LitTimestampNTZ
)
