package delta

import (
	"container/list"
	"sync"
)

// commitCache keeps the bytes of commit files and checkpoints read from
// remote tables: a commit file, once created (put-if-absent), never
// changes, nor does a checkpoint once written, and every snapshot of a
// table reads its last checkpoint and replays the commits after it, so a
// process that loads a table again reads only what is new. An entry is
// keyed by the object's URI and the ETag the latest listing of its log
// saw (a table dropped and created again at the same location has new
// ETags); a commit whose ETag the listing did not give is read, not cached.
// The cache is bounded (commitCacheBytes) and drops the least recently
// used entries.
type commitCache struct {
	mu      sync.Mutex
	max     int64
	size    int64
	order   *list.List // of *commitEntry, most recent first
	entries map[string]*list.Element
	// etags are the ETags the latest listings saw, by URI.
	etags map[string]string
}

type commitEntry struct {
	key  string
	data []byte
}

const commitCacheBytes = 64 << 20

// logCacheMaxObject is the largest object kept (a larger checkpoint is
// read each time); below S3Store's multipart threshold.
const logCacheMaxObject = commitCacheBytes / 8

var remoteCommits = &commitCache{max: commitCacheBytes, order: list.New(), entries: map[string]*list.Element{}, etags: map[string]string{}}

// listed records the ETag a listing saw for uri.
func (c *commitCache) listed(uri, etag string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.etags) > 1<<17 {
		c.etags = map[string]string{} // bound it; later listings refill it
	}
	c.etags[uri] = etag
}

// get returns the cached bytes of uri at the ETag last listed.
func (c *commitCache) get(uri string) ([]byte, string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	etag := c.etags[uri]
	if etag == "" {
		return nil, "", false
	}
	if e, ok := c.entries[uri+"\x00"+etag]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*commitEntry).data, etag, true
	}
	return nil, etag, false
}

// put caches data as uri at etag.
func (c *commitCache) put(uri, etag string, data []byte) {
	if etag == "" || int64(len(data)) > min(c.max/8, logCacheMaxObject) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := uri + "\x00" + etag
	if _, ok := c.entries[key]; ok {
		return
	}
	c.entries[key] = c.order.PushFront(&commitEntry{key: key, data: data})
	c.size += int64(len(data))
	for c.size > c.max {
		last := c.order.Back()
		e := last.Value.(*commitEntry)
		c.order.Remove(last)
		delete(c.entries, e.key)
		c.size -= int64(len(e.data))
	}
}

// checkpointVersions remembers, per table root, the newest checkpoint this
// process loaded or wrote: where the next listing of the log starts when
// the _last_checkpoint hint is missing or older. A table dropped and
// created again (or a checkpoint cleaned up) is noticed by the listing,
// which then holds no checkpoint at that version; the entry is forgotten.
type checkpointVersions struct {
	mu sync.Mutex
	v  map[string]int64
}

var knownCheckpoints = &checkpointVersions{v: map[string]int64{}}

// get is the newest checkpoint known for root (0 if none).
func (c *checkpointVersions) get(root string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.v[root]
}

// put records a checkpoint of root at version v, if newer.
func (c *checkpointVersions) put(root string, v int64) {
	if v <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.v) > 1<<14 {
		c.v = map[string]int64{} // bound it; later loads refill it
	}
	if v > c.v[root] {
		c.v[root] = v
	}
}

// forget drops the entry of root if it is still v (a listing from v found
// no checkpoint there).
func (c *checkpointVersions) forget(root string, v int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.v[root] == v {
		delete(c.v, root)
	}
}
