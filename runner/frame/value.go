package frame

import (
	"fmt"
	"strconv"
	"strings"
)

// The values an evaluated argument can hold: Python values (nil for
// None, bool, int64, float64, string, *pyList, *pyTuple, *pyDict),
// modules, callables, data types and column expressions (Expr).

// pyList is a Python list.
type pyList struct{ elts []value }

// pyTuple is a Python tuple.
type pyTuple struct{ elts []value }

// pyDict is a Python dict (keys in insertion order).
type pyDict struct {
	keys, vals []value
}

// value is any evaluated value.
type value any

// module is a module or class namespace reachable by name: nw, pl, F, T,
// nw.dtypes, nw.laktory.
type module struct {
	path string // "nw", "nw.dtypes", "pl", "F", "T"
}

// callable is a function of a module or a method bound to its receiver.
type callable struct {
	// key names the implementation in a table: "nw.col", "nw.Expr.round",
	// "nw.Expr.str.slice", "F.Column.alias", "T.IntegerType".
	key  string
	name string // the Python name, for messages: "col", "round"
	recv value  // the bound receiver (an Expr, a when-chain), or nil
}

// namespace is an expression namespace (x.str, x.dt, x.list, x.struct,
// x.laktory) bound to its expression.
type namespace struct {
	family string // "nw" or "pl"
	name   string // "str", "dt", ...
	x      Expr
}

// dtypeVal is a data type value: the class (nw.Int64) or an instance
// (nw.Int64(), nw.Datetime("us")), of narwhals, Polars or PySpark.
type dtypeVal struct {
	family string // "nw", "pl" or "T"
	name   string // class name: Int64, Datetime, IntegerType
	class  bool   // the class itself, not called
	pl     *DType // the Polars type it means (nw and pl)
	spark  string // the Spark SQL type it means (T, and nw on PYSPARK)
	args   string // the call's arguments, for repr
}

// Expr is a column expression of one of the engines.
type Expr interface {
	exprFamily() string // "nw", "pl" or "F"
	position() int
}

// pyType is Python's type name of a value, for TypeError messages.
func pyType(v value) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []byte:
		return "bytes"
	case *pyList:
		return "list"
	case *pyTuple:
		return "tuple"
	case *pyDict:
		return "dict"
	case *module:
		return "module"
	case *callable:
		return "function"
	case *dtypeVal:
		if x.class {
			return "type"
		}
		return x.name
	case *namespace:
		return "ExprNameSpace"
	case Expr:
		switch x.exprFamily() {
		case "nw":
			return "Expr"
		case "pl":
			return "Expr"
		case "F":
			return "Column"
		}
	case *whenChain:
		return "When"
	}
	return fmt.Sprintf("%T", v)
}

// repr is Python's repr of a plain value.
func repr(v value) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return pyFloat(x)
	case string:
		return pyStr(x)
	case *pyList:
		return "[" + reprList(x.elts) + "]"
	case *pyTuple:
		if len(x.elts) == 1 {
			return "(" + repr(x.elts[0]) + ",)"
		}
		return "(" + reprList(x.elts) + ")"
	case *pyDict:
		parts := make([]string, len(x.keys))
		for i := range x.keys {
			parts[i] = repr(x.keys[i]) + ": " + repr(x.vals[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *dtypeVal:
		if x.class || x.args == "" && x.family == "nw" {
			return x.name
		}
		return x.name + "(" + x.args + ")"
	}
	return "<" + pyType(v) + ">"
}

func reprList(vs []value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = repr(v)
	}
	return strings.Join(parts, ", ")
}

// pyStr is Python's repr of a str.
func pyStr(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case string(r) == q:
			b.WriteString(`\` + q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(q)
	return b.String()
}

// pyFloat is Python's repr of a float.
func pyFloat(f float64) string {
	switch {
	case f != f:
		return "nan"
	case f > 1.7976931348623157e308:
		return "inf"
	case f < -1.7976931348623157e308:
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'r', -1, 64)
	if strings.ContainsAny(s, "e") {
		// Python writes 1e+20, Go 1e+20: both keep at least two exponent digits.
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[:1]
		digits := strings.TrimLeft(exp[1:], "0")
		if len(digits) < 2 {
			digits = fmt.Sprintf("%02s", digits)
		}
		return mant + "e" + sign + digits
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// truthy is Python's bool() of a plain value; ok is false for values
// whose truth Python cannot take here (expressions raise).
func truthy(v value) (bool, bool) {
	switch x := v.(type) {
	case nil:
		return false, true
	case bool:
		return x, true
	case int64:
		return x != 0, true
	case float64:
		return x != 0, true
	case string:
		return x != "", true
	case *pyList:
		return len(x.elts) > 0, true
	case *pyTuple:
		return len(x.elts) > 0, true
	case *pyDict:
		return len(x.keys) > 0, true
	case *module, *callable, *dtypeVal:
		return true, true
	}
	return false, false
}

// elements returns the items of a list or tuple.
func elements(v value) ([]value, bool) {
	switch x := v.(type) {
	case *pyList:
		return x.elts, true
	case *pyTuple:
		return x.elts, true
	}
	return nil, false
}
