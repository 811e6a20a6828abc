package polarsread

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Column is a column of what a reader reads: its name and polars dtype.
type Column struct {
	Name  string
	Dtype Dtype
}

// Lit returns the DuckDB string literal naming a file (the runner's
// path rules: confinement, quoting).
type Lit func(path string) (string, error)

// noNull stands for "no null string" in read_csv's nullstr (with
// missing_utf8_is_empty_string an empty field is an empty string).
const noNull = "\x01laktory:no-null\x01"

// ReadCSV returns the DuckDB query reading CSV files (in the order
// given, as one source) as pl.scan_csv(path, **kwargs) reads them, and
// its columns.
func ReadCSV(ctx context.Context, files []string, o CSVOptions, lit Lit) (string, []Column, error) {
	scans := make([]*csvFile, 0, len(files))
	for _, p := range files {
		f, err := scanCSV(ctx, p, o)
		if err != nil {
			return "", nil, err
		}
		if f.empty {
			if o.RaiseIfEmpty {
				return "", nil, fmt.Errorf("%w: empty CSV (%s)", ErrPolars, p)
			}
			if len(files) == 1 {
				return "", nil, fmt.Errorf("%w: %s is empty: polars' raise_if_empty=False reads a frame without columns, which a pipeline cannot write", ErrUnsupported, p)
			}
			continue
		}
		scans = append(scans, f)
	}
	if len(scans) == 0 {
		return "", nil, fmt.Errorf("%w: every file is empty", ErrUnsupported)
	}
	names := columnNames(scans[0], o)
	for i, n := range names {
		if n == "" {
			return "", nil, fmt.Errorf("%w: column %d of %s has no name (an empty header field), which local runs cannot name: name it in the header or with new_columns", ErrUnsupported, i+1, scans[0].path)
		}
	}
	for _, f := range scans[1:] {
		other := columnNames(f, o)
		if len(other) != len(names) {
			return "", nil, fmt.Errorf("%w: schema lengths differ (%s and %s)", ErrPolars, scans[0].path, f.path)
		}
		for i := range names {
			if names[i] != other[i] {
				return "", nil, fmt.Errorf("%w: schema names differ: got %s, expected %s (%s and %s)", ErrPolars, names[i], other[i], scans[0].path, f.path)
			}
		}
	}
	types, err := inferColumns(len(names), names, scans, o)
	if err != nil {
		return "", nil, err
	}
	ordered := o.RowIndexName != "" || o.NRows >= 0
	q, err := csvRows(scans, o, lit, ordered)
	if err != nil {
		return "", nil, err
	}
	sel := make([]string, 0, len(names)+1)
	cols := make([]Column, 0, len(names)+1)
	if o.RowIndexName != "" {
		sel = append(sel, fmt.Sprintf("CAST(row_number() OVER (ORDER BY __lk_f, __lk_rn, __lk_k) - 1 + %d AS UINTEGER) AS %s", o.RowIndexOffset, ident(o.RowIndexName)))
		cols = append(cols, Column{o.RowIndexName, "UInt32"})
	}
	for i, n := range names {
		sel = append(sel, castSQL(ident("c"+strconv.Itoa(i)), n, i, types[i], o)+" AS "+ident(n))
		cols = append(cols, Column{n, types[i]})
	}
	q = "SELECT " + strings.Join(sel, ", ") + " FROM (" + q + ")"
	if ordered && len(scans) > 0 {
		// The database does not keep rows in order (preserve_insertion_order
		// is off): the files' order and each row's position in its file
		// (read by one thread) order the row index and n_rows' first rows.
		q += " ORDER BY __lk_f, __lk_rn, __lk_k"
	}
	if o.NRows >= 0 {
		q += fmt.Sprintf(" LIMIT %d", o.NRows)
	}
	return q, cols, nil
}

// columnNames are polars' names for a file's columns: the header's, a
// repeated one as name_duplicated_0, ...; column_1, ... without a header;
// new_columns renames the first ones.
func columnNames(f *csvFile, o CSVOptions) []string {
	out := make([]string, f.ncols)
	seen := map[string]int{}
	for i := range out {
		if !o.HasHeader {
			out[i] = "column_" + strconv.Itoa(i+1)
			continue
		}
		n := f.names[i]
		if k, ok := seen[n]; ok {
			seen[n] = k + 1
			n = fmt.Sprintf("%s_duplicated_%d", n, k)
		} else {
			seen[n] = 0
		}
		out[i] = n
	}
	for i, n := range o.NewColumns {
		if i < len(out) {
			out[i] = n
		}
	}
	return out
}

// csvRows is the query of the files' fields as text, columns c0, c1, ...,
// rows in polars' order: read_csv reads the records after the header;
// comment lines polars skips are dropped and blank lines polars reads as
// rows of nulls are added, by position.
//
// With ordered, or with rows to drop or add, the query has the columns
// __lk_f (the file's position), __lk_rn (the row's in its file, as
// read_csv read it with one thread) and __lk_k (0 for a blank line's row
// before the row read at its position), which order the rows as polars
// reads them.
func csvRows(scans []*csvFile, o CSVOptions, lit Lit, ordered bool) (string, error) {
	ncols := scans[0].ncols
	colDefs := make([]string, ncols)
	for i := range colDefs {
		colDefs[i] = fmt.Sprintf("'c%d': 'VARCHAR'", i)
	}
	quote := ""
	if o.Quote != 0 {
		quote = string(o.Quote)
	}
	nullstr := ""
	if o.MissingUTF8IsEmpty {
		nullstr = noNull
	}
	read := func(paths []string, skip int, serial bool) (string, error) {
		lits := make([]string, len(paths))
		for i, p := range paths {
			l, err := lit(p)
			if err != nil {
				return "", err
			}
			lits[i] = l
		}
		par := ""
		if serial {
			par = ", parallel = false"
		}
		return fmt.Sprintf("SELECT * FROM read_csv([%s], header = false, skip = %d, columns = {%s}, auto_detect = false, delim = %s, quote = %s, escape = %s, allow_quoted_nulls = false, nullstr = %s, null_padding = true, strict_mode = false%s)",
			strings.Join(lits, ", "), skip, strings.Join(colDefs, ", "), sqlString(string(o.Separator)), sqlString(quote), sqlString(quote), sqlString(nullstr), par), nil
	}
	plain := !ordered
	for _, f := range scans {
		if len(f.drop) > 0 || len(f.blanks) > 0 || f.skip != scans[0].skip {
			plain = false
		}
	}
	if plain {
		paths := make([]string, len(scans))
		for i, f := range scans {
			paths[i] = f.path
		}
		return read(paths, scans[0].skip, false)
	}
	parts := make([]string, 0, len(scans))
	for fi, f := range scans {
		q, err := read([]string{f.path}, f.skip, true)
		if err != nil {
			return "", err
		}
		q = fmt.Sprintf("SELECT *, %d AS __lk_f, row_number() OVER () - 1 AS __lk_rn, 1 AS __lk_k FROM (%s)", fi, q)
		if len(f.drop) > 0 {
			q = fmt.Sprintf("SELECT * FROM (%s) WHERE __lk_rn NOT IN (%s)", q, int64List(f.drop))
		}
		parts = append(parts, q)
		if len(f.blanks) > 0 {
			nulls := strings.Repeat("NULL::VARCHAR, ", ncols)
			parts = append(parts, fmt.Sprintf("SELECT %s%d AS __lk_f, unnest([%s]) AS __lk_rn, 0 AS __lk_k", nulls, fi, int64List(f.blanks)))
		}
	}
	return strings.Join(parts, " UNION ALL "), nil
}

// castSQL reads column c (text) as polars reads a column of dtype d:
// null values null, then parsed, failing with polars' message on a value
// it cannot parse.
func castSQL(c, name string, idx int, d Dtype, o CSVOptions) string {
	v := c
	var nulls []string
	if o.ColumnNulls != nil {
		if n, ok := o.ColumnNulls[name]; ok {
			nulls = []string{n}
		}
	} else {
		nulls = o.NullValues
	}
	if len(nulls) > 0 {
		lits := make([]string, len(nulls))
		for i, n := range nulls {
			lits[i] = sqlString(n)
		}
		v = fmt.Sprintf("CASE WHEN %s IN (%s) THEN NULL ELSE %s END", c, strings.Join(lits, ", "), c)
	}
	if o.MissingUTF8IsEmpty {
		if d == String {
			v = fmt.Sprintf("replace(%s, %s, '')", v, sqlString(noNull))
		} else {
			v = fmt.Sprintf("NULLIF(%s, %s)", v, sqlString(noNull))
		}
	}
	if d == String {
		return v
	}
	x := "NULLIF(" + v + ", '')"
	fail := func(dt string) string {
		return fmt.Sprintf("error('could not parse `' || __v || '` as dtype `%s` at column ' || %s || ' (column number %d)')", dt, sqlString("'"+name+"'"), idx+1)
	}
	var expr string
	switch d {
	case Int64:
		t := "ltrim(__v, ' \t')"
		expr = fmt.Sprintf("CASE WHEN regexp_full_match(%s, '[+-]?[0-9]+') AND TRY_CAST(%s AS BIGINT) IS NOT NULL THEN CAST(%s AS BIGINT) ELSE %s END", t, t, t, fail("i64"))
	case Float64:
		t := "ltrim(__v, ' \t')"
		if o.DecimalComma {
			t = "replace(" + t + ", ',', '.')"
		}
		expr = fmt.Sprintf("CASE WHEN regexp_full_match(%s, '[+-]?([0-9]+\\.?[0-9]*([eE][+-]?[0-9]+)?|\\.[0-9]+([eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))') THEN COALESCE(TRY_CAST(%s AS DOUBLE), CASE WHEN starts_with(%s, '-') THEN '-inf'::DOUBLE ELSE 'inf'::DOUBLE END) ELSE %s END", t, t, t, fail("f64"))
	case Boolean:
		expr = fmt.Sprintf("CASE lower(__v) WHEN 'true' THEN true WHEN 'false' THEN false ELSE %s END", fail("bool"))
	case Date:
		expr = fmt.Sprintf("CASE WHEN regexp_full_match(__v, '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}') AND TRY_CAST(__v AS DATE) IS NOT NULL THEN CAST(__v AS DATE) ELSE %s END", fail("date"))
	case Datetime, DatetimeUTC:
		typ, zone := "TIMESTAMP", ""
		if d == DatetimeUTC {
			typ, zone = "TIMESTAMPTZ", "(Z|[+-][0-9]{2}:?[0-9]{2})"
		}
		t := `regexp_replace(__v, '(\.[0-9]{6})[0-9]+', '\1')`
		expr = fmt.Sprintf("CASE WHEN regexp_full_match(__v, '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}[T ][0-9]{1,2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?%s') AND TRY_CAST(%s AS %s) IS NOT NULL THEN CAST(%s AS %s) ELSE %s END", zone, t, typ, t, typ, fail("datetime[μs]"))
	}
	// __v is bound once per row through a one-element list lambda-free
	// form: DuckDB evaluates the CASE per row, the ELSE only for the rows
	// that reach it.
	expr = strings.ReplaceAll(expr, "__v", x)
	return fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL ELSE %s END", x, expr)
}

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func int64List(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, ", ")
}
