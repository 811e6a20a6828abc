package polarssql

import (
	"strings"

	"github.com/laktory/workbench/runner/sqlfront"
)

// sqlglotText is an expression as sqlglot 30 prints it (str(expr), its
// default dialect), which Laktory's messages embed: brackets where they
// were written (and where sqlglot adds them around an IS beside a
// comparison), no others; names as written, double-quoted when they were;
// numbers as written (.5 as 0.5); strings with doubled quotes; keywords
// and function names upper-cased; x NOT IN (...) as NOT x IN (...).
func sqlglotText(e sqlfront.Expr) string {
	var b strings.Builder
	sqlglotWrite(&b, e)
	return b.String()
}

// sqlglotFuncNames are the names sqlglot prints for functions written
// otherwise.
var sqlglotFuncNames = map[string]string{
	"substr": "SUBSTRING", "pow": "POWER", "ceiling": "CEIL", "len": "LENGTH", "char_length": "LENGTH",
	"character_length": "LENGTH", "ifnull": "COALESCE", "nvl": "COALESCE", "rlike": "REGEXP_LIKE",
}

func sqlglotWrite(b *strings.Builder, e sqlfront.Expr) {
	list := func(es []sqlfront.Expr) {
		for i, x := range es {
			if i > 0 {
				b.WriteString(", ")
			}
			sqlglotWrite(b, x)
		}
	}
	not := func(n bool) {
		if n {
			b.WriteString("NOT ")
		}
	}
	switch n := e.(type) {
	case *sqlfront.Paren:
		b.WriteByte('(')
		sqlglotWrite(b, n.X)
		b.WriteByte(')')
	case *sqlfront.ColumnRef:
		for i, p := range n.Parts {
			if i > 0 {
				b.WriteByte('.')
			}
			if p.Quoted {
				b.WriteString(`"` + strings.ReplaceAll(p.Name, `"`, `""`) + `"`)
			} else {
				b.WriteString(p.Name)
			}
		}
	case *sqlfront.Star:
		b.WriteByte('*')
	case *sqlfront.Literal:
		switch n.Kind {
		case sqlfront.LitNull:
			b.WriteString("NULL")
		case sqlfront.LitBool:
			b.WriteString(strings.ToUpper(n.Value))
		case sqlfront.LitString:
			b.WriteString("'" + strings.ReplaceAll(n.Value, "'", "''") + "'")
		case sqlfront.LitInt, sqlfront.LitDecimal, sqlfront.LitDouble:
			v := n.Value
			if neg, ok := strings.CutPrefix(v, "-"); ok {
				b.WriteByte('-')
				v = neg
			}
			if strings.HasPrefix(v, ".") {
				v = "0" + v
			}
			b.WriteString(v)
		default:
			b.WriteString(sqlfront.FormatExpr(n))
		}
	case *sqlfront.Interval:
		b.WriteString("INTERVAL")
		for _, p := range n.Parts {
			v, unit := p.Value, p.Unit
			if unit == "" {
				if f := strings.Fields(v); len(f) == 2 {
					v, unit = f[0], strings.ToUpper(f[1])
				}
			}
			b.WriteString(" '" + strings.ReplaceAll(v, "'", "''") + "'")
			if unit != "" {
				b.WriteString(" " + unit)
			}
			if p.To != "" {
				b.WriteString(" TO " + p.To)
			}
		}
	case *sqlfront.Unary:
		switch n.Op {
		case "NOT":
			b.WriteString("NOT ")
		case "+":
		default:
			b.WriteString(n.Op)
		}
		sqlglotWrite(b, n.X)
	case *sqlfront.Binary:
		if n.Op == "DIV" {
			b.WriteString("CAST(")
			sqlglotWrite(b, n.L)
			b.WriteString(" / ")
			sqlglotWrite(b, n.R)
			b.WriteString(" AS BIGINT)")
			return
		}
		op := map[string]string{"==": "=", "!=": "<>", "<=>": "IS NOT DISTINCT FROM"}[n.Op]
		if op == "" {
			op = n.Op
		}
		sqlglotWrite(b, n.L)
		b.WriteString(" " + op + " ")
		sqlglotWrite(b, n.R)
	case *sqlfront.IsNull:
		not(n.Not)
		sqlglotWrite(b, n.X)
		b.WriteString(" IS NULL")
	case *sqlfront.IsBool:
		not(n.Not)
		sqlglotWrite(b, n.X)
		b.WriteString(" IS " + n.Value)
	case *sqlfront.IsExpr:
		not(n.Not)
		sqlglotWrite(b, n.X)
		b.WriteString(" IS ")
		sqlglotWrite(b, n.R)
	case *sqlfront.IsDistinct:
		sqlglotWrite(b, n.L)
		if n.Not {
			b.WriteString(" IS NOT DISTINCT FROM ")
		} else {
			b.WriteString(" IS DISTINCT FROM ")
		}
		sqlglotWrite(b, n.R)
	case *sqlfront.Between:
		not(n.Not)
		sqlglotWrite(b, n.X)
		b.WriteString(" BETWEEN ")
		sqlglotWrite(b, n.Lo)
		b.WriteString(" AND ")
		sqlglotWrite(b, n.Hi)
	case *sqlfront.InList:
		not(n.Not)
		sqlglotWrite(b, n.X)
		b.WriteString(" IN (")
		list(n.List)
		b.WriteByte(')')
	case *sqlfront.Like:
		switch n.Op {
		case "LIKE", "ILIKE":
			if n.Quant != "" {
				b.WriteString(sqlfront.FormatExpr(n))
				return
			}
			sqlglotWrite(b, n.X)
			b.WriteByte(' ')
			if n.Not {
				b.WriteString("NOT ")
			}
			b.WriteString(n.Op + " ")
			sqlglotWrite(b, n.Pattern)
			if n.Escape != nil {
				b.WriteString(" ESCAPE ")
				sqlglotWrite(b, n.Escape)
			}
		default:
			not(n.Not)
			b.WriteString("REGEXP_LIKE(")
			sqlglotWrite(b, n.X)
			b.WriteString(", ")
			sqlglotWrite(b, n.Pattern)
			b.WriteByte(')')
		}
	case *sqlfront.Case:
		b.WriteString("CASE")
		if n.Operand != nil {
			b.WriteByte(' ')
			sqlglotWrite(b, n.Operand)
		}
		for _, w := range n.Whens {
			b.WriteString(" WHEN ")
			sqlglotWrite(b, w.Cond)
			b.WriteString(" THEN ")
			sqlglotWrite(b, w.Result)
		}
		if n.Else != nil {
			b.WriteString(" ELSE ")
			sqlglotWrite(b, n.Else)
		}
		b.WriteString(" END")
	case *sqlfront.Cast:
		b.WriteString("CAST(")
		sqlglotWrite(b, n.X)
		b.WriteString(" AS " + sqlfront.FormatType(n.Type) + ")")
	case *sqlfront.Call:
		if n.Over != nil || n.Filter != nil || n.Syntax != "" || n.Within != nil || n.Nulls != "" {
			b.WriteString(sqlfront.FormatExpr(n))
			return
		}
		name := sqlglotFuncNames[strings.ToLower(n.Name.Name)]
		if name == "" {
			name = strings.ToUpper(n.Name.Name)
		}
		b.WriteString(name + "(")
		if n.Distinct {
			b.WriteString("DISTINCT ")
		}
		if n.StarArg {
			b.WriteByte('*')
		}
		list(n.Args)
		b.WriteByte(')')
	default:
		b.WriteString(sqlfront.FormatExpr(e))
	}
}
