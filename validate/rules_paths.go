package validate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// SourcePaths lists the paths whose existence decides LK205: the folder
// or file of each file source (the folder before the first wildcard of a
// glob), except Delta tables and what a sink of the workspace writes (a
// node's output read back may not exist before its first run). Reading
// them is the caller's job: validation does no I/O, so Options.Paths
// carries what the caller found.
func SourcePaths(snap *workspace.Snapshot) []string {
	var out []string
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			for _, src := range n.Sources {
				if path := SourceCheckPath(snap, src); path != "" {
					out = append(out, path)
				}
			}
		}
	}
	return out
}

// sourceCheckPath is the path of a file source whose existence is checked,
// "" for a source that is not checked.
func SourceCheckPath(snap *workspace.Snapshot, src *workspace.Source) string {
	if src.Kind != workspace.SourceFile || src.ResolvedPath == "" || src.Table != "" || strings.EqualFold(src.Format, "DELTA") ||
		strings.Contains(src.Path, "${") {
		return ""
	}
	path := filepath.Clean(src.ResolvedPath)
	if i := strings.IndexAny(path, "*?["); i >= 0 {
		path = filepath.Dir(path[:i] + "x")
	}
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				if w := filepath.Clean(sk.ResolvedPath); sk.ResolvedPath != "" && (w == path || strings.HasPrefix(path, w+string(filepath.Separator)) ||
					strings.HasPrefix(w, path+string(filepath.Separator))) {
					return ""
				}
			}
		}
	}
	return path
}

// sourcePaths reports file sources whose path does not exist (LK205), batch
// and streaming alike: a typo in a streaming folder would otherwise read
// nothing, and its FULL refresh would replace the writer's rows by none.
// An existing empty folder is fine.
func (c *checker) sourcePaths() {
	if c.opts.Paths == nil {
		return
	}
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			for _, src := range n.Sources {
				path := SourceCheckPath(c.snap, src)
				if exists, known := c.opts.Paths[path]; path == "" || !known || exists {
					continue
				}
				what := "source"
				if src.AsStream {
					what = "streaming source"
				}
				c.add(src.At("path"), Error, CodeSourceMissing,
					fmt.Sprintf("the %s path %s of node '%s' does not exist (%s)", what, src.Path, n.Name, c.snap.Rel(path)),
					"fix the path (relative paths start from the pipeline file's folder), or create the folder: an empty folder is fine")
			}
		}
	}
}
