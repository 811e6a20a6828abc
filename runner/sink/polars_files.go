package sink

import (
	"context"
	"fmt"
	"strings"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
)

// polarsLayout is how polars' writers lay out a POLARS file sink
// (Laktory 0.13.1's FileDataSink._write_polars: df.write_csv(path),
// df.write_parquet(path, **writer_kwargs), ...): one file at the sink's
// path whatever its extension, unless a PARQUET sink is partitioned by
// partition_by; then a folder of Hive-style partitions, each written as
// 0.parquet (replacing the file of the same name and leaving the other
// partitions as they are) and keeping the partition columns in the files.
func polarsLayout(sk *workspace.Sink, format string) (single, keepKeys bool) {
	if len(sk.PartitionBy()) == 0 {
		return true, false
	}
	return false, format == "PARQUET"
}

// ErrPolarsCSV: polars' write_csv refuses a column's type.
var ErrPolarsCSV = fmt.Errorf("%w: polars' write_csv", ErrSink)

// polarsCSVQuery is the query of a POLARS CSV sink's rows of rel, each
// column rendered as text as polars' write_csv renders it where DuckDB's
// CSV writer renders it otherwise: datetimes in ISO form with a T and the
// unit's digits (2026-01-01T08:30:00.000000, +0000 for UTC), times with
// nanoseconds, floats in polars' notation (decimal from 1e-5 to 1e16,
// then 1e16, 1e-7; NaN). A type polars cannot write to CSV (binary,
// nested, durations) fails as polars does (ComputeError). A null_value is
// written by the query (DuckDB's writer leaves an empty string unquoted
// when its null text is not empty; polars quotes it), so c.Null is
// cleared.
func polarsCSVQuery(ctx context.Context, t Task, rel string, c *engine.CSVWrite) (string, error) {
	cols, err := t.Columns(ctx, rel)
	if err != nil {
		return "", err
	}
	items := make([]string, len(cols))
	for i, col := range cols {
		r, err := polarsCSVValue(quoteIdent(col.Name), col.Type)
		if err != nil {
			return "", fmt.Errorf("%w: column '%s': %w", ErrPolarsCSV, col.Name, err)
		}
		if c.Null != "" {
			r = "coalesce(CAST(" + r + " AS VARCHAR), " + quoteLiteral(c.Null) + ")"
		}
		items[i] = r + " AS " + quoteIdent(col.Name)
	}
	c.Null = ""
	return "SELECT " + strings.Join(items, ", ") + " FROM " + quoteIdent(rel), nil
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// polarsCSVValue is the SQL of the text polars' write_csv writes for the
// column c of DuckDB type typ (c itself where DuckDB writes the same).
func polarsCSVValue(c, typ string) (string, error) {
	t := strings.ToUpper(strings.TrimSpace(typ))
	iso := func(x, frac string) string { return "strftime(" + x + ", '%Y-%m-%dT%H:%M:%S." + frac + "')" }
	switch {
	case strings.HasSuffix(t, "[]") || strings.HasPrefix(t, "STRUCT") || strings.HasPrefix(t, "MAP") || strings.HasPrefix(t, "UNION"):
		return "", fmt.Errorf("CSV format does not support nested data (ComputeError)")
	case t == "BLOB":
		return "", fmt.Errorf("datatype binary cannot be written to CSV (ComputeError)")
	case t == "INTERVAL":
		return "", fmt.Errorf("datatype duration cannot be written to CSV (ComputeError)")
	case t == "TIMESTAMP" || t == "DATETIME":
		return iso(c, "%f"), nil
	case t == "TIMESTAMP_NS":
		return iso(c, "%n"), nil
	case t == "TIMESTAMP_MS":
		return iso(c, "%g"), nil
	case t == "TIMESTAMP WITH TIME ZONE" || t == "TIMESTAMPTZ":
		return iso("timezone('UTC', "+c+")", "%f") + " || '+0000'", nil
	case t == "TIME":
		return "strftime(TIMESTAMP '1970-01-01' + " + c + ", '%H:%M:%S.%f') || '000'", nil
	case t == "DOUBLE" || t == "FLOAT":
		return polarsFloat(c), nil
	}
	return c, nil
}

// polarsFloat renders a float column c as polars does from DuckDB's
// shortest text of it: DuckDB writes 1e-05 and 1e+16 where polars writes
// 0.00001 and 1e16 (polars: decimal notation from 1e-5 up to 1e16,
// DuckDB: from 1e-4), and nan where polars writes NaN.
func polarsFloat(c string) string {
	s := "CAST(" + c + " AS VARCHAR)"
	exp := "CAST(split_part(" + s + ", 'e', 2) AS INTEGER)"
	mant := "split_part(" + s + ", 'e', 1)"
	return "CASE WHEN isnan(" + c + ") THEN 'NaN' WHEN NOT contains(" + s + ", 'e') THEN " + s +
		" WHEN " + exp + " = -5 THEN CASE WHEN " + c + " < 0 THEN '-0.0000' ELSE '0.0000' END || replace(replace(" + mant + ", '-', ''), '.', '')" +
		" ELSE " + mant + " || 'e' || CAST(" + exp + " AS VARCHAR) END"
}

// polarsJSONQuery is the query of a POLARS JSON or NDJSON sink's rows of
// rel, each value written as polars' write_json and write_ndjson write it
// where DuckDB's JSON writer writes it otherwise: a datetime without a
// time zone 2026-01-02 00:00:00, with .250 or .250000 as its fraction
// needs (chrono's %.f: 3, 6 or 9 digits); a UTC one
// 2026-01-02T00:00:00.250+00:00; a decimal as a string of its scale's
// digits ("1.50"); NaN and infinities as null; inside lists and structs
// too. A
// JSON sink is one array of the rows (FileWrite.JSONArray), an NDJSON one
// a row a line. A binary column fails as polars does (it panics: not yet
// implemented: Writing BinaryView to JSON), which validate reports
// (LK220).
func polarsJSONQuery(ctx context.Context, t Task, rel string) (string, error) {
	cols, err := t.Columns(ctx, rel)
	if err != nil {
		return "", err
	}
	items := make([]string, len(cols))
	for i, col := range cols {
		c := quoteIdent(col.Name)
		if strings.Contains(strings.ToUpper(col.Type), "BLOB") {
			return "", fmt.Errorf("%w: column '%s' is binary: polars' write_json panics (not yet implemented: Writing BinaryView to JSON)", ErrSink, col.Name)
		}
		items[i] = polarsJSONValue(c, col.Type) + " AS " + c
	}
	return "SELECT " + strings.Join(items, ", ") + " FROM " + quoteIdent(rel), nil
}

// polarsJSONValue is the SQL of the value polars writes to JSON for the
// column c of DuckDB type typ (c itself where DuckDB writes the same),
// inside lists and structs too.
func polarsJSONValue(c, typ string) string { return jsonValue(c, typ, 0) }

func jsonValue(c, typ string, depth int) string {
	typ = strings.TrimSpace(typ)
	t := strings.ToUpper(typ)
	if el, ok := strings.CutSuffix(typ, "[]"); ok {
		x := fmt.Sprintf("x%d", depth)
		if v := jsonValue(x, el, depth+1); v != x {
			return "list_transform(" + c + ", " + x + " -> " + v + ")"
		}
		return c
	}
	if fields, ok := structFields(typ); ok {
		changed := false
		items := make([]string, len(fields))
		for i, f := range fields {
			ref := "(" + c + ")." + quoteIdent(f[0])
			v := jsonValue(ref, f[1], depth+1)
			changed = changed || v != ref
			items[i] = quoteLiteral(f[0]) + ": " + v
		}
		if !changed {
			return c
		}
		return "CASE WHEN " + c + " IS NULL THEN NULL ELSE {" + strings.Join(items, ", ") + "} END"
	}
	frac := func(x, us string) string {
		return "(CASE WHEN " + us + " = 0 THEN '' WHEN " + us + " % 1000 = 0 THEN strftime(" + x + ", '.%g') ELSE strftime(" + x + ", '.%f') END)"
	}
	switch {
	case t == "TIMESTAMP" || t == "TIMESTAMP_MS" || t == "DATETIME":
		return "strftime(" + c + ", '%Y-%m-%d %H:%M:%S') || " + frac(c, "epoch_us("+c+") % 1000000")
	case t == "TIMESTAMP_NS":
		f := "epoch_ns(" + c + ") % 1000000000"
		return "strftime(" + c + ", '%Y-%m-%d %H:%M:%S') || (CASE WHEN " + f + " = 0 THEN '' WHEN " + f + " % 1000000 = 0 THEN strftime(" + c + ", '.%g')" +
			" WHEN " + f + " % 1000 = 0 THEN strftime(" + c + ", '.%f') ELSE strftime(" + c + ", '.%n') END)"
	case t == "TIMESTAMP WITH TIME ZONE" || t == "TIMESTAMPTZ":
		u := "timezone('UTC', " + c + ")"
		return "strftime(" + u + ", '%Y-%m-%dT%H:%M:%S') || " + frac(u, "epoch_us("+c+") % 1000000") + " || '+00:00'"
	case strings.HasPrefix(t, "DECIMAL"):
		return "CAST(" + c + " AS VARCHAR)"
	case t == "DOUBLE" || t == "FLOAT":
		return "CASE WHEN isnan(" + c + ") OR isinf(" + c + ") THEN NULL ELSE " + c + " END"
	}
	return c
}

// structFields are the fields (name, type) of a DuckDB STRUCT type as
// DESCRIBE prints it: STRUCT(a DOUBLE, "b c" DECIMAL(10,2), l INTEGER[]).
func structFields(typ string) ([][2]string, bool) {
	if len(typ) < 8 || !strings.EqualFold(typ[:7], "STRUCT(") || !strings.HasSuffix(typ, ")") {
		return nil, false
	}
	body := typ[7 : len(typ)-1]
	var parts []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(body); i++ {
		switch ch := body[i]; {
		case ch == '"':
			quoted = !quoted
		case quoted:
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case ch == ',' && depth == 0:
			parts = append(parts, body[start:i])
			start = i + 1
		}
	}
	parts = append(parts, body[start:])
	var out [][2]string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		var name, rest string
		if strings.HasPrefix(p, `"`) {
			end := 1
			for end < len(p) && (p[end] != '"' || end+1 < len(p) && p[end+1] == '"') {
				if p[end] == '"' {
					end++
				}
				end++
			}
			if end >= len(p) {
				return nil, false
			}
			name, rest = strings.ReplaceAll(p[1:end], `""`, `"`), p[end+1:]
		} else {
			var ok bool
			if name, rest, ok = strings.Cut(p, " "); !ok {
				return nil, false
			}
		}
		out = append(out, [2]string{name, strings.TrimSpace(rest)})
	}
	return out, true
}

// polarsCSV are the CSV options of a POLARS CSV sink, as polars'
// write_csv applies its writer_kwargs (validate refuses the others,
// LK186): separator, include_header, null_value, quote_char; nil for
// other sinks.
func polarsCSV(sk *workspace.Sink) *engine.CSVWrite {
	if sk.Backend != "POLARS" || sk.EffectiveFormat() != "CSV" {
		return nil
	}
	c := &engine.CSVWrite{Separator: ",", Quote: `"`, Header: true}
	kw := sk.WriterKwargs
	if v, ok := kw["separator"].(string); ok {
		c.Separator = v
	}
	if v, ok := kw["quote_char"].(string); ok {
		c.Quote = v
	}
	if v, ok := kw["null_value"].(string); ok {
		c.Null = v
	}
	if v, ok := kw["include_header"].(bool); ok {
		c.Header = v
	}
	return c
}
