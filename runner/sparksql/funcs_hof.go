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
	return []*fnDef{zipWith, mapHOF("map_filter"), mapHOF("transform_values"), mapHOF("transform_keys")}
}
