package delta

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// uploadDir copies every file under the local folder dir to the store
// under prefix.
func uploadDir(t *testing.T, st Store, dir, prefix string) {
	t.Helper()
	ctx := context.Background()
	src, err := NewLocalStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	objects, err := src.List(ctx, "", ListOptions{Recursive: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objects {
		f, err := os.Open(src.Path(o.Key))
		if err != nil {
			t.Fatal(err)
		}
		err = st.Put(ctx, JoinKey(prefix, o.Key), f, o.Size)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// snapshotFacts is what a reader sees of a snapshot, without its location.
func snapshotFacts(s *Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version %d, checkpoint %d\nprotocol %+v\n", s.Version(), s.CheckpointVersion(), s.Protocol())
	md := s.Metadata()
	fmt.Fprintf(&b, "table %s, partitions %v, schema %s\nproperties %v\n", md.ID, md.PartitionColumns, md.SchemaString, s.Properties())
	var files []string
	for _, f := range s.Files() {
		dv := ""
		if f.DeletionVector != nil {
			dv = " dv " + f.DeletionVector.UniqueID()
		}
		var pv []string
		for k, v := range f.PartitionValues {
			if v == nil {
				pv = append(pv, k+"=null")
			} else {
				pv = append(pv, k+"="+*v)
			}
		}
		sort.Strings(pv)
		files = append(files, fmt.Sprintf("%s %d %v%s", f.Path, f.Size, pv, dv))
	}
	sort.Strings(files)
	fmt.Fprintf(&b, "files:\n  %s\n", strings.Join(files, "\n  "))
	fmt.Fprintf(&b, "tombstones %d, txns %v, ts %s\n", len(s.Tombstones()), s.AppTransactions(), s.Timestamp())
	return b.String()
}

// TestS3ReadConformanceTables reads every conformance table from a bucket
// and from its local folder: the same snapshot at every version (commits,
// classic, multi-part and V2 checkpoints with sidecars, _last_checkpoint,
// time travel), the same history, and the same errors for the broken ones,
// naming the s3:// table.
func TestS3ReadConformanceTables(t *testing.T) {
	ctx := context.Background()
	dir := conformanceDir(t)
	srv := s3test.Shared(t)
	srv.Setenv(t)
	bucket := srv.Bucket(t)
	st, err := OpenS3Store(ctx, "s3://"+bucket)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	uploadDir(t, st, dir, "golden")
	cache := &ObjectCache{Dir: t.TempDir()}
	SetObjectCache(cache)
	t.Cleanup(func() { SetObjectCache(nil) })
	db := openTestDB(t)
	compared, scanned := 0, 0
	for _, e := range entries {
		local := filepath.Join(dir, e.Name(), "delta")
		if _, err := os.Stat(local); err != nil {
			continue
		}
		remote := "s3://" + bucket + "/golden/" + e.Name() + "/delta"
		t.Run(e.Name(), func(t *testing.T) {
			ls, lerr := LoadSnapshot(ctx, local)
			before := st.Stats()
			rs, rerr := LoadSnapshot(ctx, remote)
			if lerr != nil || rerr != nil {
				want, ok := negativeTables[e.Name()]
				if lerr == nil || rerr == nil || (ok && !errors.Is(rerr, want)) {
					t.Fatalf("local: %v\nremote: %v", lerr, rerr)
				}
				if !strings.Contains(rerr.Error(), remote) {
					t.Errorf("the error does not name the s3:// table: %v", rerr)
				}
				if got, want := strings.ReplaceAll(rerr.Error(), remote, "ROOT"), strings.ReplaceAll(lerr.Error(), local, "ROOT"); got != want && ok {
					t.Logf("messages differ:\nlocal:  %s\nremote: %s", want, got)
				}
				return
			}
			if rs.Root() != remote {
				t.Errorf("root = %s", rs.Root())
			}
			if a, b := snapshotFacts(ls), snapshotFacts(rs); a != b {
				t.Fatalf("snapshots differ:\nlocal:\n%s\nremote:\n%s", a, b)
			}
			t.Logf("latest snapshot: %s", st.Stats().Sub(before))
			// The rows, read from the bucket through the object cache.
			lrows, lerr := scanText(db, ls)
			before, hits := st.Stats(), cache.Stats()
			rrows, rerr := scanText(db, rs)
			if (lerr == nil) != (rerr == nil) || !reflect.DeepEqual(lrows, rrows) {
				t.Fatalf("rows differ:\nlocal %v: %v\nremote %v: %v", lerr, lrows, rerr, rrows)
			}
			if lerr == nil {
				scanned++
				t.Logf("first scan: %s; cache %+v", st.Stats().Sub(before), cache.Stats())
				before = st.Stats()
				if again, err := scanText(db, rs); err != nil || !reflect.DeepEqual(again, lrows) {
					t.Fatalf("second scan: %v", err)
				}
				if d := st.Stats().Sub(before); d.Gets != 0 && !hasDV(rs) {
					t.Errorf("a second scan read %d objects; the cache should have them all", d.Gets)
				}
				if c := cache.Stats(); c.Hits-hits.Hits < int64(rs.NumFiles()) {
					t.Errorf("cache hits %d → %d for %d files", hits.Hits, c.Hits, rs.NumFiles())
				}
			}
			for v := int64(0); v < ls.Version(); v++ {
				l, lerr := LoadSnapshot(ctx, local, AtVersion(v))
				r, rerr := LoadSnapshot(ctx, remote, AtVersion(v))
				if (lerr == nil) != (rerr == nil) || (lerr == nil && snapshotFacts(l) != snapshotFacts(r)) {
					t.Fatalf("version %d differs: local %v, remote %v", v, lerr, rerr)
				}
			}
			lt, _ := Open(ctx, local)
			rt, err := Open(ctx, remote)
			if err != nil {
				t.Fatal(err)
			}
			lh, lerr := lt.History(ctx, 0)
			rh, rerr := rt.History(ctx, 0)
			if (lerr == nil) != (rerr == nil) || !reflect.DeepEqual(lh, rh) {
				t.Fatalf("history differs: local %v (%v), remote %v (%v)", lh, lerr, rh, rerr)
			}
			compared++
		})
	}
	if compared < 20 || scanned < 15 {
		t.Fatalf("only %d tables compared, %d scanned", compared, scanned)
	}
}

// scanText reads every row of a snapshot as sorted text.
func scanText(db *sql.DB, s *Snapshot) ([]string, error) {
	q, err := s.ScanSQL(context.Background(), ScanOptions{})
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(context.Background(), "SELECT CAST(t AS VARCHAR) FROM ("+q+") t")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out, rows.Err()
}

func hasDV(s *Snapshot) bool {
	for _, f := range s.Files() {
		if f.DeletionVector != nil {
			return true
		}
	}
	return false
}
