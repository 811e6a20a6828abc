package delta

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestZZShape(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	if dir == "" {
		t.Skip()
	}
	db, err := OpenDuckDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	src, col := os.Getenv("ZZSRC"), os.Getenv("ZZCOL")
	q := fmt.Sprintf("SELECT %s FROM read_parquet('%s')", col, filepath.Join(dir, src))
	root := filepath.Join(os.Getenv("ZZOUT"), "t")
	os.RemoveAll(root)
	tx, err := BeginCreate(root, TableDefinition{}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, q); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}
