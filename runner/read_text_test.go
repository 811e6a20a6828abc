package runner

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/laktory/workbench/validate"
)

// TestTextSource reads TEXT sources as Spark's text reader does (Laktory
// 0.13.1's PYSPARK format TEXT, spark.read.format("text")): a `value` per
// line, lines ending at \n, \r\n or \r, no row after the last separator
// nor for an empty file; wholetext gives a row per file that is not
// empty. The rows are pyspark 4.2's, read from the same files.
func TestTextSource(t *testing.T) {
	files := map[string]string{
		"data/txt/a.txt": "first\nsecond\r\nthird\rfourth\n",
		"data/txt/b.txt": "\nafter an empty line",
		"data/txt/c.txt": "",
	}
	tests := []struct{ name, kwargs, want string }{
		{"lines", "", "[[] [after an empty line] [first] [fourth] [second] [third]]"},
		{"wholetext", "\n    reader_kwargs: {wholetext: true}", "[[\nafter an empty line] [first\nsecond\r\nthird\rfourth\n]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := map[string]string{"pipelines/pl.yaml": fmt.Sprintf("name: pl\nnodes:\n- name: a\n  sources:\n  - path: ../data/txt/\n    format: TEXT%s\n  sinks:\n  - path: ../out/a\n    format: DELTA\n    mode: APPEND\n", tt.kwargs)}
			for k, v := range files {
				fs[k] = v
			}
			w := newWS(t, fs)
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			out := filepath.Join(w.dir, "out/a")
			if got := columns(t, out); !slices.Equal(got, []string{"value"}) {
				t.Errorf("columns %v", got)
			}
			if got := fmt.Sprint(query(t, r, out, "SELECT value FROM t ORDER BY value")); got != tt.want {
				t.Errorf("rows %q, want %q", got, tt.want)
			}
		})
	}
	w := newWS(t, map[string]string{"data/a.txt": "x\n", "pipelines/pl.yaml": "name: pl\nnodes:\n- name: a\n  sources:\n  - path: ../data/a.txt\n    format: TEXT\n    reader_kwargs: {lineSep: ';'}\n  sinks:\n  - path: ../out/a\n    format: DELTA\n"})
	if pe := planErr(t, testRunner(t), w.load(), Request{}); !hasDiag(pe, validate.CodeLocalUnsupported, "the text reader option lineSep") {
		t.Errorf("lineSep: %v", pe.Diagnostics)
	}
}
