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
func sqlglotText(e sqlfront.Expr, src string) string {
	var b strings.Builder
	(&sqlglotPrinter{src: src}).write(&b, e)
	return b.String()
}

// sqlglotPrinter prints expressions parsed from src.
type sqlglotPrinter struct{ src string }

// typeWritten is a plain (unparametrized) cast's type name as src wrote
// it, upper-cased, as sqlglot prints it (TEXT, VARCHAR; "" when not
// known).
func (pr *sqlglotPrinter) typeWritten(n *sqlfront.Cast) string {
	if n.Type == nil || len(n.Type.Params) > 0 || n.Type.Elem != nil || n.Type.Fields != nil || n.Type.P < 0 || n.Type.P >= len(pr.src) {
		return ""
	}
	end := n.Type.P
	for end < len(pr.src) && (pr.src[end] == '_' || pr.src[end] >= 'a' && pr.src[end] <= 'z' || pr.src[end] >= 'A' && pr.src[end] <= 'Z' || pr.src[end] >= '0' && pr.src[end] <= '9') {
		end++
	}
	return strings.ToUpper(pr.src[n.Type.P:end])
}

// sqlglotFuncNames are the names sqlglot prints for functions written
// otherwise.
var sqlglotFuncNames = map[string]string{
	"substr": "SUBSTRING", "pow": "POWER", "ceiling": "CEIL", "len": "LENGTH", "char_length": "LENGTH",
	"character_length": "LENGTH", "ifnull": "COALESCE", "nvl": "COALESCE", "rlike": "REGEXP_LIKE",
	"lcase": "LOWER", "ucase": "UPPER",
}

// sqlglotNullary are the functions sqlglot reads without brackets, by
// the name they are written with, and their classes.
var sqlglotNullary = map[string]string{
	"current_date":      "sqlglot.expressions.temporal.CurrentDate",
	"current_timestamp": "sqlglot.expressions.temporal.CurrentTimestamp",
	"current_time":      "sqlglot.expressions.temporal.CurrentTime",
}

// nullaryCall is the function sqlglot reads for a bare name
// (CURRENT_DATE), or "".
func nullaryCall(n *sqlfront.ColumnRef) string {
	if len(n.Parts) != 1 || n.Parts[0].Quoted {
		return ""
	}
	return sqlglotNullary[strings.ToLower(n.Parts[0].Name)]
}

func (pr *sqlglotPrinter) write(b *strings.Builder, e sqlfront.Expr) {
	list := func(es []sqlfront.Expr) {
		for i, x := range es {
			if i > 0 {
				b.WriteString(", ")
			}
			pr.write(b, x)
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
		pr.write(b, n.X)
		b.WriteByte(')')
	case *sqlfront.ColumnRef:
		if nullaryCall(n) != "" {
			b.WriteString(strings.ToUpper(n.Parts[0].Name))
			return
		}
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
		pr.write(b, n.X)
	case *sqlfront.Binary:
		if n.Op == "DIV" {
			b.WriteString("CAST(")
			pr.write(b, n.L)
			b.WriteString(" / ")
			pr.write(b, n.R)
			b.WriteString(" AS BIGINT)")
			return
		}
		op := map[string]string{"==": "=", "!=": "<>", "<=>": "IS NOT DISTINCT FROM"}[n.Op]
		if op == "" {
			op = n.Op
		}
		pr.write(b, n.L)
		b.WriteString(" " + op + " ")
		pr.write(b, n.R)
	case *sqlfront.IsNull:
		not(n.Not)
		pr.write(b, n.X)
		b.WriteString(" IS NULL")
	case *sqlfront.IsBool:
		not(n.Not)
		pr.write(b, n.X)
		b.WriteString(" IS " + n.Value)
	case *sqlfront.IsExpr:
		not(n.Not)
		pr.write(b, n.X)
		b.WriteString(" IS ")
		pr.write(b, n.R)
	case *sqlfront.IsDistinct:
		pr.write(b, n.L)
		if n.Not {
			b.WriteString(" IS NOT DISTINCT FROM ")
		} else {
			b.WriteString(" IS DISTINCT FROM ")
		}
		pr.write(b, n.R)
	case *sqlfront.Between:
		not(n.Not)
		pr.write(b, n.X)
		b.WriteString(" BETWEEN ")
		pr.write(b, n.Lo)
		b.WriteString(" AND ")
		pr.write(b, n.Hi)
	case *sqlfront.InList:
		not(n.Not)
		pr.write(b, n.X)
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
			pr.write(b, n.X)
			b.WriteByte(' ')
			if n.Not {
				b.WriteString("NOT ")
			}
			b.WriteString(n.Op + " ")
			pr.write(b, n.Pattern)
			if n.Escape != nil {
				b.WriteString(" ESCAPE ")
				pr.write(b, n.Escape)
			}
		default:
			not(n.Not)
			b.WriteString("REGEXP_LIKE(")
			pr.write(b, n.X)
			b.WriteString(", ")
			pr.write(b, n.Pattern)
			b.WriteByte(')')
		}
	case *sqlfront.Case:
		b.WriteString("CASE")
		if n.Operand != nil {
			b.WriteByte(' ')
			pr.write(b, n.Operand)
		}
		for _, w := range n.Whens {
			b.WriteString(" WHEN ")
			pr.write(b, w.Cond)
			b.WriteString(" THEN ")
			pr.write(b, w.Result)
		}
		if n.Else != nil {
			b.WriteString(" ELSE ")
			pr.write(b, n.Else)
		}
		b.WriteString(" END")
	case *sqlfront.Cast:
		b.WriteString("CAST(")
		pr.write(b, n.X)
		name := sqlfront.FormatType(n.Type)
		if w := pr.typeWritten(n); w != "" {
			name = w
		}
		b.WriteString(" AS " + name + ")")
	case *sqlfront.Call:
		if n.Over != nil || n.Filter != nil || n.Syntax != "" || n.Within != nil || n.Nulls != "" {
			b.WriteString(sqlfront.FormatExpr(n))
			return
		}
		low := strings.ToLower(n.Name.Name)
		if (low == "if" || low == "iif") && (len(n.Args) == 2 || len(n.Args) == 3) {
			b.WriteString("CASE WHEN ")
			pr.write(b, n.Args[0])
			b.WriteString(" THEN ")
			pr.write(b, n.Args[1])
			if len(n.Args) == 3 {
				b.WriteString(" ELSE ")
				pr.write(b, n.Args[2])
			}
			b.WriteString(" END")
			return
		}
		name := sqlglotFuncNames[low]
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
