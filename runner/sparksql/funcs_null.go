package sparksql

import (
	"strings"
)

// common casts all arguments from i on to their common type.
func (c *fcall) common(from int) (*Type, []*rx, error) {
	var ts []*Type
	for _, a := range c.args[from:] {
		ts = append(ts, a.t)
	}
	t := commonType(ts)
	if t == nil {
		return nil, nil, sparkErr(c.pos(), "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: Input to `%s` should all be the same type, but it's [%s].", quoteSparkSQL(c.name), c.def.name, typeList(ts))
	}
	var out []*rx
	for _, a := range c.args[from:] {
		y, err := c.r.cast(a, t, castImplicit)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, y)
	}
	return t, out, nil
}

func sqls(xs []*rx) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.sql
	}
	return out
}

func nullFuncs() []*fnDef {
	coalesce := fn("coalesce", Same, 1, -1, func(c *fcall) (*rx, error) {
		t, xs, err := c.common(0)
		if err != nil {
			return nil, err
		}
		return c.out(t, "coalesce("+strings.Join(sqls(xs), ", ")+")"), nil
	})
	nvl := fn("nvl", Rewritten, 2, 2, coalesce.impl)
	cond := func(c *fcall, cnd *rx, a, b int) (*rx, error) {
		t, xs, err := c.common(a)
		if err != nil {
			return nil, err
		}
		_ = b
		return c.out(t, "CASE WHEN "+cnd.sql+" THEN "+xs[0].sql+" ELSE "+xs[1].sql+" END"), nil
	}
	return []*fnDef{
		coalesce, nvl, alias("ifnull", nvl),
		fn("nvl2", Rewritten, 3, 3, func(c *fcall) (*rx, error) {
			t, xs, err := c.common(1)
			if err != nil {
				return nil, err
			}
			return c.out(t, "CASE WHEN "+c.args[0].sql+" IS NOT NULL THEN "+xs[0].sql+" ELSE "+xs[1].sql+" END"), nil
		}),
		fn("nullif", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			eq, err := c.r.comparison("=", c.args[0], c.args[1], c.node.P)
			if err != nil {
				return nil, err
			}
			return c.out(c.args[0].t, "CASE WHEN "+eq.sql+" THEN NULL ELSE "+c.args[0].sql+" END"), nil
		}),
		fn("isnull", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			c.name = "(" + c.args[0].name + " IS NULL)"
			return c.out(tBool, "("+c.args[0].sql+" IS NULL)"), nil
		}),
		fn("isnotnull", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			c.name = "(" + c.args[0].name + " IS NOT NULL)"
			return c.out(tBool, "("+c.args[0].sql+" IS NOT NULL)"), nil
		}),
		fn("if", Rewritten, 3, 3, func(c *fcall) (*rx, error) {
			c.name = "(IF(" + c.args[0].name + ", " + c.args[1].name + ", " + c.args[2].name + "))"
			if k := c.args[0].t.Kind; k != KBool && k != KVoid {
				// No implicit cast of the predicate (If's checkInputDataTypes).
				return nil, sparkErr(c.argPos(0), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %q due to data type mismatch: The first parameter requires the \"BOOLEAN\" type, however %q has the type %q.", c.name, c.args[0].name, strings.ToUpper(c.args[0].t.String()))
			}
			b, err := c.r.boolArg(c.args[0], c.node.Args[0])
			if err != nil {
				return nil, err
			}
			c.name = "(IF(" + c.args[0].name + ", " + c.args[1].name + ", " + c.args[2].name + "))"
			return cond(c, b, 1, 2)
		}),
		fn("equal_null", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			eq, err := c.r.comparison("<=>", c.args[0], c.args[1], c.node.P)
			if err != nil {
				return nil, err
			}
			return c.out(tBool, eq.sql), nil
		}),
		fn("nullifzero", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			return c.out(x.t, "CASE WHEN "+x.sql+" = 0 THEN NULL ELSE "+x.sql+" END"), nil
		}),
		fn("zeroifnull", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			t := x.t
			if t.Kind == KVoid {
				t = tInt
			}
			return c.out(t, "coalesce("+x.sql+", 0)"), nil
		}),
		no("assert_true", "not translated yet"), no("raise_error", "not translated yet"),
	}
}

// syntaxFn is an entry for an operator Spark lists among its functions
// (a AND b, CASE ...): translated as syntax, not callable by name here.
func syntaxFn(name, form string) *fnDef {
	return &fnDef{name: name, support: Same, min: 0, max: -1, note: "SQL syntax: " + form, impl: func(c *fcall) (*rx, error) {
		return nil, unsupported(c.pos(), "write "+form, "calling %s as a function", name)
	}}
}

// castFn is a type name used as a function: int(x) is CAST(x AS INT).
func castFn(name string, t *Type) *fnDef {
	return fn(name, Rewritten, 1, 1, func(c *fcall) (*rx, error) {
		x, err := c.r.cast(c.args[0], t, castExplicit)
		if err != nil {
			return nil, err
		}
		// Spark names it as its argument (the cast is not the user's).
		c.name = c.args[0].name
		return c.out(t, x.sql), nil
	})
}

func miscFuncs() []*fnDef {
	return []*fnDef{
		syntaxFn("and", "a AND b"), syntaxFn("or", "a OR b"), syntaxFn("not", "NOT a"), syntaxFn("case", "CASE WHEN ... THEN ... END"),
		syntaxFn("when", "CASE WHEN ... THEN ... END"), syntaxFn("between", "a BETWEEN b AND c"), syntaxFn("in", "a IN (b, c)"),
		syntaxFn("cast", "CAST(x AS type)"),
		fn("like", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			return c.r.like(&Like{X: c.node.Args[0], Op: "LIKE", Pattern: c.node.Args[1], P: c.node.P}, c.sc, c.ctx)
		}),
		fn("ilike", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			return c.r.like(&Like{X: c.node.Args[0], Op: "ILIKE", Pattern: c.node.Args[1], P: c.node.P}, c.sc, c.ctx)
		}),
		castFn("int", tInt), castFn("bigint", tLong), castFn("smallint", tShort), castFn("tinyint", tByte),
		castFn("double", tDouble), castFn("float", tFloat), castFn("decimal", decimalType(10, 0)), castFn("string", tString),
		castFn("boolean", tBool), castFn("date", tDate), castFn("timestamp", tTS), castFn("binary", tBinary),
		no("collate", "collations are not translated"), no("collation", "collations are not translated"),
		fn("typeof", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x := c.out(tString, duckString(c.args[0].t.String()))
			x.foldable = true
			return x, nil
		}),
		fn("uuid", Same, 0, 0, func(c *fcall) (*rx, error) {
			x := c.out(tString, "CAST(gen_random_uuid() AS VARCHAR)")
			x.nondet, x.foldable = true, false
			return x, nil
		}),
		murmur3Hash, xxhash64,
		no("monotonically_increasing_id", "depends on Spark's partitioning"), no("spark_partition_id", "depends on Spark's partitioning"),
		no("input_file_name", "depends on Spark's file splits"), no("input_file_block_start", "depends on Spark's file splits"),
		no("input_file_block_length", "depends on Spark's file splits"), no("current_user", "the user differs between local runs and the deployment"),
		no("user", "the user differs between local runs and the deployment"), no("session_user", "the user differs between local runs and the deployment"),
		no("current_catalog", "catalogs are not modelled locally"), no("current_database", "catalogs are not modelled locally"),
		no("current_schema", "catalogs are not modelled locally"), no("version", "there is no Spark locally"),
		no("reflect", "calls Java"), no("java_method", "calls Java"), no("try_reflect", "calls Java"),
		noAgg("approx_count_distinct", "Spark's HyperLogLog++ estimate cannot be reproduced; use count(DISTINCT x)"),
		approxPercentile("approx_percentile"), approxPercentile("percentile_approx"),
	}
}
