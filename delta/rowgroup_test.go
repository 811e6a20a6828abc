package delta

import "testing"

// TestRowGroupRows: row groups hold as many rows as a dictionary should
// cover. A 2M-row column of strings is written in two row groups, as
// delta-rs writes it (three repeated its dictionary a third time: 1.11x
// delta-rs' bytes on 50,000 distinct values), and the shared table of the
// pipeline benchmark (writer column, id, symbol, ts, price, qty,
// notional) in row groups of over 450k rows (238k wrote the dictionaries
// of price and notional 18 times in 4M rows, 1.08x the bytes of Polars'
// 4), within the target file size and the wide-decimal cap.
func TestRowGroupRows(t *testing.T) {
	f := func(name string, dt DataType) *StructField { return &StructField{Name: name, Type: dt, Nullable: true} }
	pipeline := []*StructField{f("_laktory_writer", StringType), f("id", LongType), f("symbol", StringType),
		f("ts", TimestampType), f("price", DoubleType), f("qty", LongType), f("notional", DoubleType)}
	for _, c := range []struct {
		name        string
		cols        []*StructField
		target      int64
		least, most int
	}{
		{"one string column", []*StructField{f("s", StringType)}, DefaultTargetFileSize, 1_000_001, maxRowGroupRows},
		{"the pipeline's table", pipeline, DefaultTargetFileSize, 450_000, maxRowGroupRows},
		{"a small target file", pipeline, 8 << 20, minRowGroupRows, minRowGroupRows},
		{"a wide decimal", []*StructField{f("d", DecimalType{Precision: 38, Scale: 6})}, DefaultTargetFileSize, maxWideDecimalRowGroupRows, maxWideDecimalRowGroupRows},
	} {
		if got := rowGroupRows(c.cols, c.target); got < c.least || got > c.most {
			t.Errorf("%s: %d rows a row group, want %d to %d", c.name, got, c.least, c.most)
		}
	}
}
