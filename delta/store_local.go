package delta

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// LocalStore is a folder of the local filesystem as a Store. Its
// PutIfAbsent is the commit protocol the package has always used: a
// temporary file hard-linked to the final name (the link fails when the
// name exists), checked against writers that check-then-rename (Spark's
// HDFSLogStore), then the folder fsynced. Put writes a temporary file and
// renames it, so readers see the old or the new object whole.
type LocalStore struct {
	root string
	storeCounters
}

// NewLocalStore returns the store rooted at the folder dir (made
// absolute; it need not exist yet: Put makes the folders it needs).
func NewLocalStore(dir string) (*LocalStore, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return &LocalStore{root: abs}, nil
}

// Root is the store's absolute folder.
func (s *LocalStore) Root() string { return s.root }

// Path is the local path of key.
func (s *LocalStore) Path(key string) string {
	if key == "" {
		return s.root
	}
	return filepath.Join(s.root, filepath.FromSlash(key))
}

// URI is the absolute local path of key.
func (s *LocalStore) URI(key string) string { return s.Path(key) }

// Capabilities: local, with an atomic put-if-absent.
func (s *LocalStore) Capabilities() Capabilities {
	return Capabilities{Local: true, AtomicPutIfAbsent: true}
}

func (s *LocalStore) resolve(key string) (string, error) {
	k, err := CleanKey(key)
	if err != nil {
		return "", err
	}
	return s.Path(k), nil
}

// List lists the files under dir (see Store.List). A missing dir lists
// nothing.
func (s *LocalStore) List(ctx context.Context, dir string, opts ListOptions) ([]ObjectInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.lists.Add(1)
	d, err := CleanKey(dir)
	if err != nil {
		return nil, err
	}
	base := s.Path(d)
	var out []ObjectInfo
	add := func(rel string, info fs.FileInfo) {
		if opts.StartAfter != "" && rel <= opts.StartAfter {
			return
		}
		out = append(out, ObjectInfo{Key: JoinKey(d, rel), Size: info.Size(), ModTime: info.ModTime()})
	}
	if !opts.Recursive {
		entries, err := os.ReadDir(base)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			return nil, fmt.Errorf("list %s: %w", base, err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue // removed since the listing
			}
			add(e.Name(), info)
		}
	} else {
		err := filepath.WalkDir(base, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if !e.Type().IsRegular() {
				return nil
			}
			info, err := e.Info()
			if err != nil {
				return nil //nolint:nilerr // removed since the listing
			}
			rel, _ := filepath.Rel(base, p)
			add(filepath.ToSlash(rel), info)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", base, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// Stat describes the file of key.
func (s *LocalStore) Stat(ctx context.Context, key string) (ObjectInfo, error) {
	if err := ctx.Err(); err != nil {
		return ObjectInfo{}, err
	}
	s.stats.Add(1)
	p, err := s.resolve(key)
	if err != nil {
		return ObjectInfo{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return ObjectInfo{}, localErr(p, err)
	}
	if st.IsDir() {
		return ObjectInfo{}, fmt.Errorf("%s: %w (a folder, not a file)", p, ErrObjectNotFound)
	}
	k, _ := CleanKey(key)
	return ObjectInfo{Key: k, Size: st.Size(), ModTime: st.ModTime()}, nil
}

// Get reads the file of key.
func (s *LocalStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.gets.Add(1)
	p, err := s.resolve(key)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, localErr(p, err)
	}
	s.bytesRead.Add(int64(len(b)))
	return b, nil
}

// ReadRange reads part of the file of key.
func (s *LocalStore) ReadRange(ctx context.Context, key string, off, n int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if off < 0 {
		return nil, fmt.Errorf("read %s: negative offset %d", key, off)
	}
	s.gets.Add(1)
	p, err := s.resolve(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, localErr(p, err)
	}
	defer f.Close()
	if n < 0 {
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		n = max(st.Size()-off, 0)
	}
	buf := make([]byte, n)
	m, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	s.bytesRead.Add(int64(m))
	return buf[:m], nil
}

// Download copies the file of key to localPath.
func (s *LocalStore) Download(ctx context.Context, key, localPath string) (ObjectInfo, error) {
	if err := ctx.Err(); err != nil {
		return ObjectInfo{}, err
	}
	s.gets.Add(1)
	p, err := s.resolve(key)
	if err != nil {
		return ObjectInfo{}, err
	}
	src, err := os.Open(p)
	if err != nil {
		return ObjectInfo{}, localErr(p, err)
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return ObjectInfo{}, err
	}
	if err := os.MkdirAll(filepath.Dir(localPath), 0o755); err != nil {
		return ObjectInfo{}, err
	}
	n, err := writeLocalFile(localPath, src)
	if err != nil {
		return ObjectInfo{}, err
	}
	s.bytesRead.Add(n)
	k, _ := CleanKey(key)
	return ObjectInfo{Key: k, Size: st.Size(), ModTime: st.ModTime()}, nil
}

// Put writes the file of key through a temporary file and a rename.
func (s *LocalStore) Put(ctx context.Context, key string, body io.ReadSeeker, size int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.puts.Add(1)
	p, err := s.resolve(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	n, err := writeLocalFile(p, body)
	if err != nil {
		return err
	}
	s.bytesWritten.Add(n)
	return nil
}

// PutIfAbsent creates the file of key only if it does not exist (see
// putCommitFile).
func (s *LocalStore) PutIfAbsent(ctx context.Context, key string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.conditional.Add(1)
	p, err := s.resolve(key)
	if err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	created, err := putIfAbsentLocal(dir, path.Base(p), data)
	if err != nil {
		return err
	}
	if !created {
		return fmt.Errorf("%s: %w", p, ErrObjectExists)
	}
	s.bytesWritten.Add(int64(len(data)))
	return nil
}

// Delete removes the file of key (a folder is refused: RemoveFile).
func (s *LocalStore) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.deletes.Add(1)
	p, err := s.resolve(key)
	if err != nil {
		return err
	}
	if err := RemoveFile(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// writeLocalFile writes r to path through a temporary file in the same
// folder, fsynced, then renamed over path.
func writeLocalFile(path string, r io.Reader) (int64, error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, err
	}
	tmp := f.Name()
	defer RemoveFile(tmp) //nolint:errcheck // best effort: gone once renamed
	n, err := io.Copy(f, r)
	if err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	return n, os.Rename(tmp, path)
}

// localErr maps a filesystem error to the store's sentinels.
func localErr(p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", p, ErrObjectNotFound)
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%s: %w: %v", p, ErrStoreAccess, err)
	}
	return err
}

// isLocalLocation reports whether location names the local filesystem (a
// path, or a file:// URI).
func isLocalLocation(location string) bool {
	scheme, _, ok := strings.Cut(location, "://")
	if !ok {
		return true
	}
	return scheme == "file" || strings.ContainsAny(scheme, `/\`)
}
