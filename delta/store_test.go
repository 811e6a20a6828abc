package delta

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// s3Store opens a store on a fresh bucket of the test server, under a
// prefix (so keys are checked relative to it).
func s3Store(t *testing.T) *S3Store {
	t.Helper()
	srv := s3test.Shared(t)
	srv.Setenv(t)
	st, err := OpenS3Store(context.Background(), "s3://"+srv.Bucket(t)+"/lake/t")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// storesUnderTest gives each contract test a local store and an S3 one.
func storesUnderTest(t *testing.T) map[string]func(t *testing.T) Store {
	return map[string]func(t *testing.T) Store{
		"local": func(t *testing.T) Store {
			st, err := NewLocalStore(filepath.Join(t.TempDir(), "t"))
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		"s3": func(t *testing.T) Store { return s3Store(t) },
	}
}

func TestStoreContract(t *testing.T) {
	ctx := context.Background()
	for name, open := range storesUnderTest(t) {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			put := func(key, body string) {
				t.Helper()
				if err := st.Put(ctx, key, strings.NewReader(body), int64(len(body))); err != nil {
					t.Fatalf("put %s: %v", key, err)
				}
			}
			put("_delta_log/00000000000000000000.json", "zero\n")
			put("_delta_log/00000000000000000001.json", "one\n")
			put("_delta_log/00000000000000000002.json", "two\n")
			put("_delta_log/_sidecars/a.parquet", "side")
			put("year=2024/part-0.parquet", "0123456789")

			if b, err := st.Get(ctx, "_delta_log/00000000000000000001.json"); err != nil || string(b) != "one\n" {
				t.Fatalf("get = %q, %v", b, err)
			}
			for _, tt := range []struct {
				off, n int64
				want   string
			}{{0, 4, "0123"}, {3, 2, "34"}, {8, 10, "89"}, {4, -1, "456789"}, {10, 5, ""}, {12, -1, ""}, {0, -1, "0123456789"}} {
				b, err := st.ReadRange(ctx, "year=2024/part-0.parquet", tt.off, tt.n)
				if err != nil || string(b) != tt.want {
					t.Errorf("ReadRange(%d, %d) = %q, %v; want %q", tt.off, tt.n, b, err, tt.want)
				}
			}
			info, err := st.Stat(ctx, "year=2024/part-0.parquet")
			if err != nil || info.Size != 10 || info.Key != "year=2024/part-0.parquet" || info.ModTime.IsZero() {
				t.Fatalf("stat = %+v, %v", info, err)
			}

			keys := func(l []ObjectInfo) string {
				var k []string
				for _, o := range l {
					k = append(k, o.Key)
				}
				return strings.Join(k, ",")
			}
			l, err := st.List(ctx, "_delta_log", ListOptions{})
			if want := "_delta_log/00000000000000000000.json,_delta_log/00000000000000000001.json,_delta_log/00000000000000000002.json"; err != nil || keys(l) != want {
				t.Fatalf("list = %s, %v; want %s (no sub-folder entries)", keys(l), err, want)
			}
			l, err = st.List(ctx, "_delta_log", ListOptions{StartAfter: "00000000000000000000.json"})
			if want := "_delta_log/00000000000000000001.json,_delta_log/00000000000000000002.json"; err != nil || keys(l) != want {
				t.Fatalf("list after 0 = %s, %v; want %s", keys(l), err, want)
			}
			l, err = st.List(ctx, "", ListOptions{Recursive: true})
			if err != nil || len(l) != 5 || l[0].Key != "_delta_log/00000000000000000000.json" || l[4].Key != "year=2024/part-0.parquet" {
				t.Fatalf("recursive list = %s, %v", keys(l), err)
			}
			if l, err := st.List(ctx, "nothing/here", ListOptions{}); err != nil || len(l) != 0 {
				t.Fatalf("list of a missing folder = %v, %v; want nothing", l, err)
			}

			// put-if-absent: the first wins, the second is refused and
			// changes nothing.
			key := "_delta_log/00000000000000000003.json"
			if err := st.PutIfAbsent(ctx, key, []byte("mine\n")); err != nil {
				t.Fatalf("first put-if-absent: %v", err)
			}
			err = st.PutIfAbsent(ctx, key, []byte("theirs\n"))
			if !errors.Is(err, ErrObjectExists) || !errors.Is(err, fs.ErrExist) {
				t.Fatalf("second put-if-absent = %v; want ErrObjectExists", err)
			}
			if b, _ := st.Get(ctx, key); string(b) != "mine\n" {
				t.Fatalf("after a refused put-if-absent the object holds %q", b)
			}

			dl := filepath.Join(t.TempDir(), "cache", "f.parquet")
			if info, err := st.Download(ctx, "year=2024/part-0.parquet", dl); err != nil || info.Size != 10 {
				t.Fatalf("download = %+v, %v", info, err)
			}
			if b, _ := os.ReadFile(dl); string(b) != "0123456789" {
				t.Fatalf("downloaded %q", b)
			}

			if err := st.Delete(ctx, key); err != nil {
				t.Fatal(err)
			}
			if err := st.Delete(ctx, key); err != nil {
				t.Fatalf("deleting a missing object: %v; want no error", err)
			}
			for _, err := range []error{
				func() error { _, err := st.Get(ctx, key); return err }(),
				func() error { _, err := st.Stat(ctx, key); return err }(),
				func() error { _, err := st.Download(ctx, key, dl+".2"); return err }(),
			} {
				if !errors.Is(err, ErrObjectNotFound) || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "00000000000000000003.json") {
					t.Errorf("reading a deleted object: %v; want ErrObjectNotFound naming it", err)
				}
			}
			if _, err := st.Get(ctx, "../escape"); !errors.Is(err, ErrPathEscapesTable) {
				t.Errorf("a key climbing out of the root: %v; want ErrPathEscapesTable", err)
			}
			if s, ok := StatsOf(st); !ok || s.Conditional < 2 || s.Puts < 5 || s.Lists < 4 || s.BytesRead == 0 {
				t.Errorf("stats = %v, %v", s, ok)
			}
		})
	}
}

// TestStorePutIfAbsentRace: of writers racing for one key, exactly one
// wins, and the object holds its content. A store whose server failed the
// check of conditional writes at open refuses writing (CheckWritable),
// and the test says so rather than counting winners
// (TestS3StoreRefusesWithoutAtomicPutIfAbsent).
func TestStorePutIfAbsentRace(t *testing.T) {
	ctx := context.Background()
	stores := storesUnderTest(t)
	stores["locked"] = func(t *testing.T) Store {
		ls, err := NewLocalStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return WithLock(noConditional{ls}, FileLocker{Dir: t.TempDir()})
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			if err := CheckWritable(st); err != nil {
				t.Fatalf("the store refuses writing, its server has no atomic put-if-absent (for S3, the test server is moto from scripts/requirements-interop.txt, through LAKTORY_PYTHON): %v", err)
			}
			for v := 0; v < 3; v++ {
				key := "_delta_log/" + CommitFileName(int64(v))
				const writers = 6
				var wins atomic.Int32
				var winner atomic.Value
				var wg sync.WaitGroup
				for w := 0; w < writers; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						body := fmt.Sprintf("writer %d\n", w)
						err := st.PutIfAbsent(ctx, key, []byte(body))
						switch {
						case err == nil:
							wins.Add(1)
							winner.Store(body)
						case !errors.Is(err, ErrObjectExists):
							t.Errorf("writer %d: %v", w, err)
						}
					}()
				}
				wg.Wait()
				if wins.Load() != 1 {
					t.Fatalf("version %d: %d writers won, want exactly 1 (the server passed the check of conditional writes at open, which catches a non-atomic one only when its race happens)", v, wins.Load())
				}
				if b, _ := st.Get(ctx, key); string(b) != winner.Load() {
					t.Fatalf("version %d holds %q, the winner wrote %q", v, b, winner.Load())
				}
			}
		})
	}
}

// noConditional is a store without an atomic put-if-absent (an
// S3-compatible server that ignores If-None-Match).
type noConditional struct{ *LocalStore }

func (n noConditional) Capabilities() Capabilities { return Capabilities{} }
func (n noConditional) PutIfAbsent(context.Context, string, []byte) error {
	return ErrPutIfAbsentUnsupported
}

func TestCheckWritableRefusesStoreWithoutPutIfAbsent(t *testing.T) {
	ls, err := NewLocalStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = CheckWritable(noConditional{ls})
	if !errors.Is(err, ErrPutIfAbsentUnsupported) || !strings.Contains(err.Error(), "lock: local") {
		t.Fatalf("CheckWritable = %v; want ErrPutIfAbsentUnsupported naming the lock to configure", err)
	}
	locked := WithLock(noConditional{ls}, FileLocker{Dir: t.TempDir()})
	if err := CheckWritable(locked); err != nil {
		t.Fatalf("with a lock: %v", err)
	}
	if c := locked.Capabilities(); c.AtomicPutIfAbsent || !strings.Contains(c.Locked, "local file lock") {
		t.Fatalf("capabilities %+v", c)
	}
}

func TestOpenStoreLocations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, loc := range []string{dir, "file://" + dir} {
		st, err := OpenStore(ctx, loc, StoreOptions{})
		if err != nil || !st.Capabilities().Local || st.URI("") != dir {
			t.Errorf("OpenStore(%s) = %v, %v", loc, st, err)
		}
	}
	for _, loc := range []string{"gs://b/lake", "abfss://c@acct.dfs.core.windows.net/lake", "ftp://host/x", "s3:///nobucket", "s3://b/../x"} {
		if _, err := OpenStore(ctx, loc, StoreOptions{}); !errors.Is(err, ErrUnsupportedStore) {
			t.Errorf("OpenStore(%s) = %v; want ErrUnsupportedStore", loc, err)
		}
	}
	if !IsRemoteLocation("s3://b/x") || IsRemoteLocation("/tmp/x") || IsRemoteLocation("rel/x") || IsRemoteLocation("file:///x") {
		t.Error("IsRemoteLocation")
	}
}

func TestS3StoreMissingBucket(t *testing.T) {
	srv := s3test.Shared(t)
	srv.Setenv(t)
	_, err := OpenS3Store(context.Background(), "s3://lk-no-such-bucket/lake")
	if !errors.Is(err, ErrStoreAccess) || !strings.Contains(err.Error(), "lk-no-such-bucket does not exist") {
		t.Fatalf("open on a missing bucket: %v; want ErrStoreAccess naming it", err)
	}
}

// TestS3StoreMultipart: an object above the multipart threshold is
// uploaded in parts and reads back whole; an upload cut by its context
// leaves no object.
func TestS3StoreMultipart(t *testing.T) {
	ctx := context.Background()
	st := s3Store(t)
	st.multipartThreshold, st.partSize = 1<<20, 5<<20 // S3's smallest part
	body := bytes.Repeat([]byte("0123456789abcdef"), (11<<20)/16+3)
	before := st.Stats()
	if err := st.Put(ctx, "big.parquet", bytes.NewReader(body), int64(len(body))); err != nil {
		t.Fatal(err)
	}
	if d := st.Stats().Sub(before); d.Puts != 5 { // create, 3 parts, complete
		t.Errorf("a 3-part upload made %d put requests, want 5", d.Puts)
	}
	got, err := st.Get(ctx, "big.parquet")
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("read back %d bytes of %d, %v", len(got), len(body), err)
	}
	cctx, cancel := context.WithCancel(ctx)
	r := &cancelAfter{r: bytes.NewReader(body), n: 6 << 20, cancel: cancel}
	if err := st.Put(cctx, "cut.parquet", r, int64(len(body))); err == nil {
		t.Fatal("a cancelled upload succeeded")
	}
	if _, err := st.Stat(ctx, "cut.parquet"); !errors.Is(err, ErrObjectNotFound) {
		t.Fatalf("a cancelled multipart upload left an object: %v", err)
	}
}

// cancelAfter cancels a context once n bytes have been read.
type cancelAfter struct {
	r      *bytes.Reader
	n      int
	read   int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.read += n; c.read >= c.n {
		c.cancel()
	}
	return n, err
}

func (c *cancelAfter) Seek(off int64, whence int) (int64, error) { return c.r.Seek(off, whence) }
