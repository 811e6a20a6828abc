package workspace

import (
	"strconv"
	"strings"
)

// MergeCDC is a sink's `merge_cdc_options`: Laktory 0.13.1's
// DataSinkMergeCDCOptions, with its defaults applied.
type MergeCDC struct {
	Located
	PrimaryKeys []string
	// OrderBy is the sequencing column ("" when unset).
	OrderBy string
	// SCDType is 1 or 2 (0 when the YAML gives something else: the decoder
	// reported it).
	SCDType int
	// DeleteWhere is the SQL telling a change that is a delete, as written
	// ("" when unset).
	DeleteWhere    string
	IncludeColumns []string
	ExcludeColumns []string
	// IgnoreNullUpdates keeps a column's value when an update brings NULL
	// (SCD type 1 only: Laktory ignores it for type 2).
	IgnoreNullUpdates bool
	// NullEqualsNull matches NULL keys to NULL keys (<=>).
	NullEqualsNull bool
	// StartAt and EndAt name the SCD type 2 validity columns.
	StartAt, EndAt string
}

// Laktory's defaults of the SCD type 2 validity columns.
const (
	DefaultStartAtColumn = "__start_at"
	DefaultEndAtColumn   = "__end_at"
)

// HashColumn is the column of SCD type 2 targets holding the hash of a
// version's update columns.
const HashColumn = "__hash_cols"

// IsMerge reports whether the sink MERGEs (mode: MERGE). Laktory merges
// only then; merge_cdc_options alone do not make it merge.
func (s *Sink) IsMerge() bool { return s.Mode == ModeMerge }

// decodeMergeCDC decodes merge_cdc_options (nil when absent).
func (d *decoder) decodeMergeCDC(n *vnode) *MergeCDC {
	if n.isNull() {
		return nil
	}
	o := d.object(n, "`merge_cdc_options`")
	if o == nil {
		return nil
	}
	o.check(keysOf("DataSinkMergeCDCOptions"))
	m := &MergeCDC{Located: o.loc, SCDType: 1, StartAt: DefaultStartAtColumn, EndAt: DefaultEndAtColumn,
		PrimaryKeys: o.strList("primary_keys"), OrderBy: o.str("order_by"), DeleteWhere: o.str("delete_where"),
		IncludeColumns: o.strList("include_columns"), ExcludeColumns: o.strList("exclude_columns"),
		IgnoreNullUpdates: o.boolean("ignore_null_updates"), NullEqualsNull: o.boolean("null_equals_null")}
	if v := o.str("start_at_column_name"); v != "" {
		m.StartAt = v
	}
	if v := o.str("end_at_column_name"); v != "" {
		m.EndAt = v
	}
	if v := o.raw("scd_type"); !v.isNull() {
		t, err := strconv.Atoi(v.value)
		if v.kind != vScalar || v.tag != "!!int" || err != nil || (t != 1 && t != 2) {
			d.errorf(o.loc.At("scd_type"), CodeBadEnum, "write `scd_type: 1` or `scd_type: 2`",
				"`scd_type` in `merge_cdc_options` must be 1 or 2 (Input should be 1 or 2), got %s", strings.TrimSpace(v.value))
			t = 0
		}
		m.SCDType = t
	}
	return m
}

// UpdateColumns are the columns a MERGE writes besides the primary keys,
// given the columns of the batch (Laktory's update_columns): the included
// columns, else the batch's columns but the keys and the excluded ones.
func (m *MergeCDC) UpdateColumns(batch []string) []string {
	if len(m.IncludeColumns) > 0 {
		return append([]string(nil), m.IncludeColumns...)
	}
	var out []string
	for _, c := range batch {
		if !containsName(m.PrimaryKeys, c) && !containsName(m.ExcludeColumns, c) {
			out = append(out, c)
		}
	}
	return out
}

// containsName reports whether names holds name (Spark resolves column
// names case-insensitively).
func containsName(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// SourceDeleteWhere is delete_where as Laktory 0.13.1 runs it in an SCD
// type 1 MERGE (DataSinkMergeCDCOptions._add_alias): every word that is
// not an operator, a quoted string, a number or one of a few keywords gets
// the prefix "source." by text replacement, everywhere it occurs in the
// text. Words such as IS, IN or LIKE, function calls, parentheses next to
// a word and words inside other words are mangled too.
func (m *MergeCDC) SourceDeleteWhere() string {
	return laktoryAddAlias(m.DeleteWhere, "source")
}

// laktoryAddAlias is Laktory 0.13.1's _add_alias, step for step.
func laktoryAddAlias(expr, prefix string) string {
	split := expr
	for _, op := range []string{"=", ">", "<", "!", "*", "+", "-", "/", ","} {
		split = strings.ReplaceAll(split, op, " ")
	}
	keywords := map[string]bool{"TRUE": true, "FALSE": true, "CASE": true, "WHEN": true, "THEN": true, "SELECT": true,
		"FROM": true, "WHERE": true, "AND": true, "OR": true, "AS": true, "END": true, "ELSE": true, "NOT": true, "NULL": true}
	var names []string
	for _, c := range strings.Split(split, " ") {
		if c == "" || keywords[strings.ToUpper(c)] || strings.HasPrefix(c, "'") || isPythonFloat(c) {
			continue
		}
		names = append(names, c)
	}
	out := expr
	for _, c := range names {
		if !strings.Contains(c, prefix+".") {
			out = strings.ReplaceAll(out, c, prefix+"."+c)
		}
	}
	return out
}

// isPythonFloat reports whether Python's float() accepts s: decimal and
// exponent forms (not hexadecimal ones), inf, infinity and nan in any
// case, with a sign and underscores between digits.
func isPythonFloat(s string) bool {
	t := strings.ToLower(strings.TrimLeft(s, "+-"))
	switch t {
	case "inf", "infinity", "nan":
		return true
	}
	if strings.Contains(s, "__") || strings.HasPrefix(t, "_") || strings.HasSuffix(t, "_") || strings.Contains(t, "x") {
		return false
	}
	_, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	return err == nil || strings.Contains(err.Error(), "value out of range")
}

// DeleteWhereAsWritten reports whether Laktory's text replacement
// (SourceDeleteWhere) only qualifies the column names of delete_where, so
// that an SCD type 1 MERGE evaluates it as written over the batch's row.
// When it does not, the replaced text is what Spark would parse: it fails
// on it (`x IS NOT NULL` becomes `source.x source.IS NOT NULL`) or
// evaluates something else (`op = 'stop'` becomes
// `source.op = 'stsource.op'`).
func (m *MergeCDC) DeleteWhereAsWritten() bool {
	return m.SourceDeleteWhere() == qualifyColumns(m.DeleteWhere, "source")
}

// sqlWords are the SQL words that are not column names.
var sqlWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`AND OR NOT IS NULL TRUE FALSE IN LIKE ILIKE RLIKE REGEXP BETWEEN CASE WHEN THEN ELSE END
		DISTINCT FROM SELECT WHERE AS CAST ESCAPE INTERVAL DATE TIMESTAMP TIMESTAMP_NTZ ANY ALL SOME EXISTS DIV`) {
		sqlWords[w] = true
	}
}

// qualifyColumns prefixes the column names of a SQL expression with
// prefix + ".": the words that are not SQL words, not function names and
// not already qualified. Quoted strings and identifiers stay as they are.
func qualifyColumns(expr, prefix string) string {
	var b strings.Builder
	isWord := func(c byte) bool {
		return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
	}
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(expr) && expr[j] != c {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(expr))
			b.WriteString(expr[i:j])
			i = j
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(expr) && (isWord(expr[j]) || expr[j] == '.') {
				j++
			}
			b.WriteString(expr[i:j])
			i = j
		case isWord(c):
			j := i
			for j < len(expr) && (isWord(expr[j]) || expr[j] == '.') {
				j++
			}
			w := expr[i:j]
			k := j
			for k < len(expr) && expr[k] == ' ' {
				k++
			}
			call := k < len(expr) && expr[k] == '('
			typed := j < len(expr) && expr[j] == '\'' // X'00'
			if !call && !typed && !sqlWords[strings.ToUpper(w)] && !strings.HasPrefix(w, prefix+".") {
				b.WriteString(prefix + ".")
			}
			b.WriteString(w)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}
