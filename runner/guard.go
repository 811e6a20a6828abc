package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
)

// guardOf is the Guard of a run of snap: the run creates, replaces and
// deletes only paths strictly inside the workspace, the lake (or the roots
// the workbench config names), never the state folder or a YAML file of
// the workspace, nor a folder holding one.
func guardOf(snap *workspace.Snapshot) delta.Guard {
	return delta.NewGuard(snap.Layout.AllowedRoots(), snap.Protected()...)
}

// checkPaths refuses, before the task touches anything, a sink folder or
// file, a streaming checkpoint or a checkpoint to reset that the run's
// guard does not allow: validation already rejects paths outside the
// roots; this catches what changed on disk since (a table folder replaced
// by a symbolic link, say), for appends and truncates as for drops.
func (x *taskExec) checkPaths() error {
	g := x.run.guard
	x.real = map[string]string{}
	check := func(what, path string) error {
		real, err := g.Check(path)
		if err != nil {
			return fmt.Errorf("%w: node '%s': %s: %w", ErrSink, x.tp.node.Name, what, err)
		}
		x.real[path] = real
		return nil
	}
	for _, sp := range x.tp.sinks {
		sk := sp.sink
		switch {
		case sk.IsView() || sk.Kind == workspace.SinkForEach || sk.Kind == workspace.SinkPipelineView:
		case sk.Table != "":
			if err := check(sk.Describe(), string(sk.Table)); err != nil {
				return err
			}
		case sk.ResolvedPath != "":
			if err := check(sk.Describe(), sk.ResolvedPath); err != nil {
				return err
			}
		}
		for _, cp := range sp.checkpoints {
			if err := check("checkpoint", cp); err != nil {
				return err
			}
		}
	}
	for _, f := range x.tp.flows {
		if err := check("checkpoint of flow "+f.name, f.dir); err != nil {
			return err
		}
	}
	return nil
}

// resolved is the path the task checked, symbolic links resolved as they
// were then (checkPaths): the task writes there, so a link flipped by
// another process after the check cannot lead its writes elsewhere.
func (x *taskExec) resolved(path string) string {
	if real, ok := x.real[path]; ok {
		return real
	}
	return path
}

// Sandbox is the confinement of the SQL of snap's pipelines: the
// workspace, the lake and the roots of the workbench config (read and
// write), and the folders and files its sources declare outside them
// (read: DuckDB's allowed_paths, or the folder of a folder or glob
// source); DuckDB spills into DIR/.laktory/tmp.
func Sandbox(snap *workspace.Snapshot) *delta.Confinement {
	c := &delta.Confinement{Dirs: snap.Layout.AllowedRoots(), TempDir: filepath.Join(snap.Layout.StateDir(), "tmp")}
	inside := func(p string) bool {
		for _, d := range c.Dirs {
			if rel, err := filepath.Rel(d, p); err == nil && !strings.HasPrefix(rel, "..") {
				return true
			}
		}
		return false
	}
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			for _, src := range n.Sources {
				path := src.ResolvedPath
				if path == "" || strings.Contains(path, "://") || inside(path) {
					continue
				}
				if i := strings.IndexAny(path, "*?["); i >= 0 {
					path = filepath.Dir(path[:i] + "x")
				}
				if st, err := os.Stat(path); err == nil && !st.IsDir() {
					c.Files = append(c.Files, path)
				} else {
					c.Dirs = append(c.Dirs, path)
				}
			}
		}
	}
	return c
}

// sandboxed explains DuckDB's refusal of a path outside the sandbox.
func sandboxed(err error) error {
	if err != nil && strings.Contains(err.Error(), "file system operations are disabled by configuration") {
		return fmt.Errorf("%w: %w (SQL runs inside the workspace: it reads and writes only the workspace, the lake, the roots of %s and the paths the sources declare; a source added outside them since the workbench started needs a restart)",
			ErrSandbox, err, workspace.ConfigFileName)
	}
	return err
}
