package runner

// Reading sources as their backend reads them: CSV defaults and headers
// (Spark's, polars'), POLARS CSV through runner/polarsread, DATAFRAME
// sources' inline data (runner/inline), and a source's drops as Laktory
// applies them. The compiler (compile.go) calls them; new source readers
// belong here.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/inline"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/polarsread"
	"github.com/laktory/workbench/workspace"
)

// csvReadDefaults are has_header and infer_schema of a CSV source as
// Laktory 0.13.1 reads it when the source sets neither: its own defaults
// (a header row, no inference: every column a string) for `format: CSV`;
// for a format written in another case (`csv`, WrittenFormat) it applies
// none of its options, so the backend's reader's defaults: Spark reads no
// header and infers nothing, polars' scan_csv reads a header and infers
// the types.
func csvReadDefaults(src *workspace.Source) (header, infer bool) {
	switch {
	case src == nil || src.WrittenFormat == "":
		return true, false
	case src.Backend == "POLARS":
		return true, true
	}
	return false, false
}

// csvInferCandidates are the types DuckDB's sniffer may give a column when
// the backend infers CSV types: Spark's inferSchema gives int when every
// value fits and timestamps with a time zone (Spark's TIMESTAMP); polars'
// scan_csv gives Int64, Float64, Boolean or String (dates stay strings
// without try_parse_dates).
func csvInferCandidates(src *workspace.Source) string {
	if src != nil && src.Backend == "POLARS" {
		return "auto_type_candidates = ['BOOLEAN', 'BIGINT', 'DOUBLE', 'VARCHAR']"
	}
	return "auto_type_candidates = ['BOOLEAN', 'INTEGER', 'BIGINT', 'DOUBLE', 'DATE', 'TIMESTAMPTZ', 'VARCHAR']"
}

// csvHeaderless names the columns of CSV files read without a header
// (sql, DuckDB's column0, column1, ...) as the backend's reader does:
// Spark's _c0, _c1, ..., polars' column_1, column_2, ....
func csvHeaderless(ctx context.Context, q local.Querier, sql string, src *workspace.Source) (string, error) {
	cols, err := describe(ctx, q, sql)
	if err != nil {
		return "", err
	}
	sel := make([]string, len(cols))
	for i, c := range cols {
		name := fmt.Sprintf("_c%d", i)
		if src != nil && src.Backend == "POLARS" {
			name = fmt.Sprintf("column_%d", i+1)
		}
		sel[i] = quoteIdent(c.Name) + " AS " + quoteIdent(name)
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM (" + sql + ")", nil
}

// csvHeader reports whether a CSV source is read with a header row, as
// fileListSQL reads it.
func csvHeader(src *workspace.Source) bool {
	header, _ := csvReadDefaults(src)
	if src != nil && src.HasHeader != nil {
		header = *src.HasHeader
	}
	if v, ok := readerOpt(src, "header"); ok {
		header = truthy(v)
	}
	return header
}

// polarsFiles reads the files of a POLARS CSV source as Laktory's Polars
// backend reads them (pl.scan_csv with the source's has_header,
// infer_schema and reader_kwargs; runner/polarsread); ok is false for
// other sources (and for a CSV source declaring its schema, which
// fileListSQL reads by position).
func polarsFiles(ctx context.Context, q local.Querier, files []string, format string, o readOptions) (string, bool, error) {
	src := o.src
	if src == nil || src.Backend != "POLARS" || o.polars != nil || schemaColumns(src) != "" {
		return "", false, nil
	}
	switch format {
	case "JSON", "JSONL", "NDJSON", "PARQUET":
		rows, err := polarsread.RowOptions(format, src.ReaderKwargs)
		if err != nil {
			return "", true, fmt.Errorf("%w: %w", ErrSource, err)
		}
		o.polars = &rows
		q, err := readFileList(ctx, q, files, format, o)
		if err != nil {
			return "", true, err
		}
		return polarsread.WrapRows(q, rows), true, nil
	case "IPC":
		rows, err := polarsread.RowOptions(format, src.ReaderKwargs)
		if err != nil {
			return "", true, fmt.Errorf("%w: %w", ErrSource, err)
		}
		parts := make([]string, len(files))
		for i, f := range files {
			rel, err := local.LoadIPC(ctx, q, f)
			if errors.Is(err, local.ErrIPCType) {
				err = fmt.Errorf("%w: %w", polarsread.ErrUnsupported, err)
			}
			if err != nil {
				return "", true, fmt.Errorf("%w: %w", ErrSource, err)
			}
			parts[i] = "SELECT * FROM " + rel
		}
		return polarsread.WrapRows(strings.Join(parts, " UNION ALL "), rows), true, nil
	case "CSV":
	default:
		return "", false, nil
	}
	infer := src.InferSchema
	if src.WrittenFormat != "" {
		// `format: csv`: Laktory applies none of its CSV options, so
		// scan_csv's defaults (a header, types inferred) hold.
		t := true
		infer = &t
	}
	opts, err := polarsread.CSV(src.HasHeader, infer, src.ReaderKwargs)
	if err != nil {
		return "", true, fmt.Errorf("%w: %w", ErrSource, err)
	}
	sql, _, err := polarsread.ReadCSV(ctx, files, opts, func(p string) (string, error) {
		d, err := landing.DuckPath(p)
		return quoteString(d), err
	})
	if err != nil {
		return "", true, fmt.Errorf("%w: %w", ErrSource, err)
	}
	return sql, true, nil
}

// inlineSQL reads a DATAFRAME source's inline data as its backend builds
// it (runner/inline).
func inlineSQL(src *workspace.Source) (string, error) {
	f, err := inline.Read(src.Data, src.Backend)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrSource, err)
	}
	return f.SQL, nil
}

// presentDrops are the columns of a source's `drops` that the relation
// from has, as Laktory 0.13.1 drops them: df.drop(*drops, strict=False)
// (narwhals), so a name the frame does not have is ignored rather than an
// error, and names match exactly (narwhals compares them as written, on
// both backends).
func (c *compiler) presentDrops(ctx context.Context, from string, drops []string) ([]string, error) {
	cols, err := c.s.describe(ctx, "SELECT * FROM "+from)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSource, err)
	}
	names := columnNames(cols)
	var out []string
	for _, d := range drops {
		if slices.Contains(names, d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// textOptions are the reader_kwargs of a TEXT source local runs apply:
// Spark's text reader's wholetext (one row per file). Others (lineSep) are
// refused before the run (unsupported).
var textOptions = []string{"wholetext"}

// textListSQL reads text files as Spark's text reader does (format TEXT,
// PYSPARK only): one string column `value`, a row per line (a line ends at
// \n, \r\n or \r, Spark's default line separators; the end of the file
// after its last separator is no line, so an empty file has no rows), in
// the order of the files and their lines; with wholetext, a row per file
// that is not empty (as pyspark 4.2 reads them).
func textListSQL(list string, src *workspace.Source) string {
	if v, ok := readerOpt(src, "wholetext"); ok && truthy(v) {
		// Spark lists no empty file: an empty file has no row.
		return fmt.Sprintf("SELECT content AS value FROM read_text(%s) WHERE content <> '' ORDER BY filename", list)
	}
	const sep = `'\r\n|\r|\n'`
	lines := fmt.Sprintf(`CASE WHEN content = '' THEN []::VARCHAR[]
		WHEN regexp_matches(content, '(\r\n|\r|\n)$') THEN list_slice(regexp_split_to_array(content, %[1]s), 1, -2)
		ELSE regexp_split_to_array(content, %[1]s) END`, sep)
	return strings.Join(strings.Fields(fmt.Sprintf(`SELECT value FROM (SELECT filename, unnest(lines) AS value, generate_subscripts(lines, 1) AS i
		FROM (SELECT filename, %s AS lines FROM read_text(%s))) ORDER BY filename, i`, lines, list)), " ")
}

// unappliedOption is a reader_kwargs key of src that applied does not
// name (without case, as Spark's options), "" when there is none.
func unappliedOption(src *workspace.Source, applied []string) string {
	for k := range src.ReaderKwargs {
		ok := false
		for _, a := range applied {
			ok = ok || strings.EqualFold(k, a)
		}
		if !ok {
			return k
		}
	}
	return ""
}

// malformedJSON is how DuckDB's JSON reader names a file it cannot parse.
var malformedJSON = regexp.MustCompile(`Malformed JSON in file "([^"]+)", at byte \d+ in (?:line|record/value) \d+: ([^.\n]*)`)

// unparsable turns the engine's failure to parse a source file into an
// error naming the file (relative to the workspace), the exact line and
// column (found by parsing the file again: DuckDB counts its lines from
// another origin, and JSON arrays by record) and the fix; other errors
// are returned as they are. The read failed before anything of it was
// committed: a FULL refresh computes its rows before it drops or truncates
// (taskExec.execute).
func unparsable(snap *workspace.Snapshot, node, pipeline string, err error) error {
	if err == nil {
		return nil
	}
	m := malformedJSON.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	file, reason := m[1], m[2]
	at := ""
	if line, col, why, ok := jsonSyntaxPosition(file); ok {
		at, reason = fmt.Sprintf("line %d, column %d", line, col), why
	}
	rel := file
	if snap != nil {
		rel = snap.Rel(file)
	}
	format := "JSON"
	if ext := strings.ToLower(filepath.Ext(file)); ext == ".jsonl" || ext == ".ndjson" {
		format = "JSONL"
	}
	where := at
	if where == "" {
		where = "the position DuckDB gives: " + strings.TrimSpace(m[0])
	}
	return fmt.Errorf("%w: node '%s' of pipeline '%s': %s cannot be parsed as %s: %s: %s; nothing was written from it: fix the file there (or move it out of the source) and run again",
		ErrSource, node, pipeline, rel, format, where, reason)
}

// jsonSyntaxPosition parses a JSON or JSON lines file as a sequence of
// values and returns the line and column (1-based, in bytes) of its first
// syntax error, with what is wrong there; ok is false when the file
// parses (or cannot be read).
func jsonSyntaxPosition(path string) (line, col int, why string, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, "", false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == io.EOF {
			return 0, 0, "", false
		}
		if err == nil {
			continue
		}
		idx := len(bytes.TrimRight(data, " \t\r\n")) // the end of the last value: cut short
		why = "the value is cut short"
		var se *json.SyntaxError
		if errors.As(err, &se) {
			idx, why = int(se.Offset)-1, strings.TrimPrefix(se.Error(), "invalid character ")
			why = "unexpected character " + why
		} else if !errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, 0, "", false
		}
		idx = min(max(idx, 0), len(data))
		line = 1 + bytes.Count(data[:idx], []byte("\n"))
		col = idx - bytes.LastIndexByte(data[:idx], '\n')
		return line, col, why, true
	}
}
