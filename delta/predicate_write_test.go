package delta

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// TestPartitionPredicateInGo checks that simple partition predicates
// evaluated in Go give exactly DuckDB's answer, file by file, and that
// other predicates are left to DuckDB.
func TestPartitionPredicateInGo(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	source := `SELECT i::BIGINT AS id,
  CASE i % 4 WHEN 0 THEN 'a' WHEN 1 THEN 'b' WHEN 2 THEN 'B c' ELSE NULL END AS ps,
  CASE WHEN i % 5 = 4 THEN NULL ELSE (i % 5)::INTEGER END AS pi,
  DATE '2024-02-28' + (i % 3)::INTEGER AS pd,
  TIMESTAMPTZ '2024-03-10 01:00:00.5+00' + (i % 2) * INTERVAL 1 HOUR AS pts,
  CASE i % 3 WHEN 0 THEN 0.05 WHEN 1 THEN 12.5 ELSE -3 END::DECIMAL(10,2) AS pdec,
  i % 2 = 0 AS pb
FROM range(60) t(i)`
	tx, err := BeginCreate(root, TableDefinition{PartitionColumns: []string{"ps", "pi", "pd", "pts", "pdec", "pb"}}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, source); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	s := mustSnapshot(t, root)
	files := s.Files()
	inGo := []string{
		"ps = 'a'", "ps <> 'a'", "ps IN ('a', 'B c')", "ps NOT IN ('a', NULL)", "ps IN ('b', NULL)", "ps NOT IN ('a')",
		"ps > 'B'", "ps IS NULL", "ps IS NOT NULL", "pi BETWEEN 1 AND 2", "pi NOT BETWEEN 1 AND 2", "pi = 1.5", "pi >= 3",
		"pd = '2024-02-29'", "pd >= DATE '2024-03-01'", "pts < TIMESTAMPTZ '2024-03-10 02:00:00+00'",
		"pts = '2024-03-10 01:00:00.5'", "pdec = 0.05", "pdec < 0", "pb = true", "pb != false",
		"NOT (ps = 'a' OR pi > 1)", "(ps = 'b' AND pb = true) OR pd = '2024-02-28'", "NOT ps IN ('a', 'b')",
	}
	for _, pred := range inGo {
		t.Run(pred, func(t *testing.T) {
			gp := goPartitionPredicate(s, pred)
			if gp == nil {
				t.Fatal("not evaluated in Go")
			}
			got, ok := evalPartitions(s, gp, files)
			if !ok {
				t.Fatal("Go could not judge it")
			}
			want, err := matchPartitions(ctx, db, s, files, pred)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("Go %v\nDuckDB %v", got, want)
			}
		})
	}
	for _, pred := range []string{"upper(ps) = 'A'", "ps LIKE 'a%'", "id = 1", "ps = 'a' AND id > 3", "pb", "nope = 1", "pi = 'x'"} {
		t.Run("DuckDB: "+pred, func(t *testing.T) {
			if gp := goPartitionPredicate(s, pred); gp != nil {
				if _, ok := evalPartitions(s, gp, files); ok {
					t.Fatal("evaluated in Go")
				}
			}
			tx, _ := s.Begin(WriteOptions{})
			info, _, err := tx.planDelete(ctx, db, s, pred)
			if pred == "nope = 1" || pred == "pi = 'x'" {
				if !errors.Is(err, ErrInvalidPredicate) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil || info.goEval {
				t.Fatalf("%+v, %v", info, err)
			}
		})
	}
}
