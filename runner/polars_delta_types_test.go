package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/polarssql"
	"github.com/laktory/workbench/runner/schemaflow"
)

// polarsDeltaType is a row of testdata/polars-delta-types: the Delta type
// delta-rs writes for a Polars dtype (Spark's notation), or its error.
type polarsDeltaType struct {
	Delta string `json:"delta"`
	Error string `json:"error"`
}

// TestPolarsDeltaTypes: every Polars dtype maps to the Delta type delta-rs
// writes for it (polars 1.32.0's write_delta, which Laktory 0.13.1's
// Polars sink calls; testdata/polars-delta-types, made by
// scripts/polars/delta_types.py, heldout.json before this test), both as
// the POLARS dialect types a column (polarssql.Type.Delta, which
// validate reports) and as a POLARS Delta sink writes it (the column's
// DuckDB type through schemaflow.SinkType and delta's schema): unsigned
// integers as the signed type of their width, every datetime unit as
// timestamp_ntz, a zoned one as timestamp, Decimal(None, s) as
// decimal(38, s). A dtype delta-rs refuses (Null, Time, Duration, and
// nested ones holding them) is refused by Delta(), which makes validate
// refuse the step (LK301); one the dialect does not model (Categorical,
// Enum, Array, Int128, which delta-rs fails on too) is not a dtype here.
func TestPolarsDeltaTypes(t *testing.T) {
	for _, part := range []string{"dev", "heldout"} {
		b, err := os.ReadFile(filepath.Join("testdata", "polars-delta-types", part+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var table map[string]polarsDeltaType
		if err := json.Unmarshal(b, &table); err != nil {
			t.Fatal(err)
		}
		var matched, refused int
		for name, want := range table {
			ty, err := polarssql.ParseType(name)
			if err != nil {
				if want.Error == "" {
					t.Errorf("%s %s: not a dtype here, but delta-rs writes it as %s", part, name, want.Delta)
				}
				refused++
				continue
			}
			got, err := ty.Delta()
			if want.Error != "" {
				if err == nil {
					t.Errorf("%s %s: Delta type %s, but delta-rs refuses it: %s", part, name, got, want.Error)
				}
				refused++
				continue
			}
			if err != nil || got != want.Delta {
				t.Errorf("%s %s: Delta type %q (%v), delta-rs writes %s", part, name, got, err, want.Delta)
				continue
			}
			duck := schemaflow.SinkType("POLARS", ty.DuckDB())
			dt, err := delta.ParseDuckDBType(duck)
			if err != nil || dt.TypeName() != want.Delta {
				var written string
				if dt != nil {
					written = dt.TypeName()
				}
				t.Errorf("%s %s: a POLARS Delta sink writes its DuckDB type %s as %q (%v), delta-rs writes %s", part, name, duck, written, err, want.Delta)
				continue
			}
			matched++
		}
		t.Logf("%s: %d dtypes matched, %d refused, of %d", part, matched, refused, len(table))
		if matched+refused != len(table) && !t.Failed() {
			t.Errorf("%s: %d + %d of %d", part, matched, refused, len(table))
		}
	}
}
