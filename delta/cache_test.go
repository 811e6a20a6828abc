package delta

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestObjectCache(t *testing.T) {
	ctx := context.Background()
	src, err := NewLocalStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		body := strings.Repeat(fmt.Sprint(i), 1000)
		if err := src.Put(ctx, fmt.Sprintf("part-%d.parquet", i), strings.NewReader(body), 1000); err != nil {
			t.Fatal(err)
		}
	}
	c := &ObjectCache{Dir: t.TempDir(), MaxBytes: 3000, Grace: time.Nanosecond}

	t.Run("concurrent fetches download once", func(t *testing.T) {
		before := src.Stats()
		var wg sync.WaitGroup
		paths := make([]string, 8)
		for i := range paths {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := c.Fetch(ctx, src, "part-0.parquet", 1000)
				if err != nil {
					t.Error(err)
				}
				paths[i] = p
			}()
		}
		wg.Wait()
		if d := src.Stats().Sub(before); d.Gets != 1 {
			t.Errorf("8 fetches of one object made %d downloads, want 1", d.Gets)
		}
		if b, _ := os.ReadFile(paths[7]); len(b) != 1000 || b[0] != '0' {
			t.Errorf("copy holds %q...", b[:min(len(b), 10)])
		}
		if s := c.Stats(); s.Misses != 1 || s.Hits != 7 || s.HitRate() != 7.0/8 {
			t.Errorf("stats %+v", s)
		}
	})

	t.Run("bounded: least recently used copies go", func(t *testing.T) {
		for i := 1; i < 6; i++ {
			if _, err := c.Fetch(ctx, src, fmt.Sprintf("part-%d.parquet", i), 1000); err != nil {
				t.Fatal(err)
			}
			time.Sleep(5 * time.Millisecond) // distinct use times
		}
		var total int64
		var names []string
		filepath.WalkDir(c.Dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				info, _ := d.Info()
				total += info.Size()
				names = append(names, filepath.Base(p))
			}
			return nil
		})
		if total > 3000 {
			t.Fatalf("cache holds %d bytes (%v), bound 3000", total, names)
		}
		if !strings.Contains(strings.Join(names, ","), "part-5.parquet") || strings.Contains(strings.Join(names, ","), "part-1.parquet") {
			t.Fatalf("kept %v: want the newest (part-5), not the oldest (part-1)", names)
		}
	})

	t.Run("a size other than the log's is refused", func(t *testing.T) {
		_, err := c.Fetch(ctx, src, "part-2.parquet", 999)
		if !errors.Is(err, ErrCorruptLog) || !strings.Contains(err.Error(), "the log says 999") {
			t.Fatalf("fetch with a wrong size: %v", err)
		}
	})

	t.Run("missing object", func(t *testing.T) {
		if _, err := c.Fetch(ctx, src, "gone.parquet", 10); !errors.Is(err, ErrObjectNotFound) {
			t.Fatalf("fetch of a missing object: %v", err)
		}
	})

	t.Run("clean", func(t *testing.T) {
		os.WriteFile(filepath.Join(c.Dir, "not-ours.txt"), []byte("x"), 0o644)
		if err := c.Clean(); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(c.Dir)
		if len(entries) != 1 || entries[0].Name() != "not-ours.txt" {
			t.Fatalf("after Clean the folder holds %v; want only the file that is not the cache's", entries)
		}
	})
}
