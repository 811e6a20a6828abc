package delta

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Helpers of the write-path tests.

// writeTestDB opens a DuckDB database for a test (closed at cleanup).
func writeTestDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := OpenDuckDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// mustCreate creates a table with the columns of a DuckDB query ("SELECT
// 1::BIGINT AS id, 'x' AS p"), partitioned by parts.
func mustCreate(t testing.TB, db *sql.DB, root, query string, parts []string, props map[string]string) {
	t.Helper()
	schema, err := QuerySchema(context.Background(), db, query)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(context.Background(), root, TableDefinition{Schema: schema, PartitionColumns: parts, Properties: props}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// mustAppend appends a query and returns the commit result.
func mustAppend(t testing.TB, db *sql.DB, root, query string) *CommitResult {
	t.Helper()
	res, err := Append(context.Background(), db, root, query, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// tableRows reads the table's rows as sorted strings of the given
// columns (DuckDB's text of each value, "NULL" for null).
func tableRows(t testing.TB, db *sql.DB, root string, cols ...string) []string {
	t.Helper()
	s := mustSnapshot(t, root)
	return snapshotRows(t, db, s, cols...)
}

func snapshotRows(t testing.TB, db *sql.DB, s *Snapshot, cols ...string) []string {
	t.Helper()
	q, err := s.ScanSQL(context.Background(), ScanOptions{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = "coalesce(CAST(" + quoteIdent(c) + " AS VARCHAR), 'NULL')"
	}
	return sortedStrings(t, db, "SELECT concat_ws('|', "+strings.Join(exprs, ", ")+") FROM ("+q+")")
}

// sortedStrings runs a query of one text column and returns its values
// sorted.
func sortedStrings(t testing.TB, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// readCommitActions reads the actions of commit v.
func readCommitActions(t testing.TB, root string, v int64) []Action {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, LogDirName, CommitFileName(v)))
	if err != nil {
		t.Fatal(err)
	}
	actions, err := ParseCommit(b)
	if err != nil {
		t.Fatal(err)
	}
	return actions
}

// commitInfoOf returns the commitInfo of commit v.
func commitInfoOf(t testing.TB, root string, v int64) *CommitInfo {
	t.Helper()
	for _, a := range readCommitActions(t, root, v) {
		if a.CommitInfo != nil {
			return a.CommitInfo
		}
	}
	t.Fatalf("commit %d has no commitInfo", v)
	return nil
}

// dataFiles lists the parquet files under root (outside _delta_log).
func dataFiles(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == LogDirName {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// livePaths lists the decoded paths of the snapshot's live files.
func livePaths(t testing.TB, s *Snapshot) []string {
	t.Helper()
	var out []string
	for _, f := range s.Files() {
		p, err := f.DecodedPath()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func rangeQuery(from, to int, extra string) string {
	q := fmt.Sprintf("SELECT i::BIGINT AS id FROM range(%d, %d) t(i)", from, to)
	if extra != "" {
		q = fmt.Sprintf("SELECT i::BIGINT AS id, %s FROM range(%d, %d) t(i)", extra, from, to)
	}
	return q
}
