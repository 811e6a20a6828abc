package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The overlap prover decides whether two `where` predicates can match the
// same row. Predicates built from =, <>, IN, NOT IN, BETWEEN, <, <=, >, >=,
// AND, OR and NOT over columns and constants are put in disjunctive normal
// form, each column constrained to a union of intervals; two predicates
// overlap when some pair of their conjunctions has a non-empty intersection
// on every column. NULLs match no comparison (nor its negation), as in SQL.

// errUnsupported marks a predicate the prover cannot reason about.
var errUnsupported = errors.New("unsupported predicate")

// errRounding: the predicates are disjoint only by differences a double
// does not keep (1e16 and 10000000000000001, 2 and 1.99999999999999999):
// on a floating-point column, or where the engine compares as doubles,
// they match the same rows. It is errUnsupported: "cannot prove".
var errRounding = fmt.Errorf("%w: the values differ only beyond a double's precision", errUnsupported)

type valKind uint8

const (
	kindNum valKind = iota + 1
	kindStr
	kindBool
	// kindDate (days), kindTS (an instant, µs) and kindTSLocal (a wall
	// clock without zone, µs) are typed literals, compared as the engine
	// compares them once parsed (another UTC offset is the same instant;
	// digits beyond the microsecond are dropped, as Spark and DuckDB keep
	// microseconds).
	kindDate
	kindTS
	kindTSLocal
)

// value is a constant of a predicate.
type value struct {
	kind valKind
	num  *big.Rat // kindNum and kindBool (0/1)
	// f is num as a float64 when exact (fexact): comparisons then skip
	// big.Rat arithmetic.
	f      float64
	fexact bool
	str    string // kindStr
	// lit is the SQL literal, for witnesses (e.g. DATE '2024-01-01').
	lit string
}

func (a value) cmp(b value) int {
	if a.kind == kindStr {
		return strings.Compare(a.str, b.str)
	}
	if a.fexact && b.fexact {
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return 0
	}
	return a.num.Cmp(b.num)
}

// key identifies the value (for indexing).
func (a value) key() string {
	if a.kind == kindStr {
		return "s" + a.str
	}
	if a.kind == kindNum {
		// Values one double apart share a key: only the prover, which
		// knows the column's type, tells them apart.
		return "0" + strconv.FormatFloat(a.f, 'g', -1, 64)
	}
	return string(rune('0'+a.kind)) + a.num.RatString()
}

// numValue builds a number constant.
func numValue(r *big.Rat, kind valKind, lit string) value {
	f, exact := r.Float64()
	return value{kind: kind, num: r, f: f, fexact: exact, lit: lit}
}

type bound struct {
	inf  bool // -inf for a lower bound, +inf for an upper one
	incl bool
	v    value
}

type interval struct{ lo, hi bound }

func (iv interval) empty() bool {
	if iv.lo.inf || iv.hi.inf {
		return false
	}
	c := iv.lo.v.cmp(iv.hi.v)
	return c > 0 || (c == 0 && !(iv.lo.incl && iv.hi.incl))
}

// set is a sorted union of disjoint, non-empty intervals of one kind.
type set struct {
	kind valKind
	ivs  []interval
}

func full(k valKind) set {
	return set{kind: k, ivs: []interval{{lo: bound{inf: true}, hi: bound{inf: true}}}}
}

func point(v value) set {
	b := bound{v: v, incl: true}
	return set{kind: v.kind, ivs: []interval{{lo: b, hi: b}}}
}

func (s set) empty() bool { return len(s.ivs) == 0 }

// lowerLess orders lower bounds.
func lowerLess(a, b bound) bool {
	switch {
	case a.inf:
		return !b.inf
	case b.inf:
		return false
	}
	c := a.v.cmp(b.v)
	return c < 0 || (c == 0 && a.incl && !b.incl)
}

func maxLower(a, b bound) bound {
	if lowerLess(a, b) {
		return b
	}
	return a
}

func minUpper(a, b bound) bound {
	switch {
	case a.inf:
		return b
	case b.inf:
		return a
	}
	c := a.v.cmp(b.v)
	if c < 0 || (c == 0 && !a.incl) {
		return a
	}
	return b
}

func (s set) intersect(t set) (set, error) {
	if s.kind != t.kind {
		return set{}, errUnsupported
	}
	out := set{kind: s.kind}
	for _, a := range s.ivs {
		for _, b := range t.ivs {
			iv := interval{lo: maxLower(a.lo, b.lo), hi: minUpper(a.hi, b.hi)}
			if !iv.empty() {
				out.ivs = append(out.ivs, iv)
			}
		}
	}
	slices.SortFunc(out.ivs, func(a, b interval) int {
		if lowerLess(a.lo, b.lo) {
			return -1
		}
		if lowerLess(b.lo, a.lo) {
			return 1
		}
		return 0
	})
	return out, nil
}

// complement returns the values (of the same kind) outside s.
func (s set) complement() set {
	if s.kind == kindBool {
		out := set{kind: kindBool}
		for _, b := range []bool{false, true} {
			v := boolValue(b)
			if in, _ := s.intersect(point(v)); in.empty() {
				out.ivs = append(out.ivs, point(v).ivs...)
			}
		}
		return out
	}
	out := set{kind: s.kind}
	lo := bound{inf: true}
	for _, iv := range s.ivs {
		if !iv.lo.inf {
			gap := interval{lo: lo, hi: bound{v: iv.lo.v, incl: !iv.lo.incl}}
			if !gap.empty() {
				out.ivs = append(out.ivs, gap)
			}
		}
		if iv.hi.inf {
			return out
		}
		lo = bound{v: iv.hi.v, incl: !iv.hi.incl}
	}
	out.ivs = append(out.ivs, interval{lo: lo, hi: bound{inf: true}})
	return out
}

// conj constrains columns (lower-case names); absent columns are free.
type conj map[string]set

// dnf is a disjunction of conjunctions; nil is false, {{}} is true.
type dnf []conj

const maxConjs = 256

func and(a, b dnf) (dnf, error) {
	var out dnf
	for _, x := range a {
		for _, y := range b {
			c := conj{}
			for k, v := range x {
				c[k] = v
			}
			ok := true
			for k, v := range y {
				if cur, has := c[k]; has {
					m, err := cur.intersect(v)
					if err != nil {
						return nil, err
					}
					if m.empty() {
						ok = false
						break
					}
					c[k] = m
				} else {
					c[k] = v
				}
			}
			if ok {
				out = append(out, c)
			}
			if len(out) > maxConjs {
				return nil, errUnsupported
			}
		}
	}
	return out, nil
}

func or(a, b dnf) (dnf, error) {
	if len(a)+len(b) > maxConjs {
		return nil, errUnsupported
	}
	return append(slices.Clone(a), b...), nil
}

func atom(col string, s set, neg bool) dnf {
	if neg {
		s = s.complement()
	}
	if s.empty() {
		return nil
	}
	return dnf{conj{col: s}}
}

// toDNF converts an expression tree (negated when neg) to DNF.
func toDNF(e *sqlNode, neg bool) (dnf, error) {
	if e == nil {
		return nil, errUnsupported
	}
	switch e.Type {
	case "CONJUNCTION_AND", "CONJUNCTION_OR":
		isAnd := (e.Type == "CONJUNCTION_AND") != neg
		var acc dnf
		for i, c := range e.Children {
			d, err := toDNF(c, neg)
			if err != nil {
				return nil, err
			}
			switch {
			case i == 0:
				acc = d
			case isAnd:
				acc, err = and(acc, d)
			default:
				acc, err = or(acc, d)
			}
			if err != nil {
				return nil, err
			}
		}
		return acc, nil
	case "OPERATOR_NOT":
		if len(e.Children) != 1 {
			return nil, errUnsupported
		}
		return toDNF(e.Children[0], !neg)
	case "COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN", "COMPARE_LESSTHANOREQUALTO",
		"COMPARE_GREATERTHAN", "COMPARE_GREATERTHANOREQUALTO":
		op := e.Type
		col, okc := column(e.Left)
		v, err := constant(e.Right)
		if !okc || err != nil {
			col, okc = column(e.Right)
			v, err = constant(e.Left)
			op = flip(op)
		}
		if !okc || err != nil {
			return nil, errUnsupported
		}
		return atom(col, compare(op, v), neg), nil
	case "COMPARE_IN", "COMPARE_NOT_IN":
		if len(e.Children) < 2 {
			return nil, errUnsupported
		}
		col, ok := column(e.Children[0])
		if !ok {
			return nil, errUnsupported
		}
		var s set
		for i, c := range e.Children[1:] {
			v, err := constant(c)
			if err != nil {
				return nil, err
			}
			p := point(v)
			if i == 0 {
				s = p
				continue
			}
			if p.kind != s.kind {
				return nil, errUnsupported
			}
			s = union(s, p)
		}
		return atom(col, s, neg != (e.Type == "COMPARE_NOT_IN")), nil
	case "COMPARE_BETWEEN":
		col, ok := column(e.Input)
		lo, err1 := constant(e.Lower)
		hi, err2 := constant(e.Upper)
		if !ok || err1 != nil || err2 != nil || lo.kind != hi.kind {
			return nil, errUnsupported
		}
		s := set{kind: lo.kind}
		iv := interval{lo: bound{v: lo, incl: true}, hi: bound{v: hi, incl: true}}
		if !iv.empty() {
			s.ivs = []interval{iv}
		}
		return atom(col, s, neg), nil
	case "COLUMN_REF":
		col, _ := column(e)
		return atom(col, point(boolValue(true)), neg), nil
	case "VALUE_CONSTANT", "OPERATOR_CAST": // true is CAST('t' AS BOOLEAN)
		v, err := constant(e)
		if err != nil || v.kind != kindBool {
			return nil, errUnsupported
		}
		if (v.num.Sign() != 0) != neg {
			return dnf{conj{}}, nil
		}
		return nil, nil
	}
	return nil, errUnsupported
}

func union(a, b set) set {
	out := set{kind: a.kind, ivs: append(slices.Clone(a.ivs), b.ivs...)}
	// Points only (IN lists): sort and drop duplicates.
	slices.SortFunc(out.ivs, func(x, y interval) int { return x.lo.v.cmp(y.lo.v) })
	return set{kind: out.kind, ivs: slices.CompactFunc(out.ivs, func(x, y interval) bool { return x.lo.v.cmp(y.lo.v) == 0 })}
}

func flip(op string) string {
	switch op {
	case "COMPARE_LESSTHAN":
		return "COMPARE_GREATERTHAN"
	case "COMPARE_LESSTHANOREQUALTO":
		return "COMPARE_GREATERTHANOREQUALTO"
	case "COMPARE_GREATERTHAN":
		return "COMPARE_LESSTHAN"
	case "COMPARE_GREATERTHANOREQUALTO":
		return "COMPARE_LESSTHANOREQUALTO"
	}
	return op
}

func compare(op string, v value) set {
	b := bound{v: v, incl: true}
	open := bound{v: v}
	inf := bound{inf: true}
	switch op {
	case "COMPARE_EQUAL":
		return point(v)
	case "COMPARE_NOTEQUAL":
		return point(v).complement()
	case "COMPARE_LESSTHAN":
		return set{kind: v.kind, ivs: []interval{{lo: inf, hi: open}}}
	case "COMPARE_LESSTHANOREQUALTO":
		return set{kind: v.kind, ivs: []interval{{lo: inf, hi: b}}}
	case "COMPARE_GREATERTHAN":
		return set{kind: v.kind, ivs: []interval{{lo: open, hi: inf}}}
	}
	return set{kind: v.kind, ivs: []interval{{lo: b, hi: inf}}}
}

func column(e *sqlNode) (string, bool) {
	if e == nil || e.Class != "COLUMN_REF" || len(e.ColumnNames) == 0 {
		return "", false
	}
	return strings.ToLower(e.ColumnNames[len(e.ColumnNames)-1]), true
}

func boolValue(b bool) value {
	if b {
		return numValue(big.NewRat(1, 1), kindBool, "true")
	}
	return numValue(new(big.Rat), kindBool, "false")
}

// constant reads a literal: numbers, strings, booleans and typed strings
// (DATE '...', TIMESTAMP '...').
func constant(e *sqlNode) (value, error) {
	if e == nil {
		return value{}, errUnsupported
	}
	if e.Class == "CAST" && e.Child != nil && e.CastType != nil {
		v, err := constant(e.Child)
		if err != nil || v.kind != kindStr {
			return value{}, errUnsupported
		}
		switch t := e.CastType.ID; {
		case t == "BOOLEAN":
			switch strings.ToLower(v.str) {
			case "t", "true":
				return boolValue(true), nil
			case "f", "false":
				return boolValue(false), nil
			}
		case strings.HasPrefix(t, "DATE") || strings.HasPrefix(t, "TIMESTAMP"):
			return temporal(t, v)
		case t == "TIME":
			v.lit = "TIME " + v.lit
			return v, nil
		}
		return value{}, errUnsupported
	}
	if e.Class != "CONSTANT" || e.Value == nil || e.Value.IsNull {
		return value{}, errUnsupported
	}
	raw := e.Value.Value
	switch id := e.Value.Type.ID; id {
	case "VARCHAR":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return value{}, errUnsupported
		}
		return value{kind: kindStr, str: s, lit: quote(s)}, nil
	case "BOOLEAN":
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return value{}, errUnsupported
		}
		return boolValue(b), nil
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "DOUBLE", "FLOAT", "DECIMAL":
		r, ok := new(big.Rat).SetString(string(raw))
		if !ok {
			return value{}, errUnsupported
		}
		if id == "DECIMAL" && e.Value.Type.TypeInfo != nil && e.Value.Type.TypeInfo.Scale > 0 {
			r.Quo(r, new(big.Rat).SetFrac(big.NewInt(1).Exp(big.NewInt(10), big.NewInt(int64(e.Value.Type.TypeInfo.Scale)), nil), big.NewInt(1)))
		}
		return numValue(r, kindNum, ratText(r)), nil
	case "HUGEINT":
		var h struct {
			Upper int64  `json:"upper"`
			Lower uint64 `json:"lower"`
		}
		if json.Unmarshal(raw, &h) != nil {
			return value{}, errUnsupported
		}
		n := new(big.Int).Lsh(big.NewInt(h.Upper), 64)
		n.Add(n, new(big.Int).SetUint64(h.Lower))
		r := new(big.Rat).SetInt(n)
		return numValue(r, kindNum, ratText(r)), nil
	}
	return value{}, errUnsupported
}

// temporal parses a DATE or TIMESTAMP literal into its value: days, or
// microseconds (an instant when it has a zone or offset, else a wall
// clock). What it cannot parse is unsupported.
func temporal(typ string, v value) (value, error) {
	text := strings.TrimSpace(v.str)
	lit := strings.ReplaceAll(typ, "_", " ") + " " + v.lit
	if typ == "DATE" {
		d, err := time.Parse("2006-1-2", strings.SplitN(strings.SplitN(text, " ", 2)[0], "T", 2)[0])
		if err != nil {
			return value{}, errUnsupported
		}
		return numValue(big.NewRat(d.Unix()/86400, 1), kindDate, lit), nil
	}
	zoned := false
	var ts time.Time
	var err error
	for _, layout := range []string{"2006-1-2 15:04:05.999999999Z07:00", "2006-1-2 15:04:05.999999999Z0700", "2006-1-2 15:04:05.999999999Z07", "2006-1-2 15:04Z07:00"} {
		if ts, err = time.Parse(layout, strings.Replace(text, "T", " ", 1)); err == nil {
			zoned = true
			break
		}
	}
	if !zoned {
		for _, layout := range []string{"2006-1-2 15:04:05.999999999", "2006-1-2 15:04", "2006-1-2"} {
			if ts, err = time.Parse(layout, strings.Replace(text, "T", " ", 1)); err == nil {
				break
			}
		}
	}
	if err != nil {
		return value{}, errUnsupported
	}
	kind := kindTSLocal
	if zoned || strings.Contains(typ, "TZ") || strings.Contains(typ, "ZONE") {
		kind = kindTS
		if !zoned {
			return value{}, errUnsupported // a wall clock read in the session's zone
		}
	}
	return numValue(big.NewRat(ts.Unix()*1_000_000+int64(ts.Nanosecond()/1000), 1), kind, lit), nil
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// overlap is the result of comparing two predicates.
type overlap struct {
	disjoint bool
	// witness describes rows both predicates match (when not disjoint).
	witness string
	// sameColumns is true when both predicates constrain the same columns:
	// only then is an overlap certain to be possible in the data.
	sameColumns bool
}

// prove compares two parsed predicates (their DNF is computed once per
// predicate text). exact tells the columns whose type is known to compare
// numbers exactly (integers, decimals); on the others (floating-point, or
// of a type not known) two predicates disjoint only by differences a
// double does not keep are errRounding. nil: no column is known.
func prove(a, b *predicate, exact ...func(col string) bool) (overlap, error) {
	res, err := proveExact(a, b)
	if err != nil || !res.disjoint {
		return res, err
	}
	isExact := func(string) bool { return false }
	if len(exact) > 0 && exact[0] != nil {
		isExact = exact[0]
	}
	da, _, _ := a.normal()
	db, _, _ := b.normal()
	for _, x := range da {
		for _, y := range db {
			if conjOverlapRounded(x, y, isExact) {
				return overlap{}, errRounding
			}
		}
	}
	return res, nil
}

// conjOverlapRounded is conjOverlap with the numbers of the columns not
// exact compared as the doubles nearest to them.
func conjOverlapRounded(x, y conj, exact func(string) bool) bool {
	for k, sx := range x {
		sy, ok := y[k]
		if !ok || sx.kind != sy.kind {
			continue
		}
		if sx.kind != kindNum || exact(k) {
			if !setsIntersect(sx, sy) {
				return false
			}
			continue
		}
		if !setsIntersect(rounded(sx), rounded(sy)) {
			return false
		}
	}
	return true
}

// rounded is s with each bound the double nearest to it.
func rounded(s set) set {
	out := set{kind: s.kind, ivs: make([]interval, len(s.ivs))}
	r := func(b bound) bound {
		if b.inf {
			return b
		}
		f := b.v.f
		if math.IsInf(f, 0) {
			return b
		}
		b.v = numValue(new(big.Rat).SetFloat64(f), kindNum, b.v.lit)
		return b
	}
	for i, iv := range s.ivs {
		out.ivs[i] = interval{lo: r(iv.lo), hi: r(iv.hi)}
	}
	return out
}

func proveExact(a, b *predicate) (overlap, error) {
	da, ca, err := a.normal()
	if err != nil {
		return overlap{}, err
	}
	db, cb, err := b.normal()
	if err != nil {
		return overlap{}, err
	}
	same := slices.Equal(ca, cb)
	for _, x := range da {
		for _, y := range db {
			ok, err := conjOverlap(x, y)
			if err != nil {
				return overlap{}, err
			}
			if ok {
				m, err := and(dnf{x}, dnf{y})
				if err != nil || len(m) == 0 {
					return overlap{}, errUnsupported
				}
				// A conjunction without a constraint matches every row:
				// the overlap is certain whatever the columns.
				return overlap{witness: witness(m[0]), sameColumns: same || len(x) == 0 || len(y) == 0}, nil
			}
		}
	}
	return overlap{disjoint: true, sameColumns: same}, nil
}

// conjOverlap reports whether two conjunctions can hold together, without
// building their intersection.
func conjOverlap(x, y conj) (bool, error) {
	for k, sx := range x {
		sy, ok := y[k]
		if !ok {
			continue
		}
		if sx.kind != sy.kind {
			return false, errUnsupported
		}
		if !setsIntersect(sx, sy) {
			return false, nil
		}
	}
	return true, nil
}

func setsIntersect(a, b set) bool {
	for _, x := range a.ivs {
		for _, y := range b.ivs {
			if !(interval{lo: maxLower(x.lo, y.lo), hi: minUpper(x.hi, y.hi)}).empty() {
				return true
			}
		}
	}
	return false
}

func columnsOf(d dnf) []string {
	var cols []string
	for _, c := range d {
		for k := range c {
			if !slices.Contains(cols, k) {
				cols = append(cols, k)
			}
		}
	}
	slices.Sort(cols)
	return cols
}

// witness describes one row matching conjunction c, e.g. client_id = 23.
func witness(c conj) string {
	cols := make([]string, 0, len(c))
	for k := range c {
		cols = append(cols, k)
	}
	slices.Sort(cols)
	parts := make([]string, 0, len(cols))
	for _, k := range cols {
		parts = append(parts, describe(k, c[k]))
	}
	if len(parts) == 0 {
		return "every row"
	}
	return strings.Join(parts, " AND ")
}

// describe picks a value of s for column col, or states the range.
func describe(col string, s set) string {
	iv := s.ivs[0]
	switch {
	case !iv.lo.inf && iv.lo.incl:
		return col + " = " + iv.lo.v.lit
	case !iv.hi.inf && iv.hi.incl:
		return col + " = " + iv.hi.v.lit
	}
	if s.kind == kindNum {
		if v, ok := pickNumber(iv); ok {
			return col + " = " + ratText(v)
		}
	}
	if s.kind == kindStr && !iv.lo.inf {
		cand := iv.lo.v.str + "a"
		if iv.hi.inf || cand < iv.hi.v.str {
			return col + " = " + quote(cand)
		}
	}
	var conds []string
	if !iv.lo.inf {
		conds = append(conds, col+" > "+iv.lo.v.lit)
	}
	if !iv.hi.inf {
		conds = append(conds, col+" < "+iv.hi.v.lit)
	}
	if len(conds) == 0 {
		return col + " IS NOT NULL"
	}
	return strings.Join(conds, " AND ")
}

// pickNumber picks an integer strictly inside an open interval, else its
// midpoint.
func pickNumber(iv interval) (*big.Rat, bool) {
	one := big.NewRat(1, 1)
	switch {
	case iv.lo.inf && iv.hi.inf:
		return new(big.Rat), true
	case iv.lo.inf:
		return floorRat(new(big.Rat).Sub(iv.hi.v.num, one)), true
	case iv.hi.inf:
		return new(big.Rat).Add(floorRat(iv.lo.v.num), one), true
	}
	c := new(big.Rat).Add(floorRat(iv.lo.v.num), one)
	if c.Cmp(iv.hi.v.num) < 0 {
		return c, true
	}
	mid := new(big.Rat).Add(iv.lo.v.num, iv.hi.v.num)
	return mid.Quo(mid, big.NewRat(2, 1)), true
}

func floorRat(r *big.Rat) *big.Rat {
	q := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: floor for positive denominators
	return new(big.Rat).SetInt(q)
}
