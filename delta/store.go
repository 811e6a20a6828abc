package delta

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync/atomic"
	"time"
)

// A Store is where a table's files live: a folder of the local filesystem
// (LocalStore), an S3 or S3-compatible bucket prefix (S3Store), and later
// ADLS or GCS. It is the seam between the Delta protocol (log replay,
// transactions, conflict checks, checkpoints) and the storage: the
// protocol's code names files by key and never by the system that holds
// them, as delta-kernel-rs's StorageHandler and delta-go's ObjectStore do.
//
// Keys are slash-separated and relative to the store's root
// ("_delta_log/00000000000000000003.json", "year=2024/part-0.parquet"); a
// key never starts with a slash nor holds "." or ".." segments (CleanKey).
//
// What a store guarantees:
//   - Put and PutIfAbsent make an object visible whole or not at all: a
//     reader never sees part of one (the protocol's atomic visibility).
//   - PutIfAbsent is mutual exclusion: of two writers of one key, exactly
//     one succeeds and the other gets ErrObjectExists. A store that cannot
//     promise it says so in Capabilities and returns
//     ErrPutIfAbsentUnsupported; such a store is refused for commits unless
//     a Locker is configured (WithLock).
//   - List after Put sees the object (consistent listing: S3 has been
//     strongly consistent since December 2020, and so are the local
//     filesystem and the S3-compatible servers we test).
//
// Every method takes a context first and returns errors that wrap
// fs.ErrNotExist (ErrObjectNotFound), ErrObjectExists or the store's own
// failure, with the object's URI in the message.
type Store interface {
	// URI is the location of key for messages and for other engines
	// (Spark): an absolute local path, or "s3://bucket/prefix/key". The
	// store's root is URI("").
	URI(key string) string
	// Capabilities says what the store can promise.
	Capabilities() Capabilities

	// List returns the objects whose keys start with dir + "/" (every key
	// when dir is ""), sorted by key. Without Recursive it lists only the
	// objects directly under dir (no "folder" entries); StartAfter skips
	// the names at or before it (a name relative to dir: the log lists
	// from a version on, as S3's start-after does).
	List(ctx context.Context, dir string, opts ListOptions) ([]ObjectInfo, error)
	// Stat describes one object (ErrObjectNotFound when it does not exist).
	Stat(ctx context.Context, key string) (ObjectInfo, error)
	// Get reads a whole object.
	Get(ctx context.Context, key string) ([]byte, error)
	// ReadRange reads n bytes of an object from offset off (fewer at the
	// end of the object; n < 0 reads to its end).
	ReadRange(ctx context.Context, key string, off, n int64) ([]byte, error)
	// Download copies an object to a local file (made or replaced), the
	// way a remote table's data files reach DuckDB. It returns the object's
	// description as read.
	Download(ctx context.Context, key, localPath string) (ObjectInfo, error)

	// Put creates or replaces an object with body (size bytes): data
	// files, checkpoints, _last_checkpoint.
	Put(ctx context.Context, key string, body io.ReadSeeker, size int64) error
	// PutIfAbsent creates an object only if none exists under key: a
	// commit file. It returns ErrObjectExists when another writer created
	// it first, ErrPutIfAbsentUnsupported when the store cannot promise it.
	PutIfAbsent(ctx context.Context, key string, data []byte) error
	// Delete removes an object; a missing one is no error.
	Delete(ctx context.Context, key string) error
}

// ConditionalStore is a store that can also replace an object only if it
// is still the version read (S3's If-Match): what a table lease needs to
// be renewed, released and taken over by one writer only.
type ConditionalStore interface {
	Store
	// GetVersion reads a whole object and its ETag.
	GetVersion(ctx context.Context, key string) ([]byte, string, error)
	// PutVersion creates key if ifMatch is "" (ErrObjectExists when it
	// exists), else replaces it only if its ETag is ifMatch
	// (ErrObjectChanged when it changed or is gone); it returns the new
	// ETag.
	PutVersion(ctx context.Context, key string, data []byte, ifMatch string) (string, error)
}

// ListOptions tunes Store.List.
type ListOptions struct {
	// Recursive lists every object below dir, not only those directly in
	// it.
	Recursive bool
	// StartAfter lists only the names (relative to dir) after it.
	StartAfter string
}

// ObjectInfo describes one object of a store.
type ObjectInfo struct {
	// Key is the object's key in its store.
	Key string
	// Size is its length in bytes.
	Size int64
	// ModTime is its last modification time.
	ModTime time.Time
	// ETag identifies its content where the store has one (S3's ETag); a
	// local file has none ("": the cache keys it by size and ModTime).
	ETag string
}

// Name is the last segment of the object's key.
func (o ObjectInfo) Name() string { return path.Base(o.Key) }

// Capabilities says what a store can promise.
type Capabilities struct {
	// Local is true when the store is the local filesystem: DuckDB reads
	// and writes its files in place.
	Local bool
	// AtomicPutIfAbsent is true when PutIfAbsent is mutual exclusion (see
	// Store). Commits need it, or a Locker.
	AtomicPutIfAbsent bool
	// Locked names the Locker that makes PutIfAbsent safe on a store
	// without AtomicPutIfAbsent ("" when none).
	Locked string
}

// Sentinel errors of the stores.
var (
	// ErrObjectNotFound: the object does not exist. It wraps
	// fs.ErrNotExist, so errors.Is(err, fs.ErrNotExist) holds too.
	ErrObjectNotFound = fmt.Errorf("object not found: %w", fs.ErrNotExist)
	// ErrObjectExists: PutIfAbsent lost to another writer. It wraps
	// fs.ErrExist.
	ErrObjectExists = fmt.Errorf("object already exists: %w", fs.ErrExist)
	// ErrPutIfAbsentUnsupported: the store cannot create an object only if
	// it is absent, atomically; writing a table there needs a lock.
	ErrPutIfAbsentUnsupported = errors.New("the store has no atomic put-if-absent")
	// ErrUnsupportedStore: a lake or table location names a storage
	// system this build does not support (yet).
	ErrUnsupportedStore = errors.New("unsupported storage location")
	// ErrStoreAccess: the store refused the request (credentials,
	// permissions, a missing bucket).
	ErrStoreAccess = errors.New("storage access refused")
	// ErrObjectChanged: a conditional replace (ConditionalStore.PutVersion
	// with an ETag) found the object changed or gone since it was read.
	ErrObjectChanged = errors.New("the object changed since it was read")
)

// CleanKey returns key in the canonical form of Store keys (slashes, no
// leading or trailing slash, no "." segments) or an error when it would
// climb out of the store's root.
func CleanKey(key string) (string, error) {
	k := strings.ReplaceAll(key, "\\", "/")
	if k == "" {
		return "", nil
	}
	c := path.Clean("/" + k)
	if strings.Contains("/"+k+"/", "/../") {
		return "", fmt.Errorf("%w: key %q climbs out of the store's root", ErrPathEscapesTable, key)
	}
	return strings.TrimPrefix(c, "/"), nil
}

// JoinKey joins key segments with slashes.
func JoinKey(elem ...string) string {
	var parts []string
	for _, e := range elem {
		if e = strings.Trim(e, "/"); e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, "/")
}

// StoreStats counts a store's requests and bytes (the figures of a
// remote lake: requests per commit, per scan, per refresh). A local store
// counts its calls the same way.
type StoreStats struct {
	Lists, Stats, Gets, Puts, Conditional, Deletes int64
	// BytesRead counts every byte received of objects' payloads and of
	// listings (the XML of ListObjectsV2: BytesListed is that part of it);
	// BytesWritten the objects' payloads sent.
	BytesRead, BytesWritten int64
	BytesListed             int64
}

// Requests is the number of requests of every kind.
func (s StoreStats) Requests() int64 {
	return s.Lists + s.Stats + s.Gets + s.Puts + s.Conditional + s.Deletes
}

// Sub is the difference of two counts (s minus before).
func (s StoreStats) Sub(before StoreStats) StoreStats {
	return StoreStats{
		Lists: s.Lists - before.Lists, Stats: s.Stats - before.Stats, Gets: s.Gets - before.Gets,
		Puts: s.Puts - before.Puts, Conditional: s.Conditional - before.Conditional, Deletes: s.Deletes - before.Deletes,
		BytesRead: s.BytesRead - before.BytesRead, BytesWritten: s.BytesWritten - before.BytesWritten,
		BytesListed: s.BytesListed - before.BytesListed,
	}
}

func (s StoreStats) String() string {
	return fmt.Sprintf("%d requests (%d list, %d head, %d get, %d put, %d put-if-absent, %d delete), %d B read (%d B of listings), %d B written",
		s.Requests(), s.Lists, s.Stats, s.Gets, s.Puts, s.Conditional, s.Deletes, s.BytesRead, s.BytesListed, s.BytesWritten)
}

// storeCounters is the atomic form of StoreStats that stores embed.
type storeCounters struct {
	lists, stats, gets, puts, conditional, deletes atomic.Int64
	bytesRead, bytesWritten, bytesListed           atomic.Int64
}

// Stats returns the counts so far.
func (c *storeCounters) Stats() StoreStats {
	return StoreStats{
		Lists: c.lists.Load(), Stats: c.stats.Load(), Gets: c.gets.Load(), Puts: c.puts.Load(),
		Conditional: c.conditional.Load(), Deletes: c.deletes.Load(),
		BytesRead: c.bytesRead.Load(), BytesWritten: c.bytesWritten.Load(), BytesListed: c.bytesListed.Load(),
	}
}

// StatsOf returns a store's counts when it keeps them (every store of this
// package does), and false otherwise.
func StatsOf(s Store) (StoreStats, bool) {
	if c, ok := s.(interface{ Stats() StoreStats }); ok {
		return c.Stats(), true
	}
	return StoreStats{}, false
}
