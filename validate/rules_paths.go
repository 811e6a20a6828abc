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

// sourcePaths reports file sources whose path does not exist (LK205),
// batch and streaming alike, and those naming Databricks or object-store
// storage that no `paths:` mapping of the workbench config brings here
// (LK207). Laktory would accept both: they are warnings, and errors when
// the caller is about to run (Options.Runnable): a typo in a streaming
// folder would otherwise read nothing, and its FULL refresh would replace
// the writer's rows by none. An existing empty folder is fine.
func (c *checker) sourcePaths() {
	sev := Warning
	if c.opts.Runnable {
		sev = Error
	}
	if c.opts.Paths == nil {
		return
	}
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				if sk.Kind == workspace.SinkFile && workspace.IsRemotePath(sk.ResolvedPath) {
					c.add(sk.At("path"), sev, CodeRemotePath,
						fmt.Sprintf("the sink path %s of node '%s' is on Databricks or in an object store, which this machine cannot write", sk.Path, n.Name),
						"map it to a local folder in "+workspace.ConfigFileName+" (paths: {"+remoteKey(sk.ResolvedPath)+": data/...}); Laktory writes it as written on Databricks")
				}
			}
			for _, src := range n.Sources {
				path := SourceCheckPath(c.snap, src)
				what := "source"
				if src.AsStream {
					what = "streaming source"
				}
				if path != "" && workspace.IsRemotePath(src.ResolvedPath) {
					c.add(src.At("path"), sev, CodeRemotePath,
						fmt.Sprintf("the %s path %s of node '%s' is on Databricks or in an object store, which this machine cannot read", what, src.Path, n.Name),
						"map it to a local folder in "+workspace.ConfigFileName+" (paths: {"+remoteKey(src.ResolvedPath)+": data/...}); Laktory reads it as written on Databricks")
					continue
				}
				if exists, known := c.opts.Paths[path]; path == "" || !known || exists {
					continue
				}
				c.add(src.At("path"), sev, CodeSourceMissing,
					fmt.Sprintf("the %s path %s of node '%s' does not exist on this machine (%s)", what, src.Path, n.Name, c.snap.Rel(path)),
					"fix the path (relative paths start from the pipeline file's folder), or create the folder: an empty folder is fine")
			}
		}
	}
}

// remoteKey is the prefix a hint suggests mapping for a remote path: its
// volume (/Volumes/catalog/schema/volume), its dbfs:/ folder or its
// bucket.
func remoteKey(p string) string {
	parts := strings.SplitAfter(p, "/")
	n := 0
	switch {
	case strings.HasPrefix(p, "/Volumes/"):
		n = 5
	case strings.HasPrefix(p, "dbfs:/"), strings.HasPrefix(p, "/dbfs/"):
		n = 3
	default: // scheme://bucket/
		n = 4
	}
	if n > len(parts) {
		n = len(parts)
	}
	return strings.TrimRight(strings.Join(parts[:n], ""), "/")
}
