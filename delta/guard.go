package delta

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// This file holds the only calls in the product that remove anything from
// disk (docs/development.md, "Removing files"; a test of cmd/laktory fails on
// any other os.Remove or os.RemoveAll). A folder is removed only by
// Guard.RemoveAll, which checks where it is; a file by RemoveFile, an
// empty folder by RemoveEmptyDir (neither can remove a folder's content).

// Guard confines what the product creates, replaces and deletes to allowed
// roots (a workspace, its lake, the roots its workbench config names). It
// lives here because package delta imports no project package and removes
// folders itself (DropTable); callers build one per workspace (or run).
// The zero Guard has no root and refuses every path.
type Guard struct {
	roots []string // as given
	// real are the roots resolved; kept maps every path a check refuses
	// because it is or holds a root, a protected path, the home or the
	// current folder (resolved, with each folder above them) to why.
	real []string
	kept map[string]string
	// remote are the roots in an object store (s3://bucket/lake), as
	// URIs without a trailing slash.
	remote []string
}

// NewGuard returns a guard allowing paths strictly inside roots. A path
// may not be, nor hold, a root or one of protected (the workspace's state
// folder, its pipeline files...), nor the home or the current folder.
// Empty entries are ignored. The roots and protected paths are resolved
// now; the path checked is resolved (symbolic links included) at each
// check, so a link created later cannot lead a removal outside.
func NewGuard(roots []string, protected ...string) Guard {
	g := Guard{kept: map[string]string{}}
	keep := func(what, p string) {
		real, err := RealPath(p)
		if err != nil {
			return
		}
		verb := "is "
		for d := real; ; d = filepath.Dir(d) {
			if _, ok := g.kept[d]; !ok {
				g.kept[d] = verb + what + " " + real
			}
			if filepath.Dir(d) == d {
				return
			}
			verb = "holds "
		}
	}
	for _, r := range roots {
		if strings.TrimSpace(r) == "" {
			continue
		}
		g.roots = append(g.roots, r)
		if IsRemoteLocation(r) {
			// A lake in a bucket: Check compares keys, nothing resolves.
			g.remote = append(g.remote, strings.TrimRight(sameScheme(r), "/"))
			continue
		}
		if rr, err := RealPath(r); err == nil {
			g.real = append(g.real, rr)
		}
		keep("the root", r)
	}
	for _, p := range protected {
		if strings.TrimSpace(p) != "" {
			keep("the protected path", p)
		}
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		keep("the home folder", home)
	}
	if wd, err := os.Getwd(); err == nil {
		keep("the current folder", wd)
	}
	return g
}

// Roots returns the allowed roots as given.
func (g Guard) Roots() []string { return g.roots }

// Check resolves path (RealPath) and returns it when it lies strictly
// inside one of the roots and is not, and does not hold, a root, a
// protected folder, the home folder, the current folder or the filesystem
// root. Otherwise it fails with ErrOutsideRoots or ErrProtectedPath,
// naming the path and the roots. Callers then work on the returned path.
func (g Guard) Check(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", fmt.Errorf("%w: no path given", ErrProtectedPath)
	}
	if IsRemoteLocation(path) {
		return g.checkRemote(path)
	}
	real, err := RealPath(path)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrOutsideRoots, path, err)
	}
	if filepath.Dir(real) == real {
		return "", fmt.Errorf("%w: refusing %s: it is the filesystem root", ErrProtectedPath, real)
	}
	if why, ok := g.kept[real]; ok {
		return "", fmt.Errorf("%w: refusing %s: it %s", ErrProtectedPath, real, why)
	}
	for _, r := range g.real {
		if strictlyInside(real, r) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%w: refusing %s: it is not inside %s", ErrOutsideRoots, real, describeRoots(g.real))
}

// checkRemote is Check for a location in an object store: it must lie
// strictly inside a root of the same store (s3://bucket/lake holds
// s3://bucket/lake/main/default/t), with no empty, . or .. part below the
// root (an object store resolves no link, so nothing else can lead a
// write elsewhere). It is returned as given.
func (g Guard) checkRemote(path string) (string, error) {
	p := sameScheme(path)
	for _, r := range g.remote {
		rest, ok := strings.CutPrefix(p, r+"/")
		if !ok || rest == "" {
			continue
		}
		for _, part := range strings.Split(strings.TrimRight(rest, "/"), "/") {
			if part == "" || part == "." || part == ".." {
				return "", fmt.Errorf("%w: refusing %s: it has an empty, . or .. part below the root %s", ErrProtectedPath, path, r)
			}
		}
		return path, nil
	}
	roots := append(slices.Clone(g.real), g.remote...)
	return "", fmt.Errorf("%w: refusing %s: it is not inside %s", ErrOutsideRoots, path, describeRoots(roots))
}

func describeRoots(roots []string) string {
	switch len(roots) {
	case 0:
		return "any allowed root (none is set)"
	case 1:
		return "the allowed root " + roots[0]
	}
	return "the allowed roots " + strings.Join(roots, ", ")
}

// RemoveAll removes path and everything in it, after Check: the real
// folder (or file) is removed, never the folder a symbolic link points
// from. A missing path is not an error.
func (g Guard) RemoveAll(path string) error {
	if IsRemoteLocation(path) {
		return fmt.Errorf("%w: refusing to remove %s as a folder: a table in an object store is dropped by DropTable", ErrProtectedPath, path)
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	real, err := g.Check(path)
	if err != nil {
		return err
	}
	return os.RemoveAll(real)
}

// RemoveFile removes one file (or symbolic link), typically a file the
// caller just created (a temporary file, a data file of an aborted
// commit). It refuses a folder with ErrProtectedPath: folders go through
// Guard.RemoveAll.
func RemoveFile(path string) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%w: refusing to remove the folder %s as a file", ErrProtectedPath, path)
	}
	return os.Remove(path)
}

// RemoveEmptyDir removes path when it is an empty folder (a folder the
// caller made and no longer needs); a folder with content, or a path that
// is not a folder, is left alone and returned as an error.
func RemoveEmptyDir(path string) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%w: %s is not a folder", ErrProtectedPath, path)
	}
	return os.Remove(path) // the system refuses a folder that is not empty
}

// RealPath returns the absolute, clean form of p with symbolic links
// resolved: those of its longest existing prefix, followed by the
// components that do not exist yet. A dangling symbolic link on the way is
// an error (what it would create is not known).
func RealPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			real, err := filepath.EvalSymlinks(d)
			if err == nil {
				for i := len(rest) - 1; i >= 0; i-- {
					real = filepath.Join(real, rest[i])
				}
				return real, nil
			}
			if _, lerr := os.Lstat(d); !errors.Is(lerr, fs.ErrNotExist) {
				return "", err // a dangling link, or unreadable
			}
			// d was removed meanwhile (a table dropped by another task of
			// the run): resolve as if it never existed.
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
		rest = append(rest, filepath.Base(d))
	}
}

// strictlyInside reports whether path lies below dir (both absolute and
// clean).
func strictlyInside(path, dir string) bool {
	if !strings.HasPrefix(path, dir) || len(path) == len(dir) {
		return false
	}
	return dir[len(dir)-1] == filepath.Separator || path[len(dir)] == filepath.Separator
}
