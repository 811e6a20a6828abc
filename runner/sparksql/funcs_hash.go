package sparksql

import (
	"strings"
)

// hashFamily is one of Spark's hash expressions folded over its
// arguments: each argument hashed with the previous hash as its seed
// (Spark's seed 42 first), NULLs skipped, by a function of the local
// engine computing one step per Spark type (Spark's hashInt of booleans,
// bytes, shorts, ints and dates; hashLong of longs, timestamps and
// decimals of at most 18 digits; the UTF-8 bytes of a string; Java's bits
// of a float or double; BigInteger's bytes of a wider decimal), arrays
// element by element and structs field by field. A map is Spark's
// HASH_MAP_TYPE.
type hashFamily struct {
	name      string // Spark's function
	step, dec string // the local engine's functions (runner/engine/local)
	seed      string // DuckDB's type of the hash
	out       *Type
	intervals bool // year-month intervals hashed as ints, day-time as longs
}

var (
	xxhashFamily = &hashFamily{name: "xxhash64", step: "spark_xxhash64", dec: "spark_xxhash64_decimal", seed: "BIGINT", out: tLong}
	murmurFamily = &hashFamily{name: "hash", step: "spark_hash", dec: "spark_hash_decimal", seed: "INTEGER", out: tInt, intervals: true}
	xxhash64     = withNote(fn("xxhash64", Rewritten, 1, -1, xxhashFamily.call), "Spark's XxHash64 (seed 42) through spark_xxhash64, arrays and structs element by element; of an interval refused")
	murmur3Hash  = withNote(fn("hash", Rewritten, 0, -1, murmurFamily.call), "Spark's Murmur3 (seed 42) through spark_hash, arrays and structs element by element")
)

func (hf *hashFamily) call(c *fcall) (*rx, error) {
	if len(c.args) == 0 {
		return nil, sparkErr(c.pos(), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `%s` requires > 0 parameters but the actual number is 0.", hf.name)
	}
	for i, a := range c.args {
		if hasMap(a.t) {
			return nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.HASH_MAP_TYPE", "Cannot resolve \"%s\" due to data type mismatch: Input to the function `%s` cannot contain elements of the \"MAP\" type. In Spark, same maps may have different hashcode, thus hash expressions are prohibited on \"MAP\" elements. To restore previous behavior set \"spark.sql.legacy.allowHashOnMapType\" to \"true\".", c.name, hf.name)
		}
	}
	h := "CAST(42 AS " + hf.seed + ")"
	for i, a := range c.args {
		var err error
		if h, err = hf.hashStep(c, i, a.sql, a.t, h); err != nil {
			return nil, err
		}
	}
	return c.out(hf.out, h), nil
}

// hashStep is the hash of x (of type t) with seed h.
func (hf *hashFamily) hashStep(c *fcall, i int, x string, t *Type, h string) (string, error) {
	step := func(v string) string { return hf.step + "(" + v + ", " + h + ")" }
	switch t.Kind {
	case KVoid:
		return h, nil
	case KBool, KByte, KShort, KInt:
		return step("CAST(" + x + " AS INTEGER)"), nil
	case KLong:
		return step("CAST(" + x + " AS BIGINT)"), nil
	case KFloat:
		return step("CAST(" + x + " AS FLOAT)"), nil
	case KDouble:
		return step("CAST(" + x + " AS DOUBLE)"), nil
	case KString, KBinary:
		return step(x), nil
	case KDate:
		return step("CAST((" + x + ") - DATE '1970-01-01' AS INTEGER)"), nil
	case KTimestamp, KTimestampNTZ:
		return step("epoch_us(" + x + ")"), nil
	case KIntervalYM:
		if hf.intervals {
			return step("CAST(datepart('year', " + x + ") * 12 + datepart('month', " + x + ") AS INTEGER)"), nil
		}
	case KIntervalDT:
		if hf.intervals {
			return step("epoch_us(" + x + ")"), nil
		}
	case KDecimal:
		// The unscaled value: DuckDB prints a decimal with all the digits
		// of its scale.
		digits := "replace(CAST(" + x + " AS VARCHAR), '.', '')"
		if t.P <= 18 {
			return step("CAST(" + digits + " AS BIGINT)"), nil
		}
		return hf.dec + "(" + digits + ", " + h + ")", nil
	case KArray:
		// list_reduce's accumulator has the elements' type: both are a
		// (hash, element) pair, the hash folded over the elements.
		xv, hv, acc, e := c.r.lambdaName(), c.r.lambdaName(), c.r.lambdaName(), c.r.lambdaName()
		inner, err := hf.hashStep(c, i, e+".v", t.Elem, acc+".h")
		if err != nil {
			return "", err
		}
		el := t.Elem.DuckDB()
		return "list_transform([" + x + "], " + xv + " -> list_transform([" + h + "], " + hv + " -> CASE WHEN " + xv + " IS NULL THEN " + hv +
			" ELSE list_reduce(list_transform(" + xv + ", " + e + " -> struct_pack(h := CAST(0 AS " + hf.seed + "), v := " + e + ")), (" + acc + ", " + e + ") -> struct_pack(h := " + inner + ", v := " + e + ".v), struct_pack(h := " + hv + ", v := CAST(NULL AS " + el + "))).h END)[1])[1]", nil
	case KStruct:
		xv, hv := c.r.lambdaName(), c.r.lambdaName()
		inner := hv
		for _, f := range t.Fields {
			var err error
			if inner, err = hf.hashStep(c, i, "struct_extract("+xv+", "+duckString(f.Name)+")", f.Type, inner); err != nil {
				return "", err
			}
		}
		return "list_transform([" + x + "], " + xv + " -> list_transform([" + h + "], " + hv + " -> CASE WHEN " + xv + " IS NULL THEN " + hv + " ELSE " + inner + " END)[1])[1]", nil
	}
	return "", unsupported(c.argPos(i), "", "%s of %s (Spark's hash of an interval is not reproduced)", hf.name, strings.ToUpper(t.String()))
}
