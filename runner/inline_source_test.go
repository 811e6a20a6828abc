package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/validate"
)

// TestInlineDataSource runs DATAFRAME sources with inline `data` (issue 27
// item 4), typed as Laktory 0.13.1 builds them: pl.LazyFrame(data) on
// POLARS (outputs seen with polars 1.32.0), spark.createDataFrame(rows) on
// PYSPARK (pyspark 4.2's schema inference: each row's fields sorted by
// name, merged over the rows; a mapping of lists zipped to its shortest).
func TestInlineDataSource(t *testing.T) {
	tests := []struct {
		name, backend, data string
		cols                []string
		types, rows         string
	}{
		{"polars columns", "POLARS", "{b: [1, 2], a: [x, y], f: [1.5, 2]}",
			[]string{"b", "a", "f"}, "[[BIGINT VARCHAR DOUBLE]]", "[[1 x 1.5] [2 y 2]]"},
		{"polars rows", "POLARS", "[{b: 1, a: x}, {a: y, c: 2.5}]",
			[]string{"b", "a", "c"}, "[[BIGINT VARCHAR DOUBLE]]", "[[1 x NULL] [NULL y 2.5]]"},
		{"polars rows supertypes", "POLARS", "[{n: 1, s: x, i: true}, {n: 2.5, s: 1, i: 2}]",
			[]string{"n", "s", "i"}, "[[DOUBLE VARCHAR BIGINT]]", "[[1 x 1] [2.5 1 2]]"},
		{"pyspark rows", "PYSPARK", "[{b: 1, a: x}, {a: y, c: 2.5}]",
			[]string{"a", "b", "c"}, "[[VARCHAR BIGINT DOUBLE]]", "[[x 1 NULL] [y NULL 2.5]]"},
		{"pyspark columns zipped", "PYSPARK", "{b: [1, 2, 3], a: [x, y], t: [true, false]}",
			[]string{"a", "b", "t"}, "[[VARCHAR BIGINT BOOLEAN]]", "[[x 1 true] [y 2 false]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": fmt.Sprintf(`name: pl
dataframe_backend: %s
nodes:
- name: a
  sources:
  - data: %s
  sinks:
  - path: ../out/a
    format: DELTA
    mode: APPEND
`, tt.backend, tt.data)})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			out := filepath.Join(w.dir, "out/a")
			if got := columns(t, out); !slices.Equal(got, tt.cols) {
				t.Errorf("columns %v, want %v", got, tt.cols)
			}
			typeq := make([]string, len(tt.cols))
			for i, c := range tt.cols {
				typeq[i] = "typeof(" + quoteIdent(c) + ")"
			}
			if got := fmt.Sprint(query(t, r, out, "SELECT DISTINCT "+strings.Join(typeq, ", ")+" FROM t")); got != tt.types {
				t.Errorf("types %s, want %s", got, tt.types)
			}
			if got := fmt.Sprint(query(t, r, out, "SELECT * FROM t ORDER BY ALL NULLS LAST")); got != tt.rows {
				t.Errorf("rows %s, want %s", got, tt.rows)
			}
		})
	}
}

// TestInlineDataRefused: data the backend fails to build is an error at
// validate with its message (LK185); data local runs do not type yet is
// refused before the run (LK183).
func TestInlineDataRefused(t *testing.T) {
	tests := []struct {
		name, backend, data, code, want string
	}{
		{"polars strict column", "POLARS", "{a: [1, 2.5]}", validate.CodeInlineData,
			"TypeError: unexpected value while building Series of type Int64; found value of type Float64: 2.5"},
		{"polars heights", "POLARS", "{a: [1, 2], b: [1]}", validate.CodeInlineData,
			"ShapeError: could not create a new DataFrame: height of column 'b' (1) does not match height of column 'a' (2)"},
		{"spark merge", "PYSPARK", "[{a: 1}, {a: 2.5}]", validate.CodeInlineData,
			"[CANNOT_MERGE_TYPE] Can not merge type `LongType` and `DoubleType`."},
		{"spark nulls", "PYSPARK", "[{a: 1, b: null}]", validate.CodeInlineData, "[CANNOT_DETERMINE_TYPE]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": fmt.Sprintf("name: pl\ndataframe_backend: %s\nnodes:\n- name: a\n  sources:\n  - data: %s\n  sinks:\n  - path: ../out/a\n    format: DELTA\n    mode: APPEND\n", tt.backend, tt.data)})
			r := testRunner(t)
			snap := w.load()
			ds, err := r.Validate(context.Background(), snap, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(ds, func(d validate.Diagnostic) bool { return d.Code == tt.code && strings.Contains(d.Message, tt.want) }) {
				t.Errorf("want %s %q, got %v", tt.code, tt.want, ds)
			}
		})
	}
	w := newWS(t, map[string]string{"pipelines/pl.yaml": "name: pl\nnodes:\n- name: a\n  sources:\n  - data: [{d: 2024-01-01}]\n  sinks:\n  - path: ../out/a\n    format: DELTA\n"})
	pe := planErr(t, testRunner(t), w.load(), Request{})
	if !hasDiag(pe, validate.CodeLocalUnsupported, "the date or timestamp 2024-01-01") {
		t.Errorf("a date in inline data: %v", pe.Diagnostics)
	}
}
