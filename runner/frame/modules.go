package frame

import (
	"strings"
)

// moduleAttr is the attribute name of a module in scope: a function, a
// data type or a submodule. ok is false when the library has no such
// name (Laktory fails with AttributeError).
func moduleAttr(path, name string, api API) (value, bool) {
	names := libraryNames[path]
	if path == "nw.laktory" {
		names = map[string]byte{"current_timestamp": 'c', "sql_expr": 'c'}
	}
	if path == "nw" && name == "sql_expr" && api == Narwhals {
		// Laktory rewrites nw.sql_expr into its own sql_expr before eval.
		return &callable{key: "laktory.sql_expr", name: "sql_expr"}, true
	}
	if _, ok := names[name]; !ok {
		return nil, false
	}
	switch {
	case path == "nw" && name == "dtypes":
		return &module{path: "nw.dtypes"}, true
	case path == "nw" && name == "laktory":
		return &module{path: "nw.laktory"}, true
	case (path == "nw" || path == "nw.dtypes") && isDtypeName(name):
		return &dtypeVal{family: "nw", name: name, class: true}, true
	case path == "pl" && isPolarsDtype(name):
		return &dtypeVal{family: "pl", name: name, class: true}, true
	case path == "T":
		return &dtypeVal{family: "T", name: name, class: true}, true
	}
	return &callable{key: path + "." + name, name: name}, true
}

func isDtypeName(n string) bool {
	switch n {
	case "Array", "Binary", "Boolean", "Categorical", "Date", "Datetime", "Decimal", "Duration", "Enum", "Float16",
		"Float32", "Float64", "Int128", "Int16", "Int32", "Int64", "Int8", "List", "Object", "String", "Struct", "Time",
		"UInt128", "UInt16", "UInt32", "UInt64", "UInt8", "Unknown", "Map":
		return true
	}
	return false
}

func isPolarsDtype(n string) bool {
	if isDtypeName(n) {
		return true
	}
	switch n {
	case "Utf8", "Null", "Float", "Int", "Integer":
		return n == "Utf8" || n == "Null"
	}
	return false
}

// hasLibraryName reports whether owner ("nw.Expr", "pl.Expr.str",
// "F.Column", "nw.LazyFrame") has a public attribute name.
func hasLibraryName(owner, name string) bool {
	_, ok := libraryNames[owner][name]
	return ok
}

// exprNamespaces are the namespaces of expressions, by family.
var exprNamespaces = map[string]bool{"str": true, "dt": true, "list": true, "struct": true, "name": true, "cat": true, "laktory": true, "arr": true}

// dtypeCall builds a data type instance: nw.Datetime("us", "UTC"),
// pl.Datetime(time_zone="UTC"), T.DecimalType(10, 2), nw.List(nw.Int64).
func dtypeCall(c *call, d *dtypeVal) (value, error) {
	out := &dtypeVal{family: d.family, name: d.name}
	c.fn = &callable{key: d.family + "." + d.name, name: d.name}
	var parts []string
	for _, a := range c.args {
		parts = append(parts, repr(a))
	}
	for i, k := range c.kwNames {
		parts = append(parts, k+"="+repr(c.kwVals[i]))
	}
	out.args = strings.Join(parts, ", ")
	switch d.family {
	case "nw", "pl":
		var a *args
		var err error
		switch d.name {
		case "Datetime":
			a, err = c.bind("time_unit='us', time_zone=None")
		case "Duration":
			a, err = c.bind("time_unit='us'")
		case "Decimal":
			a, err = c.bind("precision=None, scale=0")
		case "List", "Array":
			a, err = c.bind("inner, shape=None")
		case "Struct":
			a, err = c.bind("fields")
		default:
			a, err = c.bind("")
		}
		if err != nil {
			return nil, err
		}
		out.args = strings.Join(parts, ", ")
		t, err := polarsDtype(d.name, a)
		if err != nil {
			return nil, err
		}
		out.pl = t
	case "T":
		s, err := sparkTypeCall(c, d.name)
		if err != nil {
			return nil, err
		}
		out.spark = s
	}
	return out, nil
}

// polarsDtype is the Polars type of a narwhals or Polars data type (a
// class is its default instance).
func polarsDtype(name string, a *args) (*DType, error) {
	switch name {
	case "Boolean":
		return dBool, nil
	case "Int8":
		return dInt8, nil
	case "Int16":
		return dInt16, nil
	case "Int32":
		return dInt32, nil
	case "Int64":
		return dInt64, nil
	case "UInt8":
		return dUInt8, nil
	case "UInt16":
		return dUInt16, nil
	case "UInt32":
		return dUInt32, nil
	case "UInt64":
		return dUInt64, nil
	case "Float32":
		return dFloat32, nil
	case "Float64":
		return dFloat64, nil
	case "String", "Utf8":
		return dString, nil
	case "Binary":
		return dBinary, nil
	case "Date":
		return dDate, nil
	case "Time":
		return dTime, nil
	case "Null":
		return dNull, nil
	case "Datetime", "Duration":
		unit, zone := "us", ""
		if a != nil {
			if u, ok := a.get("time_unit").(string); ok {
				unit = u
			}
			if z, ok := a.get("time_zone").(string); ok {
				zone = z
			}
		}
		if unit != "us" && unit != "ms" && unit != "ns" {
			return nil, laktoryErr(a.posOf("time_unit"), "ValueError: invalid `time_unit`: expected one of {'ns', 'us', 'ms'}, got %s", pyStr(unit))
		}
		if name == "Duration" {
			return &DType{Kind: DDuration, Unit: unit}, nil
		}
		switch zone {
		case "", "UTC", "Etc/UTC":
		default:
			return nil, unsupportedAt(a.posOf("time_zone"), "use time_zone=\"UTC\" (the lake stores instants)", "a Datetime in the time zone %s", zone)
		}
		return &DType{Kind: DDatetime, Unit: unit, Zone: zone}, nil
	case "Decimal":
		p, s := int64(38), int64(0)
		if a != nil {
			if v, ok := a.get("precision").(int64); ok {
				p = v
			}
			if v, ok := a.get("scale").(int64); ok {
				s = v
			}
		}
		return &DType{Kind: DDecimal, P: int(p), S: int(s)}, nil
	case "List":
		if a == nil {
			return nil, unsupportedAt(-1, "", "List without an inner type")
		}
		inner, ok := a.get("inner").(*dtypeVal)
		if !ok || inner.pl == nil && !inner.class {
			return nil, unsupportedAt(a.posOf("inner"), "", "this inner type of a List")
		}
		it := inner.pl
		if inner.class {
			var err error
			if it, err = polarsDtype(inner.name, nil); err != nil {
				return nil, err
			}
		}
		return listOf(it), nil
	}
	return nil, unsupportedAt(-1, "", "the data type %s", name)
}

// plType is the Polars type a dtype value means.
func plType(v value, pos int) (*DType, error) {
	d, ok := v.(*dtypeVal)
	if !ok {
		if s, isStr := v.(string); isStr {
			return nil, laktoryErr(pos, "TypeError: cannot parse input of type 'str' into Polars data type (given: %s)", pyStr(s))
		}
		return nil, laktoryErr(pos, "TypeError: cannot parse input of type '%s' into Polars data type", pyType(v))
	}
	if d.family == "T" {
		return nil, laktoryErr(pos, "TypeError: cannot parse input of type '%s' into Polars data type", d.name)
	}
	if d.pl != nil {
		return d.pl, nil
	}
	t, err := polarsDtype(d.name, nil)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Pos < 0 {
			e.Pos = pos
		}
		return nil, err
	}
	return t, nil
}
