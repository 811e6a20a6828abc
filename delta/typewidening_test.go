package delta

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// newWidenedTable writes a table as Spark leaves one after ALTER COLUMN
// ... TYPE on a typeWidening table: part-0 was written with the narrow
// types (int, float, date, decimal(5,2)), then the schema widened (long,
// double, timestamp_ntz, decimal(10,2)) with delta.typeChanges on each
// field, then part-1 was written with the wide types. The stats of part-0
// are in the narrow types: f's min is the float 0.7 written as "0.7", which
// as a double is above the double the float widens to. Each file holds two
// rows (i = 2 and 6000000000 are the second ones), so deletes can leave
// deletion vectors when dv is set.
func newWidenedTable(t *testing.T, feature string, dv bool) string {
	t.Helper()
	ctx := context.Background()
	db := writeTestDB(t)
	root := t.TempDir()
	for _, q := range []string{
		fmt.Sprintf(`COPY (SELECT * FROM (VALUES (1::INTEGER, 0.7::FLOAT, DATE '2024-01-02', 1.25::DECIMAL(5,2)), (2, 9, DATE '2030-01-01', 999.99)) v(i, f, d, m)) TO '%s' (FORMAT parquet)`,
			filepath.Join(root, "part-0.parquet")),
		fmt.Sprintf(`COPY (SELECT * FROM (VALUES (5000000000::BIGINT, 0.2::DOUBLE, TIMESTAMP '2024-03-04 05:06:07', 12345678.5::DECIMAL(10,2)), (6000000000, 9, TIMESTAMP '2030-01-01', 9.5)) v(i, f, d, m)) TO '%s' (FORMAT parquet)`,
			filepath.Join(root, "part-1.parquet")),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	narrow := `{"type":"struct","fields":[` +
		`{"name":"i","type":"integer","nullable":true,"metadata":{}},` +
		`{"name":"f","type":"float","nullable":true,"metadata":{}},` +
		`{"name":"d","type":"date","nullable":true,"metadata":{}},` +
		`{"name":"m","type":"decimal(5,2)","nullable":true,"metadata":{}}]}`
	change := func(from, to string) string {
		return `{"delta.typeChanges":[{"fromType":"` + from + `","toType":"` + to + `"}]}`
	}
	wide := `{"type":"struct","fields":[` +
		`{"name":"i","type":"long","nullable":true,"metadata":` + change("integer", "long") + `},` +
		`{"name":"f","type":"double","nullable":true,"metadata":` + change("float", "double") + `},` +
		`{"name":"d","type":"timestamp_ntz","nullable":true,"metadata":` + change("date", "timestamp_ntz") + `},` +
		`{"name":"m","type":"decimal(10,2)","nullable":true,"metadata":` + change("decimal(5,2)", "decimal(10,2)") + `}]}`
	conf := map[string]string{PropEnableTypeWidening: "true"}
	features := []string{feature, FeatureTimestampNTZ}
	if dv {
		conf[PropEnableDeletionVectors] = "true"
		features = append(features, FeatureDeletionVectors)
	}
	writeCommit(t, root, 0, infoAction("CREATE TABLE", 1_000_000),
		protocolAction(3, 7, features...), metadataAction(narrow, nil, conf))
	add0 := addAction("part-0.parquet", nil, 2)
	add0.Add.Stats = `{"numRecords":2,"minValues":{"i":1,"f":0.7,"d":"2024-01-02","m":1.25},` +
		`"maxValues":{"i":2,"f":9.0,"d":"2030-01-01","m":999.99},"nullCount":{"i":0,"f":0,"d":0,"m":0}}`
	writeCommit(t, root, 1, infoAction("WRITE", 1_000_001), add0)
	writeCommit(t, root, 2, infoAction("CHANGE COLUMN", 1_000_002), metadataAction(wide, nil, conf))
	add1 := addAction("part-1.parquet", nil, 2)
	add1.Add.Stats = `{"numRecords":2,"minValues":{"i":5000000000,"f":0.2,"d":"2024-03-04T05:06:07.000","m":9.5},` +
		`"maxValues":{"i":6000000000,"f":9.0,"d":"2030-01-01T00:00:00.000","m":12345678.5},"nullCount":{"i":0,"f":0,"d":0,"m":0}}`
	writeCommit(t, root, 3, infoAction("WRITE", 1_000_003), add1)
	return root
}

// widenedRows runs a scan with where and returns its rows as sorted text.
func widenedRows(t *testing.T, root, where string) []string {
	t.Helper()
	ctx := context.Background()
	db := writeTestDB(t)
	q, err := mustSnapshot(t, root).ScanSQL(ctx, ScanOptions{Where: where})
	if err != nil {
		t.Fatal(err)
	}
	return sortedStrings(t, db, "SELECT concat_ws('|', i, f, d, m, typeof(i), typeof(f), typeof(d), typeof(m)) FROM ("+q+")")
}

const widenedTypes = "BIGINT|DOUBLE|TIMESTAMP|DECIMAL(10,2)"

// The four rows of newWidenedTable, as widenedRows prints them.
var (
	widenedOld1   = "1|0.699999988079071|2024-01-02 00:00:00|1.25|" + widenedTypes
	widenedOld2   = "2|9.0|2030-01-01 00:00:00|999.99|" + widenedTypes
	widenedYoung1 = "5000000000|0.2|2024-03-04 05:06:07|12345678.50|" + widenedTypes
	widenedYoung2 = "6000000000|9.0|2030-01-01 00:00:00|9.50|" + widenedTypes
)

func TestTypeWideningRead(t *testing.T) {
	for _, feature := range []string{FeatureTypeWidening, FeatureTypeWideningPreview} {
		t.Run(feature, func(t *testing.T) {
			root := newWidenedTable(t, feature, false)
			for _, tc := range []struct {
				where string
				want  []string
			}{
				{"", []string{widenedOld1, widenedOld2, widenedYoung1, widenedYoung2}},
				// part-0's min f is the float 0.7, which widens to a
				// double below 0.6999999999: neither its stats ("0.7", a
				// double above it) nor DuckDB's pushdown may drop it.
				{"f < 0.6999999999", []string{widenedOld1, widenedYoung1}},
				{"f > 0.6 AND f < 1", []string{widenedOld1}},
				{"f < 0.25", []string{widenedYoung1}},
				{"i > 4000000000 AND i < 5500000000", []string{widenedYoung1}},
				// A date widens to midnight: it is below one second past.
				{"d < TIMESTAMP '2024-01-02 00:00:01'", []string{widenedOld1}},
				{"d >= TIMESTAMP '2030-01-01'", []string{widenedOld2, widenedYoung2}},
				{"m = 1.25", []string{widenedOld1}},
				{"m > 999.98 AND m < 1000", []string{widenedOld2}},
			} {
				if got := widenedRows(t, root, tc.where); !slices.Equal(got, tc.want) {
					t.Errorf("where %q:\n got %q\nwant %q", tc.where, got, tc.want)
				}
			}
		})
	}
}

// A table whose protocol lists typeWidening was refused before this
// package supported it; it is now readable and writable.
func TestTypeWideningSupported(t *testing.T) {
	for _, feature := range []string{FeatureTypeWidening, FeatureTypeWideningPreview} {
		p := Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{feature}, WriterFeatures: []string{feature}}
		if err := p.CheckReadable("t"); err != nil {
			t.Errorf("%s: CheckReadable: %v", feature, err)
		}
		if err := p.CheckWritable("t"); err != nil {
			t.Errorf("%s: CheckWritable: %v", feature, err)
		}
	}
}

// Appending to, deleting from (with and without deletion vectors) and
// checkpointing a widened table keep the type changes in the schema and
// every row readable in the wide types.
func TestTypeWideningWrite(t *testing.T) {
	for _, dv := range []bool{false, true} {
		t.Run(fmt.Sprintf("dv=%v", dv), func(t *testing.T) {
			ctx := context.Background()
			root := newWidenedTable(t, FeatureTypeWidening, dv)
			db := writeTestDB(t)
			// A narrow query widens on append, as into any table.
			if _, err := Append(ctx, db, root, `SELECT 7::INTEGER AS i, 0.5::FLOAT AS f, DATE '2025-01-01' AS d, 2.5::DECIMAL(5,2) AS m`, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			// A row of each old file goes (i = 2 and 5000000000): by our
			// delete, which rewrites the files, or as Spark deletes on a
			// table with deletion vectors, leaving both files with a
			// vector (each read in a branch of its own).
			if dv {
				s := mustSnapshot(t, root)
				actions := []Action{infoAction("DELETE", 1_000_010)}
				for _, a := range s.Files() {
					if row, ok := map[string]uint64{"part-0.parquet": 1, "part-1.parquet": 0}[a.Path]; ok {
						vec, err := InlineDeletionVector([]uint64{row})
						if err != nil {
							t.Fatal(err)
						}
						na := *a
						na.DeletionVector = vec
						actions = append(actions, removeAction(a.Path), Action{Add: &na})
					}
				}
				writeCommit(t, root, s.Version()+1, actions...)
			} else if _, err := Delete(ctx, db, root, "i IN (2, 5000000000)", WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			s := mustSnapshot(t, root)
			withDV := 0
			for _, a := range s.Files() {
				if a.DeletionVector != nil {
					withDV++
				}
			}
			if want := map[bool]int{false: 0, true: 2}[dv]; withDV != want {
				t.Fatalf("%d files with deletion vectors, want %d", withDV, want)
			}
			young := "7|0.5|2025-01-01 00:00:00|2.50|" + widenedTypes
			want := []string{widenedOld1, widenedYoung2, young}
			if got := widenedRows(t, root, ""); !slices.Equal(got, want) {
				t.Errorf("rows:\n got %q\nwant %q", got, want)
			}
			if got, want := widenedRows(t, root, "f > 0.6 AND f < 0.8"), []string{widenedOld1}; !slices.Equal(got, want) {
				t.Errorf("f filter:\n got %q\nwant %q", got, want)
			}
			if _, err := WriteCheckpoint(ctx, s); err != nil {
				t.Fatal(err)
			}
			s = mustSnapshot(t, root)
			if s.CheckpointVersion() != s.Version() {
				t.Fatalf("checkpoint %d, version %d", s.CheckpointVersion(), s.Version())
			}
			for _, f := range s.Schema().Fields {
				if _, ok := f.Metadata[MetaTypeChanges]; !ok {
					t.Errorf("column %s lost %s: %v", f.Name, MetaTypeChanges, f.Metadata)
				}
			}
			if got := widenedRows(t, root, ""); !slices.Equal(got, want) {
				t.Errorf("rows after checkpoint:\n got %q\nwant %q", got, want)
			}
			if got, want := widenedRows(t, root, "d < TIMESTAMP '2024-01-02 00:00:01'"), []string{widenedOld1}; !slices.Equal(got, want) {
				t.Errorf("d filter after checkpoint:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// A feature this package does not know is still refused by name.
func TestUnknownFeatureStillRefused(t *testing.T) {
	p := Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"typeWidening-v9"}, WriterFeatures: []string{"typeWidening-v9"}}
	err := p.CheckReadable("t")
	if !errors.Is(err, ErrUnsupportedFeature) || !strings.Contains(err.Error(), "typeWidening-v9") {
		t.Errorf("CheckReadable = %v, want ErrUnsupportedFeature naming the feature", err)
	}
}
