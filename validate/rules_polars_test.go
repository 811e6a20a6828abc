package validate

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestPolarsReaderKwargs: a POLARS file source's reader_kwargs go to
// polars' reader as keyword arguments (pl.scan_csv(path, **kwargs)): one
// it does not take is its TypeError (LK198, Spark's spellings named), one
// it takes that local runs do not apply is refused (LK199); PYSPARK
// sources' options are Spark's and not checked here.
func TestPolarsReaderKwargs(t *testing.T) {
	src := func(backend, format, kwargs string) string {
		return "name: pl\ndataframe_backend: " + backend + "\nnodes:\n- name: a\n  sources:\n  - path: data/\n    format: " + format +
			"\n    reader_kwargs: " + kwargs + "\n  sinks:\n  - path: out/\n    format: DELTA\n    mode: APPEND\n"
	}
	tests := []struct {
		name  string
		yaml  string
		wants []W
	}{
		{name: "applied CSV kwargs", yaml: src("POLARS", "CSV", "{separator: ';', null_values: [NA, '-'], skip_rows: 1, quote_char: \"'\"}")},
		{name: "Spark's spellings", yaml: src("POLARS", "CSV", "{delimiter: ';', header: true}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderArg, "scan_csv() got an unexpected keyword argument 'delimiter'"),
			D("pl.yaml", 8, 20, CodePolarsReaderArg, "scan_csv() got an unexpected keyword argument 'header'"),
		}},
		{name: "taken by polars, not applied locally", yaml: src("POLARS", "CSV", "{try_parse_dates: true, null_values: {a: NA}}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "reader_kwargs `null_values` of source #1 of node 'a': polars' scan_csv applies it, local runs do not"),
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "reader_kwargs `try_parse_dates` of source #1 of node 'a'"),
		}},
		{name: "JSONL", yaml: src("POLARS", "JSONL", "{infer_schema_length: 10, multiLine: true}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "`infer_schema_length`"),
			D("pl.yaml", 8, 20, CodePolarsReaderArg, "scan_ndjson() got an unexpected keyword argument 'multiLine'"),
		}},
		{name: "PYSPARK options are Spark's", yaml: src("PYSPARK", "CSV", "{delimiter: ';', header: true}")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": tt.yaml}, workspace.Options{})
			var ds []Diagnostic
			for _, d := range Check(s, Options{}) {
				if d.Code == CodePolarsReaderArg || d.Code == CodePolarsReaderLocal {
					ds = append(ds, d)
				}
			}
			workspacetest.Expect(t, s, ds, tt.wants)
		})
	}
}

// TestPolarsReadersCurrent: polars_readers_gen.go is what
// scripts/polars/readers.py prints for the installed polars.
func TestPolarsReadersCurrent(t *testing.T) {
	py := interopPython(t)
	out, err := exec.Command(py, "../scripts/polars/readers.py").Output()
	if err != nil {
		t.Fatalf("readers.py: %v", err)
	}
	want, err := format.Source(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("polars_readers_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("polars_readers_gen.go is not current: python scripts/polars/readers.py | gofmt > validate/polars_readers_gen.go")
	}
}
