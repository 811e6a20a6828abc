package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WritePath is a path a run may create, replace or delete, as the YAML
// declares it: a sink's path, a table sink's folder in the lake, a
// checkpoint_path (also the target of a flow's import_checkpoint). Default
// checkpoints (DIR/.laktory/checkpoints/...) are not listed: their names
// are made safe by the runner, inside the state folder.
type WritePath struct {
	// Pos is the position of Key's value.
	Pos Pos
	// Key is the YAML key that names the path (path, table_name,
	// checkpoint_path); What says what it is, for messages.
	Key, What string
	// Path is the absolute path, Real the same with symbolic links resolved
	// (when the snapshot was built).
	Path, Real string
	// Problem is why the path may not be written ("" when it may): outside
	// every allowed root, a root itself, or holding a protected path.
	Problem string
}

// writePaths lists the paths the pipelines may write and judges each
// against the allowed roots and the protected paths (symbolic links
// resolved now, at each snapshot: a link can change without the YAML).
func (s *Snapshot) writePaths() []WritePath {
	var out []WritePath
	for _, p := range s.Pipelines {
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				add := func(key, what, path string) {
					if path == "" || strings.Contains(path, "${") || strings.Contains(path, "://") || IsRemotePath(path) {
						// Not this machine's (validate's LK207 says so).
						return
					}
					out = append(out, WritePath{Pos: sk.At(key), Key: key, What: what, Path: filepath.Clean(path)})
				}
				switch {
				case sk.Kind == SinkFile:
					add("path", "sink path", sk.ResolvedPath)
				case sk.Kind == SinkTable && !sk.IsView():
					add("table_name", "table folder", string(sk.Table))
				}
				if sk.CheckpointPath != "" {
					add("checkpoint_path", "checkpoint", s.Layout.ResolveDeclared(p.File, sk.CheckpointPath))
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	res := resolver{}
	var roots []string
	for _, r := range s.Layout.AllowedRoots() {
		if rr, err := res.real(r); err == nil {
			roots = append(roots, rr)
		}
	}
	var keeps []kept
	for _, r := range roots {
		keeps = append(keeps, kept{r, "the root " + r})
	}
	for _, p := range s.Protected() {
		if rp, err := res.real(p); err == nil {
			keeps = append(keeps, kept{rp, s.Rel(p)})
		}
	}
	kx := indexKept(keeps)
	for i := range out {
		wp := &out[i]
		real, err := res.real(wp.Path)
		if err != nil {
			wp.Problem = fmt.Sprintf("cannot be resolved (%v)", unwrapPathErr(err))
			continue
		}
		wp.Real = real
		wp.Problem = confinement(real, roots, kx)
	}
	return out
}

// kept is a path no write may take or hold, and what it is.
type kept struct{ path, what string }

// keptIndex maps each kept path, and every folder above it, to what a
// write there would take ("is ...") or hold ("holds ..."): the first kept
// path it is or holds, in the order given. A lookup per written path,
// whatever the number of kept paths (every pipeline file is one).
type keptIndex map[string]string

func indexKept(keeps []kept) keptIndex {
	kx := keptIndex{}
	for _, k := range keeps {
		verb := "is "
		for p := k.path; ; p = filepath.Dir(p) {
			if _, ok := kx[p]; !ok {
				kx[p] = verb + k.what
			}
			if filepath.Dir(p) == p {
				break
			}
			verb = "holds "
		}
	}
	return kx
}

// confinement says why real (resolved) may not be written: it is, or
// holds, a kept path, or lies outside every root. "" when it may.
func confinement(real string, roots []string, kx keptIndex) string {
	if why, ok := kx[real]; ok {
		return why
	}
	for _, r := range roots {
		if strictlyInside(real, r) {
			return ""
		}
	}
	return "is outside the workspace, the lake and the roots of " + ConfigFileName
}

// RealPath returns the absolute, clean form of p with symbolic links
// resolved: those of its longest existing prefix, followed by the
// components that do not exist yet; a dangling link on the way is an
// error. It is delta.RealPath (which the run's guard uses): package
// workspace may not import delta, and a runner test keeps the two equal.
func RealPath(p string) (string, error) {
	return resolver{}.real(p)
}

// resolver is RealPath remembering the paths it resolved, so that the
// paths of one snapshot, which share their folders, cost one Lstat each.
type resolver map[string]resolved

type resolved struct {
	real string
	err  error
}

func (r resolver) real(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return r.resolve(abs)
}

// resolve resolves abs (absolute and clean): a symbolic link by
// filepath.EvalSymlinks, anything else (a missing path included) as its
// resolved folder joined with its name.
func (r resolver) resolve(abs string) (string, error) {
	if v, ok := r[abs]; ok {
		return v.real, v.err
	}
	var v resolved
	st, err := os.Lstat(abs)
	switch {
	case err == nil && st.Mode()&fs.ModeSymlink != 0:
		v.real, v.err = filepath.EvalSymlinks(abs)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		v.err = err
	case filepath.Dir(abs) == abs:
		v.real = abs
	default:
		if v.real, v.err = r.resolve(filepath.Dir(abs)); v.err == nil {
			v.real = filepath.Join(v.real, filepath.Base(abs))
		}
	}
	r[abs] = v
	return v.real, v.err
}

// strictlyInside reports whether path lies below dir (both absolute and
// clean).
func strictlyInside(path, dir string) bool {
	if !strings.HasPrefix(path, dir) || len(path) == len(dir) {
		return false
	}
	return dir[len(dir)-1] == filepath.Separator || path[len(dir)] == filepath.Separator
}
