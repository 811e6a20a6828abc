package sparksql

import (
	"fmt"
	"strconv"
	"strings"
)

var collectionMacros = []macro{
	{"spark_comparator", "v", "CASE WHEN v IS NULL THEN error('[COMPARATOR_RETURNS_NULL] The comparator has returned a NULL for a comparison. It should return a negative integer for \"greater than\", 0 for \"equal\" and a positive integer for \"less than\".') ELSE v END"},
	{"spark_sort_by_rank", "a, r", "CASE WHEN a IS NULL THEN NULL ELSE list_transform(generate_series(0, len(a) - 1), m_sort_rank_p -> a[list_position(r, m_sort_rank_p)]) END"},
	{"spark_has_null", "a", "list_bool_or(list_transform(a, m_has_null_lx -> m_has_null_lx IS NULL))"},
	{"spark_array_contains", "a, v", "CASE WHEN a IS NULL OR v IS NULL THEN NULL WHEN list_contains(a, v) THEN true WHEN spark_has_null(a) THEN NULL ELSE false END"},
	{"spark_array_position", "a, v", "CASE WHEN a IS NULL OR v IS NULL THEN NULL ELSE coalesce(list_position(a, v), 0) END"},
	{"spark_array_distinct", "a", "list_filter(a, (m_array_distinct_lx, m_array_distinct_li) -> CASE WHEN m_array_distinct_lx IS NULL THEN list_position(list_transform(a, m_array_distinct_ly -> m_array_distinct_ly IS NULL), true) = m_array_distinct_li ELSE NOT coalesce(list_contains(a[1:m_array_distinct_li - 1], m_array_distinct_lx), false) END)"},
	{"spark_array_intersect", "a, b", "CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE spark_array_distinct(list_filter(a, m_array_intersect_lx -> CASE WHEN m_array_intersect_lx IS NULL THEN spark_has_null(b) ELSE list_contains(b, m_array_intersect_lx) END)) END"},
	{"spark_array_except", "a, b", "CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE spark_array_distinct(list_filter(a, m_array_except_lx -> CASE WHEN m_array_except_lx IS NULL THEN NOT coalesce(spark_has_null(b), false) ELSE NOT list_contains(b, m_array_except_lx) END)) END"},
	{"spark_arrays_overlap", "a, b", "CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN len(list_filter(a, m_arrays_overlap_lx -> list_contains(b, m_arrays_overlap_lx))) > 0 THEN true " +
		"WHEN len(a) > 0 AND len(b) > 0 AND (coalesce(spark_has_null(a), false) OR coalesce(spark_has_null(b), false)) THEN NULL ELSE false END"},
	{"spark_array_remove", "a, v", "CASE WHEN v IS NULL THEN NULL ELSE list_filter(a, m_array_remove_lx -> m_array_remove_lx IS NULL OR m_array_remove_lx <> v) END"},
	// A NULL array or index is NULL before the index is checked (Spark's
	// ElementAt is null-intolerant).
	{"spark_element_at", "a, i", "CASE WHEN a IS NULL OR i IS NULL THEN NULL WHEN i = 0 THEN error('[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).') " +
		"WHEN abs(i) > len(a) THEN error('[INVALID_ARRAY_INDEX_IN_ELEMENT_AT] The index ' || i || ' is out of bounds. The array has ' || len(a) || ' elements. Use `try_element_at` to tolerate accessing element at invalid index and return NULL instead.') " +
		"WHEN i > 0 THEN a[i] ELSE a[len(a) + i + 1] END"},
	// try_element_at tolerates an index out of bounds, not index 0.
	{"spark_try_element_at", "a, i", "CASE WHEN a IS NOT NULL AND i = 0 THEN error('[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).') WHEN abs(i) > len(a) THEN NULL WHEN i > 0 THEN a[i] ELSE a[len(a) + i + 1] END"},
	{"spark_array_get0", "a, i", "CASE WHEN i < 0 OR i >= len(a) THEN NULL ELSE a[i + 1] END"},
	{"spark_slice", "a, s, l", "CASE WHEN s = 0 THEN error('[INVALID_PARAMETER_VALUE.START] The value of parameter(s) `start` in `slice` is invalid: Expects a positive or a negative value for `start`, but got 0.') " +
		"WHEN l < 0 THEN error('[INVALID_PARAMETER_VALUE.LENGTH] The value of parameter(s) `length` in `slice` is invalid: Expects `length` greater than or equal to 0, but got ' || l || '.') " +
		"WHEN s > 0 THEN list_slice(a, s, s + l - 1) WHEN len(a) + s + 1 < 1 THEN a[1:0] ELSE list_slice(a, len(a) + s + 1, len(a) + s + l) END"},
	{"spark_flatten", "a", "CASE WHEN a IS NULL OR coalesce(list_bool_or(list_transform(a, m_flatten_lx -> m_flatten_lx IS NULL)), false) THEN NULL ELSE flatten(a) END"},
	{"spark_exists", "a, m", "CASE WHEN a IS NULL THEN NULL WHEN len(list_filter(m, m_exists_lx -> m_exists_lx)) > 0 THEN true WHEN len(list_filter(m, m_exists_lx -> m_exists_lx IS NULL)) > 0 THEN NULL ELSE false END"},
	{"spark_forall", "a, m", "CASE WHEN a IS NULL THEN NULL WHEN len(list_filter(m, m_forall_lx -> NOT m_forall_lx)) > 0 THEN false WHEN len(list_filter(m, m_forall_lx -> m_forall_lx IS NULL)) > 0 THEN NULL ELSE true END"},
	{"spark_map_concat_check", "ks, n", "CASE WHEN len(list_distinct(ks)) < n THEN error('[DUPLICATED_MAP_KEY] Duplicate map key was found, please check the input data. If you want to remove the duplicated keys, you can set \"spark.sql.mapKeyDedupPolicy\" to \"LAST_WIN\" so that the key inserted at last takes precedence.') END"},
	{"spark_array_join", "a, d", "CASE WHEN d IS NULL THEN NULL ELSE array_to_string(list_filter(a, m_array_join_lx -> m_array_join_lx IS NOT NULL), d) END"},
	{"spark_array_join_null", "a, d, r", "CASE WHEN d IS NULL OR r IS NULL THEN NULL ELSE array_to_string(list_transform(a, m_array_join_null_lx -> coalesce(m_array_join_null_lx, r)), d) END"},
	{"spark_sequence", "a, b, st", "CASE WHEN st = 0 AND a <> b OR st > 0 AND a > b OR st < 0 AND a < b THEN error('[IllegalArgumentException] Illegal sequence boundaries: ' || a || ' to ' || b || ' by ' || st) ELSE generate_series(a, b, CASE WHEN st = 0 THEN 1 ELSE st END) END"},
}

func (c *fcall) arrayArg(i int) (*rx, error) {
	x := c.args[i]
	if x.t.Kind == KArray {
		return x, nil
	}
	if x.t.Kind == KVoid {
		return c.r.cast(x, arrayOf(tVoid), castImplicit)
	}
	return nil, c.wrongType(i, `"ARRAY"`)
}

// elemArg casts argument i to the element type of array a (or both to a
// common one): the array and the value as SQL, and the element type.
func (c *fcall) elemArg(a *rx, i int) (string, string, *Type, error) {
	v := c.args[i]
	t := commonType([]*Type{a.t.Elem, v.t})
	if t == nil {
		return "", "", nil, sparkErr(c.pos(), "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: Input to `%s` should have been \"ARRAY\" followed by a value with same element type, but it's [%q, %q].", quoteSparkSQL(c.name), c.def.name, strings.ToUpper(a.t.String()), strings.ToUpper(v.t.String()))
	}
	ac, err := c.r.cast(a, arrayOf(t), castImplicit)
	if err != nil {
		return "", "", nil, err
	}
	vc, err := c.r.cast(v, t, castImplicit)
	if err != nil {
		return "", "", nil, err
	}
	return ac.sql, vc.sql, t, nil
}

// arrayConcat is concat over arrays (all arguments arrays).
func (r *resolver) arrayConcat(c *fcall) (*rx, error) {
	var ts []*Type
	for _, a := range c.args {
		if a.t.Kind != KArray && a.t.Kind != KVoid {
			return nil, sparkErr(c.pos(), "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: Input to `concat` should all be the same type.", quoteSparkSQL(c.name))
		}
		ts = append(ts, a.t)
	}
	t := commonType(ts)
	if t == nil {
		return nil, sparkErr(c.pos(), "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: Input to `concat` should all be the same type.", quoteSparkSQL(c.name))
	}
	var parts []string
	for _, a := range c.args {
		y, err := r.cast(a, t, castImplicit)
		if err != nil {
			return nil, err
		}
		parts = append(parts, y.sql)
	}
	sql := parts[0]
	for _, p := range parts[1:] {
		sql = "list_concat(" + sql + ", " + p + ")"
	}
	var nulls []string
	for _, p := range parts {
		nulls = append(nulls, p+" IS NULL")
	}
	return c.out(t, "CASE WHEN "+strings.Join(nulls, " OR ")+" THEN NULL ELSE "+sql+" END"), nil
}

func collectionFuncs() []*fnDef {
	array := fn("array", Rewritten, 0, -1, func(c *fcall) (*rx, error) {
		if len(c.args) == 0 {
			return c.out(arrayOf(tVoid), "CAST([] AS INTEGER[])"), nil
		}
		t, xs, err := c.common(0)
		if err != nil {
			return nil, err
		}
		return c.out(arrayOf(t), "["+strings.Join(sqls(xs), ", ")+"]"), nil
	})
	size := fn("size", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
		x := c.args[0]
		switch x.t.Kind {
		case KArray:
			return c.out(tInt, "CAST(len("+x.sql+") AS INTEGER)"), nil
		case KMap:
			return c.out(tInt, "CAST(cardinality("+x.sql+") AS INTEGER)"), nil
		case KVoid:
			return c.out(tInt, "CAST(NULL AS INTEGER)"), nil
		}
		return nil, c.wrongType(0, `("ARRAY" or "MAP")`)
	})
	elementAt := func(name, macro string) *fnDef {
		return fn(name, Macro, 2, 2, func(c *fcall) (*rx, error) {
			x := c.args[0]
			switch x.t.Kind {
			case KArray:
				i, err := c.intArg(1)
				if err != nil {
					return nil, err
				}
				return c.out(x.t.Elem, macro+"("+x.sql+", "+i.sql+")"), nil
			case KMap:
				k, err := c.r.cast(c.args[1], x.t.Key, castImplicit)
				if err != nil {
					return nil, err
				}
				return c.out(x.t.Val, x.sql+"["+k.sql+"]"), nil
			}
			return nil, c.wrongType(0, `("ARRAY" or "MAP")`)
		})
	}
	arr1 := func(name string, s Support, result func(t *Type) *Type, format string) *fnDef {
		return fn(name, s, 1, 1, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			return c.out(result(a.t), fmt.Sprintf(format, a.sql)), nil
		})
	}
	same := func(t *Type) *Type { return t }
	elem := func(t *Type) *Type { return t.Elem }
	arr2 := func(name, macro string) *fnDef {
		return fn(name, Macro, 2, 2, func(c *fcall) (*rx, error) {
			if _, err := c.arrayArg(0); err != nil {
				return nil, err
			}
			if _, err := c.arrayArg(1); err != nil {
				return nil, err
			}
			t, xs, err := c.common(0)
			if err != nil {
				return nil, err
			}
			if macro == "spark_arrays_overlap" {
				return c.out(tBool, macro+"("+xs[0].sql+", "+xs[1].sql+")"), nil
			}
			if macro == "union" {
				return c.out(t, "CASE WHEN "+xs[0].sql+" IS NULL OR "+xs[1].sql+" IS NULL THEN NULL ELSE spark_array_distinct(list_concat("+xs[0].sql+", "+xs[1].sql+")) END"), nil
			}
			return c.out(t, macro+"("+xs[0].sql+", "+xs[1].sql+")"), nil
		})
	}
	arrayJoin := fn("array_join", Macro, 2, 3, func(c *fcall) (*rx, error) {
		a, err := c.arrayArg(0)
		if err != nil {
			return nil, err
		}
		as, err := c.r.cast(a, arrayOf(tString), castImplicit)
		if err != nil {
			return nil, err
		}
		d, err := c.str(1)
		if err != nil {
			return nil, err
		}
		if len(c.args) == 3 {
			rp, err := c.str(2)
			if err != nil {
				return nil, err
			}
			return c.out(tString, "spark_array_join_null("+as.sql+", "+d.sql+", "+rp.sql+")"), nil
		}
		return c.out(tString, "spark_array_join("+as.sql+", "+d.sql+")"), nil
	})
	transform := fn("transform", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		a, err := c.arrayArg(0)
		if err != nil {
			return nil, err
		}
		body, vars, err := c.lambdaIndexed(1, a.t.Elem)
		if err != nil {
			return nil, err
		}
		c.name = lambdaCallName(c, 2)
		return c.out(arrayOf(body.t), "list_transform("+a.sql+", ("+strings.Join(vars, ", ")+") -> "+body.sql+")"), nil
	})
	filter := fn("filter", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		a, err := c.arrayArg(0)
		if err != nil {
			return nil, err
		}
		body, vars, err := c.lambdaIndexed(1, a.t.Elem)
		if err != nil {
			return nil, err
		}
		if body, err = c.r.boolArg(body, c.node.Args[1]); err != nil {
			return nil, err
		}
		c.name = lambdaCallName(c, 2)
		return c.out(a.t, "list_filter("+a.sql+", ("+strings.Join(vars, ", ")+") -> "+body.sql+")"), nil
	})
	quant := func(name, macro string) *fnDef {
		return fn(name, Macro, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			body, vars, err := c.lambda(1, a.t.Elem)
			if err != nil {
				return nil, err
			}
			if body, err = c.r.boolArg(body, c.node.Args[1]); err != nil {
				return nil, err
			}
			c.name = lambdaCallName(c, 1)
			return c.out(tBool, macro+"("+a.sql+", list_transform("+a.sql+", "+vars[0]+" -> "+body.sql+"))"), nil
		})
	}
	aggregate := fn("aggregate", Rewritten, 3, 4, func(c *fcall) (*rx, error) {
		a, err := c.arrayArg(0)
		if err != nil {
			return nil, err
		}
		zero := c.args[1]
		// DuckDB's fold takes elements of the accumulator's type and
		// misaligns values its lambda captures from the row: each element
		// is {a: accumulator, x: the array's element, c: the captured
		// values}, the accumulator the same struct (lambdaCapture).
		acc, el := c.r.lambdaName(), c.r.lambdaName()
		capt := &lambdaCapture{elem: el}
		merge, err := c.foldLambda(2, capt, []*rx{
			{t: zero.t, sql: acc + ".a", isLambdaVar: true},
			{t: a.t.Elem, sql: el + ".x", isLambdaVar: true},
		})
		if err != nil {
			return nil, err
		}
		if !merge.t.Equal(zero.t) {
			return nil, sparkErr(c.argPos(2), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: Parameter 3 requires the %q type, however %s has the type %q.", quoteSparkSQL(c.name), strings.ToUpper(zero.t.String()), quoteSparkSQL(merge.name), strings.ToUpper(merge.t.String()))
		}
		v := c.r.lambdaName()
		capVals, capType := "{'k0': NULL}", "STRUCT(k0 INTEGER)"
		if len(capt.items) > 0 {
			capVals, capType = capt.capturesSQL()
		}
		elems := "list_transform(" + a.sql + ", " + v + " -> {'a': CAST(NULL AS " + zero.t.DuckDB() + "), 'x': " + v + ", 'c': " + capVals + "})"
		init := "{'a': " + zero.sql + ", 'x': CAST(NULL AS " + a.t.Elem.DuckDB() + "), 'c': CAST(NULL AS " + capType + ")}"
		step := "{'a': " + merge.sql + ", 'x': CAST(NULL AS " + a.t.Elem.DuckDB() + "), 'c': CAST(NULL AS " + capType + ")}"
		sql := "struct_extract(list_reduce(" + elems + ", (" + acc + ", " + el + ") -> " + step + ", " + init + "), 'a')"
		t := zero.t
		if len(c.args) == 4 {
			fin, fv, err := c.lambda(3, zero.t)
			if err != nil {
				return nil, err
			}
			sql = "(list_transform([" + sql + "], " + fv[0] + " -> " + fin.sql + "))[1]"
			t = fin.t
		}
		c.name = lambdaCallName(c, len(c.args)-2)
		return c.out(t, "CASE WHEN "+a.sql+" IS NULL THEN NULL ELSE "+sql+" END"), nil
	})
	structFn := fn("struct", Rewritten, 1, -1, func(c *fcall) (*rx, error) {
		st := &Type{Kind: KStruct}
		var parts, names []string
		for i, a := range c.args {
			name := fmt.Sprintf("col%d", i+1)
			switch {
			case i < len(c.node.Aliases) && c.node.Aliases[i] != nil:
				name = c.node.Aliases[i].Name
			case a.col != nil || a.field != "":
				name = topName(c.node.Args[i], a)
			}
			st.Fields = append(st.Fields, Field{Name: name, Type: a.t})
			parts = append(parts, duckIdent(name)+" := "+a.sql)
			n := a.name
			if i < len(c.node.Aliases) && c.node.Aliases[i] != nil {
				n += " AS " + name
			}
			names = append(names, n)
		}
		c.name = "struct(" + strings.Join(names, ", ") + ")"
		return c.out(st, "struct_pack("+strings.Join(parts, ", ")+")"), nil
	})
	namedStruct := fn("named_struct", Rewritten, 2, -1, func(c *fcall) (*rx, error) {
		if len(c.args)%2 != 0 {
			return nil, sparkErr(c.pos(), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `named_struct` requires an even number of parameters but the actual number is %d.", len(c.args))
		}
		st := &Type{Kind: KStruct}
		var parts []string
		for i := 0; i < len(c.args); i += 2 {
			n, null, err := c.litStr(i, "field name")
			if err != nil || null {
				return nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING", "Only foldable `STRING` expressions are allowed to appear at odd position, but they are [%s].", c.args[i].name)
			}
			st.Fields = append(st.Fields, Field{Name: n, Type: c.args[i+1].t})
			parts = append(parts, duckIdent(n)+" := "+c.args[i+1].sql)
		}
		return c.out(st, "struct_pack("+strings.Join(parts, ", ")+")"), nil
	})
	mapFn := fn("map", Rewritten, 0, -1, func(c *fcall) (*rx, error) {
		if len(c.args)%2 != 0 {
			return nil, sparkErr(c.pos(), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `map` requires an even number of parameters but the actual number is %d.", len(c.args))
		}
		var kt, vt []*Type
		for i, a := range c.args {
			if i%2 == 0 {
				kt = append(kt, a.t)
			} else {
				vt = append(vt, a.t)
			}
		}
		if len(c.args) == 0 {
			return c.out(mapOf(tVoid, tVoid), "CAST(MAP {} AS MAP(INTEGER, INTEGER))"), nil
		}
		k, v := commonType(kt), commonType(vt)
		if k == nil || v == nil {
			return nil, sparkErr(c.pos(), "DATATYPE_MISMATCH.CREATE_MAP_KEY_DIFF_TYPES", "Cannot resolve %s due to data type mismatch: The given keys or values of function `map` should all be the same type.", quoteSparkSQL(c.name))
		}
		var ks, vs []string
		for i, a := range c.args {
			t := k
			if i%2 == 1 {
				t = v
			}
			y, err := c.r.cast(a, t, castImplicit)
			if err != nil {
				return nil, err
			}
			if i%2 == 0 {
				ks = append(ks, y.sql)
			} else {
				vs = append(vs, y.sql)
			}
		}
		return c.out(mapOf(k, v), "map(["+strings.Join(ks, ", ")+"], ["+strings.Join(vs, ", ")+"])"), nil
	})
	mapPart := func(name, duck string, key bool) *fnDef {
		return fn(name, Same, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			if x.t.Kind != KMap {
				return nil, c.wrongType(0, `"MAP"`)
			}
			t := arrayOf(x.t.Val)
			if key {
				t = arrayOf(x.t.Key)
			}
			return c.out(t, duck+"("+x.sql+")"), nil
		})
	}
	return []*fnDef{
		array, size, alias("cardinality", size), alias("array_size", size),
		elementAt("element_at", "spark_element_at"), elementAt("try_element_at", "spark_try_element_at"),
		fn("get", Macro, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			i, err := c.intArg(1)
			if err != nil {
				return nil, err
			}
			return c.out(a.t.Elem, "spark_array_get0("+a.sql+", "+i.sql+")"), nil
		}),
		fn("array_contains", Macro, 2, 2, func(c *fcall) (*rx, error) {
			if c.args[1].t.Kind == KVoid {
				return nil, sparkErr(c.argPos(1), "DATATYPE_MISMATCH.NULL_TYPE", "Cannot resolve %q due to data type mismatch: Null typed values cannot be used as arguments of `array_contains`.", c.name)
			}
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			as, vs, _, err := c.elemArg(a, 1)
			if err != nil {
				return nil, err
			}
			return c.out(tBool, "spark_array_contains("+as+", "+vs+")"), nil
		}),
		fn("array_position", Macro, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			as, vs, _, err := c.elemArg(a, 1)
			if err != nil {
				return nil, err
			}
			return c.out(tLong, "CAST(spark_array_position("+as+", "+vs+") AS BIGINT)"), nil
		}),
		fn("array_remove", Macro, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			as, vs, t, err := c.elemArg(a, 1)
			if err != nil {
				return nil, err
			}
			return c.out(arrayOf(t), "spark_array_remove("+as+", "+vs+")"), nil
		}),
		arr1("array_distinct", Macro, same, "spark_array_distinct(%s)"),
		arr2("array_union", "union"), arr2("array_intersect", "spark_array_intersect"), arr2("array_except", "spark_array_except"),
		arr2("arrays_overlap", "spark_arrays_overlap"),
		arrayJoin,
		arr1("array_max", Same, elem, "list_max(%s)"), arr1("array_min", Same, elem, "list_min(%s)"),

		fn("array_sort", Rewritten, 1, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			if len(c.node.Args) == 1 {
				if !orderable(a.t.Elem) {
					return nil, c.wrongType(0, `"ARRAY" of orderable elements`)
				}
				return c.out(a.t, c.r.listSort(a.sql, a.t.Elem, "ASC", "NULLS LAST")), nil
			}
			// A comparator: each element's place is the number of
			// elements that sort before it (equal ones by position), as
			// Spark's stable sort places them for a consistent comparator.
			cmp, vars, err := c.lambda(1, a.t.Elem, a.t.Elem)
			if err != nil {
				return nil, err
			}
			if !cmp.t.isIntegral() {
				return nil, sparkErr(c.argPos(1), "DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE", "Cannot resolve %s due to data type mismatch: The comparator of array_sort must return an INT, not %q.", quoteSparkSQL(c.name), strings.ToUpper(cmp.t.String()))
			}
			i, j := c.r.lambdaName(), c.r.lambdaName()
			call := "list_transform([" + a.sql + "[" + j + "]], " + vars[0] + " -> list_transform([" + a.sql + "[" + i + "]], " + vars[1] + " -> spark_comparator(" + cmp.sql + "))[1])[1]"
			ranks := "list_transform(generate_series(1, len(" + a.sql + ")), " + i + " -> len(list_filter(generate_series(1, len(" + a.sql + ")), " + j + " -> " + j + " <> " + i + " AND (" + call + " < 0 OR (" + call + " = 0 AND " + j + " < " + i + ")))))"
			c.name = lambdaCallName(c, 1)
			return c.out(a.t, "spark_sort_by_rank("+a.sql+", "+ranks+")"), nil
		}),
		fn("sort_array", Rewritten, 1, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			asc := true
			if len(c.args) == 2 {
				b := c.args[1]
				if b.lit == nil || b.lit.Kind != LitBool {
					return nil, unsupported(c.argPos(1), "write true or false", "a non-constant sort order in sort_array")
				}
				asc = b.lit.Value == "TRUE"
			} else {
				c.name = strings.TrimSuffix(c.name, ")") + ", true)"
			}
			if asc {
				return c.out(a.t, c.r.listSort(a.sql, a.t.Elem, "ASC", "NULLS FIRST")), nil
			}
			return c.out(a.t, c.r.listSort(a.sql, a.t.Elem, "DESC", "NULLS LAST")), nil
		}),
		fn("slice", Macro, 3, 3, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			s, err := c.intArg(1)
			if err != nil {
				return nil, err
			}
			l, err := c.intArg(2)
			if err != nil {
				return nil, err
			}
			return c.out(a.t, "spark_slice("+a.sql+", "+s.sql+", "+l.sql+")"), nil
		}),
		fn("flatten", Macro, 1, 1, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			if a.t.Elem.Kind != KArray {
				return nil, c.wrongType(0, `"ARRAY" of "ARRAY"`)
			}
			return c.out(a.t.Elem, "spark_flatten("+a.sql+")"), nil
		}),
		fn("sequence", Macro, 2, 3, func(c *fcall) (*rx, error) {
			if c.args[0].t.Kind == KDate && c.args[1].t.Kind == KDate {
				return c.dateSequence()
			}
			if isTemporal(c.args[0].t) && isTemporal(c.args[1].t) {
				return c.timestampSequence()
			}
			if !c.args[0].t.isIntegral() || !c.args[1].t.isIntegral() {
				return nil, unsupported(c.pos(), "", "sequence over %s values", c.args[0].t)
			}
			t := widerType(c.args[0].t, c.args[1].t)
			a, _ := c.r.cast(c.args[0], tLong, castImplicit)
			b, _ := c.r.cast(c.args[1], tLong, castImplicit)
			st := "CASE WHEN " + a.sql + " <= " + b.sql + " THEN 1 ELSE -1 END"
			if len(c.args) == 3 {
				x, err := c.r.cast(c.args[2], tLong, castImplicit)
				if err != nil {
					return nil, err
				}
				st = x.sql
			}
			return c.out(arrayOf(t), "CAST(spark_sequence("+a.sql+", "+b.sql+", "+st+") AS "+arrayOf(t).DuckDB()+")"), nil
		}),
		fn("array_repeat", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			n, err := c.intArg(1)
			if err != nil {
				return nil, err
			}
			v := c.r.lambdaName()
			x := c.args[0]
			return c.out(arrayOf(x.t), "CASE WHEN "+n.sql+" IS NULL THEN NULL ELSE list_transform(range(greatest("+n.sql+", 0)), "+v+" -> "+x.sql+") END"), nil
		}),
		fn("array_append", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			as, vs, t, err := c.elemArg(a, 1)
			if err != nil {
				return nil, err
			}
			return c.out(arrayOf(t), "CASE WHEN "+as+" IS NULL THEN NULL ELSE list_append("+as+", "+vs+") END"), nil
		}),
		fn("array_prepend", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			as, vs, t, err := c.elemArg(a, 1)
			if err != nil {
				return nil, err
			}
			return c.out(arrayOf(t), "CASE WHEN "+as+" IS NULL THEN NULL ELSE list_prepend("+vs+", "+as+") END"), nil
		}),
		arr1("array_compact", Rewritten, same, "list_filter(%s, lx -> lx IS NOT NULL)"),
		transform, filter, quant("exists", "spark_exists"), quant("forall", "spark_forall"),
		aggregate, alias("reduce", aggregate),
		structFn, namedStruct, mapFn,
		mapPart("map_keys", "map_keys", true), mapPart("map_values", "map_values", false),
		fn("map_entries", Same, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			if x.t.Kind != KMap {
				return nil, c.wrongType(0, `"MAP"`)
			}
			return c.out(arrayOf(&Type{Kind: KStruct, Fields: []Field{{"key", x.t.Key}, {"value", x.t.Val}}}), "map_entries("+x.sql+")"), nil
		}),
		fn("map_from_arrays", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			k, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			v, err := c.arrayArg(1)
			if err != nil {
				return nil, err
			}
			return c.out(mapOf(k.t.Elem, v.t.Elem), "CASE WHEN "+k.sql+" IS NULL OR "+v.sql+" IS NULL THEN NULL ELSE map("+k.sql+", "+v.sql+") END"), nil
		}),
		fn("map_from_entries", Same, 1, 1, func(c *fcall) (*rx, error) {
			a, err := c.arrayArg(0)
			if err != nil {
				return nil, err
			}
			if a.t.Elem.Kind != KStruct || len(a.t.Elem.Fields) != 2 {
				return nil, c.wrongType(0, `"ARRAY" of pair "STRUCT"`)
			}
			f := a.t.Elem.Fields
			v := c.r.lambdaName()
			return c.out(mapOf(f[0].Type, f[1].Type), "map_from_entries(list_transform("+a.sql+", "+v+" -> {'key': struct_extract("+v+", "+duckString(f[0].Name)+"), 'value': struct_extract("+v+", "+duckString(f[1].Name)+")}))"), nil
		}),
		fn("map_contains_key", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			x := c.args[0]
			if x.t.Kind != KMap {
				return nil, c.wrongType(0, `"MAP"`)
			}
			k, err := c.r.cast(c.args[1], x.t.Key, castImplicit)
			if err != nil {
				return nil, err
			}
			return c.out(tBool, "list_contains(map_keys("+x.sql+"), "+k.sql+")"), nil
		}),
		fn("map_concat", Macro, 1, -1, func(c *fcall) (*rx, error) {
			t, xs, err := c.common(0)
			if err != nil {
				return nil, err
			}
			if t.Kind != KMap {
				return nil, c.wrongType(0, `"MAP"`)
			}
			var keys, lens, nulls []string
			for _, x := range xs {
				keys = append(keys, "map_keys("+x.sql+")")
				lens = append(lens, "len(map_keys("+x.sql+"))")
				nulls = append(nulls, x.sql+" IS NULL")
			}
			return c.out(t, "CASE WHEN "+strings.Join(nulls, " OR ")+" THEN NULL ELSE coalesce(spark_map_concat_check(flatten(["+strings.Join(keys, ", ")+"]), "+strings.Join(lens, " + ")+"), map_concat("+strings.Join(sqls(xs), ", ")+")) END"), nil
		}),
		fn("str_to_map", Rewritten, 1, 3, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			pd, kd := ",", ":"
			for i, d := range []*string{&pd, &kd} {
				if len(c.args) > i+1 {
					v, null, err := c.litStr(i+1, "delimiter")
					if err != nil {
						return nil, err
					}
					if null || v == "" || regexQuote(v) != v {
						return nil, unsupported(c.argPos(i+1), "use a plain delimiter", "the str_to_map delimiter %q (Spark reads it as a regular expression)", v)
					}
					*d = v
				}
			}
			for len(c.args) < 3 {
				c.name = strings.TrimSuffix(c.name, ")") + ", " + map[int]string{1: ",", 2: ":"}[len(c.args)] + ")"
				c.args = append(c.args, nil)
			}
			c.args = c.args[:1]
			v := c.r.lambdaName()
			entry := fmt.Sprintf("{'key': split_part(%[1]s, %[2]s, 1), 'value': CASE WHEN contains(%[1]s, %[2]s) THEN substr(%[1]s, instr(%[1]s, %[2]s) + %[3]d) END}", v, duckString(kd), len([]rune(kd)))
			return c.out(mapOf(tString, tString), "map_from_entries(list_transform(string_split("+s.sql+", "+duckString(pd)+"), "+v+" -> "+entry+"))"), nil
		}),
		fn("arrays_zip", Rewritten, 1, -1, func(c *fcall) (*rx, error) {
			st := &Type{Kind: KStruct}
			var lens, fields, nulls []string
			v := c.r.lambdaName()
			for i, a := range c.args {
				nulls = append(nulls, a.sql+" IS NULL")
				if a.t.Kind != KArray {
					return nil, c.wrongType(i, `"ARRAY"`)
				}
				name := strconv.Itoa(i)
				if a.col != nil || a.field != "" {
					name = topName(c.node.Args[i], a)
				}
				st.Fields = append(st.Fields, Field{Name: name, Type: a.t.Elem})
				lens = append(lens, "len("+a.sql+")")
				fields = append(fields, duckIdent(name)+" := "+a.sql+"["+v+"]")
			}
			// NULL when any array is (DuckDB's greatest would skip it).
			return c.out(arrayOf(st), "CASE WHEN "+strings.Join(nulls, " OR ")+" THEN NULL ELSE list_transform(generate_series(1, greatest("+strings.Join(lens, ", ")+")), "+v+" -> struct_pack("+strings.Join(fields, ", ")+")) END"), nil
		}),
		no("shuffle", "Spark's random order cannot be reproduced"),
		no("inline_outer", "use LATERAL VIEW OUTER inline(...)"),
		no("from_csv", "not translated yet"), no("to_csv", "not translated yet"),
		no("schema_of_csv", "not translated yet"), no("from_xml", "not translated yet"), no("to_xml", "not translated yet"),
		no("schema_of_xml", "not translated yet"), no("xpath", "not translated yet"), no("parse_json", "the VARIANT type is not translated"),
		no("try_parse_json", "the VARIANT type is not translated"), no("variant_get", "the VARIANT type is not translated"),
	}
}

// lambdaIndexed resolves a lambda over an element and, optionally, its
// 0-based index (DuckDB's index is 1-based).
func (c *fcall) lambdaIndexed(i int, elem *Type) (*rx, []string, error) {
	lam, ok := c.node.Args[i].(*Lambda)
	if !ok || len(lam.Params) != 2 {
		return c.lambda(i, elem, tInt)
	}
	inner := &scope{parent: c.sc, ctes: c.sc.ctes, lambdas: map[string]*rx{}, lambda: true}
	x, idx := c.r.lambdaName(), c.r.lambdaName()
	inner.lambdas[strings.ToLower(lam.Params[0].Name)] = &rx{t: elem, sql: x, isLambdaVar: true}
	inner.lambdas[strings.ToLower(lam.Params[1].Name)] = &rx{t: tInt, sql: "CAST(" + idx + " - 1 AS INTEGER)", isLambdaVar: true}
	body, err := c.r.expr(lam.Body, inner, c.ctx)
	if err != nil {
		return nil, nil, err
	}
	c.noteLambda(i, body)
	return body, []string{x, idx}, nil
}

// lambdaCallName is Spark's name of a higher-order call: each lambda as
// lambdafunction(body, namedlambdavariable(), ...).
func lambdaCallName(c *fcall, _ int) string {
	var parts []string
	for i, a := range c.node.Args {
		if lam, ok := a.(*Lambda); ok {
			vars := strings.TrimSuffix(strings.Repeat("namedlambdavariable(), ", len(lam.Params)), ", ")
			parts = append(parts, "lambdafunction("+c.lambdaNames[i]+", "+vars+")")
			continue
		}
		parts = append(parts, c.args[i].name)
	}
	return c.def.name + "(" + strings.Join(parts, ", ") + ")"
}

// dateSequence is sequence(start, stop[, step]) over dates: start + i *
// step for i = 0, 1, ... while within stop, a step of whole days (1 or
// -1 by default) or of months (each element from start, a month's end
// clamped as add_months does); a step away from stop or of zero is
// Spark's IllegalArgumentException.
func (c *fcall) dateSequence() (*rx, error) {
	a, b := c.args[0].sql, c.args[1].sql
	t := arrayOf(tDate)
	i := c.r.lambdaName()
	bad := func(step string) string {
		return "error('[IllegalArgumentException] Illegal sequence boundaries: ' || " + a + " || ' to ' || " + b + " || ' by ' || " + step + ")"
	}
	if len(c.args) == 2 {
		return c.out(t, "CASE WHEN "+a+" IS NULL OR "+b+" IS NULL THEN NULL ELSE list_transform(range(0, abs("+b+" - "+a+") + 1), "+i+" -> CAST("+a+" + CAST(CASE WHEN "+a+" <= "+b+" THEN "+i+" ELSE -"+i+" END AS INTEGER) AS DATE)) END"), nil
	}
	st := c.args[2]
	switch st.t.Kind {
	case KIntervalDT:
		if st.t.To != "DAY" {
			return nil, unsupported(c.argPos(2), "step by whole days: INTERVAL n DAY", "sequence over dates by %s", strings.ToUpper(st.t.String()))
		}
		d := "CAST(epoch(" + st.sql + ") // 86400 AS BIGINT)"
		return c.out(t, "CASE WHEN "+a+" IS NULL OR "+b+" IS NULL OR "+st.sql+" IS NULL THEN NULL WHEN "+d+" = 0 AND "+a+" <> "+b+" OR "+d+" > 0 AND "+a+" > "+b+" OR "+d+" < 0 AND "+a+" < "+b+" THEN "+bad(d)+
			" WHEN "+d+" = 0 THEN ["+a+"] ELSE list_transform(range(0, ("+b+" - "+a+") // "+d+" + 1), "+i+" -> CAST("+a+" + CAST("+i+" * "+d+" AS INTEGER) AS DATE)) END"), nil
	case KIntervalYM:
		m := "CAST(datepart('year', " + st.sql + ") * 12 + datepart('month', " + st.sql + ") AS BIGINT)"
		span := "((year(" + b + ") - year(" + a + ")) * 12 + month(" + b + ") - month(" + a + "))"
		elems := "list_transform(range(0, abs(" + span + " // " + m + ") + 2), " + i + " -> CAST(" + a + " + to_months(CAST(" + i + " * " + m + " AS INTEGER)) AS DATE))"
		e := c.r.lambdaName()
		keep := "CASE WHEN " + m + " > 0 THEN " + e + " <= " + b + " ELSE " + e + " >= " + b + " END"
		return c.out(t, "CASE WHEN "+a+" IS NULL OR "+b+" IS NULL OR "+st.sql+" IS NULL THEN NULL WHEN "+m+" = 0 AND "+a+" <> "+b+" OR "+m+" > 0 AND "+a+" > "+b+" OR "+m+" < 0 AND "+a+" < "+b+" THEN "+bad(m)+
			" WHEN "+m+" = 0 THEN ["+a+"] ELSE list_filter("+elems+", "+e+" -> "+keep+") END"), nil
	}
	return nil, unsupported(c.argPos(2), "", "sequence over dates by a %s", st.t)
}

// timestampSequence is sequence(a, b[, step]) over timestamps (a DATE
// bound is cast to TIMESTAMP). As Spark's TemporalSequenceImpl, element i
// is a plus i * step, where the step's months and whole days are added on
// the session zone's wall clock (a TIMESTAMP_NTZ's own) and the rest in
// microseconds; the default step is a day towards b. A step away from b
// is Spark's _LEGACY_ERROR_TEMP_3243.
func (c *fcall) timestampSequence() (*rx, error) {
	t := tTS
	if c.args[0].t.Kind == KTimestampNTZ && c.args[1].t.Kind == KTimestampNTZ {
		t = c.args[0].t
	} else if c.args[0].t.Kind == KTimestampNTZ || c.args[1].t.Kind == KTimestampNTZ {
		return nil, unsupported(c.pos(), "cast both bounds to one timestamp type", "sequence between a TIMESTAMP_NTZ and another type")
	}
	ax, err := c.r.cast(c.args[0], t, castImplicit)
	if err != nil {
		return nil, err
	}
	bx, err := c.r.cast(c.args[1], t, castImplicit)
	if err != nil {
		return nil, err
	}
	a, b := ax.sql, bx.sql
	months, days, micros := "0", "CASE WHEN "+a+" <= "+b+" THEN 1 ELSE -1 END", "0"
	stepNull := "FALSE"
	if len(c.args) == 3 {
		st := c.args[2]
		stepNull = st.sql + " IS NULL"
		switch st.t.Kind {
		case KIntervalDT:
			us := "CAST(round(epoch(" + st.sql + ") * 1000000) AS BIGINT)"
			days, micros = "("+us+" // 86400000000)", "("+us+" % 86400000000)"
		case KIntervalYM:
			months = "CAST(datepart('year', " + st.sql + ") * 12 + datepart('month', " + st.sql + ") AS BIGINT)"
			days = "0"
		default:
			return nil, unsupported(c.argPos(2), "", "sequence over timestamps by a %s", st.t)
		}
	}
	i := c.r.lambdaName()
	e := c.r.lambdaName()
	add := func(x string) string {
		cal := x + " + to_months(CAST(" + i + " * " + months + " AS INTEGER)) + to_days(CAST(" + i + " * " + days + " AS INTEGER))"
		if t.Kind == KTimestamp {
			tz := duckString(c.r.tz)
			cal = "timezone(" + tz + ", timezone(" + tz + ", " + x + ") + to_months(CAST(" + i + " * " + months + " AS INTEGER)) + to_days(CAST(" + i + " * " + days + " AS INTEGER)))"
		}
		return cal + " + to_microseconds(" + i + " * " + micros + ")"
	}
	// A step's length is at least 28 days a month and 23 hours a day
	// (a zone's shortest day): the number of candidates bounds the count.
	minUs := "(" + months + " * 2419200000000 + " + days + " * 82800000000 + " + micros + ")"
	maxUs := "(" + months + " * 2678400000000 + " + days + " * 90000000000 + " + micros + ")"
	span := "(epoch_us(" + b + ") - epoch_us(" + a + "))"
	pos := "(" + minUs + " > 0 AND " + maxUs + " > 0)"
	neg := "(" + minUs + " < 0 AND " + maxUs + " < 0)"
	zero := "(" + months + " = 0 AND " + days + " = 0 AND " + micros + " = 0)"
	n := "(abs(" + span + ") // least(abs(" + minUs + "), abs(" + maxUs + ")) + 2)"
	bad := "error('[_LEGACY_ERROR_TEMP_3243] Illegal sequence boundaries: ' || epoch_us(" + a + ") || ' to ' || epoch_us(" + b + ") || ' by ' || (" + months + " * 2678400000000 + " + days + " * 86400000000 + " + micros + "))"
	elems := "list_transform(range(0, " + n + "), " + i + " -> " + add(a) + ")"
	keep := "CASE WHEN " + pos + " THEN " + e + " <= " + b + " ELSE " + e + " >= " + b + " END"
	sql := "CASE WHEN " + a + " IS NULL OR " + b + " IS NULL OR " + stepNull + " THEN NULL" +
		" WHEN " + zero + " AND " + a + " = " + b + " THEN [" + a + "]" +
		" WHEN " + zero + " THEN error('[IllegalArgumentException] requirement failed: Illegal sequence boundaries: ' || epoch_us(" + a + ") || ' to ' || epoch_us(" + b + ") || ' by 0')" +
		" WHEN NOT (" + pos + " AND " + a + " <= " + b + " OR " + neg + " AND " + a + " >= " + b + ") THEN " + bad +
		" ELSE list_filter(" + elems + ", " + e + " -> " + keep + ") END"
	return c.out(arrayOf(t), sql), nil
}

func isTemporal(t *Type) bool {
	return t.Kind == KDate || t.Kind == KTimestamp || t.Kind == KTimestampNTZ
}
