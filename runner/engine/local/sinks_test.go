package local

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/laktory/workbench/runner/engine"
)

// TestWriteFiles: a file sink's rows are written as one file or as part
// files of a folder (partitioned by Hive-style folders), counted; another
// format is refused as unsupported.
func TestWriteFiles(t *testing.T) {
	s := open(t)
	const q = "SELECT k, k % 2 AS p FROM range(5) t(k)"
	for _, tc := range []struct {
		name, format string
		w            engine.FileWrite
		want         []string // files under the target, relative
	}{
		{"one parquet file", "PARQUET", engine.FileWrite{Format: "PARQUET", Single: true}, nil},
		{"one csv file", "CSV", engine.FileWrite{Format: "CSV", Single: true}, nil},
		{"parquet parts by p", "PARQUET", engine.FileWrite{Format: "PARQUET", PartitionBy: []string{"p"}}, []string{"p=0", "p=1"}},
		{"json parts", "JSON", engine.FileWrite{Format: "JSON"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "out")
			n, err := s.WriteFiles(t.Context(), target, q, tc.w)
			if err != nil || n != 5 {
				t.Fatalf("%d rows, %v", n, err)
			}
			st, err := os.Stat(target)
			if err != nil || st.IsDir() == tc.w.Single {
				t.Fatalf("target %v, single %v: %v", st, tc.w.Single, err)
			}
			if tc.want != nil {
				entries, _ := os.ReadDir(target)
				var got []string
				for _, e := range entries {
					got = append(got, e.Name())
				}
				if !slices.Equal(got, tc.want) {
					t.Fatalf("folders %v, want %v", got, tc.want)
				}
			}
		})
	}
	if _, err := s.WriteFiles(t.Context(), filepath.Join(t.TempDir(), "x"), q, engine.FileWrite{Format: "AVRO", Single: true}); !errors.Is(err, engine.ErrUnsupported) {
		t.Fatalf("AVRO: %v, want ErrUnsupported", err)
	}
}

// foreignSession is a session of another engine: only its Rows are read.
type foreignSession struct {
	engine.Session
	rows []string
}

func (f *foreignSession) Rows(context.Context, string) (engine.Rows, error) {
	return &sliceRows{rows: slices.Clone(f.rows)}, nil
}

// TestRowStore: a batch staged from a local session and the same rows
// from another engine's session are kept as the same JSON texts, split
// into the same partitions; Drop removes them.
func TestRowStore(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ls, err := New(db, nil).Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	store := NewRowStore(db)
	const src = "SELECT k, 'r' || k AS s FROM range(20) t(k)"
	var want []string
	for i := range 20 {
		want = append(want, `{"k":`+itoa(i)+`,"s":"r`+itoa(i)+`"}`)
	}
	parts := func(s engine.Session) [][]string {
		t.Helper()
		st, err := store.Stage(ctx, s, src)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Drop(ctx)
		if st.Count() != 20 {
			t.Fatalf("%d rows staged", st.Count())
		}
		var out [][]string
		for _, p := range st.Partitions(3) {
			rows, err := p.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for {
				b, err := rows.Next()
				if err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(b))
			}
			rows.(interface{ Close() error }).Close()
			slices.Sort(got)
			out = append(out, got)
		}
		return out
	}
	local, foreign := parts(ls), parts(&foreignSession{rows: want})
	if len(local) != 3 || !slices.EqualFunc(local, foreign, slices.Equal[[]string]) {
		t.Fatalf("local partitions %q, another engine's %q", local, foreign)
	}
	var all []string
	for _, p := range local {
		all = append(all, p...)
	}
	slices.Sort(all)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Fatalf("rows %q, want %q", all, want)
	}
	var left int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'lk_foreach_%'").Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d staged tables left (%v)", left, err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
