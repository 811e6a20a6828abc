package sparksql

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// fn builds a table entry.
func fn(name string, s Support, min, max int, impl func(c *fcall) (*rx, error)) *fnDef {
	return &fnDef{name: name, support: s, min: min, max: max, impl: impl}
}

// alias makes an entry for another name of def.
func alias(name string, def *fnDef) *fnDef {
	d := *def
	d.name, d.aliasOf = name, def.name
	return &d
}

// no is an unsupported entry with the reason.
func no(name, note string) *fnDef {
	return &fnDef{name: name, support: Unsupported, note: note}
}

func withNote(d *fnDef, note string) *fnDef {
	d.note = note
	return d
}

// strFn: a function of string ('s') and integer ('i') arguments, in the
// order of kinds, computed by a DuckDB expression.
func strFn(name string, s Support, t *Type, kinds string, format string) *fnDef {
	return fn(name, s, len(kinds), len(kinds), func(c *fcall) (*rx, error) {
		args := make([]any, len(kinds))
		for i, k := range kinds {
			arg := c.str
			if k == 'i' {
				arg = c.intArg
			}
			x, err := arg(i)
			if err != nil {
				return nil, err
			}
			args[i] = x.sql
		}
		return c.out(t, fmt.Sprintf(format, args...)), nil
	})
}

// intArg casts argument i to INT.
func (c *fcall) intArg(i int) (*rx, error) {
	return c.r.integralArg(c.args[i], tInt, c.argPos(i))
}

var stringMacros = []macro{
	{"spark_split_chars", "s, n", "CASE WHEN s IS NULL OR n IS NULL THEN NULL WHEN s = '' THEN [''] WHEN n > 0 AND length(s) > n THEN list_append(string_split(left(s, n - 1), ''), substr(s, n)) ELSE string_split(s, '') END"},
	// java.util.regex's split scan over the code point positions 0..len:
	// state {f: next search position, x: start of the current piece, p:
	// the pieces}; a match at i (anchored pattern a) ends a piece, an
	// empty one at 0 is skipped, the search resumes after a non-empty
	// match or one past an empty one; at most n - 1 matches when n > 0.
	{"spark_split_java", "s, a, n", "CASE WHEN s IS NULL OR n IS NULL THEN NULL ELSE list_append(list_transform(generate_series(1, len(struct_extract(spark_split_scan(s, a, n), 'p')), 2), m_split_k -> substr(s, struct_extract(spark_split_scan(s, a, n), 'p')[m_split_k] + 1, struct_extract(spark_split_scan(s, a, n), 'p')[m_split_k + 1])), substr(s, struct_extract(spark_split_scan(s, a, n), 'x') + 1)) END"},
	// The fold's lambda refers to its arguments only: DuckDB's list_reduce
	// misaligns values captured from the row when lists differ in length,
	// so the limit travels in each element (n) and the pieces are kept as
	// (start, length) pairs (p).
	{"spark_split_scan", "s, a, n", "list_reduce(list_transform(generate_series(0, length(s)), m_split_i -> {'f': CAST(NULL AS BIGINT), 'x': CAST(NULL AS BIGINT), 'p': CAST(NULL AS BIGINT[]), 'i': m_split_i, 'l': CASE WHEN regexp_matches(substr(s, m_split_i + 1), a) THEN length(regexp_extract(substr(s, m_split_i + 1), a)) END, 'n': CAST(n AS BIGINT)}), (m_split_st, m_split_e) -> CASE WHEN m_split_e.i < m_split_st.f OR m_split_e.l IS NULL OR (m_split_e.n > 0 AND len(m_split_st.p) // 2 >= m_split_e.n - 1) THEN m_split_st WHEN m_split_e.i = 0 AND m_split_e.l = 0 THEN {'f': 1, 'x': m_split_st.x, 'p': m_split_st.p, 'i': NULL, 'l': NULL, 'n': NULL} ELSE {'f': m_split_e.i + greatest(m_split_e.l, 1), 'x': m_split_e.i + m_split_e.l, 'p': list_concat(m_split_st.p, [m_split_st.x, m_split_e.i - m_split_st.x]), 'i': NULL, 'l': NULL, 'n': NULL} END, {'f': 0, 'x': 0, 'p': CAST([] AS BIGINT[]), 'i': CAST(NULL AS BIGINT), 'l': CAST(NULL AS BIGINT), 'n': CAST(NULL AS BIGINT)})"},
	// levenshtein by code points: DuckDB's counts bytes, so other strings
	// are rewritten with one ASCII character per distinct code point
	// (there are at most 127), or computed row by row.
	{"spark_lev_ascii", "s, cs", "CASE WHEN s = '' THEN '' ELSE array_to_string(list_transform(string_split(s, ''), m_lev_c -> chr(CAST(list_position(cs, m_lev_c) AS INTEGER))), '') END"},
	{"spark_lev_rows", "a, b", "(list_reduce(list_transform(string_split(a, ''), m_lev_x -> {'r': CAST(NULL AS BIGINT[]), 'c': m_lev_x, 'b': b}), (m_lev_acc, m_lev_e) -> {'r': list_transform([list_transform(generate_series(0, len(m_lev_e.b)), m_lev_j -> CASE WHEN m_lev_j = 0 THEN m_lev_acc.r[1] + 1 ELSE least(m_lev_acc.r[m_lev_j + 1] + 1, m_lev_acc.r[m_lev_j] + CASE WHEN m_lev_e.b[m_lev_j] = m_lev_e.c THEN 0 ELSE 1 END) END)], m_lev_t -> list_transform(generate_series(0, len(m_lev_e.b)), m_lev_k -> m_lev_k + list_min(list_transform(generate_series(0, m_lev_k), m_lev_i -> m_lev_t[m_lev_i + 1] - m_lev_i))))[1], 'c': NULL, 'b': NULL}, {'r': generate_series(0, len(b)), 'c': CAST(NULL AS VARCHAR), 'b': CAST(NULL AS VARCHAR[])})).r[len(b) + 1]"},
	{"spark_levenshtein", "a, b", "CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN NOT regexp_matches(a || b, '[^\\x00-\\x7F]') THEN levenshtein(a, b) WHEN len(list_distinct(string_split(a || b, ''))) <= 127 THEN levenshtein(spark_lev_ascii(a, list_distinct(string_split(a || b, ''))), spark_lev_ascii(b, list_distinct(string_split(a || b, '')))) ELSE spark_lev_rows(a, string_split(b, '')) END"},
	{"spark_substr2", "s, st, l", "CASE WHEN s IS NULL THEN NULL WHEN greatest(st, 0) >= st + l THEN '' ELSE substring(s, CAST(greatest(st, 0) + 1 AS BIGINT), CAST(st + l - greatest(st, 0) AS BIGINT)) END"},
	{"spark_substr", "s, p, l", "spark_substr2(s, CAST(CASE WHEN p > 0 THEN p - 1 WHEN p < 0 THEN length(s) + p ELSE 0 END AS BIGINT), CAST(l AS BIGINT))"},
	{"spark_lpad", "s, n, p", "CASE WHEN s IS NULL OR n IS NULL OR p IS NULL THEN NULL WHEN n <= 0 THEN '' WHEN p = '' THEN left(s, n) ELSE lpad(s, n, p) END"},
	{"spark_rpad", "s, n, p", "CASE WHEN s IS NULL OR n IS NULL OR p IS NULL THEN NULL WHEN n <= 0 THEN '' WHEN p = '' THEN left(s, n) ELSE rpad(s, n, p) END"},
	{"spark_left", "s, n", "CASE WHEN s IS NULL OR n IS NULL THEN NULL WHEN n <= 0 THEN '' ELSE left(s, n) END"},
	{"spark_right", "s, n", "CASE WHEN s IS NULL OR n IS NULL THEN NULL WHEN n <= 0 THEN '' ELSE right(s, n) END"},
	{"spark_replace", "s, f, t", "CASE WHEN f = '' THEN s ELSE replace(s, f, t) END"},
	{"spark_luhn", "s", "CASE WHEN s IS NULL THEN NULL WHEN regexp_full_match(s, '[0-9]+') THEN list_sum(list_transform(string_split(reverse(s), ''), (m_luhn_c, m_luhn_i) -> CASE WHEN m_luhn_i % 2 = 0 THEN (CAST(m_luhn_c AS INTEGER) * 2) // 10 + (CAST(m_luhn_c AS INTEGER) * 2) % 10 ELSE CAST(m_luhn_c AS INTEGER) END)) % 10 = 0 " +
		"WHEN regexp_full_match(s, '\\p{Nd}+') AND regexp_full_match(s, '[\\x{0}-\\x{FFFF}]+') THEN error('[LOCALLY_UNSUPPORTED.LUHN_DIGITS] luhn_check of digits beyond ASCII (' || s || '): Spark reads their values with Java''s Character.getNumericValue, which the local run does not') ELSE false END"},
	{"spark_locate", "sub, s, p", "CASE WHEN p IS NULL OR s IS NULL OR sub IS NULL THEN NULL WHEN p < 1 THEN 0 WHEN sub = '' THEN 1 WHEN instr(substring(s, p), sub) = 0 THEN 0 ELSE instr(substring(s, p), sub) + p - 1 END"},
	{"spark_substring_index", "s, d, n", "CASE WHEN s IS NULL OR d IS NULL OR n IS NULL THEN NULL WHEN n = 0 OR d = '' THEN '' WHEN n > 0 THEN array_to_string(string_split(s, d)[1:n], d) ELSE array_to_string(string_split(s, d)[-(-n):], d) END"},
	{"spark_split_part", "s, d, n", "CASE WHEN s IS NULL OR d IS NULL OR n IS NULL THEN NULL WHEN n = 0 THEN error('[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).') " +
		"WHEN d = '' THEN CASE WHEN n = 1 OR n = -1 THEN s ELSE '' END ELSE coalesce(split_part(s, d, n), '') END"},
	{"spark_repeat", "s, n", "CASE WHEN s IS NULL OR n IS NULL THEN NULL WHEN n <= 0 THEN '' ELSE repeat(s, n) END"},
	{"spark_chr", "n", "CASE WHEN n < 0 THEN '' ELSE chr(CAST(n % 256 AS INTEGER)) END"},
	{"spark_overlay", "s, r, p, l", "substring(s, 1, greatest(p - 1, 0)) || r || substring(s, p + l)"},
	// The same over the hex digits of binaries, two a byte; a start
	// below 1 counts from the end, as Spark's subStringSQL does.
	{"spark_overlay_binary", "b, r, p, l", "from_hex(substring(hex(b), 1, CAST(greatest(p - 1, 0) * 2 AS BIGINT)) || hex(r) || substring(hex(b), CAST(CASE WHEN p + l > 0 THEN p + l - 1 WHEN p + l < 0 THEN greatest(octet_length(b) + p + l, 0) ELSE 0 END * 2 + 1 AS BIGINT)))"},
	{"spark_find_in_set", "s, l", "CASE WHEN s IS NULL OR l IS NULL THEN NULL WHEN contains(s, ',') THEN 0 ELSE coalesce(list_position(string_split(l, ','), s), 0) END"},
	{"spark_regexp_substr", "s, p", "CASE WHEN regexp_matches(s, p) THEN regexp_extract(s, p, 0) END"},
}

func stringFuncs() []*fnDef {
	upper := withNote(strFn("upper", Macro, tString, "s", "spark_upper(%s)"), "Spark's ICU case mappings (ß becomes SS)")
	lower := withNote(strFn("lower", Macro, tString, "s", "spark_lower(%s)"), "Spark's ICU case mappings (İ becomes i̇, a final Σ ς)")
	length := fn("length", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
		if c.args[0].t.Kind == KBinary {
			return c.out(tInt, "CAST(octet_length("+c.args[0].sql+") AS INTEGER)"), nil
		}
		s, err := c.str(0)
		if err != nil {
			return nil, err
		}
		return c.out(tInt, "CAST(length("+s.sql+") AS INTEGER)"), nil
	})
	substr := fn("substring", Macro, 2, 3, func(c *fcall) (*rx, error) {
		s, err := c.str(0)
		if err != nil {
			return nil, err
		}
		p, err := c.intArg(1)
		if err != nil {
			return nil, err
		}
		l, lv, lok := "2147483647", int64(2147483647), true
		if len(c.args) == 3 {
			x, err := c.intArg(2)
			if err != nil {
				return nil, err
			}
			l = x.sql
			lv, lok = litInt64(c.args[2])
		} else {
			c.name = strings.TrimSuffix(c.name, ")") + ", 2147483647)"
		}
		if c.node.Syntax == "SUBSTRING_FROM" {
			c.name = "substring" + c.name[strings.IndexByte(c.name, '('):]
		}
		// A constant non-negative start and length is DuckDB's substring
		// (a start of 0 is 1 in Spark).
		if pv, ok := litInt64(c.args[1]); ok && pv >= 0 && lok && lv >= 0 {
			return c.out(tString, fmt.Sprintf("substring(%s, %d, %d)", s.sql, max(pv, 1), lv)), nil
		}
		return c.out(tString, "spark_substr("+s.sql+", "+p.sql+", "+l+")"), nil
	})
	trimFn := func(name, duck string) *fnDef {
		return fn(name, Rewritten, 1, 2, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			switch c.node.Syntax {
			case "TRIM_BOTH", "TRIM_LEADING", "TRIM_TRAILING":
				duck := map[string]string{"TRIM_BOTH": "trim", "TRIM_LEADING": "ltrim", "TRIM_TRAILING": "rtrim"}[c.node.Syntax]
				chars := "' '"
				cn := ""
				if len(c.args) == 2 {
					x, err := c.str(1)
					if err != nil {
						return nil, err
					}
					chars, cn = x.sql, c.args[1].name+" "
				}
				c.name = "TRIM(" + strings.TrimPrefix(c.node.Syntax, "TRIM_") + " " + cn + "FROM " + c.args[0].name + ")"
				return c.out(tString, duck+"("+s.sql+", "+chars+")"), nil
			}
			if len(c.args) == 2 {
				x, err := c.str(1)
				if err != nil {
					return nil, err
				}
				if name != "btrim" {
					// trim(trimStr, str), ltrim and rtrim likewise: the
					// characters come first (btrim(str, trimStr) is the
					// other way round); Spark names them TRIM(... FROM str).
					s, x = x, s
					side := map[string]string{"trim": "BOTH", "ltrim": "LEADING", "rtrim": "TRAILING"}[name]
					c.name = "TRIM(" + side + " " + c.args[0].name + " FROM " + c.args[1].name + ")"
				}
				return c.out(tString, duck+"("+s.sql+", "+x.sql+")"), nil
			}
			return c.out(tString, duck+"("+s.sql+", ' ')"), nil
		})
	}
	pad := func(name, macro string) *fnDef {
		return fn(name, Macro, 2, 3, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			n, err := c.intArg(1)
			if err != nil {
				return nil, err
			}
			p := "' '"
			if len(c.args) == 3 {
				x, err := c.str(2)
				if err != nil {
					return nil, err
				}
				p = x.sql
			} else {
				c.name = strings.TrimSuffix(c.name, ")") + ",  )"
			}
			return c.out(tString, macro+"("+s.sql+", "+n.sql+", "+p+")"), nil
		})
	}
	side := func(name, macro string) *fnDef {
		return fn(name, Macro, 2, 2, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			n, err := c.intArg(1)
			if err != nil {
				return nil, err
			}
			return c.out(tString, macro+"("+s.sql+", "+n.sql+")"), nil
		})
	}
	locate := fn("locate", Macro, 2, 3, func(c *fcall) (*rx, error) {
		sub, err := c.str(0)
		if err != nil {
			return nil, err
		}
		s, err := c.str(1)
		if err != nil {
			return nil, err
		}
		p := "1"
		if len(c.args) == 3 {
			x, err := c.intArg(2)
			if err != nil {
				return nil, err
			}
			p = x.sql
		} else {
			c.name = strings.TrimSuffix(c.name, ")") + ", 1)"
		}
		if c.node.Syntax == "POSITION_IN" {
			c.name = "locate" + c.name[strings.IndexByte(c.name, '('):]
		}
		return c.out(tInt, "CAST(spark_locate("+sub.sql+", "+s.sql+", "+p+") AS INTEGER)"), nil
	})
	concat := fn("concat", Rewritten, 0, -1, func(c *fcall) (*rx, error) {
		if len(c.args) == 0 {
			return c.out(tString, "''"), nil
		}
		arrays := 0
		for _, a := range c.args {
			if a.t.Kind == KArray {
				arrays++
			}
		}
		if arrays > 0 {
			return c.r.arrayConcat(c)
		}
		var parts []string
		for i := range c.args {
			x, err := c.str(i)
			if err != nil {
				return nil, err
			}
			parts = append(parts, x.sql)
		}
		return c.out(tString, "("+strings.Join(parts, " || ")+")"), nil
	})
	concatWS := fn("concat_ws", Rewritten, 1, -1, func(c *fcall) (*rx, error) {
		sep, err := c.str(0)
		if err != nil {
			return nil, err
		}
		var lists []string
		strOnly := true
		var parts []string
		for i := 1; i < len(c.args); i++ {
			a := c.args[i]
			if a.t.Kind == KArray {
				strOnly = false
				el, err := c.r.cast(a, arrayOf(tString), castImplicit)
				if err != nil {
					return nil, err
				}
				lists = append(lists, "coalesce("+el.sql+", [])")
				continue
			}
			x, err := c.str(i)
			if err != nil {
				return nil, err
			}
			parts = append(parts, x.sql)
			lists = append(lists, "["+x.sql+"]")
		}
		if len(c.args) == 1 {
			return c.out(tString, "CASE WHEN "+sep.sql+" IS NULL THEN NULL ELSE '' END"), nil
		}
		if strOnly {
			return c.out(tString, "CASE WHEN "+sep.sql+" IS NULL THEN NULL ELSE concat_ws("+sep.sql+", "+strings.Join(parts, ", ")+") END"), nil
		}
		v := c.r.lambdaName()
		return c.out(tString, "CASE WHEN "+sep.sql+" IS NULL THEN NULL ELSE array_to_string(list_filter(flatten(["+strings.Join(lists, ", ")+"]), "+v+" -> "+v+" IS NOT NULL), "+sep.sql+") END"), nil
	})
	regexExtract := func(name string, all bool) *fnDef {
		return fn(name, Rewritten, 2, 3, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			p, err := c.str(1)
			if err != nil {
				return nil, err
			}
			re, err := c.r.regex(p, c.argPos(1))
			if err != nil {
				return nil, err
			}
			idx := 1
			if len(c.args) == 3 {
				if idx, err = c.litInt(2, "group index"); err != nil {
					return nil, err
				}
			} else {
				c.name = strings.TrimSuffix(c.name, ")") + ", 1)"
			}
			if n := regexGroups(p); n >= 0 && (idx > n || idx < 0) {
				return nil, sparkErr(c.argPos(2), "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", "The value of parameter(s) `idx` in `%s` is invalid: Expects group index between 0 and %d, but got %d.", name, n, idx)
			}
			guard, err := c.r.regexGuard(p, s.sql, c.argPos(1))
			if err != nil {
				return nil, err
			}
			if jre, _ := c.r.regexLit(p, c.argPos(1)); all && emptyAfterMatch(jre.re2) {
				return nil, unsupported(c.argPos(1), "make the pattern match at least one character ('x+' for 'x*')", "%s with a pattern matching both empty and non-empty text ('%s'): Java also finds the empty match right after a match, the local engine does not", name, p.lit.Value)
			}
			if all {
				// A group that took no part in a match is '' (Java's
				// Matcher.group is null, which Spark turns into ''), as
				// regexp_extract's; DuckDB's list holds NULL.
				v := c.r.lambdaName()
				return c.out(arrayOf(tString), guard(fmt.Sprintf("list_transform(regexp_extract_all(%s, %s, %d), %s -> coalesce(%s, ''))", s.sql, re, idx, v, v))), nil
			}
			return c.out(tString, guard(fmt.Sprintf("regexp_extract(%s, %s, %d)", s.sql, re, idx))), nil
		})
	}
	regexReplace := fn("regexp_replace", Rewritten, 3, 4, func(c *fcall) (*rx, error) {
		s, err := c.str(0)
		if err != nil {
			return nil, err
		}
		p, err := c.str(1)
		if err != nil {
			return nil, err
		}
		re, err := c.r.regex(p, c.argPos(1))
		if err != nil {
			return nil, err
		}
		rep, _, err := c.litStr(2, "replacement")
		if err != nil {
			return nil, err
		}
		pos := 1
		if len(c.args) == 4 {
			n, err := c.litInt(3, "position")
			if err != nil || n < 1 {
				return nil, unsupported(c.argPos(3), "", "regexp_replace from a position that is not a positive integer literal")
			}
			pos = n
		} else {
			c.name = strings.TrimSuffix(c.name, ")") + ", 1)"
		}
		guard, err := c.r.regexGuard(p, s.sql, c.argPos(1))
		if err != nil {
			return nil, err
		}
		rr, err := javaReplacement(rep, regexGroups(p), c.argPos(2))
		if errors.Is(err, ErrSpark) {
			// Java's appendReplacement fails at the first match only, and
			// Spark reports it as INVALID_REGEXP_REPLACE: a value the
			// pattern does not match is kept.
			msg := fmt.Sprintf("[INVALID_REGEXP_REPLACE] Could not perform regexp_replace for source = \"' || %s || '\", pattern = \"%s\", replacement = \"%s\" and position = %d.", s.sql, strings.ReplaceAll(p.lit.Value, "'", "''"), strings.ReplaceAll(rep, "'", "''"), pos)
			return c.out(tString, guard(fmt.Sprintf("CASE WHEN regexp_matches(substr(%s, %d), %s) THEN error('%s') ELSE %s END", s.sql, pos, re, msg, s.sql))), nil
		}
		if err != nil {
			return nil, err
		}
		if jre, _ := c.r.regexLit(p, c.argPos(1)); rr != "" && emptyAfterMatch(jre.re2) {
			return nil, unsupported(c.argPos(1), "make the pattern match at least one character (' +' for ' *')", "regexp_replace with a pattern matching both empty and non-empty text ('%s'): Java also replaces the empty match right after a match, the local engine does not", p.lit.Value)
		}
		if pos > 1 {
			// Spark's matcher region from position - 1: its bounds anchor
			// ^ and \b and hide the text before it, as a substring does.
			// Positions count UTF-16 chars: text beyond U+FFFF stops the
			// run naming it.
			return c.out(tString, guard(fmt.Sprintf("CASE WHEN regexp_matches(%[1]s, '[^\\x{0}-\\x{FFFF}]') THEN error('[LOCALLY_UNSUPPORTED.REGEXP_REPLACE_POSITION] regexp_replace from a position of a text holding characters beyond U+FFFF: Spark counts UTF-16 chars') WHEN length(%[1]s) < %[2]d THEN %[1]s ELSE left(%[1]s, %[3]d) || regexp_replace(substr(%[1]s, %[2]d), %[4]s, %[5]s, 'g') END", s.sql, pos, pos-1, re, duckString(rr)))), nil
		}
		return c.out(tString, guard(fmt.Sprintf("regexp_replace(%s, %s, %s, 'g')", s.sql, re, duckString(rr)))), nil
	})
	regexLike := fn("regexp_like", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		s, err := c.str(0)
		if err != nil {
			return nil, err
		}
		p, err := c.str(1)
		if err != nil {
			return nil, err
		}
		re, err := c.r.regexFind(p, c.argPos(1))
		if err != nil {
			return nil, err
		}
		c.name = "REGEXP_LIKE(" + c.args[0].name + ", " + c.args[1].name + ")"
		return c.out(tBool, "regexp_matches("+s.sql+", "+re+")"), nil
	})
	split := fn("split", Rewritten, 2, 3, func(c *fcall) (*rx, error) {
		s, err := c.str(0)
		if err != nil {
			return nil, err
		}
		p, err := c.str(1)
		if err != nil {
			return nil, err
		}
		limit := "-1"
		if len(c.args) == 3 {
			l, err := c.intArg(2)
			if err != nil {
				return nil, err
			}
			limit = l.sql
		} else {
			c.name = strings.TrimSuffix(c.name, ")") + ", -1)"
		}
		if p.lit != nil && p.lit.Value == "" {
			// Spark splits into characters (no trailing empty string);
			// a positive limit keeps the rest in the last one.
			return c.out(arrayOf(tString), "spark_split_chars("+s.sql+", "+limit+")"), nil
		}
		jre, err := c.r.regexLit(p, c.argPos(1))
		if err != nil {
			return nil, err
		}
		guard, err := c.r.regexGuard(p, s.sql, c.argPos(1))
		if err != nil {
			return nil, err
		}
		if len(c.args) == 3 || regexp.MustCompile(jre.re2).MatchString("") {
			// Java's String.split: a pattern that matches the empty
			// string, or a limit, is scanned as java.util.regex scans
			// (RE2's split differs on empty matches).
			split := "spark_split_java(" + s.sql + ", " + duckString("^(?:"+jre.re2+")") + ", " + limit + ")"
			if regexp.MustCompile(jre.re2).MatchString("") {
				// Java scans UTF-16: an empty match falls between the two
				// halves of a character beyond U+FFFF, each of which
				// Spark then writes as '?'. Where the pattern cannot
				// match such a half, the split is that of the text with
				// each of those characters as two units the pattern does
				// not match either (U+10FFFD twice), each piece of one
				// unit: a '?'. With a positive limit the last piece keeps
				// whole characters, and a pattern that may match a half
				// (., a negated class) would match elsewhere: there the
				// local run stops rather than differ.
				stop := "error(" + duckString("[LOCALLY_UNSUPPORTED.SPLIT_SUPPLEMENTARY] split with a pattern that matches the empty string, of a value with a character beyond U+FFFF: Spark splits it between its UTF-16 halves") + ")"
				halves := stop
				if !re2MayMatchRune(jre.re2, splitHalf) {
					e := c.r.lambdaName()
					units := "regexp_replace(" + s.sql + ", '[\\x{10000}-\\x{10FFFF}]', " + duckString(string([]rune{splitHalf, splitHalf})) + ", 'g')"
					halves = "CASE WHEN " + limit + " > 0 THEN " + stop + " ELSE list_transform(spark_split_java(" + units + ", " + duckString("^(?:"+jre.re2+")") + ", " + limit + "), " + e + " -> replace(" + e + ", " + duckString(string(splitHalf)) + ", '?')) END"
				}
				split = "CASE WHEN regexp_matches(" + s.sql + ", '[\\x{10000}-\\x{10FFFF}]') THEN " + halves + " ELSE " + split + " END"
			}
			return c.out(arrayOf(tString), guard(split)), nil
		}
		return c.out(arrayOf(tString), guard("regexp_split_to_array("+s.sql+", "+duckString(jre.re2)+")")), nil
	})
	intOf := func(name, format string) *fnDef {
		return fn(name, Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			return c.out(tInt, "CAST("+fmt.Sprintf(format, s.sql)+" AS INTEGER)"), nil
		})
	}
	// sha2 is sha256 for 0 and 256 bits; 224, 384, 512 and a bit length
	// known only per row go through spark_sha2, the local engine's Go
	// function (DuckDB without extensions has only sha256); any other
	// constant bit length is NULL, as in Spark.
	sha2 := fn("sha2", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		bits, err := c.litInt(1, "bit length")
		if err != nil {
			if k := c.args[1].t.Kind; c.args[1].lit != nil || (k != KByte && k != KShort && k != KInt) {
				return nil, err
			}
		}
		var arg string
		if c.args[0].t.Kind == KBinary {
			arg = c.args[0].sql
		} else {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			arg = s.sql
		}
		if err != nil {
			return c.out(tString, "spark_sha2("+arg+", CAST("+c.args[1].sql+" AS BIGINT))"), nil
		}
		switch bits {
		case 0, 256:
			return c.out(tString, "sha256("+arg+")"), nil
		case 224, 384, 512:
			return c.out(tString, fmt.Sprintf("spark_sha2(%s, %d)", arg, bits)), nil
		}
		return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
	})
	formatNumber := fn("format_number", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		x := c.args[0]
		d, err := c.litInt(1, "number of decimals")
		if err != nil {
			return nil, unsupported(c.argPos(1), "give the number of decimals", "format_number with a format pattern")
		}
		if d < 0 {
			return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
		}
		switch {
		case x.t.isIntegral():
			if d == 0 {
				return c.out(tString, "format('{:,}', "+x.sql+")"), nil
			}
			return c.out(tString, fmt.Sprintf("format('{:,}', %s) || '.%s'", x.sql, strings.Repeat("0", d))), nil
		case x.t.Kind == KDecimal:
			// DecimalFormat rounds half even.
			return c.out(tString, formatDecimalSQL(x.sql, decimalRoundSQL(x.sql, x.t, d, "spark_div_half_even", decimalType(38, d)), d)), nil
		case x.t.isFractional():
			return c.out(tString, fmt.Sprintf("spark_format_double(CAST(%s AS DOUBLE), %d)", x.sql, d)), nil
		}
		return nil, c.wrongType(0, "NUMERIC")
	})
	chr := fn("chr", Macro, 1, 1, func(c *fcall) (*rx, error) {
		n, err := c.r.integralArg(c.args[0], tLong, c.argPos(0))
		if err != nil {
			return nil, err
		}
		return c.out(tString, "spark_chr("+n.sql+")"), nil
	})
	formatString := fn("format_string", Rewritten, 1, -1, func(c *fcall) (*rx, error) {
		f, _, err := c.litStr(0, "format")
		if err != nil {
			return nil, err
		}
		return c.r.formatString(c, f)
	})
	return []*fnDef{
		upper, alias("ucase", upper), lower, alias("lcase", lower),
		withNote(strFn("initcap", Macro, tString, "s", "spark_initcap(%s)"), "words are separated by spaces; Spark's ICU title case of their first character"),
		length, alias("char_length", length), alias("character_length", length), alias("len", length),
		intOf("octet_length", "strlen(%s)"), intOf("bit_length", "8 * strlen(%s)"),
		intOf("ascii", "CASE WHEN %[1]s = '' THEN 0 ELSE ascii(%[1]s) END"),
		substr, alias("substr", substr),
		trimFn("trim", "trim"), trimFn("ltrim", "ltrim"), trimFn("rtrim", "rtrim"), trimFn("btrim", "trim"),
		pad("lpad", "spark_lpad"), pad("rpad", "spark_rpad"),
		side("left", "spark_left"), side("right", "spark_right"),
		fn("reverse", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			if c.args[0].t.Kind == KArray {
				return c.out(c.args[0].t, "list_reverse("+c.args[0].sql+")"), nil
			}
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			// By code point, as Spark reverses (DuckDB's reverse keeps
			// grapheme clusters together).
			return c.out(tString, "array_to_string(list_reverse(string_split("+s.sql+", '')), '')"), nil
		}),
		fn("replace", Macro, 2, 3, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			f, err := c.str(1)
			if err != nil {
				return nil, err
			}
			t := "''"
			if len(c.args) == 3 {
				x, err := c.str(2)
				if err != nil {
					return nil, err
				}
				t = x.sql
			} else {
				c.name = strings.TrimSuffix(c.name, ")") + ", )"
			}
			return c.out(tString, "spark_replace("+s.sql+", "+f.sql+", "+t+")"), nil
		}),
		strFn("translate", Same, tString, "sss", "translate(%s, %s, %s)"),
		fn("instr", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			sub, err := c.str(1)
			if err != nil {
				return nil, err
			}
			return c.out(tInt, "CAST(instr("+s.sql+", "+sub.sql+") AS INTEGER)"), nil
		}),
		locate, alias("position", locate),
		concat, concatWS,
		regexExtract("regexp_extract", false), regexExtract("regexp_extract_all", true),
		regexReplace, regexLike, alias("rlike", regexLike), alias("regexp", regexLike),
		fn("regexp_count", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			p, err := c.str(1)
			if err != nil {
				return nil, err
			}
			re, err := c.r.regex(p, c.argPos(1))
			if err != nil {
				return nil, err
			}
			guard, err := c.r.regexGuard(p, s.sql, c.argPos(1))
			if err != nil {
				return nil, err
			}
			if jre, _ := c.r.regexLit(p, c.argPos(1)); emptyAfterMatch(jre.re2) {
				return nil, unsupported(c.argPos(1), "make the pattern match at least one character ('x+' for 'x*')", "regexp_count with a pattern matching both empty and non-empty text ('%s'): Java also counts the empty match right after a match, the local engine does not", p.lit.Value)
			}
			return c.out(tInt, guard("CAST(len(regexp_extract_all("+s.sql+", "+re+", 0)) AS INTEGER)")), nil
		}),
		fn("regexp_substr", Macro, 2, 2, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			p, err := c.str(1)
			if err != nil {
				return nil, err
			}
			re, err := c.r.regex(p, c.argPos(1))
			if err != nil {
				return nil, err
			}
			guard, err := c.r.regexGuard(p, s.sql, c.argPos(1))
			if err != nil {
				return nil, err
			}
			return c.out(tString, guard("spark_regexp_substr("+s.sql+", "+re+")")), nil
		}),
		split,
		strFn("split_part", Macro, tString, "ssi", "spark_split_part(%s, %s, %s)"),
		strFn("substring_index", Macro, tString, "ssi", "spark_substring_index(%s, %s, %s)"),
		strFn("repeat", Macro, tString, "si", "spark_repeat(%s, %s)"),
		fn("space", Macro, 1, 1, func(c *fcall) (*rx, error) {
			n, err := c.intArg(0)
			if err != nil {
				return nil, err
			}
			return c.out(tString, "spark_repeat(' ', "+n.sql+")"), nil
		}),
		chr, alias("char", chr),
		fn("startswith", Same, 2, 2, func(c *fcall) (*rx, error) { return c.strPred("starts_with") }),
		fn("endswith", Same, 2, 2, func(c *fcall) (*rx, error) { return c.strPred("ends_with") }),
		fn("contains", Same, 2, 2, func(c *fcall) (*rx, error) { return c.strPred("contains") }),
		strFn("md5", Same, tString, "s", "md5(%s)"),
		strFn("sha1", Same, tString, "s", "sha1(%s)"), alias("sha", strFn("sha1", Same, tString, "s", "sha1(%s)")),
		sha2,
		fn("base64", Same, 1, 1, func(c *fcall) (*rx, error) {
			b, err := c.binary(0)
			if err != nil {
				return nil, err
			}
			// Spark's Base64 is Java's MIME encoder
			// (spark.sql.chunkBase64String.enabled, true by default): lines
			// of 76 characters separated by CRLF.
			v, i := c.r.lambdaName(), c.r.lambdaName()
			return c.out(tString, "list_transform([to_base64("+b+")], "+v+" -> CASE WHEN "+v+" IS NULL OR length("+v+") <= 76 THEN "+v+
				" ELSE array_to_string(list_transform(range(0, length("+v+"), 76), "+i+" -> substr("+v+", "+i+" + 1, 76)), chr(13) || chr(10)) END)[1]"), nil
		}),
		fn("unbase64", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.typed(0, tString)
			if err != nil {
				return nil, err
			}
			return c.out(tBinary, unbase64SQL(x.sql)), nil
		}),
		withNote(fn("levenshtein", Macro, 2, 3, func(c *fcall) (*rx, error) {
			a, err := c.str(0)
			if err != nil {
				return nil, err
			}
			b, err := c.str(1)
			if err != nil {
				return nil, err
			}
			d := "spark_levenshtein(" + a.sql + ", " + b.sql + ")"
			if len(c.args) == 3 {
				th, err := c.intArg(2)
				if err != nil {
					return nil, err
				}
				// -1 when the distance exceeds the threshold.
				return c.out(tInt, "CAST(CASE WHEN "+d+" > "+th.sql+" THEN -1 ELSE "+d+" END AS INTEGER)"), nil
			}
			return c.out(tInt, "CAST("+d+" AS INTEGER)"), nil
		}), "edits of characters (code points), as Spark counts them"),
		fn("overlay", Macro, 3, 4, func(c *fcall) (*rx, error) {
			// Spark's Overlay: the input before pos, the replacement, and
			// the input from pos + len (a negative len, or none, is the
			// replacement's length), of strings by character or of
			// binaries by byte.
			bin := c.args[0].t.Kind == KBinary && c.args[1].t.Kind == KBinary
			var s, rp *rx
			var err error
			if bin {
				s, rp = c.args[0], c.args[1]
			} else {
				if s, err = c.str(0); err != nil {
					return nil, err
				}
				if rp, err = c.str(1); err != nil {
					return nil, err
				}
			}
			p, err := c.intArg(2)
			if err != nil {
				return nil, err
			}
			rlen := "length(" + rp.sql + ")"
			if bin {
				rlen = "octet_length(" + rp.sql + ")"
			}
			l := rlen
			if len(c.args) == 4 {
				x, err := c.intArg(3)
				if err != nil {
					return nil, err
				}
				l = "CASE WHEN " + x.sql + " < 0 THEN " + rlen + " ELSE " + x.sql + " END"
			} else {
				c.name = strings.TrimSuffix(c.name, ")") + ", -1)"
			}
			if bin {
				return c.out(tBinary, "spark_overlay_binary("+s.sql+", "+rp.sql+", "+p.sql+", "+l+")"), nil
			}
			return c.out(tString, "spark_overlay("+s.sql+", "+rp.sql+", "+p.sql+", "+l+")"), nil
		}),
		fn("find_in_set", Macro, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.str(0)
			if err != nil {
				return nil, err
			}
			b, err := c.str(1)
			if err != nil {
				return nil, err
			}
			return c.out(tInt, "CAST(spark_find_in_set("+a.sql+", "+b.sql+") AS INTEGER)"), nil
		}),
		formatNumber, formatString, alias("printf", formatString),
		no("soundex", "no DuckDB equivalent"),
		// luhn_check: Spark's ExpressionImplUtils.isLuhnNumber, false for
		// '' and for any char Java's Character.isDigit rejects. A digit
		// beyond ASCII (Nd of the BMP: Java reads its value) stops the
		// run naming it; one beyond U+FFFF is two chars that are no digits.
		fn("luhn_check", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			return c.out(tBool, "spark_luhn("+s.sql+")"), nil
		}),
		fn("encode", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			x, err := c.typed(0, tString)
			if err != nil {
				return nil, err
			}
			if err := c.utf8Charset(1, "encode"); err != nil {
				return nil, err
			}
			return c.out(tBinary, "encode("+x.sql+")"), nil
		}),
		fn("decode", Rewritten, 2, -1, func(c *fcall) (*rx, error) {
			if len(c.args) == 2 {
				x, err := c.typed(0, tBinary)
				if err != nil {
					return nil, err
				}
				if err := c.utf8Charset(1, "decode"); err != nil {
					return nil, err
				}
				return c.out(tString, "decode("+x.sql+")"), nil
			}
			// decode(x, search, result, ..., [default]) is Spark's CASE of
			// null-safe equalities (a NULL search matches a NULL x).
			args := c.node.Args
			cs := &Case{P: c.node.P}
			for i := 1; i+1 < len(args); i += 2 {
				cs.Whens = append(cs.Whens, &When{Cond: &IsDistinct{L: args[0], R: args[i], Not: true, P: args[i].Pos()}, Result: args[i+1]})
			}
			if len(args)%2 == 0 {
				cs.Else = args[len(args)-1]
			}
			x, err := c.r.expr(cs, c.sc, c.ctx)
			if err != nil {
				return nil, err
			}
			x.name = c.name
			return x, nil
		}),
		no("sentences", "locale-dependent word splitting"), no("quote", "not translated yet"),
	}
}

func (c *fcall) strPred(duck string) (*rx, error) {
	a, err := c.str(0)
	if err != nil {
		return nil, err
	}
	b, err := c.str(1)
	if err != nil {
		return nil, err
	}
	return c.out(tBool, duck+"("+a.sql+", "+b.sql+")"), nil
}

// binary is argument i as bytes (strings are UTF-8 encoded).
func (c *fcall) binary(i int) (string, error) {
	x := c.args[i]
	switch x.t.Kind {
	case KBinary:
		return x.sql, nil
	case KString:
		return "encode(" + x.sql + ")", nil
	}
	s, err := c.str(i)
	if err != nil {
		return "", err
	}
	return "encode(" + s.sql + ")", nil
}

// regexGroups counts a literal pattern's capturing groups (-1 when not a
// literal).
func regexGroups(p *rx) int {
	if p.lit == nil {
		return -1
	}
	re, err := syntax.Parse(p.lit.Value, syntax.Perl)
	if err != nil {
		return -1
	}
	return re.MaxCap()
}

// formatDecimalSQL formats a DECIMAL(38,d) with thousands separators and d
// decimals (DecimalFormat's "#,###.00").
func formatDecimalSQL(orig, x string, d int) string {
	out := fmt.Sprintf("CASE WHEN %[2]s < 0 THEN '-' ELSE '' END || format('{:,}', CAST(trunc(abs(%[1]s)) AS HUGEINT))", x, orig)
	if d > 0 {
		out += fmt.Sprintf(" || '.' || lpad(CAST(CAST((abs(%[1]s) - trunc(abs(%[1]s))) * CAST('1%[2]s' AS DECIMAL(38,0)) AS HUGEINT) AS VARCHAR), %[3]d, '0')", x, strings.Repeat("0", d), d)
	}
	return "CASE WHEN " + x + " IS NULL THEN NULL ELSE " + out + " END"
}

// javaFormatConversion is the error (a Java exception, without a Spark
// error class) Spark raises for a format conversion of the wrong type.
const javaFormatConversion = "java.util.IllegalFormatConversionException"

// utf8Charset checks the charset argument i of encode/decode: a constant
// naming UTF-8 (any case); Spark's other charsets are refused.
func (c *fcall) utf8Charset(i int, fn string) error {
	cs := c.args[i]
	if cs.lit == nil || cs.t.Kind != KString {
		return unsupported(c.argPos(i), "give the charset as a string constant", "%s with a charset that is not a constant", fn)
	}
	if !strings.EqualFold(cs.lit.Value, "UTF-8") {
		return unsupported(c.argPos(i), "use 'UTF-8'", "%s with the charset '%s'", fn, cs.lit.Value)
	}
	return nil
}

// splitHalf stands for one UTF-16 half of a character beyond U+FFFF in
// split's scan (a private-use character, itself beyond U+FFFF, so that
// every one in the text is replaced).
const splitHalf = '\U0010FFFD'

// re2MayMatchRune reports whether the RE2 pattern re has a construct that
// can match the character r (any character, or a class holding it).
func re2MayMatchRune(re string, r rune) bool {
	p, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(x *syntax.Regexp) bool {
		switch x.Op {
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			return true
		case syntax.OpLiteral:
			for _, c := range x.Rune {
				if c == r {
					return true
				}
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(x.Rune); i += 2 {
				if x.Rune[i] <= r && r <= x.Rune[i+1] {
					return true
				}
			}
		}
		for _, s := range x.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(p)
}

// unbase64SQL is Spark's unbase64 of the text s: java.util.Base64's MIME
// decoder (spark_unbase64), which skips line breaks and any other
// character outside the alphabet; where that decoder throws (a dangling
// last character, a misplaced '='), Spark fails with its
// IllegalArgumentException.
func unbase64SQL(s string) string {
	return "CASE WHEN " + s + " IS NULL THEN NULL ELSE coalesce(spark_unbase64(" + s + "), error('[IllegalArgumentException] ' || " + s + " || ' is not base64 as java.util.Base64''s MIME decoder reads it')) END"
}
