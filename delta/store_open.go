package delta

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// StoreOptions configures OpenStore.
type StoreOptions struct {
	// Lock guards commits on a store without an atomic put-if-absent
	// (nil: none, and such a store is refused for writing).
	Lock Locker
}

// OpenStore returns the store rooted at location: a local path (relative
// paths are made absolute) or file:// URI, or s3://bucket/prefix (also
// s3a://). Azure (abfss://, az://) and Google Cloud Storage (gs://) are
// refused with ErrUnsupportedStore until they have a Store of their own.
func OpenStore(ctx context.Context, location string, opts StoreOptions) (Store, error) {
	var st Store
	scheme, rest, _ := strings.Cut(location, "://")
	switch {
	case isLocalLocation(location):
		p := location
		if scheme == "file" {
			p = "/" + strings.TrimLeft(rest, "/")
		}
		ls, err := NewLocalStore(p)
		if err != nil {
			return nil, err
		}
		st = ls
	case scheme == "s3" || scheme == "s3a":
		s3s, err := OpenS3Store(ctx, location)
		if err != nil {
			return nil, err
		}
		st = s3s
	case scheme == "gs" || scheme == "gcs" || scheme == "abfs" || scheme == "abfss" || scheme == "az" || scheme == "adl" || scheme == "wasbs":
		return nil, fmt.Errorf("%w: %s: %s:// is not supported yet; lakes may be local folders or s3:// locations", ErrUnsupportedStore, location, scheme)
	default:
		return nil, fmt.Errorf("%w: %s: unknown scheme %s:// (a lake is a local folder or s3://bucket/prefix)", ErrUnsupportedStore, location, scheme)
	}
	if opts.Lock != nil && !st.Capabilities().AtomicPutIfAbsent {
		st = WithLock(st, opts.Lock)
	}
	return st, nil
}

// IsRemoteLocation reports whether location names an object store (any
// scheme but file://) rather than a local path.
func IsRemoteLocation(location string) bool { return !isLocalLocation(location) }

// CheckWritable returns nil when commits to s are safe: its PutIfAbsent is
// atomic, or a Locker guards it. Otherwise the error says what to
// configure.
func CheckWritable(s Store) error {
	if c, ok := s.(interface{ CheckWritable() error }); ok {
		return c.CheckWritable()
	}
	c := s.Capabilities()
	if c.AtomicPutIfAbsent || c.Locked != "" {
		return nil
	}
	return fmt.Errorf("%w: %s cannot create a commit file only if it is absent, so two writers could both commit the same version and one would be lost; "+
		"use a store with conditional writes (S3, MinIO, moto) or configure a commit lock (lock: local, safe only when every writer runs on this machine)",
		ErrPutIfAbsentUnsupported, s.URI(""))
}

// A Locker serializes the commits of writers to a store that has no atomic
// put-if-absent: PutIfAbsent then runs as lock, check, put, unlock. A
// Locker is only as safe as its reach: every writer of the table must take
// the same lock.
type Locker interface {
	// Name says what the lock is, for messages and Capabilities.Locked.
	Name() string
	// Lock blocks until the lock of uri is held or ctx ends, and returns
	// the function that releases it.
	Lock(ctx context.Context, uri string) (unlock func(), err error)
}

// WithLock returns s with its PutIfAbsent guarded by l.
func WithLock(s Store, l Locker) Store { return &lockedStore{Store: s, lock: l} }

type lockedStore struct {
	Store
	lock Locker
}

func (s *lockedStore) Capabilities() Capabilities {
	c := s.Store.Capabilities()
	c.Locked = s.lock.Name()
	return c
}

func (s *lockedStore) CheckWritable() error { return nil }

func (s *lockedStore) Stats() StoreStats {
	st, _ := StatsOf(s.Store)
	return st
}

func (s *lockedStore) PutIfAbsent(ctx context.Context, key string, data []byte) error {
	if s.Store.Capabilities().AtomicPutIfAbsent {
		return s.Store.PutIfAbsent(ctx, key, data)
	}
	unlock, err := s.lock.Lock(ctx, s.URI(key))
	if err != nil {
		return fmt.Errorf("lock %s (%s): %w", s.URI(key), s.lock.Name(), err)
	}
	defer unlock()
	if _, err := s.Stat(ctx, key); err == nil {
		return fmt.Errorf("%s: %w", s.URI(key), ErrObjectExists)
	} else if !isNotFound(err) {
		return err
	}
	return s.Put(ctx, key, strings.NewReader(string(data)), int64(len(data)))
}

func isNotFound(err error) bool {
	return err != nil && (errors.Is(err, ErrObjectNotFound) || errors.Is(err, os.ErrNotExist))
}

// FileLocker is a Locker of advisory file locks (flock) in a local folder:
// it serializes the writers of one machine, and only those. It is the
// "lock: local" of a lake on a store without conditional writes; writers on
// other machines (another laptop, a Spark cluster) do not see it, so such
// a lake must have a single writing machine.
type FileLocker struct {
	Dir string
}

// Name is "local file lock in <dir>".
func (l FileLocker) Name() string { return "local file lock in " + l.Dir }

// Lock takes an exclusive flock on a file named after uri's hash.
func (l FileLocker) Lock(ctx context.Context, uri string) (func(), error) {
	if err := os.MkdirAll(l.Dir, 0o755); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(uri))
	f, err := os.OpenFile(filepath.Join(l.Dir, hex.EncodeToString(sum[:8])+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	pause := time.Millisecond
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if err != unix.EWOULDBLOCK {
			f.Close()
			return nil, err
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // closing releases it too
		f.Close()
	}, nil
}
