package polarsread

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkScanCSV: the Go scan of a 1M-row CSV file (5 columns, about
// 40 MB), which every read of a POLARS CSV source makes before DuckDB
// reads the fields.
func BenchmarkScanCSV(b *testing.B) {
	p := filepath.Join(b.TempDir(), "big.csv")
	var sb strings.Builder
	sb.WriteString("id,symbol,price,qty,day\n")
	for i := 0; i < 1_000_000; i++ {
		fmt.Fprintf(&sb, "%d,sym%d,%d.%02d,%d,2024-01-%02d\n", i, i%500, i%1000, i%100, i%37, i%28+1)
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	o, _ := CSV(nil, &[]bool{true}[0], nil)
	b.SetBytes(int64(sb.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := scanCSVFile(context.Background(), p, o); err != nil {
			b.Fatal(err)
		}
	}
}
