// Package landing lists the files a file source reads: an exact list of
// regular files below a folder or matching a glob, each complete (its
// size and modification time stayed the same for the settle window), and
// names them exactly for DuckDB's readers (docs/streaming.md, "Landing
// files").
package landing

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Landing files: what a file source reads is an exact list of regular
// files, each complete (docs/streaming.md, "Landing files").
//
//   - A folder is every regular file below it, hidden and _-prefixed names
//     excepted (Spark's hidden files); a glob is expanded here, once, by
//     Go's filepath.Glob (Hadoop's per-component wildcards: * ? [...]), and
//     each match that is a folder listed the same way. The reader (DuckDB)
//     gets the files' own names, escaped (DuckPath), never a pattern: a file
//     named f?.csv or [f]1.csv is read alone, and nothing else with it.
//   - A FIFO, a socket, a device or a link to a folder is skipped with a
//     warning and never opened (opening a FIFO blocks until a writer comes).
//   - A file is complete when its size and modification time stayed the
//     same for the settle window (Config.Settle, one second by default):
//     a file modified within the window is looked at again once the window
//     has passed, and is read only if it did not change meanwhile.

// ErrSource: a source cannot be read (missing path, no files, a table
// or node output that does not exist yet).
var ErrSource = errors.New("cannot read source")

// DefaultSettle is the settle window of landing files.
const DefaultSettle = time.Second

// File is a regular data file a source lists.
type File struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// Listing is what a source's path holds.
type Listing struct {
	Files []File // sorted by path
	// Skipped are the paths that are not regular files (FIFOs, sockets,
	// devices, links to folders), never opened.
	Skipped []string
}

// SkippedWarning says which non-regular files a Listing skipped, "" for
// none.
func (l Listing) SkippedWarning(path string) string {
	if len(l.Skipped) == 0 {
		return ""
	}
	names := l.Skipped
	more := ""
	if len(names) > 5 {
		names, more = names[:5], fmt.Sprintf(" and %d more", len(l.Skipped)-5)
	}
	return fmt.Sprintf("%s holds %d entries that are not regular files (a FIFO, socket, device or link to a folder): skipped, never opened: %s%s; move them out of the landing folder",
		path, len(l.Skipped), strings.Join(names, ", "), more)
}

func (l Listing) Paths() []string {
	out := make([]string, len(l.Files))
	for i, f := range l.Files {
		out[i] = f.Path
	}
	return out
}

// IsGlob reports whether a source path is a glob.
func IsGlob(path string) bool { return strings.ContainsAny(path, "*?[") }

// List lists the regular files a source path names: the file
// itself, the files a glob matches (folders among them listed), or every
// file below a folder. A path that does not exist is an ErrSource error
// wrapping fs.ErrNotExist; a named path that is not a regular file or a
// folder is an ErrSource error.
func List(ctx context.Context, path string) (Listing, error) {
	var l Listing
	if IsGlob(path) {
		matches, err := filepath.Glob(path)
		if err != nil {
			return l, fmt.Errorf("%w: %s: %w", ErrSource, path, err)
		}
		for _, m := range matches {
			if err := l.add(ctx, m, true); err != nil {
				return l, err
			}
		}
	} else {
		fi, err := os.Stat(path)
		if err != nil {
			return l, fmt.Errorf("%w: %s does not exist: %w", ErrSource, path, fs.ErrNotExist)
		}
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return l, fmt.Errorf("%w: %s is not a regular file (%s): a source reads files or folders of files", ErrSource, path, kindOf(fi.Mode()))
		}
		if err := l.add(ctx, path, false); err != nil {
			return l, err
		}
	}
	slices.SortFunc(l.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(l.Skipped)
	return l, nil
}

// add adds the files of p (a file, or a folder listed below it).
func (l *Listing) add(ctx context.Context, p string, match bool) error {
	fi, err := os.Stat(p) // follows a link: a link to a regular file is read
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // a dangling link, or removed meanwhile
		}
		return fmt.Errorf("%w: %w", ErrSource, err)
	}
	switch {
	case fi.Mode().IsRegular():
		l.Files = append(l.Files, File{Path: p, Size: fi.Size(), ModTime: fi.ModTime()})
		return nil
	case !fi.IsDir():
		l.Skipped = append(l.Skipped, p)
		return nil
	}
	root := p
	n := 0
	err = filepath.WalkDir(root, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		name := d.Name()
		if q != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch t := d.Type(); {
		case d.IsDir():
			return nil
		case t.IsRegular():
			info, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			l.Files = append(l.Files, File{Path: q, Size: info.Size(), ModTime: info.ModTime()})
		case t&fs.ModeSymlink != 0:
			info, err := os.Stat(q)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				return err
			case info.Mode().IsRegular():
				l.Files = append(l.Files, File{Path: q, Size: info.Size(), ModTime: info.ModTime()})
			default:
				l.Skipped = append(l.Skipped, q)
			}
		default:
			l.Skipped = append(l.Skipped, q)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: list %s: %w", ErrSource, root, err)
	}
	return nil
}

// kindOf names a non-regular file's kind.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Settle splits files into the complete ones and those still being
// written: a file modified within the window (or in the future) is
// looked at again once the window has passed since the Listing, and is
// complete only if its size and modification time did not change.
func Settle(ctx context.Context, files []File, window time.Duration, now func() time.Time) (complete, writing []File, err error) {
	if window <= 0 {
		return files, nil, nil
	}
	listed := now()
	var young []int
	for i, f := range files {
		if age := listed.Sub(f.ModTime); age < window {
			young = append(young, i)
		}
	}
	if len(young) == 0 {
		return files, nil, nil
	}
	t := time.NewTimer(window)
	select {
	case <-ctx.Done():
		t.Stop()
		return nil, nil, ctx.Err()
	case <-t.C:
	}
	changed := map[int]bool{}
	for _, i := range young {
		f := files[i]
		fi, err := os.Stat(f.Path)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != f.Size || !fi.ModTime().Equal(f.ModTime) {
			changed[i] = true
		}
	}
	for i, f := range files {
		if changed[i] {
			writing = append(writing, f)
		} else {
			complete = append(complete, f)
		}
	}
	return complete, writing, nil
}

// DuckPath is a file's exact name as DuckDB's readers take it: each list
// element is a glob pattern there, so *, ? and [ are written as the
// one-character classes [*], [?] and [[]. DuckDB has no escape for a
// backslash in a pattern: a name holding both a backslash and a wildcard
// cannot be named exactly and is refused.
func DuckPath(p string) (string, error) {
	if !IsGlob(p) {
		return p, nil
	}
	if strings.Contains(p, `\`) {
		return "", fmt.Errorf("%w: %s cannot be read exactly: its name holds a backslash and a wildcard character (* ? [), which DuckDB's reader would read as a pattern; rename the file", ErrSource, p)
	}
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '*', '?', '[':
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}
