package delta

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ObjectCache keeps local copies of a remote table's data files, so that
// DuckDB (which cannot load httpfs here, and must not need it) scans them
// from disk. A data file of a Delta table is never rewritten in place (a
// new version writes new files), so a copy is keyed by the object's URI and
// its size from the log; the ETag read with it is recorded beside it, and a
// size that differs from the log's is refused as a corrupt download.
//
// The cache is bounded: after each download, the least recently used
// copies are removed until the total is at most MaxBytes, except copies
// used in the last Grace (a scan returns SQL that DuckDB runs later: its
// files must stay until then). Temporary files of cut downloads are
// removed by the same sweep. Clean removes everything.
type ObjectCache struct {
	// Dir is the cache's folder (made on first use).
	Dir string
	// MaxBytes bounds the copies' total size (0: 4 GiB).
	MaxBytes int64
	// Grace protects recently used copies from eviction (0: 10 minutes).
	Grace time.Duration

	mu       sync.Mutex
	inflight map[string]*cacheFetch
	// Hits, Misses and BytesFetched count since the cache was made.
	hits, misses, bytesFetched atomic.Int64
}

type cacheFetch struct {
	done chan struct{}
	err  error
}

// CacheStats counts an ObjectCache's use.
type CacheStats struct {
	Hits, Misses, BytesFetched int64
}

// HitRate is hits / (hits + misses), 0 with no use.
func (c CacheStats) HitRate() float64 {
	if c.Hits+c.Misses == 0 {
		return 0
	}
	return float64(c.Hits) / float64(c.Hits+c.Misses)
}

// Stats returns the counts so far.
func (c *ObjectCache) Stats() CacheStats {
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), BytesFetched: c.bytesFetched.Load()}
}

var (
	objectCacheMu sync.Mutex
	objectCache   *ObjectCache
)

// SetObjectCache sets the cache remote scans use (nil: the default, a
// folder "laktory/objects" in the user's cache folder, 4 GiB).
func SetObjectCache(c *ObjectCache) {
	objectCacheMu.Lock()
	defer objectCacheMu.Unlock()
	objectCache = c
}

// DefaultObjectCache returns the cache remote scans use.
func DefaultObjectCache() *ObjectCache {
	objectCacheMu.Lock()
	defer objectCacheMu.Unlock()
	if objectCache == nil {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		objectCache = &ObjectCache{Dir: filepath.Join(dir, "laktory", "objects")}
	}
	return objectCache
}

func (c *ObjectCache) maxBytes() int64 {
	if c.MaxBytes > 0 {
		return c.MaxBytes
	}
	return 4 << 30
}

func (c *ObjectCache) grace() time.Duration {
	if c.Grace > 0 {
		return c.Grace
	}
	return 10 * time.Minute
}

// entryPath is the local copy of uri with size: a folder per hash prefix,
// the object's base name kept for DuckDB's messages.
func (c *ObjectCache) entryPath(uri string, size int64) string {
	sum := sha256.Sum256([]byte(uri + "\x00" + strconv.FormatInt(size, 10)))
	h := hex.EncodeToString(sum[:12])
	name := filepath.Base(uri)
	if len(name) > 80 || strings.ContainsAny(name, `'"\`) {
		name = "object"
	}
	return filepath.Join(c.Dir, h[:2], h+"-"+name)
}

// Fetch returns the local copy of key in st, downloading it when the cache
// has none. size is the object's size from the log (a copy of another size
// is not it); a negative size accepts the object's. A missing object wraps
// ErrObjectNotFound.
func (c *ObjectCache) Fetch(ctx context.Context, st Store, key string, size int64) (string, error) {
	uri := st.URI(key)
	p := c.entryPath(uri, size)
	for {
		if info, err := os.Stat(p); err == nil && (size < 0 || info.Size() == size) {
			c.hits.Add(1)
			now := time.Now()
			_ = os.Chtimes(p, now, now) // recently used: kept by the sweep
			return p, nil
		}
		c.mu.Lock()
		if c.inflight == nil {
			c.inflight = map[string]*cacheFetch{}
		}
		if f := c.inflight[p]; f != nil {
			// Another goroutine downloads it: wait, then look again.
			c.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return "", ctx.Err()
			}
			if f.err != nil {
				return "", f.err
			}
			continue
		}
		f := &cacheFetch{done: make(chan struct{})}
		c.inflight[p] = f
		c.mu.Unlock()
		f.err = c.download(ctx, st, key, uri, size, p)
		c.mu.Lock()
		delete(c.inflight, p)
		c.mu.Unlock()
		close(f.done)
		if f.err != nil {
			return "", f.err
		}
		return p, nil
	}
}

func (c *ObjectCache) download(ctx context.Context, st Store, key, uri string, size int64, p string) error {
	c.misses.Add(1)
	info, err := st.Download(ctx, key, p)
	if err != nil {
		return err
	}
	c.bytesFetched.Add(info.Size)
	if size >= 0 && info.Size != size {
		RemoveFile(p) //nolint:errcheck // a wrong copy must not stay
		return fmt.Errorf("%w: %s has %d bytes, the log says %d", ErrCorruptLog, uri, info.Size, size)
	}
	if info.ETag != "" {
		_ = os.WriteFile(p+".etag", []byte(info.ETag), 0o644)
	}
	c.sweep(p)
	return nil
}

// sweep removes the least recently used copies while the total exceeds
// MaxBytes (never keep, nor copies used within Grace), and temporary files
// of cut downloads older than Grace.
func (c *ObjectCache) sweep(keep string) {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	now := time.Now()
	filepath.WalkDir(c.Dir, func(p string, d os.DirEntry, err error) error { //nolint:errcheck // best effort
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil //nolint:nilerr // gone meanwhile
		}
		switch {
		case strings.HasSuffix(p, ".tmp"):
			if now.Sub(info.ModTime()) > c.grace() {
				RemoveFile(p) //nolint:errcheck // best effort
			}
			return nil
		case strings.HasSuffix(p, ".etag"):
			return nil
		}
		entries = append(entries, entry{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= c.maxBytes() {
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].used.Before(entries[j].used) })
	for _, e := range entries {
		if total <= c.maxBytes() {
			break
		}
		if e.path == keep || now.Sub(e.used) < c.grace() {
			continue
		}
		if RemoveFile(e.path) == nil {
			RemoveFile(e.path + ".etag") //nolint:errcheck // may not exist
			total -= e.size
		}
	}
}

// Clean removes every copy of the cache.
func (c *ObjectCache) Clean() error {
	if c.Dir == "" {
		return errors.New("object cache: no folder")
	}
	entries, err := os.ReadDir(c.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() || len(e.Name()) != 2 {
			continue // only the cache's own hash folders
		}
		sub := filepath.Join(c.Dir, e.Name())
		files, _ := os.ReadDir(sub)
		for _, f := range files {
			RemoveFile(filepath.Join(sub, f.Name())) //nolint:errcheck // best effort
		}
		RemoveEmptyDir(sub) //nolint:errcheck // best effort
	}
	return nil
}
