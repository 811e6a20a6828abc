package validate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// polarsReader is a polars reader function and the keyword arguments it
// takes.
type polarsReader struct {
	fn     string
	kwargs []string
}

// PolarsAppliedKwargs are the reader_kwargs local runs apply to a POLARS
// file source, per format, as polars' reader does; polars takes more,
// which local runs refuse (LK199) rather than ignore.
var PolarsAppliedKwargs = map[string][]string{
	"CSV": {"separator", "skip_rows", "null_values", "quote_char"},
}

// sparkSpellings are Spark's reader options people pass to Polars, with
// the keyword polars names the same thing.
var sparkSpellings = map[string]string{
	"sep": "separator", "delimiter": "separator", "header": "has_header", "inferschema": "infer_schema",
	"nullvalue": "null_values", "quote": "quote_char", "comment": "comment_prefix", "encoding": "encoding",
}

// polarsReaderKwargs checks a POLARS file source's reader_kwargs against
// the reader Laktory 0.13.1 calls with them (FileDataSource._read_polars:
// pl.scan_csv(path, **reader_kwargs), ...): an argument the reader does
// not take is the TypeError Laktory's run fails with (LK198); one it takes
// that local runs do not apply is refused (LK199), never ignored.
func (c *checker) polarsReaderKwargs(n *workspace.Node, s *workspace.Source) {
	if s.Kind != workspace.SourceFile || s.Backend != "POLARS" || len(s.ReaderKwargs) == 0 {
		return
	}
	format := strings.ToUpper(s.Format)
	rd, ok := polarsReaders[format]
	if !ok {
		return
	}
	keys := make([]string, 0, len(s.ReaderKwargs))
	for k := range s.ReaderKwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	at := s.At("reader_kwargs")
	for _, k := range keys {
		if !slices.Contains(rd.kwargs, k) {
			hint := "polars' " + rd.fn + " takes " + strings.Join(rd.kwargs, ", ")
			if p, ok := sparkSpellings[strings.ToLower(k)]; ok && slices.Contains(rd.kwargs, p) {
				hint = fmt.Sprintf("`%s` is Spark's spelling: polars' %s calls it `%s`", k, rd.fn, p)
			}
			c.add(at, Error, CodePolarsReaderArg, fmt.Sprintf("%s() got an unexpected keyword argument '%s'", rd.fn, k), hint)
			continue
		}
		if !slices.Contains(PolarsAppliedKwargs[format], k) || !appliedValue(k, s.ReaderKwargs[k]) {
			applied := "none of polars' arguments"
			if format == "CSV" {
				applied = "separator and quote_char as strings, skip_rows as an integer, null_values as a string or a list of strings"
			}
			c.add(at, Error, CodePolarsReaderLocal,
				fmt.Sprintf("reader_kwargs `%s` of source #%d of node '%s': polars' %s applies it, local runs do not (they apply %s)", k, s.Index+1, n.Name, rd.fn, applied),
				"remove it, or run the pipeline with Laktory")
		}
	}
}

// appliedValue reports whether local runs apply an applied keyword's
// value: separator and quote_char strings, skip_rows an integer,
// null_values a string or a list of strings (not polars' per-column
// mapping).
func appliedValue(k string, v any) bool {
	switch k {
	case "separator", "quote_char":
		_, ok := v.(string)
		return ok
	case "skip_rows":
		_, ok := v.(int64)
		return ok
	case "null_values":
		switch x := v.(type) {
		case string:
			return true
		case []any:
			for _, e := range x {
				if _, ok := e.(string); !ok {
					return false
				}
			}
			return true
		}
		return false
	}
	return true
}
