package sparksql

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// rx is a resolved expression: its Spark type, its DuckDB SQL and the
// name Spark gives it as an unaliased column.
type rx struct {
	t    *Type
	sql  string
	name string
	pos  int
	kids []*rx

	col         *column  // a column reference
	field       string   // a struct field access (its field name)
	lit         *Literal // a literal (constant arguments: patterns, formats)
	isAgg       bool     // an aggregate function call
	hasAgg      bool     // contains one
	isWin       bool     // a window function call
	hasWin      bool
	gen         *generatorDef // a generator call (select items only)
	isLambdaVar bool
	outer       bool // refers to a column of an enclosing query
	nondet      bool // non-deterministic (rand, uuid, ...)
	foldable    bool // no column reference: a constant
	// aggParts are the bare aggregate calls of an aggregate (or window
	// function) result and aggFmt combines them (fmt verbs %[1]s...).
	aggParts []string
	aggFmt   string
	// frameName is the frame Spark names a window function with (lag, lead).
	frameName string
	// winParts replace aggParts when the aggregate runs as a window
	// function (first(x) IGNORE NULLS).
	winParts []string
	// ivMicros is the length of a day-time interval literal.
	ivMicros *int64
}

// mk builds an expression from its parts, inheriting their properties.
func mk(t *Type, sql, name string, kids ...*rx) *rx {
	x := &rx{t: t, sql: sql, name: name, foldable: true}
	for _, k := range kids {
		if k == nil {
			continue
		}
		x.kids = append(x.kids, k)
		x.hasAgg = x.hasAgg || k.hasAgg
		x.hasWin = x.hasWin || k.hasWin
		x.nondet = x.nondet || k.nondet
		x.foldable = x.foldable && k.foldable
		if x.pos == 0 {
			x.pos = k.pos
		}
	}
	return x
}

// ectx says what an expression may contain where it is resolved.
type ectx struct {
	aggOK        bool // aggregates allowed (select list, HAVING)
	winOK        bool // window functions allowed
	agg          bool // the expression is an aggregate expectation
	inAgg        bool // inside an aggregate's arguments
	lateral      bool // earlier select aliases are visible
	outAliases   bool // the select list's aliases are visible (HAVING, QUALIFY)
	groupAliases []*selItem
	clause       string // WHERE, ON, HAVING, ... for error classes
	overArgs     bool   // the arguments of an aggregate called with OVER
	distinctOut  []*rx  // ORDER BY of SELECT DISTINCT: only these are visible
}

func (c *ectx) with(f func(*ectx)) *ectx {
	d := *c
	f(&d)
	return &d
}

func colRx(c *column, pos int) *rx {
	return &rx{t: c.t, sql: c.sql, name: c.name, col: c, pos: pos}
}

// expr resolves an expression.
func (r *resolver) expr(e Expr, sc *scope, ctx *ectx) (*rx, error) {
	r.at = append(r.at, e)
	x, err := r.expr1(e, sc, ctx)
	r.at = r.at[:len(r.at)-1]
	if err != nil {
		return nil, err
	}
	if x.pos == 0 {
		x.pos = e.Pos()
	}
	return x, nil
}

func (r *resolver) expr1(e Expr, sc *scope, ctx *ectx) (*rx, error) {
	switch n := e.(type) {
	case *Literal:
		return r.literal(n)
	case *Interval:
		return r.interval(n)
	case *ColumnRef:
		return r.columnRef(n, sc, ctx)
	case *Star:
		return nil, errAt(n.P, "* is only allowed in the select list and in count(*)")
	case *Unary:
		return r.unary(n, sc, ctx)
	case *Binary:
		return r.binary(n, sc, ctx)
	case *IsNull:
		x, err := r.expr(n.X, sc, ctx)
		if err != nil {
			return nil, err
		}
		op := "IS NULL"
		if n.Not {
			op = "IS NOT NULL"
		}
		return mk(tBool, "("+x.sql+" "+op+")", "("+x.name+" "+op+")", x), nil
	case *IsBool:
		x, err := r.expr(n.X, sc, ctx)
		if err != nil {
			return nil, err
		}
		if n.Value == "UNKNOWN" {
			if x, err = r.boolArg(x, n.X); err != nil {
				return nil, err
			}
			op := "IS NULL"
			if n.Not {
				op = "IS NOT NULL"
			}
			return mk(tBool, "("+x.sql+" "+op+")", "("+x.name+" "+op+")", x), nil
		}
		lit := &Literal{Kind: LitBool, Value: n.Value, P: n.P}
		v, _ := r.literal(lit)
		eq, err := r.comparison("<=>", x, v, n.P)
		if err != nil {
			return nil, err
		}
		if n.Not {
			return notRx(eq), nil
		}
		return eq, nil
	case *IsDistinct:
		l, err := r.expr(n.L, sc, ctx)
		if err != nil {
			return nil, err
		}
		rr, err := r.expr(n.R, sc, ctx)
		if err != nil {
			return nil, err
		}
		eq, err := r.comparison("<=>", l, rr, n.P)
		if err != nil {
			return nil, err
		}
		if n.Not {
			return eq, nil
		}
		return notRx(eq), nil
	case *Between:
		return r.between(n, sc, ctx)
	case *InList:
		return r.inList(n, sc, ctx)
	case *InQuery:
		return r.inQuery(n, sc, ctx)
	case *Exists:
		sub := &scope{parent: sc, ctes: sc.ctes, lambdas: sc.lambdas}
		rel, err := r.query(n.Query, sub, false)
		if err != nil {
			return nil, err
		}
		x := mk(tBool, "(EXISTS ("+rel.sql+"))", "exists()")
		x.foldable = false
		return x, nil
	case *Like:
		return r.like(n, sc, ctx)
	case *Case:
		return r.caseExpr(n, sc, ctx)
	case *PathExtract:
		// Spark 4.2 extracts x:path from a VARIANT only; of any other
		// value its analyzer fails looking up the class of the error it
		// means (COLUMN_IS_NOT_VARIANT_TYPE), and the VARIANT type is not
		// translated.
		if _, err := r.expr(n.X, sc, ctx); err != nil {
			return nil, err
		}
		jp := "$." + n.Path
		if strings.HasPrefix(n.Path, "[") {
			jp = "$" + n.Path
		}
		return nil, sparkErr(n.P, "INTERNAL_ERROR", "Cannot find main error class 'COLUMN_IS_NOT_VARIANT_TYPE' (x:%s reads a VARIANT value; of a JSON string use get_json_object(x, '%s'))", n.Path, jp)
	case *Cast:
		x, err := r.expr(n.X, sc, ctx)
		if err != nil {
			return nil, err
		}
		t, err := typeOf(n.Type)
		if err != nil {
			return nil, err
		}
		mode := castExplicit
		if n.Try {
			mode = castTry
		}
		out, err := r.cast(x, t, mode)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Pos == 0 {
				e.Pos = n.P
			}
			return nil, err
		}
		kw := "CAST"
		if n.Try {
			kw = "TRY_CAST"
		}
		// A cast is a new expression even when the type does not change.
		res := mk(t, out.sql, kw+"("+x.name+" AS "+t.sqlName()+")", x)
		return res, nil
	case *Call:
		return r.call(n, sc, ctx)
	case *Lambda:
		return nil, errAt(n.P, "a lambda function (x -> ...) is only allowed as an argument of a higher-order function such as transform")
	case *Subscript:
		return r.subscript(n, sc, ctx)
	case *FieldAccess:
		x, err := r.expr(n.X, sc, ctx)
		if err != nil {
			return nil, err
		}
		return r.fieldAccess(x, n.Field, n.P)
	case *Subquery:
		return r.scalarSubquery(n, sc)
	case *Row:
		return nil, unsupported(n.P, "compare the columns one by one", "a row value (a, b, ...)")
	case *GroupingSets:
		return nil, errAt(n.P, n.Kind+" is only allowed in GROUP BY")
	}
	return nil, fmt.Errorf("unexpected expression %T", e)
}

func notRx(x *rx) *rx {
	return mk(tBool, "(NOT "+x.sql+")", "(NOT "+x.name+")", x)
}

// ------------------------------------------------------------ literals

var (
	minInt64 = big.NewInt(math.MinInt64)
	maxInt64 = big.NewInt(math.MaxInt64)
)

func litRx(t *Type, sql, name string, lit *Literal) *rx {
	return &rx{t: t, sql: sql, name: name, lit: lit, foldable: true, pos: lit.P}
}

func (r *resolver) literal(n *Literal) (*rx, error) {
	switch n.Kind {
	case LitNull:
		return litRx(tVoid, "NULL", "NULL", n), nil
	case LitBool:
		return litRx(tBool, n.Value, strings.ToLower(n.Value), n), nil
	case LitString:
		return litRx(tString, duckString(n.Value), n.Value, n), nil
	case LitBinary:
		return litRx(tBinary, "from_hex("+duckString(n.Value)+")", "X'"+n.Value+"'", n), nil
	case LitInt, LitLong, LitShort, LitTiny:
		v, ok := new(big.Int).SetString(n.Value, 10)
		if !ok {
			return nil, errAt(n.P, "invalid number "+n.Value)
		}
		name := v.String()
		switch n.Kind {
		case LitInt:
			switch {
			case v.IsInt64() && v.Int64() >= math.MinInt32 && v.Int64() <= math.MaxInt32:
				return litRx(tInt, "CAST("+name+" AS INTEGER)", name, n), nil
			case v.Cmp(minInt64) >= 0 && v.Cmp(maxInt64) <= 0:
				return litRx(tLong, "CAST("+name+" AS BIGINT)", name, n), nil
			}
			digits := len(strings.TrimPrefix(name, "-"))
			if digits > 38 {
				return nil, sparkErr(n.P, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", "Decimal precision %d exceeds max precision 38.", digits)
			}
			return litRx(decimalType(digits, 0), fmt.Sprintf("CAST('%s' AS DECIMAL(%d,0))", name, digits), name, n), nil
		case LitLong:
			if !v.IsInt64() {
				return nil, sparkErr(n.P, "INVALID_NUMERIC_LITERAL_RANGE", "Numeric literal %s is outside the valid range for bigint with minimum value of -9223372036854775808 and maximum value of 9223372036854775807. Please adjust the value accordingly.", name)
			}
			return litRx(tLong, "CAST("+name+" AS BIGINT)", name, n), nil
		case LitShort:
			if !v.IsInt64() || v.Int64() < math.MinInt16 || v.Int64() > math.MaxInt16 {
				return nil, sparkErr(n.P, "INVALID_NUMERIC_LITERAL_RANGE", "Numeric literal %s is outside the valid range for smallint with minimum value of -32768 and maximum value of 32767. Please adjust the value accordingly.", name)
			}
			return litRx(tShort, "CAST("+name+" AS SMALLINT)", name, n), nil
		default:
			if !v.IsInt64() || v.Int64() < math.MinInt8 || v.Int64() > math.MaxInt8 {
				return nil, sparkErr(n.P, "INVALID_NUMERIC_LITERAL_RANGE", "Numeric literal %s is outside the valid range for tinyint with minimum value of -128 and maximum value of 127. Please adjust the value accordingly.", name)
			}
			return litRx(tByte, "CAST("+name+" AS TINYINT)", name, n), nil
		}
	case LitDecimal, LitBigDecimal:
		digits, scale, text := decimalLiteral(n.Value)
		p := max(digits, scale, 1)
		if p > 38 {
			return nil, sparkErr(n.P, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", "Decimal precision %d exceeds max precision 38.", p)
		}
		t := decimalType(p, scale)
		return litRx(t, "CAST('"+text+"' AS "+t.DuckDB()+")", text, n), nil
	case LitDouble:
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, sparkErr(n.P, "INVALID_NUMERIC_LITERAL_RANGE", "Numeric literal %s is outside the valid range for double with minimum value of -1.7976931348623157E+308 and maximum value of 1.7976931348623157E+308. Please adjust the value accordingly.", n.Value)
		}
		return litRx(tDouble, "CAST('"+strconv.FormatFloat(f, 'g', -1, 64)+"' AS DOUBLE)", javaDouble(f), n), nil
	case LitFloat:
		f, err := strconv.ParseFloat(n.Value, 32)
		if err != nil || math.IsInf(f, 0) {
			return nil, sparkErr(n.P, "INVALID_NUMERIC_LITERAL_RANGE", "Numeric literal %s is outside the valid range for float with minimum value of -3.4028234663852886E+38 and maximum value of 3.4028234663852886E+38. Please adjust the value accordingly.", n.Value)
		}
		return litRx(tFloat, "CAST('"+strconv.FormatFloat(f, 'g', -1, 32)+"' AS FLOAT)", javaFloat(float32(f)), n), nil
	case LitDate:
		d, ok := parseSparkDate(n.Value)
		if !ok {
			return nil, sparkErr(n.P, "INVALID_TYPED_LITERAL", "The value of the typed literal \"DATE\" is invalid: '%s'.", n.Value)
		}
		return litRx(tDate, "DATE '"+d+"'", "DATE '"+d+"'", n), nil
	case LitTimestamp, LitTimestampNTZ:
		ts, ok := parseSparkTimestamp(n.Value)
		kind := "TIMESTAMP"
		if n.Kind == LitTimestampNTZ {
			kind = "TIMESTAMP_NTZ"
		}
		if !ok || (n.Kind == LitTimestampNTZ && ts.zone != "") {
			return nil, sparkErr(n.P, "INVALID_TYPED_LITERAL", "The value of the typed literal %q is invalid: '%s'.", kind, n.Value)
		}
		if n.Kind == LitTimestampNTZ {
			return litRx(tTSNTZ, "TIMESTAMP '"+ts.local+"'", "TIMESTAMP_NTZ '"+ts.display()+"'", n), nil
		}
		sql := ""
		switch {
		case ts.zone == "":
			sql = localToInstant("TIMESTAMP '"+ts.local+"'", duckString(r.tz))
		case ts.offset:
			sql = "TIMESTAMPTZ '" + ts.local + ts.zone + "'"
		default:
			if !validZone(ts.zone) {
				return nil, sparkErr(n.P, "INVALID_TYPED_LITERAL", "The value of the typed literal \"TIMESTAMP\" is invalid: '%s'.", n.Value)
			}
			sql = localToInstant("TIMESTAMP '"+ts.local+"'", duckString(ts.zone))
		}
		name := "TIMESTAMP '" + ts.display() + "'"
		if ts.zone != "" {
			// Spark shows the instant in the session time zone; keep the
			// literal's text when that needs a zone database.
			name = "TIMESTAMP '" + n.Value + "'"
		}
		return litRx(tTS, sql, name, n), nil
	}
	return nil, fmt.Errorf("unexpected literal kind %d", n.Kind)
}

// localToInstant is the DuckDB expression turning a wall-clock TIMESTAMP
// into the instant it names in zone (a SQL string): the earlier instant
// when the time occurs twice (as java.time resolves overlaps), the time
// shifted forward when it falls in a gap.
func localToInstant(local, zone string) string {
	return "spark_local_to_instant(" + local + ", " + zone + ")"
}

// decimalLiteral returns the precision, scale and canonical text of a
// decimal literal's digits (1.50 -> 3, 2, "1.50"; .5 -> 1, 1, "0.5").
func decimalLiteral(v string) (int, int, string) {
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	intPart, frac, _ := strings.Cut(v, ".")
	intPart = strings.TrimLeft(intPart, "0")
	digits := len(intPart) + len(frac)
	if intPart == "" {
		// 0.001: precision counts the significant digits of the fraction.
		digits = len(strings.TrimLeft(frac, "0"))
		if digits == 0 {
			digits = 1
		}
	}
	text := intPart
	if text == "" {
		text = "0"
	}
	if frac != "" {
		text += "." + frac
	}
	if neg {
		text = "-" + text
	}
	return digits, len(frac), text
}

// javaDouble formats a double as Java's Double.toString does (and so
// Spark's names and casts to string): 1.0E20, 0.001, 1234567.0.
func javaDouble(f float64) string { return javaFloating(f, 64) }

func javaFloat(f float32) string { return javaFloating(float64(f), 32) }

func javaFloating(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(f, 'e', -1, bits) // d.ddde±xx, shortest
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	abs := math.Abs(f)
	var out string
	if abs >= 1e-3 && abs < 1e7 {
		if exp >= 0 {
			for len(digits) < exp+2 {
				digits += "0"
			}
			out = digits[:exp+1] + "." + digits[exp+1:]
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
	} else {
		if len(digits) == 1 {
			digits += "0"
		}
		out = digits[:1] + "." + digits[1:] + "E" + strconv.Itoa(exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// ---------------------------------------------------------- column refs

func (r *resolver) columnRef(n *ColumnRef, sc *scope, ctx *ectx) (*rx, error) {
	parts := n.Parts
	// Lambda variables shadow columns. A name bound outside the innermost
	// fold's lambda is captured by it.
	var capture *lambdaCapture
	for s := sc; s != nil; s = s.parent {
		if v, ok := s.lambdas[strings.ToLower(parts[0].Name)]; ok {
			x := &rx{t: v.t, sql: v.sql, name: "namedlambdavariable()", isLambdaVar: true, pos: n.P}
			if capture != nil {
				x = capture.add(x)
				x.isLambdaVar = true
			}
			return r.fields(x, parts[1:])
		}
		if s.capture != nil && capture == nil {
			capture = s.capture
		}
	}
	capture = nil
	// depth counts the enclosing queries passed (lambda scopes are part
	// of the query they are in).
	for s, depth := sc, 0; s != nil; s = s.parent {
		if s.lambda {
			if s.capture != nil && capture == nil {
				capture = s.capture
			}
			continue
		}
		c, rest, err := matchColumn(s, parts, n.P)
		if err != nil {
			return nil, err
		}
		if c != nil {
			x := colRx(c, n.P)
			x.name = parts[len(parts)-len(rest)-1].Name
			if depth > 0 {
				x.outer = true
				x.foldable = true
				for t := sc; t != s; t = t.parent {
					if !t.lambda {
						t.correlated = true
					}
				}
			}
			if capture != nil {
				x = capture.add(x)
			}
			return r.fields(x, rest)
		}
		if depth == 0 {
			if x := aliasRef(s, ctx, parts[0].Name); x != nil {
				return r.fields(x, parts[1:])
			}
		}
		depth++
	}
	if len(parts) == 1 {
		switch low := strings.ToLower(parts[0].Name); low {
		case "current_date", "current_timestamp", "current_user", "user", "session_user", "current_time", "localtimestamp", "current_timezone":
			return r.call(&Call{Name: parts[0], P: n.P, Syntax: "NOPAREN"}, sc, ctx)
		}
	}
	var cols []*column
	if sc != nil {
		cols = visible(sc.cols)
	}
	return nil, sparkErr(n.P, "UNRESOLVED_COLUMN.WITH_SUGGESTION", "A column, variable, or function parameter with name %s cannot be resolved. Did you mean one of the following? %s.", quotedParts(parts), columnList(cols))
}

func quotedParts(parts []Ident) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = "`" + p.Name + "`"
	}
	return strings.Join(out, ".")
}

// aliasRef resolves a name to an earlier select alias (lateral column
// alias), an output alias (HAVING, QUALIFY) or a GROUP BY alias.
func aliasRef(sc *scope, ctx *ectx, name string) *rx {
	var items []*selItem
	switch {
	case ctx.lateral:
		items = sc.sel
	case ctx.outAliases:
		items = sc.out
	case ctx.groupAliases != nil:
		items = ctx.groupAliases
	}
	for _, it := range items {
		if it.alias && strings.EqualFold(it.name, name) {
			return it.x
		}
	}
	return nil
}

// matchColumn finds the column parts name in one scope: qualifier.column
// first, then column; the rest of the parts are struct fields.
func matchColumn(s *scope, parts []Ident, pos int) (*column, []Ident, error) {
	if len(parts) >= 2 {
		var found []*column
		for _, c := range s.cols {
			if c.qual != "" && c.qual == qualKey(parts[0].Name) && strings.EqualFold(c.name, parts[1].Name) {
				found = append(found, c)
			}
		}
		if len(found) == 1 {
			return found[0], parts[2:], nil
		}
		if len(found) > 1 {
			return nil, nil, ambiguous(parts[:2], found, pos)
		}
	}
	var found []*column
	for _, c := range s.cols {
		if !c.hidden && strings.EqualFold(c.name, parts[0].Name) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil, nil
	case 1:
		return found[0], parts[1:], nil
	}
	return nil, nil, ambiguous(parts[:1], found, pos)
}

// placeholderQual is the qualifier of an unaliased {ref} in FROM: Laktory
// puts a view's name in its place, and Spark qualifies an unaliased
// table's columns by its name, so {ref}.x names its column x (an alias
// hides the name, as in Spark).
func placeholderQual(ref string) string { return "{" + strings.ToLower(ref) + "}" }

// qualKey is the form of a qualifier as written that the scope's
// qualifiers are kept in: lower case, a placeholder without the spaces
// inside its braces.
func qualKey(name string) string {
	if len(name) >= 2 && name[0] == '{' && name[len(name)-1] == '}' {
		return placeholderQual(strings.TrimSpace(name[1 : len(name)-1]))
	}
	return strings.ToLower(name)
}

func ambiguous(parts []Ident, found []*column, pos int) error {
	var cands []string
	for _, c := range found {
		if c.qual != "" {
			cands = append(cands, "`"+c.qual+"`.`"+c.name+"`")
		} else {
			cands = append(cands, "`"+c.name+"`")
		}
	}
	return sparkErr(pos, "AMBIGUOUS_REFERENCE", "Reference %s is ambiguous, could be: [%s].", quotedParts(parts), strings.Join(cands, ", "))
}

// fields applies struct field accesses.
func (r *resolver) fields(x *rx, rest []Ident) (*rx, error) {
	for _, f := range rest {
		var err error
		if x, err = r.fieldAccess(x, f, f.P); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func (r *resolver) fieldAccess(x *rx, f Ident, pos int) (*rx, error) {
	switch x.t.Kind {
	case KStruct:
		fd, err := structField(x.t, f.Name, pos)
		if err != nil {
			return nil, err
		}
		out := mk(fd.Type, "struct_extract("+x.sql+", "+duckString(fd.Name)+")", x.name+"."+fd.Name, x)
		out.field = fd.Name
		return out, nil
	case KArray:
		if x.t.Elem.Kind == KStruct {
			fd, err := structField(x.t.Elem, f.Name, pos)
			if err != nil {
				return nil, err
			}
			out := mk(arrayOf(fd.Type), "list_transform("+x.sql+", lambda_x -> struct_extract(lambda_x, "+duckString(fd.Name)+"))", x.name+"."+fd.Name, x)
			out.field = fd.Name
			return out, nil
		}
	}
	return nil, sparkErr(pos, "INVALID_EXTRACT_BASE_FIELD_TYPE", "Can't extract a value from %s. Need a complex type [STRUCT, ARRAY, MAP] but got %q.", quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
}

func structField(t *Type, name string, pos int) (Field, error) {
	var found []Field
	for _, fd := range t.Fields {
		if strings.EqualFold(fd.Name, name) {
			found = append(found, fd)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var names []string
		for _, fd := range t.Fields {
			names = append(names, "`"+fd.Name+"`")
		}
		return Field{}, sparkErr(pos, "FIELD_NOT_FOUND", "No such struct field `%s` in %s.", name, strings.Join(names, ", "))
	}
	return Field{}, sparkErr(pos, "AMBIGUOUS_REFERENCE_TO_FIELDS", "Ambiguous reference to the field `%s`. It appears %d times in the schema.", name, len(found))
}

// ----------------------------------------------------------- operators

func (r *resolver) unary(n *Unary, sc *scope, ctx *ectx) (*rx, error) {
	x, err := r.expr(n.X, sc, ctx)
	if err != nil {
		return nil, err
	}
	if x.t.Kind == KCalendar && n.Op != "NOT" {
		return nil, unsupported(n.P, "negate the interval's arguments", "%s of make_interval's CalendarInterval", n.Op)
	}
	switch n.Op {
	case "NOT":
		if x, err = r.boolArg(x, n.X); err != nil {
			return nil, err
		}
		return notRx(x), nil
	case "~":
		if !x.t.isIntegral() && x.t.Kind != KVoid {
			return nil, typeMismatch(n.P, "~"+x.name, "the input should be an integral type", x)
		}
		return mk(x.t, "(~"+x.sql+")", "~"+x.name, x), nil
	case "+":
		if !x.t.isNumeric() && x.t.Kind != KIntervalDT && x.t.Kind != KIntervalYM && x.t.Kind != KVoid {
			return nil, typeMismatch(n.P, "(+ "+x.name+")", "the input should be a numeric or interval type", x)
		}
		return mk(x.t, x.sql, "(+ "+x.name+")", x), nil
	}
	switch {
	case x.t.isNumeric():
	case x.t.Kind == KIntervalDT || x.t.Kind == KIntervalYM:
	case x.t.Kind == KVoid:
	default:
		return nil, typeMismatch(n.P, "(- "+x.name+")", "the input should be a numeric or interval type", x)
	}
	return mk(x.t, "(- "+x.sql+")", "(- "+x.name+")", x), nil
}

func typeMismatch(pos int, sql, why string, xs ...*rx) error {
	var types []string
	for _, x := range xs {
		types = append(types, strings.ToUpper(x.t.String()))
	}
	return sparkErr(pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: %s, but got %s.", quoteSparkSQL(sql), why, strings.Join(types, ", "))
}

// boolArg casts a string to a boolean where one is expected.
func (r *resolver) boolArg(x *rx, e Expr) (*rx, error) {
	switch x.t.Kind {
	case KBool:
		return x, nil
	case KVoid, KString:
		return r.cast(x, tBool, castImplicit)
	}
	return nil, sparkErr(e.Pos(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: the input should be a boolean, but %s is of type %q.", quoteSparkSQL(x.name), quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
}

func (r *resolver) binary(n *Binary, sc *scope, ctx *ectx) (*rx, error) {
	l, err := r.expr(n.L, sc, ctx)
	if err != nil {
		return nil, err
	}
	rr, err := r.expr(n.R, sc, ctx)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case "AND", "OR":
		if l, err = r.boolArg(l, n.L); err != nil {
			return nil, err
		}
		if rr, err = r.boolArg(rr, n.R); err != nil {
			return nil, err
		}
		return mk(tBool, "("+l.sql+" "+n.Op+" "+rr.sql+")", "("+l.name+" "+n.Op+" "+rr.name+")", l, rr), nil
	case "=", "==", "<", "<=", ">", ">=", "<=>":
		op := n.Op
		if op == "==" {
			op = "="
		}
		return r.comparison(op, l, rr, n.P)
	case "<>", "!=":
		eq, err := r.comparison("=", l, rr, n.P)
		if err != nil {
			return nil, err
		}
		return notRx(eq), nil
	case "||":
		return r.callResolved("concat", []*rx{l, rr}, n.P)
	case "&", "|", "^":
		return r.bitwise(n.Op, l, rr, n.P)
	case "<<", ">>":
		return nil, unsupported(n.P, "", "the shift operator %s", n.Op)
	}
	return r.arith(n.Op, l, rr, n.P)
}

func (r *resolver) bitwise(op string, l, rr *rx, pos int) (*rx, error) {
	name := "(" + l.name + " " + op + " " + rr.name + ")"
	t := widerType(l.t, rr.t)
	if t == nil || !t.isIntegral() {
		if t != nil && t.Kind == KVoid {
			t = tInt
		} else {
			return nil, sparkErr(pos, "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: the left and right operands of the binary operator have incompatible types (%q and %q).", quoteSparkSQL(name), strings.ToUpper(l.t.String()), strings.ToUpper(rr.t.String()))
		}
	}
	a, _ := r.cast(l, t, castImplicit)
	b, _ := r.cast(rr, t, castImplicit)
	fn := map[string]string{"&": "(%s & %s)", "|": "(%s | %s)", "^": "xor(%s, %s)"}[op]
	return mk(t, fmt.Sprintf(fn, a.sql, b.sql), name, l, rr), nil
}

// comparison resolves a comparison with Spark's coercion.
func (r *resolver) comparison(op string, l, rr *rx, pos int) (*rx, error) {
	name := "(" + l.name + " " + op + " " + rr.name + ")"
	t, err := r.comparisonType(l, rr, name, pos)
	if err != nil {
		return nil, err
	}
	a, err := r.cast(l, t, castImplicit)
	if err != nil {
		return nil, err
	}
	b, err := r.cast(rr, t, castImplicit)
	if err != nil {
		return nil, err
	}
	a.sql, b.sql = plainLiteral(l, a, t), plainLiteral(rr, b, t)
	dop := op
	switch op {
	case "<=>":
		dop = "IS NOT DISTINCT FROM"
	case "<", "<=", ">", ">=":
		if needsOrderKey(t) {
			a.sql, b.sql = r.orderKey(a.sql, t), r.orderKey(b.sql, t)
		}
	}
	return mk(tBool, "("+a.sql+" "+dop+" "+b.sql+")", name, l, rr), nil
}

// comparisonType is the type both sides of a comparison are cast to.
func (r *resolver) comparisonType(l, rr *rx, name string, pos int) (*Type, error) {
	lt, rt := decimalLiteralType(l, rr), decimalLiteralType(rr, l)
	if lt.hasCalendar() || rt.hasCalendar() {
		// DuckDB compares INTERVALs normalised (1 month = 30 days);
		// Spark's CalendarInterval compares its parts.
		return nil, unsupported(pos, "compare the dates or timestamps the intervals are added to", "a comparison of make_interval's CalendarInterval (%s)", name)
	}
	if t := widerType(lt, rt); t != nil {
		if t.Kind == KMap {
			return nil, sparkErr(pos, "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", "Cannot resolve %s due to data type mismatch: The `=` does not support ordering on type %q.", quoteSparkSQL(name), strings.ToUpper(t.String()))
		}
		return t, nil
	}
	switch {
	case lt.Kind == KString && rt.isAtomic():
		if p := stringPromotion(rt); p != nil {
			return p, nil
		}
	case rt.Kind == KString && lt.isAtomic():
		if p := stringPromotion(lt); p != nil {
			return p, nil
		}
	}
	return nil, sparkErr(pos, "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: the left and right operands of the binary operator have incompatible types (%q and %q).", quoteSparkSQL(name), strings.ToUpper(l.t.String()), strings.ToUpper(rr.t.String()))
}

// plainLiteral is the SQL of x cast to t (c) for a comparison: a number or
// date literal is written as a plain DuckDB literal when DuckDB's cast of
// it to the other side's type compares the same, so that file pruning
// (which reads column-literal comparisons) applies to Spark predicates.
func plainLiteral(x, c *rx, t *Type) string {
	if x.lit == nil {
		return c.sql
	}
	switch x.lit.Kind {
	case LitInt, LitLong, LitShort, LitTiny, LitDecimal, LitBigDecimal:
		digits, scale, text := decimalLiteral(x.lit.Value)
		intDigits := digits - scale
		if strings.HasPrefix(strings.TrimPrefix(text, "-"), "0") {
			intDigits = 0
		}
		switch {
		case t.Kind == KDouble:
			return text
		case t.Kind == KDecimal && intDigits <= t.P-t.S && scale <= t.S:
			return text
		case t.isIntegral() && scale == 0:
			if n, err := strconv.ParseInt(text, 10, 64); err == nil && integralFits(n, t) {
				return text
			}
		}
	case LitString:
		if t.Kind == KDate {
			if d, ok := parseSparkDate(x.lit.Value); ok && d[0] != '0' && len(d) == 10 {
				return "DATE '" + d + "'"
			}
		}
	}
	return c.sql
}

// integralFits says whether n is a value of the integral type t.
func integralFits(n int64, t *Type) bool {
	switch t.Kind {
	case KByte:
		return n >= math.MinInt8 && n <= math.MaxInt8
	case KShort:
		return n >= math.MinInt16 && n <= math.MaxInt16
	case KInt:
		return n >= math.MinInt32 && n <= math.MaxInt32
	}
	return true
}

// decimalLiteralType: an integral literal meeting a decimal takes the
// smallest decimal type holding it (Spark's literalPickMinimumPrecision).
func decimalLiteralType(x, other *rx) *Type {
	if x.lit != nil && x.t.isIntegral() && other.t.Kind == KDecimal {
		digits := len(strings.TrimPrefix(x.name, "-"))
		return decimalType(digits, 0)
	}
	return x.t
}

// arith resolves + - * / % DIV with Spark's type rules.
func (r *resolver) arith(op string, l, rr *rx, pos int) (*rx, error) {
	name := "(" + l.name + " " + strings.ToLower(op) + " " + rr.name + ")"
	if op != "DIV" {
		name = "(" + l.name + " " + op + " " + rr.name + ")"
	}
	lt, rt := l.t, rr.t
	// Datetime arithmetic.
	if lt.isDatetime() || rt.isDatetime() || lt.Kind == KIntervalDT || rt.Kind == KIntervalDT || lt.Kind == KIntervalYM || rt.Kind == KIntervalYM || lt.Kind == KCalendar || rt.Kind == KCalendar {
		return r.datetimeArith(op, l, rr, pos)
	}
	// Strings meeting numbers are cast (bigint or double).
	if lt.Kind == KString && rt.isNumeric() {
		lt = stringPromotion(rt)
		if rt.isIntegral() {
			rt = tLong
		} else {
			rt = tDouble
		}
	} else if rt.Kind == KString && lt.isNumeric() {
		rt = stringPromotion(lt)
		if lt.isIntegral() {
			lt = tLong
		} else {
			lt = tDouble
		}
	}
	if lt.Kind == KVoid {
		lt = rt
	}
	if rt.Kind == KVoid {
		rt = lt
	}
	if lt.Kind == KVoid {
		lt, rt = tInt, tInt
		if op == "/" {
			lt, rt = tDouble, tDouble
		}
	}
	if !lt.isNumeric() || !rt.isNumeric() {
		if lt.Kind == rt.Kind || lt.Kind == KString || rt.Kind == KString {
			return nil, sparkErr(pos, "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE", "Cannot resolve %s due to data type mismatch: the binary operator requires the input type (\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL\"), not %q.", quoteSparkSQL(name), strings.ToUpper(l.t.String()))
		}
		return nil, sparkErr(pos, "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: the left and right operands of the binary operator have incompatible types (%q and %q).", quoteSparkSQL(name), strings.ToUpper(l.t.String()), strings.ToUpper(rr.t.String()))
	}
	lx, err := r.cast(l, lt, castImplicit)
	if err != nil {
		return nil, err
	}
	rX, err := r.cast(rr, rt, castImplicit)
	if err != nil {
		return nil, err
	}
	if lt.Kind == KDecimal || rt.Kind == KDecimal {
		if !lt.isFractional() && !rt.isFractional() {
			return r.decimalArith(op, lx, rX, name, l, rr)
		}
	}
	if op == "DIV" {
		if lt.isFractional() || rt.isFractional() {
			return nil, sparkErr(pos, "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: the left and right operands of the binary operator have incompatible types (%q and %q).", quoteSparkSQL(name), strings.ToUpper(l.t.String()), strings.ToUpper(rr.t.String()))
		}
		t := tLong
		a, err := r.cast(lx, t, castImplicit)
		if err != nil {
			return nil, err
		}
		b, err := r.cast(rX, t, castImplicit)
		if err != nil {
			return nil, err
		}
		return mk(t, "spark_div_integral("+a.sql+", "+b.sql+")", name, l, rr), nil
	}
	var t *Type
	if op == "/" {
		t = tDouble
	} else {
		t = widerType(lt, rt)
	}
	a, err := r.cast(lx, t, castImplicit)
	if err != nil {
		return nil, err
	}
	b, err := r.cast(rX, t, castImplicit)
	if err != nil {
		return nil, err
	}
	var sql string
	switch op {
	case "/":
		sql = "spark_divide(" + a.sql + ", " + b.sql + ")"
	case "%":
		if t.isFractional() {
			sql = "spark_fmod(" + a.sql + ", " + b.sql + ")"
		} else {
			// Java's remainder of MIN_VALUE by -1 is 0, where DuckDB's
			// overflows.
			sql = "CASE WHEN " + b.sql + " = -1 THEN " + a.sql + " * 0 ELSE spark_mod(" + a.sql + ", " + b.sql + ") END"
		}
	default:
		sql = "(" + a.sql + " " + op + " " + b.sql + ")"
	}
	return mk(t, sql, name, l, rr), nil
}

// decimalArith is decimal + - * / % with Spark's result precision and
// scale (DecimalPrecision with allowPrecisionLoss).
func (r *resolver) decimalArith(op string, lx, rX *rx, name string, l, rr *rx) (*rx, error) {
	a, b := asDecimal(decimalLiteralType(lx, rX)), asDecimal(decimalLiteralType(rX, lx))
	if l.lit != nil && l.t.isIntegral() {
		a = decimalLiteralType(l, &rx{t: b})
	}
	if rr.lit != nil && rr.t.isIntegral() {
		b = decimalLiteralType(rr, &rx{t: a})
	}
	ax, err := r.cast(lx, a, castImplicit)
	if err != nil {
		return nil, err
	}
	bx, err := r.cast(rX, b, castImplicit)
	if err != nil {
		return nil, err
	}
	p1, s1, p2, s2 := a.P, a.S, b.P, b.S
	var t *Type
	switch op {
	case "+", "-":
		s := max(s1, s2)
		t = adjustedDecimal(max(p1-s1, p2-s2)+s+1, s)
		// Exact in DuckDB when both sides are widened to the result's scale.
		return mk(t, fmt.Sprintf("CAST(%s %s %s AS %s)", decimalWiden(ax, a, t), op, decimalWiden(bx, b, t), t.DuckDB()), name, l, rr), nil
	case "*":
		t = adjustedDecimal(p1+p2+1, s1+s2)
		k := s1 + s2 - t.S
		if k == 0 {
			asql := ax.sql
			if t.P > 18 && p1 <= 18 && p2 <= 18 {
				// DuckDB multiplies two 64-bit decimals in 64 bits and
				// overflows past 18 digits: widen one operand.
				asql = fmt.Sprintf("CAST(%s AS DECIMAL(38,%d))", ax.sql, s1)
			}
			return mk(t, fmt.Sprintf("CAST(%s * %s AS %s)", asql, bx.sql, t.DuckDB()), name, l, rr), nil
		}
		if k > 19 {
			return nil, unsupported(l.pos, "cast the operands to smaller decimals", "multiplying %s by %s (the exact product is rounded by %d digits, more than the local engine computes exactly)", strings.ToUpper(a.String()), strings.ToUpper(b.String()), k)
		}
		return mk(t, decimalMultiplySQL(ax.sql, bx.sql, s1, s2, k, t), name, l, rr), nil
	case "/":
		s := max(6, s1+p2+1)
		t = adjustedDecimal(p1-s1+s2+s, s)
		k := t.S - s1 + s2
		if p1+k > 38 || k < 0 {
			return nil, unsupported(l.pos, "cast the operands to smaller decimals", "dividing %s by %s exactly", strings.ToUpper(a.String()), strings.ToUpper(b.String()))
		}
		return mk(t, decimalDivideSQL(ax.sql, bx.sql, s1, s2, k, t), name, l, rr), nil
	case "%":
		s := max(s1, s2)
		t = boundedDecimal(min(p1-s1, p2-s2)+s, s)
		return mk(t, fmt.Sprintf("CAST(spark_mod(%s, %s) AS %s)", decimalWiden(ax, a, t), decimalWiden(bx, b, t), t.DuckDB()), name, l, rr), nil
	case "DIV":
		s := max(s1, s2)
		return mk(tLong, fmt.Sprintf("CAST(spark_trunc_div(%s, %s) AS BIGINT)", unscaled(ax.sql, s1, s), unscaled(bx.sql, s2, s)), name, l, rr), nil
	}
	return nil, fmt.Errorf("unexpected operator %s", op)
}

// unscaled is a decimal of scale from as a HUGEINT of its value times
// 10^s (s >= from), exact: DuckDB prints a DECIMAL(p,from) with all its
// from decimals, so its digits are the unscaled value (multiplying the
// decimal by 10^s instead keeps the scale and overflows 38 digits).
func unscaled(sql string, from, s int) string {
	n := "CAST(" + sql + " AS HUGEINT)"
	if from > 0 {
		n = "CAST(replace(CAST(" + sql + " AS VARCHAR), '.', '') AS HUGEINT)"
	}
	if s > from {
		n += " * " + hugePow10(s-from)
	}
	return n
}

// hugePow10 is 10^k as a HUGEINT literal (k <= 38).
func hugePow10(k int) string { return "CAST('1" + strings.Repeat("0", k) + "' AS HUGEINT)" }

// fromUnscaled is a HUGEINT unscaled value typed as the decimal t.
func fromUnscaled(n string, t *Type) string {
	q := "CAST(" + n + " AS DECIMAL(38,0))"
	if t.S > 0 {
		q += " * " + pow10(-t.S)
	}
	return "CAST(" + q + " AS " + t.DuckDB() + ")"
}

// decimalMultiplySQL multiplies decimals whose exact product has k more
// decimals than Spark's result type t keeps (t is DECIMAL(38,s) reduced
// from the product's scale sa+sb): Spark rounds the exact product half up
// to t's scale. With A and B the unscaled operands, F = 10^k, B = bh*F + bl
// and A = ah*F + al: A*B/F = A*bh + ah*bl + al*bl/F, every term within a
// HUGEINT for k <= 19 and a product that fits; one beyond 1.6e38 (checked
// in doubles first) or of more than 38 digits is
// NUMERIC_VALUE_OUT_OF_RANGE, as in Spark.
func decimalMultiplySQL(a, b string, sa, sb, k int, t *Type) string {
	A, B := unscaled(a, sa, sa), unscaled(b, sb, sb)
	F := hugePow10(k)
	body := fmt.Sprintf("spark_decimal_mul(%s, %s, %s, %d)", A, B, F, t.S)
	return fromUnscaled(body, t)
}

// decimalDivideSQL divides exactly: the unscaled quotient at the result's
// scale, rounded half up, then typed (a zero divisor raises DIVIDE_BY_ZERO).
func decimalDivideSQL(a, b string, sa, sb, k int, t *Type) string {
	n := unscaled(a, sa, sa+k)
	return fromUnscaled("spark_round_div("+n+", "+unscaled(b, sb, sb)+")", t)
}

// decimalWiden casts a decimal to the scale of t with enough integer
// digits to stay exact (DuckDB then adds without losing digits).
func decimalWiden(x *rx, from, t *Type) string {
	p := min(38, from.P-from.S+t.S)
	if t.S == from.S {
		return x.sql
	}
	return fmt.Sprintf("CAST(%s AS DECIMAL(%d,%d))", x.sql, max(p, t.S), t.S)
}

func (r *resolver) between(n *Between, sc *scope, ctx *ectx) (*rx, error) {
	x, err := r.expr(n.X, sc, ctx)
	if err != nil {
		return nil, err
	}
	lo, err := r.expr(n.Lo, sc, ctx)
	if err != nil {
		return nil, err
	}
	hi, err := r.expr(n.Hi, sc, ctx)
	if err != nil {
		return nil, err
	}
	ge, err := r.comparison(">=", x, lo, n.P)
	if err != nil {
		return nil, err
	}
	le, err := r.comparison("<=", x, hi, n.P)
	if err != nil {
		return nil, err
	}
	out := mk(tBool, "("+ge.sql+" AND "+le.sql+")", "between("+x.name+", "+lo.name+", "+hi.name+")", x, lo, hi)
	if n.Not {
		return notRx(out), nil
	}
	return out, nil
}

func (r *resolver) inList(n *InList, sc *scope, ctx *ectx) (*rx, error) {
	x, err := r.expr(n.X, sc, ctx)
	if err != nil {
		return nil, err
	}
	all := []*rx{x}
	types := []*Type{x.t}
	for _, e := range n.List {
		y, err := r.expr(e, sc, ctx)
		if err != nil {
			return nil, err
		}
		all = append(all, y)
		types = append(types, y.t)
	}
	t := commonType(types)
	if t == nil {
		return nil, sparkErr(n.P, "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: Input to `in` should all be the same type.", quoteSparkSQL(x.name+" IN (...)"))
	}
	var sqls, names []string
	for i, y := range all {
		c, err := r.cast(y, t, castImplicit)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			sqls = append(sqls, plainLiteral(y, c, t))
			names = append(names, y.name)
		}
	}
	cx, _ := r.cast(x, t, castImplicit)
	out := mk(tBool, "("+cx.sql+" IN ("+strings.Join(sqls, ", ")+"))", "("+x.name+" IN ("+strings.Join(names, ", ")+"))", all...)
	if n.Not {
		return notRx(out), nil
	}
	return out, nil
}

func (r *resolver) inQuery(n *InQuery, sc *scope, ctx *ectx) (*rx, error) {
	x, err := r.expr(n.X, sc, ctx)
	if err != nil {
		return nil, err
	}
	sub := &scope{parent: sc, ctes: sc.ctes, lambdas: sc.lambdas}
	rel, err := r.query(n.Query, sub, false)
	if err != nil {
		return nil, err
	}
	if len(rel.cols) != 1 {
		return nil, sparkErr(n.P, "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH", "Cannot resolve %s due to data type mismatch: The number of columns in the left hand side of an IN subquery does not match the number of columns in the output of subquery. Left hand side columns(length: 1), right hand side columns(length: %d).", quoteSparkSQL(x.name+" IN (listquery())"), len(rel.cols))
	}
	t := commonType([]*Type{x.t, rel.cols[0].t})
	if t == nil {
		return nil, sparkErr(n.P, "DATATYPE_MISMATCH.IN_SUBQUERY_DATA_TYPE_MISMATCH", "Cannot resolve %s due to data type mismatch: The data type of one or more elements in the left hand side of an IN subquery is not compatible with the data type of the output of the subquery.", quoteSparkSQL(x.name+" IN (listquery())"))
	}
	cx, err := r.cast(x, t, castImplicit)
	if err != nil {
		return nil, err
	}
	a := r.alias()
	inner, err := r.cast(&rx{t: rel.cols[0].t, sql: a + "." + rel.cols[0].sql}, t, castImplicit)
	if err != nil {
		return nil, err
	}
	in := "(" + cx.sql + " IN (SELECT " + inner.sql + " FROM (" + rel.sql + ") AS " + a + "))"
	if !r.filterIn[n] {
		// Spark's existence join: x IN (q) is true when a row of q equals
		// x, else false; x NOT IN (q) is false when a row of q equals x or
		// compares to NULL with it, else true. Never NULL.
		if n.Not {
			in = "coalesce(" + in + ", true)"
		} else {
			in = "coalesce(" + in + ", false)"
		}
	}
	out := mk(tBool, in, "("+x.name+" IN (listquery()))", x)
	out.foldable = false
	if n.Not {
		return notRx(out), nil
	}
	return out, nil
}

// markFilterIn records the IN subqueries of a filter's condition that
// are its conjuncts, or the negation of one (Spark's
// RewritePredicateSubquery turns these into a semi join and a NULL-aware
// anti join, and any other into an existence join).
func (r *resolver) markFilterIn(e Expr) {
	for {
		p, ok := e.(*Paren)
		if !ok {
			break
		}
		e = p.X
	}
	switch n := e.(type) {
	case *Binary:
		if strings.EqualFold(n.Op, "AND") {
			r.markFilterIn(n.L)
			r.markFilterIn(n.R)
		}
	case *Unary:
		if strings.EqualFold(n.Op, "NOT") {
			x := n.X
			for {
				p, ok := x.(*Paren)
				if !ok {
					break
				}
				x = p.X
			}
			if q, ok := x.(*InQuery); ok && !q.Not {
				r.mark(q)
			}
		}
	case *InQuery:
		r.mark(n)
	}
}

func (r *resolver) mark(q *InQuery) {
	if r.filterIn == nil {
		r.filterIn = map[*InQuery]bool{}
	}
	r.filterIn[q] = true
}

func (r *resolver) scalarSubquery(n *Subquery, sc *scope) (*rx, error) {
	sub := &scope{parent: sc, ctes: sc.ctes, lambdas: sc.lambdas}
	rel, err := r.query(n.Query, sub, false)
	if err != nil {
		return nil, err
	}
	if len(rel.cols) != 1 {
		return nil, sparkErr(n.P, "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN", "Invalid subquery: Scalar subquery must return only one column, but got %d.", len(rel.cols))
	}
	// A correlated scalar subquery needs no aggregate: Spark 4.2 runs it
	// and checks at run time that each outer row sees at most one row, as
	// DuckDB does (its error maps to SCALAR_SUBQUERY_TOO_MANY_ROWS).
	a := r.alias()
	x := mk(rel.cols[0].t, "(SELECT "+a+"."+rel.cols[0].sql+" FROM ("+rel.sql+") AS "+a+")", "scalarsubquery()")
	x.foldable = false
	return x, nil
}

func (r *resolver) like(n *Like, sc *scope, ctx *ectx) (*rx, error) {
	x, err := r.expr(n.X, sc, ctx)
	if err != nil {
		return nil, err
	}
	if x, err = r.stringArg(x, n.X.Pos()); err != nil {
		return nil, err
	}
	one := func(pe Expr) (*rx, error) {
		p, err := r.expr(pe, sc, ctx)
		if err != nil {
			return nil, err
		}
		if p, err = r.stringArg(p, pe.Pos()); err != nil {
			return nil, err
		}
		switch n.Op {
		case "RLIKE", "REGEXP":
			re, err := r.regex(p, pe.Pos())
			if err != nil {
				return nil, err
			}
			return mk(tBool, "regexp_matches("+x.sql+", "+re+")", "RLIKE("+x.name+", "+p.name+")", x, p), nil
		}
		esc := `\`
		if n.Escape != nil {
			if len([]rune(n.Escape.Value)) != 1 {
				return nil, sparkErr(n.Escape.P, "INVALID_ESCAPE_CHAR", "The escape character must be a single character, got '%s'.", n.Escape.Value)
			}
			esc = n.Escape.Value
		}
		if p.lit != nil {
			if err := checkLikePattern(p.lit.Value, esc, pe.Pos()); err != nil {
				return nil, err
			}
		}
		if n.Op == "ILIKE" {
			return mk(tBool, "(lower("+x.sql+") LIKE lower("+p.sql+") ESCAPE "+duckString(esc)+")", "ilike("+x.name+", "+p.name+")", x, p), nil
		}
		name := x.name + " LIKE " + p.name
		if n.Escape != nil {
			name = "like(" + x.name + ", " + p.name + ", " + esc + ")"
		}
		return mk(tBool, "("+x.sql+" LIKE "+p.sql+" ESCAPE "+duckString(esc)+")", name, x, p), nil
	}
	var out *rx
	if n.Quant != "" {
		var parts []*rx
		var sqls, names []string
		for _, pe := range n.Patterns {
			y, err := one(pe)
			if err != nil {
				return nil, err
			}
			parts = append(parts, y)
			sqls = append(sqls, y.sql)
			names = append(names, y.kids[1].name)
		}
		join := " OR "
		if n.Quant == "ALL" {
			join = " AND "
		}
		q := n.Quant
		if q == "SOME" {
			q = "ANY"
		}
		op := strings.ToUpper(n.Op)
		if n.Not {
			// Spark's NOT LIKE ANY/ALL applies NOT to each pattern's
			// match (NotLikeAny: some pattern does not match; NotLikeAll:
			// no pattern matches), not to the quantified whole.
			for i := range sqls {
				sqls[i] = "(NOT " + sqls[i] + ")"
			}
			op = "NOT " + op
		}
		return mk(tBool, "("+strings.Join(sqls, join)+")", x.name+" "+op+" "+q+" ("+strings.Join(names, ", ")+")", parts...), nil
	} else {
		if out, err = one(n.Pattern); err != nil {
			return nil, err
		}
	}
	if n.Not {
		return notRx(out), nil
	}
	return out, nil
}

// checkLikePattern rejects the escapes Spark rejects: the escape
// character must precede _, % or itself.
func checkLikePattern(p, esc string, pos int) error {
	rs := []rune(p)
	e := []rune(esc)[0]
	for i := 0; i < len(rs); i++ {
		if rs[i] != e {
			continue
		}
		if i+1 == len(rs) {
			return sparkErr(pos, "INVALID_FORMAT.ESC_AT_THE_END", "The format is invalid: '%s'. The escape character is not allowed to end with.", p)
		}
		if n := rs[i+1]; n != '_' && n != '%' && n != e {
			return sparkErr(pos, "INVALID_FORMAT.ESC_IN_THE_MIDDLE", "The format is invalid: '%s'. The escape character is not allowed to precede '%c'.", p, n)
		}
		i++
	}
	return nil
}

func (r *resolver) caseExpr(n *Case, sc *scope, ctx *ectx) (*rx, error) {
	var operand *rx
	var err error
	if n.Operand != nil {
		if operand, err = r.expr(n.Operand, sc, ctx); err != nil {
			return nil, err
		}
	}
	var conds, results []*rx
	for _, w := range n.Whens {
		c, err := r.expr(w.Cond, sc, ctx)
		if err != nil {
			return nil, err
		}
		if operand != nil {
			if c, err = r.comparison("=", operand, c, w.Cond.Pos()); err != nil {
				return nil, err
			}
		} else if c, err = r.boolArg(c, w.Cond); err != nil {
			return nil, err
		}
		res, err := r.expr(w.Result, sc, ctx)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
		results = append(results, res)
	}
	var els *rx
	if n.Else != nil {
		if els, err = r.expr(n.Else, sc, ctx); err != nil {
			return nil, err
		}
	}
	types := []*Type{}
	for _, x := range results {
		types = append(types, x.t)
	}
	if els != nil {
		types = append(types, els.t)
	}
	t := commonType(types)
	if t == nil {
		return nil, sparkErr(n.P, "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "Cannot resolve \"CASE WHEN ...\" due to data type mismatch: Input to `casewhen` should all be the same type, but it's [%s].", typeList(types))
	}
	var sb, nb strings.Builder
	sb.WriteString("CASE")
	nb.WriteString("CASE")
	kids := []*rx{}
	for i := range conds {
		res, err := r.cast(results[i], t, castImplicit)
		if err != nil {
			return nil, err
		}
		sb.WriteString(" WHEN " + conds[i].sql + " THEN " + res.sql)
		nb.WriteString(" WHEN " + conds[i].name + " THEN " + results[i].name)
		kids = append(kids, conds[i], results[i])
	}
	if els != nil {
		e, err := r.cast(els, t, castImplicit)
		if err != nil {
			return nil, err
		}
		sb.WriteString(" ELSE " + e.sql)
		nb.WriteString(" ELSE " + els.name)
		kids = append(kids, els)
	}
	sb.WriteString(" END")
	nb.WriteString(" END")
	return mk(t, sb.String(), nb.String(), kids...), nil
}

func typeList(ts []*Type) string {
	var out []string
	for _, t := range ts {
		out = append(out, `"`+strings.ToUpper(t.String())+`"`)
	}
	return strings.Join(out, ", ")
}

// subscript resolves x[i]: arrays 0-based (out of range is an error),
// maps by key (a missing key is NULL), structs by field name.
func (r *resolver) subscript(n *Subscript, sc *scope, ctx *ectx) (*rx, error) {
	x, err := r.expr(n.X, sc, ctx)
	if err != nil {
		return nil, err
	}
	idx, err := r.expr(n.Index, sc, ctx)
	if err != nil {
		return nil, err
	}
	name := x.name + "[" + idx.name + "]"
	switch x.t.Kind {
	case KArray:
		i, err := r.integralArg(idx, tInt, n.Index.Pos())
		if err != nil {
			return nil, err
		}
		return mk(x.t.Elem, "spark_array_get("+x.sql+", "+i.sql+")", name, x, idx), nil
	case KMap:
		k, err := r.cast(idx, x.t.Key, castImplicit)
		if err != nil {
			return nil, err
		}
		return mk(x.t.Val, x.sql+"["+k.sql+"]", name, x, idx), nil
	case KStruct:
		if idx.lit != nil && idx.t.Kind == KString {
			return r.fieldAccess(x, Ident{Name: idx.lit.Value}, n.Index.Pos())
		}
	}
	return nil, sparkErr(n.P, "INVALID_EXTRACT_BASE_FIELD_TYPE", "Can't extract a value from %s. Need a complex type [STRUCT, ARRAY, MAP] but got %q.", quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
}

// integralArg casts an integral (or NULL) argument to t.
func (r *resolver) integralArg(x *rx, t *Type, pos int) (*rx, error) {
	if !x.t.isIntegral() && x.t.Kind != KVoid {
		if x.t.Kind == KString {
			return r.cast(x, t, castImplicit)
		}
		return nil, sparkErr(pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: the parameter requires the %q type, however %s has the type %q.", quoteSparkSQL(x.name), strings.ToUpper(t.String()), quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
	}
	if x.t.Kind == KLong && t.Kind == KInt {
		return r.cast(x, t, castExplicit)
	}
	return r.cast(x, t, castImplicit)
}

// stringArg casts an atomic value to a string where one is expected.
func (r *resolver) stringArg(x *rx, pos int) (*rx, error) {
	switch {
	case x.t.Kind == KString:
		return x, nil
	case x.t.isAtomic() && x.t.Kind != KBinary:
		return r.cast(x, tString, castImplicit)
	}
	return nil, sparkErr(pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: the parameter requires the \"STRING\" type, however %s has the type %q.", quoteSparkSQL(x.name), quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
}
