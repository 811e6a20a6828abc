package sparksql

// Higher-order functions over two arrays and over maps: Spark's lambda
// parameters are bound to DuckDB values with one-element list_transform
// calls (DuckDB's lambdas take an element and its index only).

// bindLambda is body with each lambda variable vars[i] bound to vals[i].
func bindLambda(body string, vars, vals []string) string {
	for i := len(vars) - 1; i >= 0; i-- {
		body = "list_transform([" + vals[i] + "], " + vars[i] + " -> " + body + ")[1]"
	}
	return body
}

func (c *fcall) mapArg(i int) (*rx, error) {
	x := c.args[i]
	if x.t.Kind != KMap {
		return nil, c.wrongType(i, `"MAP"`)
	}
	return x, nil
}

func hofFuncs() []*fnDef {
	zipWith := fn("zip_with", Rewritten, 3, 3, func(c *fcall) (*rx, error) {
		a, err := c.arrayArg(0)
		if err != nil {
			return nil, err
		}
		b, err := c.arrayArg(1)
		if err != nil {
			return nil, err
		}
		body, vars, err := c.lambda(2, a.t.Elem, b.t.Elem)
		if err != nil {
			return nil, err
		}
		c.name = lambdaCallName(c, 3)
		// The shorter array is padded with NULLs, as in Spark.
		i := c.r.lambdaName()
		sql := "CASE WHEN " + a.sql + " IS NULL OR " + b.sql + " IS NULL THEN NULL ELSE list_transform(range(1, greatest(len(" + a.sql + "), len(" + b.sql + ")) + 1), " + i + " -> " +
			bindLambda(body.sql, vars, []string{a.sql + "[" + i + "]", b.sql + "[" + i + "]"}) + ") END"
		return c.out(arrayOf(body.t), sql), nil
	})
	mapHOF := func(name string) *fnDef {
		return fn(name, Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			m, err := c.mapArg(0)
			if err != nil {
				return nil, err
			}
			body, vars, err := c.lambda(1, m.t.Key, m.t.Val)
			if err != nil {
				return nil, err
			}
			c.name = lambdaCallName(c, 2)
			e := c.r.lambdaName()
			bound := bindLambda(body.sql, vars, []string{e + ".key", e + ".value"})
			entries := "map_entries(" + m.sql + ")"
			switch name {
			case "map_filter":
				if body, err = c.r.boolArg(body, c.node.Args[1]); err != nil {
					return nil, err
				}
				bound = bindLambda(body.sql, vars, []string{e + ".key", e + ".value"})
				return c.out(m.t, "CASE WHEN "+m.sql+" IS NULL THEN NULL ELSE CAST(map_from_entries(list_filter("+entries+", "+e+" -> coalesce("+bound+", false))) AS "+m.t.DuckDB()+") END"), nil
			case "transform_values":
				t := mapOf(m.t.Key, body.t)
				return c.out(t, "CASE WHEN "+m.sql+" IS NULL THEN NULL ELSE CAST(map_from_entries(list_transform("+entries+", "+e+" -> struct_pack(key := "+e+".key, value := "+bound+"))) AS "+t.DuckDB()+") END"), nil
			}
			// transform_keys: a NULL key is NULL_MAP_KEY, a repeated one
			// DUPLICATED_MAP_KEY (spark.sql.mapKeyDedupPolicy EXCEPTION).
			t := mapOf(body.t, m.t.Val)
			keys := c.r.lambdaName()
			ks := "list_transform(" + entries + ", " + e + " -> " + bound + ")"
			check := "CASE WHEN list_bool_or(list_transform(" + keys + ", " + e + " -> " + e + " IS NULL)) THEN error('[NULL_MAP_KEY] Cannot use null as map key.') " +
				"WHEN len(list_distinct(" + keys + ")) < len(" + keys + ") THEN error('[DUPLICATED_MAP_KEY] Duplicate map key was found, please check the input data. If you want to remove the duplicated keys, you can set \"spark.sql.mapKeyDedupPolicy\" to \"LAST_WIN\" so that the key inserted at last takes precedence.') " +
				"ELSE CAST(map_from_entries(list_transform(" + entries + ", " + e + " -> struct_pack(key := " + bound + ", value := " + e + ".value))) AS " + t.DuckDB() + ") END"
			return c.out(t, "CASE WHEN "+m.sql+" IS NULL THEN NULL ELSE list_transform(["+ks+"], "+keys+" -> "+check+")[1] END"), nil
		})
	}
	// array_insert(a, pos, v) (Spark 4: -1 appends): a position beyond
	// the end pads with NULLs; 0 is INVALID_INDEX_OF_ZERO; a negative
	// position -n before the start gives Spark's array of n elements: the
	// value, NULLs, then the array.
	arrayInsert := fn("array_insert", Rewritten, 3, 3, func(c *fcall) (*rx, error) {
		a, err := c.arrayArg(0)
		if err != nil {
			return nil, err
		}
		n, err := c.intArg(1)
		if err != nil {
			return nil, err
		}
		as, vs, t, err := c.elemArg(a, 2)
		if err != nil {
			return nil, err
		}
		p, x := c.r.lambdaName(), c.r.lambdaName()
		body := "CASE WHEN " + p + " < 1 THEN list_concat([" + vs + "], list_transform(range(1 - " + p + "), " + x + " -> CAST(NULL AS " + t.DuckDB() + ")), " + as + ") " +
			"WHEN " + p + " <= len(" + as + ") + 1 THEN list_concat(" + as + "[1:" + p + " - 1], [" + vs + "], " + as + "[" + p + ":]) " +
			"ELSE list_concat(" + as + ", list_transform(range(" + p + " - 1 - len(" + as + ")), " + x + " -> CAST(NULL AS " + t.DuckDB() + ")), [" + vs + "]) END"
		sql := "CASE WHEN " + as + " IS NULL OR " + n.sql + " IS NULL THEN NULL WHEN " + n.sql + " = 0 THEN error('[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).') " +
			"ELSE list_transform([CASE WHEN " + n.sql + " > 0 THEN " + n.sql + " ELSE len(" + as + ") + 2 + " + n.sql + " END], " + p + " -> " + body + ")[1] END"
		return c.out(arrayOf(t), "CAST("+sql+" AS "+arrayOf(t).DuckDB()+")"), nil
	})
	// regexp_instr(s, re[, idx]): the 1-based position of the first match, 0
	// when none: the length of the shortest prefix after which re
	// matches, plus one (Java counts UTF-16 units: a match after a
	// character beyond U+FFFF stops the run).
	regexpInstr := fn("regexp_instr", Rewritten, 2, 3, func(c *fcall) (*rx, error) {
		if len(c.args) == 3 {
			// Spark 4.2's RegExpInStr ignores the group index: the
			// position is the whole match's, whatever the index (2 of a
			// pattern with one group, -1 too).
			if _, err := c.litInt(2, "group"); err != nil {
				return nil, unsupported(c.argPos(2), "give the group index as an integer literal", "regexp_instr with a group index that is not an integer literal")
			}
		}
		s, err := c.str(0)
		if err != nil {
			return nil, err
		}
		p, err := c.str(1)
		if err != nil {
			return nil, err
		}
		re, err := c.r.regexLit(p, c.argPos(1))
		if err != nil {
			return nil, err
		}
		guard, err := c.r.regexGuard(p, s.sql, c.argPos(1))
		if err != nil {
			return nil, err
		}
		prefixed := duckString("^(?s:(.*?))(?:" + re.re2 + ")")
		pre := "regexp_extract(" + s.sql + ", " + prefixed + ", 1)"
		return c.out(tInt, guard("CASE WHEN "+s.sql+" IS NULL THEN NULL WHEN NOT regexp_matches("+s.sql+", "+duckString(re.re2)+") THEN 0 "+
			"WHEN regexp_matches("+pre+", '[\\x{10000}-\\x{10FFFF}]') THEN error('[LOCALLY_UNSUPPORTED.REGEXP_INSTR_SUPPLEMENTARY] regexp_instr past a character beyond U+FFFF: Spark counts its UTF-16 halves') "+
			"ELSE CAST(length("+pre+") + 1 AS INTEGER) END")), nil
	})
	return []*fnDef{zipWith, mapHOF("map_filter"), mapHOF("transform_values"), mapHOF("transform_keys"), arrayInsert, regexpInstr}
}
