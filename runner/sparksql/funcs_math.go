package sparksql

import (
	"fmt"
	"strings"
)

var mathMacros = []macro{
	// Spark rounds doubles through their shortest decimal text, half up
	// (round) or half even (bround). The text is costly (30 us a row, the
	// whole cost of a 4M-row PYSPARK pipeline's round()): where x * 10^d
	// lies farther from a half than the error of that product and of the
	// text (under 1e-15 of it), both round it to the same integer k, and
	// k / 10^d (exact operands, one correctly rounded division) is the
	// double nearest the decimal result, which is what the text's path
	// reads back; + 0.0 makes a zero positive, as a decimal zero is.
	{"spark_round_double", "x, d", "CASE WHEN x IS NULL THEN NULL WHEN isnan(x) OR isinf(x) THEN x WHEN abs(x) >= 1e20 THEN CASE WHEN d >= 0 THEN x ELSE round(x, d) END " +
		"WHEN d >= 0 AND d <= 15 AND abs(x * pow(10.0, d)) < 1e15 AND abs(abs(x * pow(10.0, d) - trunc(x * pow(10.0, d))) - 0.5) > abs(x * pow(10.0, d)) * 1e-14 " +
		"THEN round(x * pow(10.0, d)) / pow(10.0, d) + 0.0 " +
		"ELSE CAST(round(CAST(CAST(x AS VARCHAR) AS DECIMAL(38,18)), d) AS DOUBLE) END"},
	// DuckDB's round_even of a DECIMAL rounds its DOUBLE: half even on the
	// exact unscaled value instead, read back from its digits.
	{"spark_bround_double", "x, d", "CASE WHEN x IS NULL THEN NULL WHEN isnan(x) OR isinf(x) THEN x WHEN abs(x) >= 1e20 THEN CASE WHEN d >= 0 THEN x ELSE round_even(x, d) END " +
		"WHEN d >= 18 THEN CAST(CAST(CAST(x AS VARCHAR) AS DECIMAL(38,18)) AS DOUBLE) WHEN d <= -20 THEN 0.0 * x " +
		"ELSE CAST(CAST(spark_div_half_even(CAST(replace(CAST(CAST(CAST(x AS VARCHAR) AS DECIMAL(38,18)) AS VARCHAR), '.', '') AS HUGEINT), CAST('1' || repeat('0', 18 - d) AS HUGEINT)) AS VARCHAR) || 'e' || CAST(-d AS VARCHAR) AS DOUBLE) END"},
	// Spark's pmod: r = a % n; if r < 0 then (r + n) % n else r.
	{"spark_pmod", "a, b", "CASE WHEN b = 0 THEN error(" + sqlq(msgRemainder) + ") WHEN a % b < 0 THEN (a % b + b) % b ELSE a % b END"},
	{"spark_pfmod", "a, b", "CASE WHEN b = 0 THEN error(" + sqlq(msgRemainder) + ") WHEN a % b < 0 THEN (a % b + b) % b ELSE a % b END"},
	{"spark_log", "x", "CASE WHEN x <= 0 THEN NULL ELSE ln(x) END"},
}

// doubleFn: f(x, ...) over doubles (arguments implicitly cast).
func doubleFn(name string, s Support, n int, format string) *fnDef {
	return fn(name, s, n, n, func(c *fcall) (*rx, error) {
		args := make([]any, n)
		for i := range n {
			x, err := c.typed(i, tDouble)
			if err != nil {
				return nil, err
			}
			args[i] = x.sql
		}
		return c.out(tDouble, fmt.Sprintf(format, args...)), nil
	})
}

func mathFuncs() []*fnDef {
	round := func(name, dmacro, decfn string) *fnDef {
		return fn(name, Rewritten, 1, 2, func(c *fcall) (*rx, error) {
			d := 0
			if len(c.args) == 2 {
				var err error
				if d, err = c.litInt(1, "scale"); err != nil {
					return nil, err
				}
			} else {
				c.name = strings.TrimSuffix(c.name, ")") + ", 0)"
			}
			x := c.args[0]
			switch {
			case x.t.Kind == KDecimal:
				t := roundedDecimal(x.t, d)
				if decfn == "round_even" {
					return c.out(t, decimalRoundSQL(x.sql, x.t, d, "spark_div_half_even", t)), nil
				}
				return c.out(t, fmt.Sprintf("CAST(%s(%s, %d) AS %s)", decfn, x.sql, d, t.DuckDB())), nil
			case x.t.isIntegral():
				if d >= 0 {
					return c.out(x.t, x.sql), nil
				}
				if decfn == "round_even" {
					return c.out(x.t, "CAST("+decimalRoundSQL("CAST("+x.sql+" AS DECIMAL(38,0))", decimalType(38, 0), d, "spark_div_half_even", decimalType(38, 0))+" AS "+x.t.DuckDB()+")"), nil
				}
				return c.out(x.t, fmt.Sprintf("CAST(%s(CAST(%s AS DECIMAL(38,0)), %d) AS %s)", decfn, x.sql, d, x.t.DuckDB())), nil
			case x.t.isFractional():
				sql := fmt.Sprintf("%s(CAST(%s AS DOUBLE), %d)", dmacro, x.sql, d)
				if x.t.Kind == KFloat {
					sql = "CAST(" + sql + " AS FLOAT)"
				}
				return c.out(x.t, sql), nil
			case x.t.Kind == KString || x.t.Kind == KVoid:
				y, err := c.typed(0, tDouble)
				if err != nil {
					return nil, err
				}
				return c.out(tDouble, fmt.Sprintf("%s(%s, %d)", dmacro, y.sql, d)), nil
			}
			return nil, c.wrongType(0, "NUMERIC")
		})
	}
	ceilFloor := func(name, duck string) *fnDef {
		return fn(name, Rewritten, 1, 2, func(c *fcall) (*rx, error) {
			x := c.args[0]
			if len(c.args) == 2 {
				d, err := c.litInt(1, "scale")
				if err != nil {
					return nil, err
				}
				if x.t.Kind != KDecimal {
					return nil, unsupported(c.argPos(0), "", "%s with a scale on a %s", name, x.t)
				}
				t := roundedDecimal(x.t, d)
				return c.out(t, decimalRoundSQL(x.sql, x.t, d, "spark_div_"+duck, t)), nil
			}
			c.name = strings.ToUpper(name) + c.name[len(name):]
			switch {
			case x.t.Kind == KDecimal:
				t := decimalType(min(38, x.t.P-x.t.S+1), 0)
				return c.out(t, fmt.Sprintf("CAST(%s(%s) AS %s)", duck, x.sql, t.DuckDB())), nil
			case x.t.isIntegral():
				y, _ := c.r.cast(x, tLong, castImplicit)
				return c.out(tLong, y.sql), nil
			}
			y, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			return c.out(tLong, fmt.Sprintf("CAST(%s(%s) AS BIGINT)", duck, y.sql)), nil
		})
	}
	logFn := func(name, inner string) *fnDef {
		return fn(name, Macro, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			return c.out(tDouble, fmt.Sprintf("CASE WHEN %[1]s <= 0 THEN NULL ELSE %[2]s(%[1]s) END", x.sql, inner)), nil
		})
	}
	pmod := fn("pmod", Macro, 2, 2, func(c *fcall) (*rx, error) {
		m, err := c.r.arith("%", c.args[0], c.args[1], c.node.P)
		if err != nil {
			return nil, err
		}
		sql := strings.Replace(m.sql, "spark_mod(", "spark_pmod(", 1)
		sql = strings.Replace(sql, "spark_fmod(", "spark_pfmod(", 1)
		return c.out(m.t, sql), nil
	})
	extreme := func(name string) *fnDef {
		return fn(name, Same, 2, -1, func(c *fcall) (*rx, error) {
			var ts []*Type
			for _, a := range c.args {
				ts = append(ts, a.t)
			}
			var t *Type
			for _, x := range ts {
				if t == nil {
					t = x
				} else if t = widerType(t, x); t == nil {
					break
				}
			}
			if t == nil {
				return nil, sparkErr(c.pos(), "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: Input to `%s` should all be the same type, but it's [%s].", quoteSparkSQL(c.name), name, typeList(ts))
			}
			var parts []string
			for _, a := range c.args {
				y, err := c.r.cast(a, t, castImplicit)
				if err != nil {
					return nil, err
				}
				parts = append(parts, y.sql)
			}
			return c.out(t, name+"("+strings.Join(parts, ", ")+")"), nil
		})
	}
	tryArith := func(name, op string) *fnDef {
		return fn(name, Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			return c.r.tryArith(c, op)
		})
	}
	abs := fn("abs", Same, 1, 1, func(c *fcall) (*rx, error) {
		x := c.args[0]
		if x.t.Kind == KString {
			y, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			x = y
		}
		if !x.t.isNumeric() && x.t.Kind != KVoid {
			return nil, c.wrongType(0, "NUMERIC")
		}
		return c.out(x.t, "abs("+x.sql+")"), nil
	})
	signum := doubleFn("signum", Rewritten, 1, "CAST(sign(%s) AS DOUBLE)")
	power := doubleFn("power", Same, 2, "pow(%s, %s)")
	ln := logFn("ln", "ln")
	return []*fnDef{
		abs, signum, alias("sign", signum),
		round("round", "spark_round_double", "round"), round("bround", "spark_bround_double", "round_even"),
		ceilFloor("ceil", "ceil"), ceilFloor("ceiling", "ceil"), ceilFloor("floor", "floor"),
		withNote(doubleFn("sqrt", Same, 1, "CASE WHEN %[1]s < 0 THEN CAST('NaN' AS DOUBLE) ELSE sqrt(%[1]s) END"), "negative values give NaN as in Spark"),
		doubleFn("cbrt", Same, 1, "cbrt(%s)"), doubleFn("exp", Same, 1, "exp(%s)"), doubleFn("expm1", Rewritten, 1, "(exp(%s) - 1)"),
		ln, logFn("log10", "log10"), logFn("log2", "log2"),
		doubleFn("log1p", Rewritten, 1, "CASE WHEN %[1]s <= -1 THEN NULL ELSE ln(1 + %[1]s) END"),
		fn("log", Rewritten, 1, 2, func(c *fcall) (*rx, error) {
			if len(c.args) == 1 {
				x, err := c.typed(0, tDouble)
				if err != nil {
					return nil, err
				}
				c.name = "LOG(E(), " + c.args[0].name + ")"
				return c.out(tDouble, "spark_log("+x.sql+")"), nil
			}
			b, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			x, err := c.typed(1, tDouble)
			if err != nil {
				return nil, err
			}
			c.name = "LOG(" + c.args[0].name + ", " + c.args[1].name + ")"
			return c.out(tDouble, fmt.Sprintf("CASE WHEN %[1]s <= 0 OR %[2]s <= 0 THEN NULL ELSE ln(%[2]s) / ln(%[1]s) END", b.sql, x.sql)), nil
		}),
		power, alias("pow", power),
		doubleFn("sin", Same, 1, "sin(%s)"), doubleFn("cos", Same, 1, "cos(%s)"), doubleFn("tan", Same, 1, "tan(%s)"),
		doubleFn("asin", Same, 1, "asin(%s)"), doubleFn("acos", Same, 1, "acos(%s)"), doubleFn("atan", Same, 1, "atan(%s)"),
		doubleFn("atan2", Same, 2, "atan2(%s, %s)"), doubleFn("sinh", Rewritten, 1, "((exp(%[1]s) - exp(-%[1]s)) / 2)"),
		doubleFn("cosh", Rewritten, 1, "((exp(%[1]s) + exp(-%[1]s)) / 2)"), doubleFn("tanh", Rewritten, 1, "tanh(%s)"),
		doubleFn("degrees", Same, 1, "degrees(%s)"), doubleFn("radians", Same, 1, "radians(%s)"),
		doubleFn("hypot", Rewritten, 2, "sqrt(%[1]s * %[1]s + %[2]s * %[2]s)"),
		fn("pi", Same, 0, 0, func(c *fcall) (*rx, error) { return c.out(tDouble, "pi()"), nil }),
		fn("e", Rewritten, 0, 0, func(c *fcall) (*rx, error) { return c.out(tDouble, "exp(1)"), nil }),
		fn("mod", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			m, err := c.r.arith("%", c.args[0], c.args[1], c.node.P)
			if err != nil {
				return nil, err
			}
			return c.out(m.t, m.sql), nil
		}),
		pmod,
		fn("div", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			m, err := c.r.arith("DIV", c.args[0], c.args[1], c.node.P)
			if err != nil {
				return nil, err
			}
			return c.out(m.t, m.sql), nil
		}),
		extreme("greatest"), extreme("least"),
		fn("negative", Rewritten, 1, 1, func(c *fcall) (*rx, error) { return c.out(c.args[0].t, "(- "+c.args[0].sql+")"), nil }),
		fn("positive", Rewritten, 1, 1, func(c *fcall) (*rx, error) { return c.out(c.args[0].t, c.args[0].sql), nil }),
		fn("factorial", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			n, err := c.intArg(0)
			if err != nil {
				return nil, err
			}
			return c.out(tLong, fmt.Sprintf("CASE WHEN %[1]s BETWEEN 0 AND 20 THEN CAST(factorial(%[1]s) AS BIGINT) END", n.sql)), nil
		}),
		tryArith("try_add", "+"), tryArith("try_subtract", "-"), tryArith("try_multiply", "*"),
		tryArith("try_divide", "/"), tryArith("try_mod", "%"),
		fn("isnan", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			return c.out(tBool, "coalesce(isnan("+x.sql+"), false)"), nil
		}),
		fn("nanvl", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			t := tDouble
			if c.args[0].t.Kind == KFloat && c.args[1].t.Kind == KFloat {
				t = tFloat
			}
			a, err := c.typed(0, t)
			if err != nil {
				return nil, err
			}
			b, err := c.typed(1, t)
			if err != nil {
				return nil, err
			}
			return c.out(t, "CASE WHEN isnan("+a.sql+") THEN "+b.sql+" ELSE "+a.sql+" END"), nil
		}),
		fn("hex", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			switch {
			case x.t.isNumeric():
				// Spark casts any number to BIGINT (truncating).
				l, err := c.toLong(0)
				if err != nil {
					return nil, err
				}
				return c.out(tString, "upper(hex(CAST("+l.sql+" AS BIGINT)))"), nil
			case x.t.Kind == KString || x.t.Kind == KBinary:
				b, err := c.binary(0)
				if err != nil {
					return nil, err
				}
				return c.out(tString, "upper(hex("+b+"))"), nil
			}
			return nil, c.wrongType(0, `("BIGINT" or "BINARY" or "STRING")`)
		}),
		fn("rand", Same, 0, 1, func(c *fcall) (*rx, error) {
			x := c.out(tDouble, "random()")
			x.nondet, x.foldable = true, false
			return x, nil
		}),
		no("randn", "Spark's random sequence cannot be reproduced"),
		fn("unhex", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.typed(0, tString)
			if err != nil {
				return nil, err
			}
			return c.out(tBinary, unhexSQL(x.sql, "NULL")), nil
		}),
		toBinary("to_binary", false), toBinary("try_to_binary", true),
		no("shiftleft", "not translated yet"), no("shiftright", "not translated yet"), no("shiftrightunsigned", "not translated yet"),
		no("bit_count", "not translated yet"), no("bit_get", "not translated yet"), no("getbit", "not translated yet"),
		no("cot", "not translated yet"), no("csc", "not translated yet"), no("sec", "not translated yet"),
		no("asinh", "not translated yet"), no("acosh", "not translated yet"), no("atanh", "not translated yet"), no("rint", "not translated yet"),
	}
}

// roundedDecimal is Spark's result type of round(decimal(p,s), d).
func roundedDecimal(t *Type, d int) *Type {
	integral := t.P - t.S + 1
	if d < 0 {
		return decimalType(min(max(integral, -d+1), 38), 0)
	}
	s := min(t.S, d)
	return decimalType(min(integral+s, 38), s)
}

// decimalRoundSQL rounds the decimal x of type from to d decimals with
// div (spark_div_half_even, spark_div_ceil, spark_div_floor: a HUGEINT
// division by a positive power of ten) on its exact unscaled value, typed
// out. DuckDB's round_even, and a decimal division, compute in doubles.
func decimalRoundSQL(x string, from *Type, d int, div string, out *Type) string {
	if d >= from.S {
		return "CAST(" + x + " AS " + out.DuckDB() + ")"
	}
	k := from.S - d
	if k > 38 {
		// |x| < 10^(38-from.S) < 10^-d / 2: half even gives 0; ceil of a
		// positive and floor of a negative give 10^-d, beyond 38 digits.
		over := "error('[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 1E" + fmt.Sprint(-d) + " cannot be represented as " + out.String() + ". If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, and return NULL instead.')"
		cond := map[string]string{"spark_div_ceil": " > 0", "spark_div_floor": " < 0"}[div]
		if cond == "" {
			return "CASE WHEN " + x + " IS NULL THEN NULL ELSE CAST(0 AS " + out.DuckDB() + ") END"
		}
		return "CASE WHEN " + x + " IS NULL THEN NULL WHEN " + x + cond + " THEN " + over + " ELSE CAST(0 AS " + out.DuckDB() + ") END"
	}
	q := div + "(" + unscaled(x, from.S, from.S) + ", " + hugePow10(k) + ")"
	if d < 0 {
		return "CAST(CAST(" + q + " AS DECIMAL(38,0)) * " + pow10(-d) + " AS " + out.DuckDB() + ")"
	}
	return fromUnscaled(q, out)
}

func pow10(d int) string {
	if d >= 0 {
		return "CAST('1" + strings.Repeat("0", d) + "' AS DECIMAL(38,0))"
	}
	return "CAST('0." + strings.Repeat("0", -d-1) + "1' AS DECIMAL(38," + fmt.Sprint(-d) + "))"
}

// tryArith resolves try_add & co: the operator's result, NULL where the
// operator would raise an error.
func (r *resolver) tryArith(c *fcall, op string) (*rx, error) {
	x, err := r.arith(op, c.args[0], c.args[1], c.node.P)
	if err != nil {
		return nil, err
	}
	a, b := c.args[0], c.args[1]
	sql := x.sql
	switch {
	case op == "/" || op == "%":
		bz := b.sql
		if b.t.Kind == KString {
			bz = "TRY_CAST(" + b.sql + " AS DOUBLE)"
		}
		sql = "CASE WHEN " + bz + " = 0 THEN NULL ELSE " + x.sql + " END"
	case x.t.isIntegral():
		wide := "HUGEINT"
		sa, err := r.cast(a, x.t, castImplicit)
		if err != nil {
			return nil, err
		}
		sb, err := r.cast(b, x.t, castImplicit)
		if err != nil {
			return nil, err
		}
		sql = fmt.Sprintf("TRY_CAST(CAST(%s AS %s) %s CAST(%s AS %s) AS %s)", sa.sql, wide, op, sb.sql, wide, x.t.DuckDB())
	case x.t.Kind == KDecimal:
		sql = strings.Replace(x.sql, "CAST(", "TRY_CAST(", 1)
	}
	return c.out(x.t, sql), nil
}

// unhexSQL is Spark's Unhex of the string s: an odd number of digits
// reads as with a leading 0; a character that is no hex digit gives bad
// (NULL, or the error of to_binary).
func unhexSQL(s, bad string) string {
	return "CASE WHEN regexp_full_match(" + s + ", '[0-9a-fA-F]*') THEN from_hex(CASE WHEN length(" + s + ") % 2 = 1 THEN '0' || " + s + " ELSE " + s + " END) WHEN " + s + " IS NOT NULL THEN " + bad + " END"
}

// toBinary is to_binary(s [, fmt]) and try_to_binary: fmt (a constant,
// hex by default) is hex, utf-8 or base64.
func toBinary(name string, try bool) *fnDef {
	return fn(name, Rewritten, 1, 2, func(c *fcall) (*rx, error) {
		x, err := c.typed(0, tString)
		if err != nil {
			return nil, err
		}
		format := "hex"
		if len(c.args) == 2 {
			f := c.args[1]
			if f.lit == nil || f.t.Kind != KString {
				return nil, unsupported(c.argPos(1), "give the format as a string constant", "%s with a format that is not a string constant", name)
			}
			format = strings.ToLower(f.lit.Value)
		}
		switch format {
		case "hex":
			bad := "NULL"
			if !try {
				bad = "error(concat('[CONVERSION_INVALID_INPUT] The value ''', " + x.sql + ", ''' (''HEX'') cannot be converted to \"BINARY\" because it is malformed. Correct the value as per the syntax, or change its format. Use `try_to_binary` to tolerate malformed input and return NULL instead.'))"
			}
			return c.out(tBinary, unhexSQL(x.sql, bad)), nil
		case "utf-8", "utf8":
			return c.out(tBinary, "encode("+x.sql+")"), nil
		case "base64":
			// Spark's UnBase64 with failOnError: the text must be valid
			// base64 by its isValidBase64 (RFC 4648 groups, whitespace
			// ignored) before the MIME decoder reads it.
			bad := "NULL"
			if !try {
				bad = "error(concat('[CONVERSION_INVALID_INPUT] The value ''', " + x.sql + ", ''' (''BASE64'') cannot be converted to \"BINARY\" because it is malformed. Correct the value as per the syntax, or change its format. Use `try_to_binary` to tolerate malformed input and return NULL instead.'))"
			}
			return c.out(tBinary, "CASE WHEN "+x.sql+" IS NULL THEN NULL WHEN spark_base64_check("+x.sql+") IS NOT NULL THEN "+bad+" ELSE "+unbase64SQL(x.sql)+" END"), nil
		}
		return nil, sparkErr(c.argPos(1), "DATATYPE_MISMATCH.INVALID_ARG_VALUE", "Cannot resolve \"%s(%s, %s)\" due to data type mismatch: The fmt value must to be a case-insensitive \"STRING\" literal of 'hex', 'utf-8', 'utf8', or 'base64', but got '%s'.", name, c.args[0].name, c.args[1].lit.Value, c.args[1].lit.Value)
	})
}
