package sparksql

import (
	"strings"
)

// xxhash64 is Spark's XxHash64 (seed 42): a fold over the arguments, each
// hashed with the previous hash as its seed, NULLs skipped, as the local
// engine's spark_xxhash64 computes one step for each Spark type (Spark's
// hashInt of booleans, bytes, shorts, ints and dates; hashLong of longs,
// timestamps and decimals of at most 18 digits; the UTF-8 bytes of a
// string; Java's bits of a float or double; BigInteger's bytes of a wider
// decimal), arrays element by element and structs field by field. A map
// is Spark's HASH_MAP_TYPE; an interval is refused.
var xxhash64 = withNote(fn("xxhash64", Rewritten, 1, -1, func(c *fcall) (*rx, error) {
	for i, a := range c.args {
		if hasMap(a.t) {
			return nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.HASH_MAP_TYPE", "Cannot resolve \"%s\" due to data type mismatch: Input to the function `xxhash64` cannot contain elements of the \"MAP\" type. In Spark, same maps may have different hashcode, thus hash expressions are prohibited on \"MAP\" elements. To restore previous behavior set \"spark.sql.legacy.allowHashOnMapType\" to \"true\".", c.name)
		}
	}
	h := "CAST(42 AS BIGINT)"
	for i, a := range c.args {
		var err error
		if h, err = c.xxhashStep(i, a.sql, a.t, h); err != nil {
			return nil, err
		}
	}
	return c.out(tLong, h), nil
}), "Spark's XxHash64 (seed 42) through spark_xxhash64, arrays and structs element by element; of an interval refused")

// xxhashStep is the hash of x (of type t) with seed h.
func (c *fcall) xxhashStep(i int, x string, t *Type, h string) (string, error) {
	step := func(v string) string { return "spark_xxhash64(" + v + ", " + h + ")" }
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
	case KDecimal:
		// The unscaled value: DuckDB prints a decimal with all the digits
		// of its scale.
		digits := "replace(CAST(" + x + " AS VARCHAR), '.', '')"
		if t.P <= 18 {
			return step("CAST(" + digits + " AS BIGINT)"), nil
		}
		return "spark_xxhash64_decimal(" + digits + ", " + h + ")", nil
	case KArray:
		// list_reduce's accumulator has the elements' type: both are a
		// (hash, element) pair, the hash folded over the elements.
		xv, hv, acc, e := c.r.lambdaName(), c.r.lambdaName(), c.r.lambdaName(), c.r.lambdaName()
		inner, err := c.xxhashStep(i, e+".v", t.Elem, acc+".h")
		if err != nil {
			return "", err
		}
		el := t.Elem.DuckDB()
		return "list_transform([" + x + "], " + xv + " -> list_transform([" + h + "], " + hv + " -> CASE WHEN " + xv + " IS NULL THEN " + hv +
			" ELSE list_reduce(list_transform(" + xv + ", " + e + " -> struct_pack(h := CAST(0 AS BIGINT), v := " + e + ")), (" + acc + ", " + e + ") -> struct_pack(h := " + inner + ", v := " + e + ".v), struct_pack(h := " + hv + ", v := CAST(NULL AS " + el + "))).h END)[1])[1]", nil
	case KStruct:
		xv, hv := c.r.lambdaName(), c.r.lambdaName()
		inner := hv
		for _, f := range t.Fields {
			var err error
			if inner, err = c.xxhashStep(i, "struct_extract("+xv+", "+duckString(f.Name)+")", f.Type, inner); err != nil {
				return "", err
			}
		}
		return "list_transform([" + x + "], " + xv + " -> list_transform([" + h + "], " + hv + " -> CASE WHEN " + xv + " IS NULL THEN " + hv + " ELSE " + inner + " END)[1])[1]", nil
	}
	return "", unsupported(c.argPos(i), "", "xxhash64 of %s (Spark's hash of an interval is not reproduced)", strings.ToUpper(t.String()))
}
