package sparksql

import (
	"strings"
)

// Scalar functions of landing-data cleaning: number bases (conv, bin),
// bucketing (width_bucket), masking (mask) and interval constructors
// (make_dt_interval, make_ym_interval), each computed as Spark computes
// it.

var tDec18s6 = &Type{Kind: KDecimal, P: 18, S: 6}

func cleanFuncs() []*fnDef {
	return []*fnDef{
		// conv: NumberConverter.convert of the trimmed text through an
		// unsigned 64-bit value (spark_conv, a function of the local
		// engine); an overflow is ANSI's ARITHMETIC_OVERFLOW.
		fn("conv", Rewritten, 3, 3, func(c *fcall) (*rx, error) {
			num, err := c.typed(0, tString)
			if err != nil {
				return nil, err
			}
			from, err := c.typed(1, tInt)
			if err != nil {
				return nil, err
			}
			to, err := c.typed(2, tInt)
			if err != nil {
				return nil, err
			}
			v := "spark_conv(trim(" + num.sql + "), " + from.sql + ", " + to.sql + ")"
			return c.out(tString, "list_transform(["+v+"], m_cv -> CASE WHEN m_cv = '!overflow' THEN error('[ARITHMETIC_OVERFLOW] Overflow in function conv(). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.') ELSE m_cv END)[1]"), nil
		}),
		// bin: Long.toBinaryString, two's complement of a negative long.
		fn("bin", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.toLong(0)
			if err != nil {
				return nil, err
			}
			return c.out(tString, "bin(CAST("+x.sql+" AS BIGINT))"), nil
		}),
		fn("width_bucket", Rewritten, 4, 4, widthBucket),
		fn("mask", Rewritten, 1, 5, func(c *fcall) (*rx, error) {
			s, err := c.typed(0, tString)
			if err != nil {
				return nil, err
			}
			chars := []string{"'X'", "'x'", "'n'", "NULL"}
			for i := 1; i < len(c.args); i++ {
				a := c.args[i]
				if !a.foldable {
					return nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "Cannot resolve %s due to data type mismatch: the input %s should be a foldable \"STRING\" expression; however, got %s.", quoteSparkSQL(c.name), maskArgNames[i], quoteSparkSQL(a.name))
				}
				if a.t.Kind == KVoid {
					chars[i-1] = "NULL"
					continue
				}
				v, _, err := c.litStr(i, "a mask character")
				if err != nil {
					return nil, err
				}
				if a.t.Kind != KString {
					return nil, c.wrongType(i, "\"STRING\"")
				}
				if len([]rune(v)) != 1 {
					return nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE", "Cannot resolve %s due to data type mismatch: Length of %s should be 1.", quoteSparkSQL(c.name), maskArgNames[i])
				}
				chars[i-1] = duckString(v)
			}
			return c.out(tString, "spark_mask("+s.sql+", "+strings.Join(chars, ", ")+")"), nil
		}),
		fn("make_dt_interval", Rewritten, 0, 4, func(c *fcall) (*rx, error) {
			parts := []string{"0", "0", "0", "0"}
			for i := range c.args {
				t := tInt
				if i == 3 {
					t = tDec18s6
				}
				x, err := c.typed(i, t)
				if err != nil {
					return nil, err
				}
				parts[i] = x.sql
			}
			us := "(CAST(" + parts[0] + " AS HUGEINT) * 86400000000 + CAST(" + parts[1] + " AS HUGEINT) * 3600000000 + CAST(" + parts[2] + " AS HUGEINT) * 60000000 + CAST(CAST(" + parts[3] + " AS DECIMAL(18,6)) * 1000000 AS HUGEINT))"
			return c.out(tDaySec, "list_transform(["+us+"], m_mdt -> CASE WHEN m_mdt NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN error('[ARITHMETIC_OVERFLOW] long overflow') ELSE to_microseconds(CAST(m_mdt AS BIGINT)) END)[1]"), nil
		}),
		fn("make_ym_interval", Rewritten, 0, 2, func(c *fcall) (*rx, error) {
			parts := []string{"0", "0"}
			for i := range c.args {
				x, err := c.typed(i, tInt)
				if err != nil {
					return nil, err
				}
				parts[i] = x.sql
			}
			m := "(CAST(" + parts[0] + " AS BIGINT) * 12 + CAST(" + parts[1] + " AS BIGINT))"
			return c.out(tYearMonth, "list_transform(["+m+"], m_mym -> CASE WHEN m_mym NOT BETWEEN -2147483648 AND 2147483647 THEN error('[ARITHMETIC_OVERFLOW] integer overflow') ELSE to_months(CAST(m_mym AS INTEGER)) END)[1]"), nil
		}),
	}
}

var maskArgNames = []string{"input", "upperChar", "lowerChar", "digitChar", "otherChar"}

// widthBucket is Spark's WidthBucket.computeBucketNumber over doubles (or
// the months or microseconds of intervals of one kind): NULL for a
// bucket count that is not positive or is Long.MaxValue, a NaN value, equal
// bounds, or bounds that are NaN or infinite; 0 below the range, n + 1 at
// its end or beyond, else the truncated n * (v - lower) / (upper - lower)
// + 1 (mirrored for min > max).
func widthBucket(c *fcall) (*rx, error) {
	var vs [3]string
	kind := c.args[0].t.Kind
	for i := 0; i < 3; i++ {
		a := c.args[i]
		switch {
		case (kind == KIntervalYM || kind == KIntervalDT) && (a.t.Kind == kind || a.t.Kind == KVoid):
			if kind == KIntervalYM {
				vs[i] = "CAST(datepart('year', " + a.sql + ") * 12 + datepart('month', " + a.sql + ") AS DOUBLE)"
			} else {
				vs[i] = "CAST(epoch_us(" + a.sql + ") AS DOUBLE)"
			}
		default:
			x, err := c.typed(i, tDouble)
			if err != nil {
				return nil, err
			}
			vs[i] = x.sql
		}
	}
	n, err := c.typed(3, tLong)
	if err != nil {
		return nil, err
	}
	v, lo, hi := "m_wbv", "m_wbl", "m_wbh"
	body := "CASE WHEN " + v + " IS NULL OR " + lo + " IS NULL OR " + hi + " IS NULL OR m_wbn IS NULL OR m_wbn <= 0 OR m_wbn = 9223372036854775807 OR isnan(" + v + ") OR " + lo + " = " + hi +
		" OR NOT isfinite(" + lo + ") OR NOT isfinite(" + hi + ") THEN NULL" +
		" WHEN " + lo + " < " + hi + " THEN CASE WHEN " + v + " < " + lo + " THEN 0 WHEN " + v + " >= " + hi + " THEN m_wbn + 1 ELSE CAST(trunc(CAST(m_wbn AS DOUBLE) * (" + v + " - " + lo + ") / (" + hi + " - " + lo + ")) AS BIGINT) + 1 END" +
		" ELSE CASE WHEN " + v + " > " + lo + " THEN 0 WHEN " + v + " <= " + hi + " THEN m_wbn + 1 ELSE CAST(trunc(CAST(m_wbn AS DOUBLE) * (" + lo + " - " + v + ") / (" + lo + " - " + hi + ")) AS BIGINT) + 1 END END"
	sql := "list_transform([struct_pack(v := CAST(" + vs[0] + " AS DOUBLE), l := CAST(" + vs[1] + " AS DOUBLE), h := CAST(" + vs[2] + " AS DOUBLE), n := CAST(" + n.sql + " AS BIGINT))], m_wb -> list_transform([m_wb.v], " + v + " -> list_transform([m_wb.l], " + lo + " -> list_transform([m_wb.h], " + hi + " -> list_transform([m_wb.n], m_wbn -> " + body + ")[1])[1])[1])[1])[1]"
	return c.out(tLong, sql), nil
}

// toLong is argument i as Spark's implicit cast to BIGINT of bin and hex
// makes it: any number, a double or decimal truncated (ANSI's overflow
// check), a string read as one.
func (c *fcall) toLong(i int) (*rx, error) {
	if x := c.args[i]; x.t.isNumeric() {
		return c.r.cast(x, tLong, castImplicit)
	}
	return c.typed(i, tLong)
}
