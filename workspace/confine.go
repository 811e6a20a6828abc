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
					if path == "" || strings.Contains(path, "${") || strings.Contains(path, "://") {
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
					add("checkpoint_path", "checkpoint", ResolvePath(p.File, sk.CheckpointPath))
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	var roots []string
	for _, r := range s.Layout.AllowedRoots() {
		if rr, err := RealPath(r); err == nil {
			roots = append(roots, rr)
		}
	}
	var keeps []kept
	for _, r := range roots {
		keeps = append(keeps, kept{r, "the root " + r})
	}
	for _, p := range s.Protected() {
		if rp, err := RealPath(p); err == nil {
			keeps = append(keeps, kept{rp, s.Rel(p)})
		}
	}
	for i := range out {
		wp := &out[i]
		real, err := RealPath(wp.Path)
		if err != nil {
			wp.Problem = fmt.Sprintf("cannot be resolved (%v)", unwrapPathErr(err))
			continue
		}
		wp.Real = real
		wp.Problem = confinement(real, roots, keeps)
	}
	return out
}

// kept is a path no write may take or hold, and what it is.
type kept struct{ path, what string }

// confinement says why real (resolved) may not be written: it is, or
// holds, one of keeps, or lies outside every root. "" when it may.
func confinement(real string, roots []string, keeps []kept) string {
	for _, k := range keeps {
		switch {
		case k.path == real:
			return "is " + k.what
		case strictlyInside(k.path, real):
			return "holds " + k.what
		}
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
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			real, err := filepath.EvalSymlinks(d)
			if err != nil {
				return "", err
			}
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
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
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
