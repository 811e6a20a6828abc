package delta

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// tableKey is the key, in the table's store, of a path of the log (an
// add's, a remove's, a deletion vector's): URI-decoded, relative to the
// root, or absolute inside it. A path outside the table fails with
// ErrPathEscapesTable.
func tableKey(root, logPath string) (string, error) {
	p, err := decodeLogPath(logPath)
	if err != nil {
		return "", fmt.Errorf("table %s: %w", root, err)
	}
	escapes := func() error {
		return fmt.Errorf("%w: table %s lists file %q, outside the table", ErrPathEscapesTable, root, logPath)
	}
	if IsRemoteLocation(root) {
		if strings.Contains(p, "://") {
			rest, ok := strings.CutPrefix(sameScheme(p), sameScheme(root)+"/")
			if !ok {
				return "", escapes()
			}
			p = rest
		}
		k, err := CleanKey(p)
		if err != nil || k == "" {
			return "", escapes()
		}
		return k, nil
	}
	abs, err := resolveTablePath(root, logPath)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", escapes()
	}
	return filepath.ToSlash(rel), nil
}

// sameScheme spells s3a:// (Hadoop's name for the same store) as s3://.
func sameScheme(uri string) string {
	if rest, ok := strings.CutPrefix(uri, "s3a://"); ok {
		return "s3://" + rest
	}
	return uri
}

// localFile returns a local path of a file of the table (a data file for
// DuckDB): the file itself for a local table, a copy in the object cache
// for a remote one. size is the file's size from the log (negative:
// unknown).
func localFile(ctx context.Context, root, logPath string, size int64) (string, error) {
	if !IsRemoteLocation(root) {
		return resolveTablePath(root, logPath)
	}
	key, err := tableKey(root, logPath)
	if err != nil {
		return "", err
	}
	st, err := storeFor(ctx, root)
	if err != nil {
		return "", err
	}
	return DefaultObjectCache().Fetch(ctx, st, key, size)
}

// fetchParallel is how many data files of a remote scan download at once.
const fetchParallel = 4

// fetchFiles returns the local paths of files (localFile), downloading a
// remote table's files fetchParallel at a time.
func fetchFiles(ctx context.Context, root string, files []*Add) ([]string, []error) {
	paths, errs := make([]string, len(files)), make([]error, len(files))
	if !IsRemoteLocation(root) {
		for i, f := range files {
			paths[i], errs[i] = localFile(ctx, root, f.Path, f.Size)
		}
		return paths, errs
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(fetchParallel, len(files)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				paths[i], errs[i] = localFile(ctx, root, files[i].Path, files[i].Size)
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return paths, errs
}
