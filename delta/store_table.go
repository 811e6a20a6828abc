package delta

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
)

// remoteStores keeps the store of each remote table root a process has
// opened (an S3Store holds its bucket's client; the first open of a bucket
// checks its conditional writes).
var remoteStores sync.Map // root URI -> Store

// storeFor returns the store of a table root: a LocalStore for a local
// folder (root is absolute), the store of its location for a remote one
// (root is a URI such as s3://bucket/lake/table).
func storeFor(ctx context.Context, root string) (Store, error) {
	if !IsRemoteLocation(root) {
		return &LocalStore{root: root}, nil
	}
	if st, ok := remoteStores.Load(root); ok {
		return st.(Store), nil
	}
	st, err := OpenStore(ctx, root, StoreOptions{})
	if err != nil {
		return nil, err
	}
	actual, _ := remoteStores.LoadOrStore(root, st)
	return actual.(Store), nil
}

// normalizeRoot makes a table root canonical: an absolute local path, or
// a remote URI without a trailing slash.
func normalizeRoot(root string) (string, error) {
	if IsRemoteLocation(root) {
		return strings.TrimRight(root, "/"), nil
	}
	if rest, ok := strings.CutPrefix(root, "file://"); ok {
		root = "/" + strings.TrimLeft(rest, "/")
	}
	ls, err := NewLocalStore(root)
	if err != nil {
		return "", err
	}
	return ls.Root(), nil
}

// logKey is the key of a log file in its table's store.
func logKey(name string) string { return LogDirName + "/" + name }

// openObject opens an object for random access (a checkpoint's Parquet):
// a local file in place, a remote object read whole into memory.
func openObject(ctx context.Context, st Store, key string) (io.ReaderAt, int64, func(), error) {
	if ls, ok := st.(*LocalStore); ok {
		p, err := ls.resolve(key)
		if err != nil {
			return nil, 0, nil, err
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, 0, nil, localErr(p, err)
		}
		info, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		ls.gets.Add(1)
		return f, info.Size(), func() { f.Close() }, nil
	}
	b, err := st.Get(ctx, key)
	if err != nil {
		return nil, 0, nil, err
	}
	return bytes.NewReader(b), int64(len(b)), func() {}, nil
}
