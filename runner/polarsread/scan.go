package polarsread

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// csvFile is what the scan of one CSV file found: the header's names,
// the first rows' values for inference, and where DuckDB's read of its
// records (from skip on, as read_csv counts them) differs from polars'.
type csvFile struct {
	path  string
	names []string // the header's fields (nil without one)
	ncols int
	// skip is the number of records read_csv skips (skip_rows, comment
	// lines and blank lines before the header, the header,
	// skip_rows_after_header): DuckDB's skip counts blank lines too.
	skip int
	// sample holds the first infer_schema_length data rows' fields (nil
	// for a null: an empty unquoted field, or a row's missing one).
	sample [][]*string
	// drop are the rows (0-based, of DuckDB's rows after skip) that are
	// comment lines polars skips; blanks are the positions, in DuckDB's
	// rows, before which polars reads a blank line as a row of nulls
	// (read_csv skips blank lines when there are several columns).
	drop, blanks []int64
	empty        bool // no record at all
}

// scanned holds the latest scans, by file and options: a run scans each
// CSV source at validate (its schema) and again to read it, and a scan
// reads the whole file into memory (a quarter of the Go CPU of the
// 4M-row CSV pipeline of scripts/bench/pipeline_vs_laktory.sh). A file
// is known by its path, size and modification time; one modified less
// than racyScan before its scan is scanned again each time, as a change
// within the file system's timestamp granularity could keep both.
var scanned = struct {
	sync.Mutex
	m     map[scanKey]*csvFile
	order []scanKey
}{m: map[scanKey]*csvFile{}}

type scanKey struct {
	path    string
	size    int64
	mod     int64
	options string
}

const (
	maxScans = 64
	racyScan = 2 * time.Second
)

// scanCSV tokenizes a CSV file as polars' scan_csv does, or returns the
// scan of it that scanned keeps (the caller does not modify it).
func scanCSV(ctx context.Context, path string, o CSVOptions) (*csvFile, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := scanKey{path: path, size: fi.Size(), mod: fi.ModTime().UnixNano(), options: fmt.Sprintf("%#v", o)}
	scanned.Lock()
	f, ok := scanned.m[key]
	scanned.Unlock()
	if ok {
		return f, nil
	}
	f, err = scanCSVFile(ctx, path, o)
	if err != nil || time.Since(fi.ModTime()) < racyScan {
		return f, err
	}
	scanned.Lock()
	defer scanned.Unlock()
	if _, ok := scanned.m[key]; !ok {
		if len(scanned.order) == maxScans {
			delete(scanned.m, scanned.order[0])
			scanned.order = scanned.order[1:]
		}
		scanned.m[key] = f
		scanned.order = append(scanned.order, key)
	}
	return f, nil
}

// scanCSVFile reads and tokenizes a CSV file.
func scanCSVFile(ctx context.Context, path string, o CSVOptions) (*csvFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(b) {
		if o.Lossy {
			return nil, fmt.Errorf("%w: %s is not valid UTF-8: polars' encoding='utf8-lossy' replaces its invalid bytes, local runs read valid UTF-8 only (convert the file to UTF-8)", ErrUnsupported, path)
		}
		return nil, fmt.Errorf("%w: invalid utf-8 sequence (%s)", ErrPolars, path)
	}
	f := &csvFile{path: path}
	t := tokenizer{b: b, sep: o.Separator, quote: o.Quote, comment: []byte(o.CommentPrefix)}
	// Before the header: skip_rows records; polars skips blank and
	// comment lines there.
	for skipped := 0; ; {
		if t.eof() {
			f.empty = true
			return f, nil
		}
		kind := t.lineKind()
		if kind != lineRecord {
			if kind == lineComment && t.commentHasQuote() {
				return nil, fmt.Errorf("%w: %s line %d: a comment line holding the quote character %q before the header", ErrUnsupported, path, t.line+1, o.Quote)
			}
			t.skipLine()
			f.skip++
			continue
		}
		if skipped == o.SkipRows {
			break
		}
		if _, err := t.record(false); err != nil {
			return nil, err
		}
		skipped++
		f.skip++
	}
	first, err := t.record(true)
	if err != nil {
		return nil, err
	}
	f.ncols = len(first)
	if o.HasHeader {
		f.skip++
		f.names = make([]string, len(first))
		for i, v := range first {
			if v != nil {
				f.names[i] = *v
			}
		}
	}
	var pending [][]*string
	if !o.HasHeader {
		pending = append(pending, first)
	}
	rows := int64(0) // DuckDB's rows after skip
	after := o.SkipRowsAfterHeader
	for n := 0; ; n++ {
		if n%65536 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var fields []*string
		if len(pending) > 0 {
			fields, pending = pending[0], pending[1:]
		} else {
			if t.eof() {
				break
			}
			switch t.lineKind() {
			case lineBlank:
				t.skipLine()
				if after > 0 {
					after--
					f.skip++
					continue
				}
				if f.ncols == 1 {
					rows++ // read_csv reads it as a NULL row
				} else {
					f.blanks = append(f.blanks, rows)
				}
				if o.InferSchemaLength < 0 || len(f.sample) < o.InferSchemaLength {
					f.sample = append(f.sample, nil)
				}
				continue
			case lineComment:
				if t.commentHasQuote() {
					return nil, fmt.Errorf("%w: %s line %d: a comment line holding the quote character %q", ErrUnsupported, path, t.line+1, o.Quote)
				}
				t.skipLine()
				f.drop = append(f.drop, rows)
				rows++
				continue
			}
			line := t.line + 1
			want := o.InferSchemaLength < 0 || len(f.sample) < o.InferSchemaLength
			nf := 0
			if want && after == 0 {
				fields, err = t.record(true)
				nf = len(fields)
			} else {
				nf, err = t.count()
				fields = nil
			}
			if err != nil {
				return nil, err
			}
			if nf > f.ncols && !o.TruncateRagged {
				return nil, fmt.Errorf("%w: found more fields than defined in 'Schema' (%s line %d)", ErrPolars, path, line)
			}
		}
		if after > 0 {
			after--
			f.skip++
			continue
		}
		rows++
		if fields != nil {
			f.sample = append(f.sample, fields)
		}
	}
	return f, nil
}

type lineKind int

const (
	lineRecord lineKind = iota
	lineBlank
	lineComment
)

// tokenizer reads CSV records as polars does: a field that starts with
// the quote character is quoted (a doubled quote is one quote, a
// separator or line break inside is text) and must end with the closing
// quote; a quote character elsewhere is text; \r before \n is dropped.
type tokenizer struct {
	b       []byte
	pos     int
	line    int // the current line, 1-based (for messages)
	sep     byte
	quote   byte
	comment []byte
}

func (t *tokenizer) eof() bool { return t.pos >= len(t.b) }

func (t *tokenizer) lineKind() lineKind {
	rest := t.b[t.pos:]
	if len(rest) > 0 && rest[0] == '\n' || bytes.HasPrefix(rest, []byte("\r\n")) {
		return lineBlank
	}
	if len(t.comment) > 0 && bytes.HasPrefix(rest, t.comment) {
		return lineComment
	}
	return lineRecord
}

func (t *tokenizer) lineEnd() int {
	if i := bytes.IndexByte(t.b[t.pos:], '\n'); i >= 0 {
		return t.pos + i
	}
	return len(t.b)
}

func (t *tokenizer) commentHasQuote() bool {
	return t.quote != 0 && bytes.IndexByte(t.b[t.pos:t.lineEnd()], t.quote) >= 0
}

func (t *tokenizer) skipLine() {
	t.pos = t.lineEnd() + 1
	t.line++
}

// count reads one record and returns how many fields it has: a line
// without the quote character is its separators counted, others are
// tokenized.
func (t *tokenizer) count() (int, error) {
	end := t.lineEnd()
	line := t.b[t.pos:end]
	if t.quote == 0 || bytes.IndexByte(line, t.quote) < 0 {
		t.pos = end + 1
		t.line++
		return bytes.Count(line, []byte{t.sep}) + 1, nil
	}
	fields, err := t.record(false)
	return len(fields), err
}

// record reads one record's fields (values kept when keep is set; else
// only how many); nil is an empty unquoted field.
func (t *tokenizer) record(keep bool) ([]*string, error) {
	t.line++
	var out []*string
	var buf []byte
	for {
		start := t.pos
		var val *string
		if t.quote != 0 && t.pos < len(t.b) && t.b[t.pos] == t.quote {
			t.pos++
			buf = buf[:0]
			for t.pos < len(t.b) {
				c := t.b[t.pos]
				if c == t.quote {
					if t.pos+1 < len(t.b) && t.b[t.pos+1] == t.quote {
						buf = append(buf, c)
						t.pos += 2
						continue
					}
					t.pos++
					break
				}
				if c == '\n' {
					t.line++
				}
				buf = append(buf, c)
				t.pos++
			}
			if !t.atFieldEnd() {
				end := t.pos
				for end < len(t.b) && t.b[end] != t.sep && t.b[end] != '\n' {
					end++
				}
				raw := string(bytes.TrimSuffix(t.b[start:end], []byte("\r")))
				return nil, fmt.Errorf("%w: could not parse `%s` as dtype `str` at column %s (line %d)", ErrPolars, raw, strconv.Itoa(len(out)+1), t.line)
			}
			if keep {
				s := string(buf)
				val = &s
			} else {
				val = &empty
			}
		} else {
			for t.pos < len(t.b) && t.b[t.pos] != t.sep && t.b[t.pos] != '\n' {
				t.pos++
			}
			raw := t.b[start:t.pos]
			if t.pos >= len(t.b) || t.b[t.pos] == '\n' {
				raw = bytes.TrimSuffix(raw, []byte("\r"))
			}
			if len(raw) > 0 {
				if keep {
					s := string(raw)
					val = &s
				} else {
					val = &empty
				}
			}
		}
		out = append(out, val)
		if t.pos >= len(t.b) {
			return out, nil
		}
		if t.b[t.pos] == '\n' {
			t.pos++
			return out, nil
		}
		t.pos++ // the separator
	}
}

var empty = ""

func (t *tokenizer) atFieldEnd() bool {
	if t.pos >= len(t.b) {
		return true
	}
	c := t.b[t.pos]
	return c == t.sep || c == '\n' || c == '\r' && (t.pos+1 == len(t.b) || t.b[t.pos+1] == '\n')
}
