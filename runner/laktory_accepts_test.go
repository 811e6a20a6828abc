package runner

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// TestLaktoryAccepts runs YAML that Laktory 0.13.1 loads and runs (issue
// 27 item 3), with Laktory's consequences: a format written in another
// case is read by the backend's reader without Laktory's options, a
// source's drops ignore names the frame does not have (strict=False), and
// ${params.x} in a pipeline without parameters is text. The POLARS
// expectations are Laktory's own output (Pipeline.execute with polars
// 1.32.0); the PYSPARK ones follow from the options Laktory passes to
// Spark's reader (FileDataSource._get_spark_kwargs: none for `csv`, so
// Spark's defaults header=false, inferSchema=false).
func TestLaktoryAccepts(t *testing.T) {
	const data = "a,b\n1,x\n2,${params.x}\n3,y\n"
	tests := []struct {
		name, backend, source string
		cols                  []string
		query, want           string
	}{
		{"polars csv infers types", "POLARS", "format: csv",
			[]string{"a", "b"}, "SELECT typeof(a), a, b FROM t ORDER BY a", "[[BIGINT 1 x] [BIGINT 2 ${params.x}] [BIGINT 3 y]]"},
		{"polars CSV reads strings", "POLARS", "format: CSV",
			[]string{"a", "b"}, "SELECT typeof(a), a FROM t ORDER BY a", "[[VARCHAR 1] [VARCHAR 2] [VARCHAR 3]]"},
		{"pyspark csv reads no header", "PYSPARK", "format: csv",
			[]string{"_c0", "_c1"}, "SELECT typeof(_c0), _c0, _c1 FROM t ORDER BY _c0", "[[VARCHAR 1 x] [VARCHAR 2 ${params.x}] [VARCHAR 3 y] [VARCHAR a b]]"},
		{"pyspark CSV reads the header", "PYSPARK", "format: CSV",
			[]string{"a", "b"}, "SELECT a, b FROM t ORDER BY a", "[[1 x] [2 ${params.x}] [3 y]]"},
		{"drops ignore missing columns", "POLARS", "format: CSV\n    drops: [nope, a, also_missing]",
			[]string{"b"}, "SELECT b FROM t ORDER BY b", "[[${params.x}] [x] [y]]"},
		{"drops match names exactly", "PYSPARK", "format: CSV\n    drops: [A]",
			[]string{"a", "b"}, "SELECT count(*) FROM t", "[[3]]"},
		{"params without parameters are text", "POLARS", "format: CSV\n    filter: b = '${params.x}'",
			[]string{"a", "b"}, "SELECT a, b FROM t", "[[2 ${params.x}]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{
				"data/x.csv": data,
				"pipelines/pl.yaml": fmt.Sprintf(`name: pl
dataframe_backend: %s
nodes:
- name: a
  sources:
  - path: ../data/x.csv
    %s
  sinks:
  - path: ../out/a
    format: DELTA
    mode: APPEND
`, tt.backend, tt.source),
			})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			out := filepath.Join(w.dir, "out/a")
			if got := columns(t, out); !slices.Equal(got, tt.cols) {
				t.Errorf("columns %v, want %v", got, tt.cols)
			}
			if got := fmt.Sprint(query(t, r, out, tt.query)); got != tt.want {
				t.Errorf("%s: %s, want %s", tt.query, got, tt.want)
			}
		})
	}
}
