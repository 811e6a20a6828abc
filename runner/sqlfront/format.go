package sqlfront

import (
	"strconv"
	"strings"
)

// FormatQuery prints a query as Spark SQL that parses back to the same
// tree (binary operators fully bracketed).
func FormatQuery(q *Query) string {
	var b strings.Builder
	fmtQuery(&b, q)
	return b.String()
}

// FormatExpr prints an expression as Spark SQL that parses back to the
// same tree.
func FormatExpr(e Expr) string {
	var b strings.Builder
	fmtExpr(&b, e)
	return b.String()
}

// quoteName backquotes a name when it is not a plain word.
func quoteName(id Ident) string {
	if !id.Quoted && isPlainName(id.Name) {
		return id.Name
	}
	return "`" + strings.ReplaceAll(id.Name, "`", "``") + "`"
}

func isPlainName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentChar(s[i]) || s[i] >= 0x80 {
			return false
		}
	}
	return !noImplicitAlias[strings.ToUpper(s)] && !reservedWords[strings.ToUpper(s)]
}

// reservedWords are words the formatter always backquotes as names so
// that they do not read as keywords.
var reservedWords = keywordSet(`NULL TRUE FALSE CASE CAST TRY_CAST DATE TIMESTAMP TIMESTAMP_NTZ TIMESTAMP_LTZ
	INTERVAL EXISTS DISTINCT ALL ASC DESC NULLS FIRST LAST ROWS RANGE UNBOUNDED PRECEDING FOLLOWING CURRENT
	ROW PARTITION BY IGNORE RESPECT WITHIN GROUPING SETS ROLLUP CUBE TO OUTER VIEW DIV BOTH LEADING TRAILING
	FOR PLACING NAME EXCEPT ANY SOME UNKNOWN`)

// quoteString prints a Spark string literal.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00` + strconv.FormatInt(int64(r)>>4, 16) + strconv.FormatInt(int64(r)&15, 16))
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func fmtIdents(b *strings.Builder, ids []Ident) {
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteName(id))
	}
}

func fmtDotted(b *strings.Builder, ids []Ident) {
	for i, id := range ids {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(quoteName(id))
	}
}

func fmtExprs(b *strings.Builder, es []Expr) {
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		fmtExpr(b, e)
	}
}

func fmtExpr(b *strings.Builder, e Expr) {
	switch n := e.(type) {
	case *ColumnRef:
		fmtDotted(b, n.Parts)
	case *Star:
		for _, q := range n.Qualifier {
			b.WriteString(quoteName(q) + ".")
		}
		b.WriteByte('*')
		if len(n.Except) > 0 {
			b.WriteString(" EXCEPT (")
			for i, c := range n.Except {
				if i > 0 {
					b.WriteString(", ")
				}
				fmtDotted(b, c.Parts)
			}
			b.WriteByte(')')
		}
	case *Literal:
		b.WriteString(formatLiteral(n))
	case *Interval:
		b.WriteString("INTERVAL")
		for _, p := range n.Parts {
			b.WriteByte(' ')
			if p.Str {
				b.WriteString(quoteString(p.Value))
			} else {
				b.WriteString(p.Value)
			}
			if p.Unit != "" {
				b.WriteString(" " + p.Unit)
			}
			if p.To != "" {
				b.WriteString(" TO " + p.To)
			}
		}
	case *Unary:
		b.WriteByte('(')
		if n.Op == "NOT" {
			b.WriteString("NOT ")
		} else {
			b.WriteString(n.Op + " ")
		}
		fmtExpr(b, n.X)
		b.WriteByte(')')
	case *Binary:
		b.WriteByte('(')
		fmtExpr(b, n.L)
		b.WriteString(" " + n.Op + " ")
		fmtExpr(b, n.R)
		b.WriteByte(')')
	case *IsNull:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		b.WriteString(" IS " + not(n.Not) + "NULL)")
	case *IsBool:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		b.WriteString(" IS " + not(n.Not) + n.Value + ")")
	case *IsExpr:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		b.WriteString(" IS " + not(n.Not))
		fmtExpr(b, n.R)
		b.WriteByte(')')
	case *Paren:
		fmtExpr(b, n.X)
	case *IsDistinct:
		b.WriteByte('(')
		fmtExpr(b, n.L)
		b.WriteString(" IS " + not(n.Not) + "DISTINCT FROM ")
		fmtExpr(b, n.R)
		b.WriteByte(')')
	case *Between:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		b.WriteString(" " + not(n.Not) + "BETWEEN ")
		fmtExpr(b, n.Lo)
		b.WriteString(" AND ")
		fmtExpr(b, n.Hi)
		b.WriteByte(')')
	case *InList:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		b.WriteString(" " + not(n.Not) + "IN (")
		fmtExprs(b, n.List)
		b.WriteString("))")
	case *InQuery:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		b.WriteString(" " + not(n.Not) + "IN (")
		fmtQuery(b, n.Query)
		b.WriteString("))")
	case *Exists:
		b.WriteString("EXISTS (")
		fmtQuery(b, n.Query)
		b.WriteByte(')')
	case *Like:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		if n.Op == "~" || n.Op == "~*" {
			// x !~ p, x !~* p
			op := n.Op
			if n.Not {
				op = "!" + op
			}
			b.WriteString(" " + op + " ")
		} else {
			b.WriteString(" " + not(n.Not) + n.Op + " ")
		}
		if n.Quant != "" {
			b.WriteString(n.Quant + " (")
			fmtExprs(b, n.Patterns)
			b.WriteByte(')')
		} else {
			fmtExpr(b, n.Pattern)
		}
		if n.Escape != nil {
			b.WriteString(" ESCAPE " + quoteString(n.Escape.Value))
		}
		b.WriteByte(')')
	case *Case:
		b.WriteString("CASE")
		if n.Operand != nil {
			b.WriteByte(' ')
			fmtExpr(b, n.Operand)
		}
		for _, w := range n.Whens {
			b.WriteString(" WHEN ")
			fmtExpr(b, w.Cond)
			b.WriteString(" THEN ")
			fmtExpr(b, w.Result)
		}
		if n.Else != nil {
			b.WriteString(" ELSE ")
			fmtExpr(b, n.Else)
		}
		b.WriteString(" END")
	case *PathExtract:
		b.WriteByte('(')
		fmtExpr(b, n.X)
		b.WriteString(":" + n.Path + ")")
	case *Cast:
		if n.Colon {
			b.WriteByte('(')
			fmtExpr(b, n.X)
			b.WriteString("::" + FormatType(n.Type) + ")")
			return
		}
		if n.Try {
			b.WriteString("TRY_")
		}
		b.WriteString("CAST(")
		fmtExpr(b, n.X)
		b.WriteString(" AS " + FormatType(n.Type) + ")")
	case *Call:
		fmtCall(b, n)
	case *Lambda:
		b.WriteByte('(')
		if len(n.Params) == 1 {
			b.WriteString(quoteName(n.Params[0]))
		} else {
			b.WriteByte('(')
			fmtIdents(b, n.Params)
			b.WriteByte(')')
		}
		b.WriteString(" -> ")
		fmtExpr(b, n.Body)
		b.WriteByte(')')
	case *Subscript:
		fmtExpr(b, n.X)
		b.WriteByte('[')
		fmtExpr(b, n.Index)
		b.WriteByte(']')
	case *FieldAccess:
		switch n.X.(type) {
		case *Call, *Subscript, *FieldAccess:
			fmtExpr(b, n.X)
		default:
			b.WriteByte('(')
			fmtExpr(b, n.X)
			b.WriteByte(')')
		}
		b.WriteString("." + quoteName(n.Field))
	case *Subquery:
		b.WriteByte('(')
		fmtQuery(b, n.Query)
		b.WriteByte(')')
	case *Row:
		b.WriteByte('(')
		fmtExprs(b, n.Items)
		b.WriteByte(')')
	case *GroupingSets:
		b.WriteString(n.Kind + "(")
		for i, set := range n.Sets {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			fmtExprs(b, set)
			b.WriteByte(')')
		}
		b.WriteByte(')')
	}
}

func not(n bool) string {
	if n {
		return "NOT "
	}
	return ""
}

// formatLiteral prints a literal as Spark SQL.
func formatLiteral(n *Literal) string {
	switch n.Kind {
	case LitNull:
		return "NULL"
	case LitBool:
		return strings.ToLower(n.Value)
	case LitString:
		return quoteString(n.Value)
	case LitBinary:
		return "X'" + n.Value + "'"
	case LitDate:
		return "DATE " + quoteString(n.Value)
	case LitTimestamp:
		if n.Text == "TIMESTAMP_LTZ" {
			return "TIMESTAMP_LTZ " + quoteString(n.Value)
		}
		return "TIMESTAMP " + quoteString(n.Value)
	case LitTimestampNTZ:
		return "TIMESTAMP_NTZ " + quoteString(n.Value)
	}
	v := n.Value
	suffix := map[LitKind]string{LitLong: "L", LitShort: "S", LitTiny: "Y", LitBigDecimal: "BD", LitFloat: "F"}[n.Kind]
	if n.Kind == LitDouble && !strings.ContainsAny(v, "eE") {
		suffix = "D"
	}
	if strings.HasPrefix(v, "-") {
		return "(- " + v[1:] + suffix + ")"
	}
	return v + suffix
}

func fmtCall(b *strings.Builder, n *Call) {
	if n.Syntax == "BRACKETS" {
		b.WriteByte('[')
		fmtExprs(b, n.Args)
		b.WriteByte(']')
		return
	}
	name := quoteName(n.Name)
	if !n.Name.Quoted && isPlainNameOrKeyword(n.Name.Name) {
		name = n.Name.Name
	}
	b.WriteString(name + "(")
	switch n.Syntax {
	case "TRIM_BOTH", "TRIM_LEADING", "TRIM_TRAILING":
		b.WriteString(strings.TrimPrefix(n.Syntax, "TRIM_") + " ")
		if len(n.Args) > 1 {
			fmtExpr(b, n.Args[1])
			b.WriteByte(' ')
		}
		b.WriteString("FROM ")
		fmtExpr(b, n.Args[0])
	case "SUBSTRING_FROM", "EXTRACT", "POSITION_IN", "OVERLAY":
		seps := map[string][]string{"SUBSTRING_FROM": {"FROM", "FOR"}, "EXTRACT": {"FROM"}, "POSITION_IN": {"IN"}, "OVERLAY": {"PLACING", "FROM", "FOR"}}[n.Syntax]
		for i, a := range n.Args {
			if i > 0 {
				b.WriteString(" " + seps[i-1] + " ")
			}
			fmtExpr(b, a)
		}
	default:
		if n.Distinct {
			b.WriteString("DISTINCT ")
		}
		if n.StarArg {
			b.WriteByte('*')
		}
		for i, a := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			fmtExpr(b, a)
			if i < len(n.Aliases) && n.Aliases[i] != nil {
				b.WriteString(" AS " + quoteName(*n.Aliases[i]))
			}
		}
	}
	b.WriteByte(')')
	if len(n.Within) > 0 {
		b.WriteString(" WITHIN GROUP (ORDER BY ")
		fmtOrder(b, n.Within)
		b.WriteByte(')')
	}
	if n.Filter != nil {
		b.WriteString(" FILTER (WHERE ")
		fmtExpr(b, n.Filter)
		b.WriteByte(')')
	}
	if n.Nulls != "" {
		b.WriteString(" " + n.Nulls + " NULLS")
	}
	if n.Over != nil {
		b.WriteString(" OVER ")
		fmtWindow(b, n.Over)
	}
}

// isPlainNameOrKeyword: function names such as left, right or trim are
// words the formatter would otherwise quote; before ( they read as calls.
func isPlainNameOrKeyword(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentChar(s[i]) || s[i] >= 0x80 {
			return false
		}
	}
	switch up := strings.ToUpper(s); up {
	case "CAST", "TRY_CAST", "EXISTS", "NOT", "CASE", "NULL", "TRUE", "FALSE", "WITH", "VALUES", "INTERVAL":
		return false
	default:
		return !notAColumn[up]
	}
}

func fmtWindow(b *strings.Builder, w *WindowSpec) {
	if !w.Paren {
		b.WriteString(quoteName(Ident{Name: w.Name}))
		return
	}
	b.WriteByte('(')
	var parts []string
	if w.Name != "" {
		parts = append(parts, quoteName(Ident{Name: w.Name}))
	}
	if len(w.PartitionBy) > 0 {
		var s strings.Builder
		s.WriteString("PARTITION BY ")
		fmtExprs(&s, w.PartitionBy)
		parts = append(parts, s.String())
	}
	if len(w.OrderBy) > 0 {
		var s strings.Builder
		s.WriteString("ORDER BY ")
		fmtOrder(&s, w.OrderBy)
		parts = append(parts, s.String())
	}
	if f := w.Frame; f != nil {
		var s strings.Builder
		s.WriteString(f.Unit + " ")
		if f.End != nil {
			s.WriteString("BETWEEN ")
			fmtBound(&s, f.Start)
			s.WriteString(" AND ")
			fmtBound(&s, f.End)
		} else {
			fmtBound(&s, f.Start)
		}
		parts = append(parts, s.String())
	}
	b.WriteString(strings.Join(parts, " ") + ")")
}

func fmtBound(b *strings.Builder, bd *Bound) {
	if bd.Offset != nil {
		fmtExpr(b, bd.Offset)
		b.WriteByte(' ')
	}
	b.WriteString(bd.Kind)
}

func fmtOrder(b *strings.Builder, items []*OrderItem) {
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		fmtExpr(b, it.X)
		if it.Dir {
			if it.Desc {
				b.WriteString(" DESC")
			} else {
				b.WriteString(" ASC")
			}
		}
		if it.Nulls != "" {
			b.WriteString(" NULLS " + it.Nulls)
		}
	}
}

// FormatType prints a type as Spark's DDL.
func FormatType(t *TypeName) string {
	switch t.Name {
	case "array":
		return "ARRAY<" + FormatType(t.Elem) + ">"
	case "map":
		return "MAP<" + FormatType(t.Key) + ", " + FormatType(t.Value) + ">"
	case "struct":
		var fs []string
		for _, f := range t.Fields {
			fs = append(fs, quoteName(f.Name)+": "+FormatType(f.Type))
		}
		return "STRUCT<" + strings.Join(fs, ", ") + ">"
	}
	s := strings.ToUpper(t.Name)
	if len(t.Params) > 0 {
		ps := make([]string, len(t.Params))
		for i, p := range t.Params {
			ps[i] = strconv.Itoa(p)
		}
		s += "(" + strings.Join(ps, ",") + ")"
	}
	return s
}

func fmtQuery(b *strings.Builder, q *Query) {
	if len(q.With) > 0 {
		b.WriteString("WITH ")
		for i, c := range q.With {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quoteName(c.Name))
			if len(c.Columns) > 0 {
				b.WriteByte('(')
				fmtIdents(b, c.Columns)
				b.WriteByte(')')
			}
			b.WriteString(" AS (")
			fmtQuery(b, c.Query)
			b.WriteByte(')')
		}
		b.WriteByte(' ')
	}
	fmtQueryExpr(b, q.Body)
	if len(q.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		fmtOrder(b, q.OrderBy)
	}
	if q.Limit != nil {
		b.WriteString(" LIMIT ")
		fmtExpr(b, q.Limit)
	}
	if q.Offset != nil {
		b.WriteString(" OFFSET ")
		fmtExpr(b, q.Offset)
	}
}

func fmtQueryExpr(b *strings.Builder, qe QueryExpr) {
	switch n := qe.(type) {
	case *Query:
		b.WriteByte('(')
		fmtQuery(b, n)
		b.WriteByte(')')
	case *SetOp:
		fmtSetChild(b, n.L)
		b.WriteString(" " + n.Op)
		switch {
		case n.All:
			b.WriteString(" ALL")
		case n.Distinct:
			b.WriteString(" DISTINCT")
		}
		if n.ByName {
			b.WriteString(" BY NAME")
		}
		b.WriteByte(' ')
		fmtSetChild(b, n.R)
	case *Values:
		b.WriteString("VALUES ")
		fmtRows(b, n.Rows)
	case *Select:
		fmtSelect(b, n)
	}
}

// fmtSetChild prints an operand of a set operation in brackets.
func fmtSetChild(b *strings.Builder, qe QueryExpr) {
	if _, ok := qe.(*Query); ok {
		fmtQueryExpr(b, qe)
		return
	}
	b.WriteByte('(')
	fmtQueryExpr(b, qe)
	b.WriteByte(')')
}

func fmtRows(b *strings.Builder, rows [][]Expr) {
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		fmtExprs(b, r)
		b.WriteByte(')')
	}
}

func fmtSelect(b *strings.Builder, s *Select) {
	b.WriteString("SELECT ")
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, it := range s.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		fmtExpr(b, it.Expr)
		if it.Alias != nil {
			b.WriteString(" AS " + quoteName(*it.Alias))
		}
		if len(it.Aliases) > 0 {
			b.WriteString(" AS (")
			fmtIdents(b, it.Aliases)
			b.WriteByte(')')
		}
	}
	if len(s.From) > 0 {
		b.WriteString(" FROM ")
		for i, t := range s.From {
			if i > 0 {
				b.WriteString(", ")
			}
			fmtTable(b, t)
		}
	}
	for _, lv := range s.Laterals {
		b.WriteString(" LATERAL VIEW ")
		if lv.Outer {
			b.WriteString("OUTER ")
		}
		fmtCall(b, lv.Func)
		b.WriteString(" " + quoteName(lv.Table))
		if len(lv.Columns) > 0 {
			b.WriteString(" AS ")
			fmtIdents(b, lv.Columns)
		}
	}
	if s.Where != nil {
		b.WriteString(" WHERE ")
		fmtExpr(b, s.Where)
	}
	if g := s.GroupBy; g != nil {
		b.WriteString(" GROUP BY ")
		if g.All {
			b.WriteString("ALL")
		}
		fmtExprs(b, g.Items)
		if g.With != "" {
			b.WriteString(" WITH " + g.With)
		}
	}
	if s.Having != nil {
		b.WriteString(" HAVING ")
		fmtExpr(b, s.Having)
	}
	if len(s.Windows) > 0 {
		b.WriteString(" WINDOW ")
		for i, w := range s.Windows {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quoteName(w.Name) + " AS ")
			fmtWindow(b, w.Spec)
		}
	}
	if s.Qualify != nil {
		b.WriteString(" QUALIFY ")
		fmtExpr(b, s.Qualify)
	}
}

func fmtAlias(b *strings.Builder, alias *Ident, cols []Ident) {
	if alias != nil {
		b.WriteString(" AS " + quoteName(*alias))
		if len(cols) > 0 {
			b.WriteByte('(')
			fmtIdents(b, cols)
			b.WriteByte(')')
		}
	}
}

func fmtTable(b *strings.Builder, t TableExpr) {
	switch n := t.(type) {
	case *TableName:
		if n.Placeholder != "" {
			b.WriteString("{" + n.Placeholder + "}")
		} else {
			fmtDotted(b, n.Parts)
		}
		fmtAlias(b, n.Alias, n.Columns)
	case *DerivedTable:
		if n.Lateral {
			b.WriteString("LATERAL ")
		}
		b.WriteByte('(')
		fmtQuery(b, n.Query)
		b.WriteByte(')')
		fmtAlias(b, n.Alias, n.Columns)
	case *ValuesTable:
		b.WriteString("(VALUES ")
		fmtRows(b, n.Rows)
		b.WriteByte(')')
		fmtAlias(b, n.Alias, n.Columns)
	case *TableFunc:
		fmtCall(b, n.Func)
		fmtAlias(b, n.Alias, n.Columns)
	case *Join:
		b.WriteByte('(')
		fmtTable(b, n.L)
		b.WriteByte(' ')
		if n.Natural {
			b.WriteString("NATURAL ")
		}
		b.WriteString(n.Kind + " JOIN ")
		fmtTable(b, n.R)
		if n.On != nil {
			b.WriteString(" ON ")
			fmtExpr(b, n.On)
		}
		if len(n.Using) > 0 {
			b.WriteString(" USING (")
			fmtIdents(b, n.Using)
			b.WriteByte(')')
		}
		b.WriteByte(')')
	}
}
