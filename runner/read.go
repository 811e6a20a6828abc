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
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/inline"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/mapped"
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
	if src != nil && src.Backend == "POLARS" && o.polars == nil && schemaColumns(src) != "" && (format == "JSONL" || format == "NDJSON" || format == "JSON") {
		// scan_ndjson(schema=...) and read_json(schema=...): polars'
		// conversions of each value.
		rows, err := polarsread.RowOptions(format, src.ReaderKwargs)
		if err != nil {
			return "", true, fmt.Errorf("%w: %w", ErrSource, err)
		}
		exact := make([]string, len(files))
		for i, f := range files {
			if exact[i], err = landing.DuckPath(f); err != nil {
				return "", true, err
			}
		}
		read := polarsread.NDJSONSchema
		if format == "JSON" {
			read = polarsread.JSONSchema
		}
		q, err := read(stringList(exact), src.Schema.Columns)
		if err != nil {
			return "", true, fmt.Errorf("%w: %w", ErrSource, err)
		}
		return polarsread.WrapRows(q, rows), true, nil
	}
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

// A Spark JSON source without a schema is typed from every row, as
// Spark's JSON inference reads the whole input (samplingRatio 1.0), where
// DuckDB's read_json samples 20,480 rows: a key first seen later stops the
// read (unknown key), and a value of another kind is converted to the
// sampled type (a fraction rounded into a bigint column). DuckDB's own
// inference of the whole file (sample_size = -1) costs three times the
// read. So the files are scanned here once for the shape of their records
// (the kinds of value each key holds, at every depth: jsonShape), and
// where the sampled types hold every value of that shape, the read names
// them (read_json's columns): DuckDB reads the same rows as with its
// inference, without inferring again at every statement that binds the
// source (about 0.04 s of CPU a bind per 500,000 rows). Where they do
// not, DuckDB infers from the whole file, once, and the read names those
// types.

// Kinds of JSON values.
const (
	kindNull uint8 = 1 << iota
	kindBool
	kindInt    // an integer of at most 18 digits
	kindBigInt // an integer of more digits
	kindFloat
	kindString
	kindObject
	kindArray
)

// jsonShape is what the values at one place of the records hold: the kinds
// seen, the keys of its objects and the elements of its arrays.
type jsonShape struct {
	kinds  uint8
	fields map[string]*jsonShape
	elem   *jsonShape
	// the keys in the order of the first object that had them, and their
	// shapes: records of one layout find their keys without hashing
	order  []string
	shapes []*jsonShape
}

// fieldAt is the shape of key k, the p-th key of an object.
func (s *jsonShape) fieldAt(k []byte, p int) *jsonShape {
	if p < len(s.order) && s.order[p] == string(k) {
		return s.shapes[p]
	}
	f := s.field(k)
	if p == len(s.order) {
		s.order = append(s.order, string(k))
		s.shapes = append(s.shapes, f)
	}
	return f
}

func (s *jsonShape) field(k []byte) *jsonShape {
	if f, ok := s.fields[string(k)]; ok {
		return f
	}
	if s.fields == nil {
		s.fields = map[string]*jsonShape{}
	}
	f := &jsonShape{}
	s.fields[string(k)] = f
	return f
}

func (s *jsonShape) merge(o *jsonShape) {
	if o == nil {
		return
	}
	s.kinds |= o.kinds
	for k, f := range o.fields {
		s.field([]byte(k)).merge(f)
	}
	if o.elem != nil {
		if s.elem == nil {
			s.elem = &jsonShape{}
		}
		s.elem.merge(o.elem)
	}
}

// errShape: the scan gives up (text it does not read as JSON the simple way:
// an escaped key, invalid JSON); the caller keeps DuckDB's own reading.
var errShape = errors.New("json shape: not scanned")

// maxShapeFile is the largest file scanned (it is read whole).
const maxShapeFile = 1 << 30

// scanJSONShapes returns the shape of the records of files (JSON lines,
// or, with lines false, JSON values one after another, a lone top-level
// array's elements being the records, as DuckDB's format 'auto' reads
// them). ok is false where a file is compressed, too large or not read
// (errShape).
func scanJSONShapes(ctx context.Context, files []string, lines bool) (shape *jsonShape, ok bool, err error) {
	for _, f := range files {
		l := strings.ToLower(f)
		if !strings.HasSuffix(l, ".json") && !strings.HasSuffix(l, ".jsonl") && !strings.HasSuffix(l, ".ndjson") {
			// compressed or named otherwise: DuckDB decides how to read it
			return nil, false, nil
		}
	}
	shape = &jsonShape{}
	for _, f := range files {
		s, ok, err := scanJSONFile(ctx, f, lines)
		if err != nil || !ok {
			return nil, false, err
		}
		shape.merge(s)
	}
	return shape, true, nil
}

// shapes keeps the shapes of the files scanned last (a run scans its
// sources at validate and again at the read), as polarsread keeps its CSV
// scans: a file is known by its path, size and modification time, and one
// modified less than racyShape before its scan is scanned again each time.
var shapes = struct {
	sync.Mutex
	m     map[shapeKey]*jsonShape
	order []shapeKey
}{m: map[shapeKey]*jsonShape{}}

type shapeKey struct {
	path  string
	size  int64
	mod   int64
	lines bool
}

const (
	maxShapes = 64
	racyShape = 2 * time.Second
)

// scanJSONFile is the shape of one file's records, or the one shapes keeps
// (not to be modified).
func scanJSONFile(ctx context.Context, f string, lines bool) (*jsonShape, bool, error) {
	fi, err := os.Stat(f)
	if err != nil {
		return nil, false, err
	}
	if fi.Size() > maxShapeFile {
		return nil, false, nil
	}
	key := shapeKey{path: f, size: fi.Size(), mod: fi.ModTime().UnixNano(), lines: lines}
	shapes.Lock()
	s, ok := shapes.m[key]
	shapes.Unlock()
	if ok {
		return s, true, nil
	}
	// Mapped, not read: no copy of the file into the heap (the shape keeps
	// copies of the keys only).
	m, err := mapped.Open(f)
	if err != nil {
		return nil, false, err
	}
	defer m.Close()
	b := m.Bytes()
	var parts [][]byte
	if !lines {
		parts = [][]byte{b}
	} else if err := mapped.Guard(func() error {
		// JSON lines split at line ends, a part per core.
		n := runtime.GOMAXPROCS(0)
		for len(b) > 0 {
			cut := len(b)
			if n > 1 && len(b) > 1<<20 {
				if i := bytes.IndexByte(b[len(b)/n:], '\n'); i >= 0 {
					cut = len(b)/n + i + 1
				}
			}
			parts = append(parts, b[:cut])
			b = b[cut:]
			n--
		}
		return nil
	}); err != nil {
		return nil, false, nil // the file changed under the scan: DuckDB reads it as it finds it
	}
	found := make([]*jsonShape, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = mapped.Guard(func() (err error) {
				found[i], err = scanRecords(ctx, p, !lines)
				return err
			})
		}()
	}
	wg.Wait()
	s = &jsonShape{}
	for i := range parts {
		if errors.Is(errs[i], errShape) || errors.Is(errs[i], mapped.ErrFault) {
			return nil, false, nil
		}
		if errs[i] != nil {
			return nil, false, errs[i]
		}
		s.merge(found[i])
	}
	if time.Since(fi.ModTime()) < racyShape {
		return s, true, nil
	}
	shapes.Lock()
	defer shapes.Unlock()
	if _, ok := shapes.m[key]; !ok {
		if len(shapes.order) == maxShapes {
			delete(shapes.m, shapes.order[0])
			shapes.order = shapes.order[1:]
		}
		shapes.m[key] = s
		shapes.order = append(shapes.order, key)
	}
	return s, true, nil
}

// scanRecords scans JSON values separated by blanks; with topArray, a
// lone top-level array's elements are the records.
func scanRecords(ctx context.Context, b []byte, topArray bool) (*jsonShape, error) {
	sc := jsonScanner{b: b}
	rec := &jsonShape{}
	n := 0
	for {
		sc.blank()
		if sc.i >= len(sc.b) {
			break
		}
		if n++; n%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if err := sc.value(rec, 0); err != nil {
			return nil, err
		}
	}
	if topArray && n == 1 && rec.kinds == kindArray && rec.elem != nil {
		return rec.elem, nil
	}
	return rec, nil
}

type jsonScanner struct {
	b []byte
	i int
}

func (sc *jsonScanner) blank() {
	if i := sc.i; i < len(sc.b) && sc.b[i] > ' ' {
		return // no blank, the usual case: one compare
	}
	for sc.i < len(sc.b) && jsonClass[sc.b[sc.i]] == classBlank {
		sc.i++
	}
}

// Classes of bytes for the scanner's loops (one table look-up a byte).
const (
	classOther  uint8 = iota
	classBlank        // ' ', '\t', '\n', '\r'
	classDigit        // '0'-'9'
	classFrac         // '.', 'e', 'E', '+': not an integer
	classMinus        // '-'
	classQuote        // '"'
	classEscape       // '\\'
)

var jsonClass = func() (t [256]uint8) {
	for _, c := range " \t\n\r" {
		t[c] = classBlank
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = classDigit
	}
	for _, c := range ".eE+" {
		t[c] = classFrac
	}
	t['-'] = classMinus
	t['"'] = classQuote
	t['\\'] = classEscape
	return t
}()

// str skips a string (at its opening quote) and returns its bytes between
// the quotes, and whether it holds an escape.
func (sc *jsonScanner) str() ([]byte, bool, error) {
	start := sc.i + 1
	escaped := false
	b := sc.b
	for j := start; j < len(b); j++ {
		switch jsonClass[b[j]] {
		case classQuote:
			sc.i = j + 1
			return b[start:j], escaped, nil
		case classEscape:
			escaped = true
			j++ // the escaped byte
		}
	}
	return nil, false, errShape
}

// knownKey reports whether the string at sc.i (its opening quote) is s's
// p-th key, as objects of one layout repeat it, and returns the key: its
// bytes and the closing quote compared, without looking for the quote
// (the keys kept have no quote or escape, so the text is that key).
func (sc *jsonScanner) knownKey(s *jsonShape, p int) (string, bool) {
	if p >= len(s.order) {
		return "", false
	}
	k := s.order[p]
	j := sc.i + 1 + len(k)
	return k, j < len(sc.b) && sc.b[j] == '"' && string(sc.b[sc.i+1:j]) == k
}

const maxShapeDepth = 256

func (sc *jsonScanner) value(s *jsonShape, depth int) error {
	if depth > maxShapeDepth || sc.i >= len(sc.b) {
		return errShape
	}
	switch c := sc.b[sc.i]; {
	case c == '{':
		s.kinds |= kindObject
		sc.i++
		sc.blank()
		if sc.i < len(sc.b) && sc.b[sc.i] == '}' {
			sc.i++
			return nil
		}
		for p := 0; ; p++ {
			sc.blank()
			if sc.i >= len(sc.b) || sc.b[sc.i] != '"' {
				return errShape
			}
			var f *jsonShape
			if k, ok := sc.knownKey(s, p); ok {
				f = s.shapes[p] // the p-th key of the object before
				sc.i += len(k) + 2
			} else {
				k, esc, err := sc.str()
				if err != nil || esc {
					return errShape
				}
				f = s.fieldAt(k, p)
			}
			sc.blank()
			if sc.i >= len(sc.b) || sc.b[sc.i] != ':' {
				return errShape
			}
			sc.i++
			sc.blank()
			if err := sc.value(f, depth+1); err != nil {
				return err
			}
			sc.blank()
			if sc.i >= len(sc.b) {
				return errShape
			}
			if sc.b[sc.i] == ',' {
				sc.i++
				continue
			}
			if sc.b[sc.i] == '}' {
				sc.i++
				return nil
			}
			return errShape
		}
	case c == '[':
		s.kinds |= kindArray
		sc.i++
		sc.blank()
		if sc.i < len(sc.b) && sc.b[sc.i] == ']' {
			sc.i++
			return nil
		}
		if s.elem == nil {
			s.elem = &jsonShape{}
		}
		for {
			sc.blank()
			if err := sc.value(s.elem, depth+1); err != nil {
				return err
			}
			sc.blank()
			if sc.i >= len(sc.b) {
				return errShape
			}
			if sc.b[sc.i] == ',' {
				sc.i++
				continue
			}
			if sc.b[sc.i] == ']' {
				sc.i++
				return nil
			}
			return errShape
		}
	case c == '"':
		s.kinds |= kindString
		_, _, err := sc.str()
		return err
	case c == 't' && bytes.HasPrefix(sc.b[sc.i:], []byte("true")), c == 'f' && bytes.HasPrefix(sc.b[sc.i:], []byte("false")):
		s.kinds |= kindBool
		if c == 't' {
			sc.i += 4
		} else {
			sc.i += 5
		}
		return nil
	case c == 'n' && bytes.HasPrefix(sc.b[sc.i:], []byte("null")):
		s.kinds |= kindNull
		sc.i += 4
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		start, b := sc.i, sc.b
		digits, frac := 0, false
		i := start
	number:
		for ; i < len(b); i++ {
			switch jsonClass[b[i]] {
			case classDigit:
				digits++
			case classFrac:
				frac = true
			case classMinus:
				frac = frac || i > start
			default:
				break number
			}
		}
		sc.i = i
		switch {
		case digits == 0:
			return errShape
		case frac:
			s.kinds |= kindFloat
		case digits > 18:
			s.kinds |= kindBigInt
		default:
			s.kinds |= kindInt
		}
		return nil
	}
	// NaN, Infinity and other text Spark or DuckDB may read otherwise
	return errShape
}

// holds reports whether values of shape s read as DuckDB type t (the text
// of a type DESCRIBE names) are read exactly as DuckDB's inference would
// read them with t inferred: every key is one of t's fields and every
// value of a kind t holds without conversion.
func (s *jsonShape) holds(t string) bool {
	if s == nil {
		return true
	}
	t = strings.TrimSpace(t)
	only := func(k uint8) bool { return s.kinds&^(kindNull|k) == 0 }
	switch t {
	case "BIGINT", "HUGEINT":
		return only(kindInt)
	case "DOUBLE":
		return only(kindInt | kindFloat)
	case "VARCHAR":
		return only(kindString)
	case "BOOLEAN":
		return only(kindBool)
	case "JSON":
		return only(0)
	}
	if strings.HasSuffix(t, "[]") {
		return only(kindArray) && s.elem.holds(t[:len(t)-2])
	}
	if strings.HasPrefix(t, "STRUCT(") && strings.HasSuffix(t, ")") {
		if !only(kindObject) {
			return false
		}
		fields, ok := structFields(t[len("STRUCT(") : len(t)-1])
		if !ok {
			return false
		}
		for k, f := range s.fields {
			ft, ok := fields[k]
			if !ok || !f.holds(ft) {
				return false
			}
		}
		return true
	}
	return false
}

// structFields splits the inside of DuckDB's STRUCT(...) text into its
// fields' names and types: name TYPE, ..., a name quoted with "" where
// needed.
func structFields(s string) (map[string]string, bool) {
	out := map[string]string{}
	for len(strings.TrimSpace(s)) > 0 {
		s = strings.TrimLeft(s, " ")
		var name string
		if strings.HasPrefix(s, `"`) {
			i := 1
			var b strings.Builder
			for {
				if i >= len(s) {
					return nil, false
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
			name, s = b.String(), s[i:]
		} else {
			i := strings.IndexByte(s, ' ')
			if i < 0 {
				return nil, false
			}
			name, s = s[:i], s[i:]
		}
		s = strings.TrimLeft(s, " ")
		// the type runs to the next comma outside brackets and quotes
		depth, inQuote, end := 0, false, len(s)
	loop:
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '"':
				inQuote = !inQuote
			case inQuote:
			case c == '(':
				depth++
			case c == ')':
				depth--
			case c == ',' && depth == 0:
				end = i
				break loop
			}
		}
		if _, dup := out[name]; dup {
			return nil, false
		}
		out[name] = strings.TrimSpace(s[:end])
		if end < len(s) {
			s = s[end+1:]
		} else {
			s = ""
		}
	}
	return out, true
}

// sparkJSONColumns types a Spark JSON source (files of format, read by
// sql, whose sampled columns are cols) from every record: the read with the
// sampled types named where they hold the records' shape, else with the
// types DuckDB infers from the whole input, named. Records that are not all
// objects, or files the scan does not read, keep DuckDB's reading (sql;
// for files not scanned, inferred from every record).
func sparkJSONColumns(ctx context.Context, q local.Querier, files []string, format string, o readOptions, sql string, cols []column) (string, []column, error) {
	shape, ok, err := scanJSONShapes(ctx, files, !strings.EqualFold(format, "JSON"))
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrSource, err)
	}
	if ok && (shape.kinds != kindObject || (len(cols) == 1 && cols[0].Name == "json")) {
		// not records of objects (or the one column DuckDB names json
		// where they are not): DuckDB's reading, as before
		return sql, cols, nil
	}
	if ok {
		fields := map[string]string{}
		for _, c := range cols {
			fields[c.Name] = c.Type
		}
		fits := len(fields) == len(cols)
		for k, f := range shape.fields {
			if t, in := fields[k]; !in || !f.holds(t) {
				fits = false
				break
			}
		}
		if fits {
			o.jsonColumns = cols
			named, err := fileListSQL(files, format, o)
			return named, cols, err
		}
	}
	o.wholeFile = true
	whole, err := fileListSQL(files, format, o)
	if err != nil {
		return "", nil, err
	}
	all, err := describe(ctx, q, whole)
	if err != nil {
		return "", nil, err
	}
	if !ok {
		return whole, all, nil
	}
	o.wholeFile, o.jsonColumns = false, all
	named, err := fileListSQL(files, format, o)
	return named, all, err
}

// jsonColumnsArg is read_json's columns argument for cols.
func jsonColumnsArg(cols []column) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = quoteString(c.Name) + ": " + quoteString(c.Type)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
