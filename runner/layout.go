package runner

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// CheckpointDir is the streaming checkpoint folder of sink sk of node n:
// the sink's checkpoint_path (relative paths resolve against the pipeline
// file's folder, remote ones by the workbench config's `paths:`), else DIR/.laktory/checkpoints/<pipeline>/<node>/<sink>,
// where <sink> is "table-<catalog.schema.table>" for a table sink,
// "path-<folder name>-<hash>" for a file sink and "foreach-<name>" for a
// ForEach sink. In a declarative pipeline a flow is identified by its name,
// so the folder is DIR/.laktory/checkpoints/<pipeline>/_flows/<sink>/<flow>
// (see FlowName). Streaming writers keep their offsets there; a refresh
// that resets the sink deletes it.
func CheckpointDir(l workspace.Layout, p *workspace.Pipeline, n *workspace.Node, sk *workspace.Sink) string {
	if sk.CheckpointPath != "" {
		return l.ResolveDeclared(p.File, sk.CheckpointPath)
	}
	if p.Declarative() {
		return filepath.Join(l.CheckpointsDir(), safeSegment(p.Name), "_flows", sinkSegment(n, sk), safeSegment(FlowName(p, n, sk)))
	}
	return filepath.Join(l.CheckpointsDir(), safeSegment(p.Name), safeSegment(n.Name), sinkSegment(n, sk))
}

func sinkSegment(n *workspace.Node, sk *workspace.Sink) string {
	switch {
	case sk.Kind == workspace.SinkForEach && sk.ForEach != nil:
		name := sk.ForEach.Name
		if name == "" {
			name = n.Name
		}
		return "foreach-" + safeSegment(name)
	case sk.TableRef != nil:
		return "table-" + safeSegment(sk.TableRef.String())
	case sk.PipelineViewName != "":
		return "view-" + safeSegment(sk.PipelineViewName)
	case sk.ResolvedPath != "":
		h := sha1.Sum([]byte(sk.ResolvedPath))
		return fmt.Sprintf("path-%s-%s", safeSegment(filepath.Base(sk.ResolvedPath)), hex.EncodeToString(h[:4]))
	}
	return fmt.Sprintf("sink-%d", sk.Index)
}

// safeSegment makes a name safe as one path segment.
func safeSegment(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		return "_" + s
	}
	return s
}

// resetMode resolves how a non-shared sink is reset, as Laktory 0.13.1's
// _get_purge_mode does: the run's override, else the sink's reset_mode,
// else DROP (Laktory 0.13.1 has reset_mode on sinks only). Files other than
// Delta are always dropped. source names where the mode comes from, for
// messages.
func resetMode(override string, sk *workspace.Sink) (mode, source string) {
	switch {
	case !sk.IsDelta():
		return "DROP", "file sink"
	case override != "":
		return override, "run override"
	case sk.ResetMode != "":
		return strings.ToUpper(sk.ResetMode), "Sink " + sk.Describe()
	}
	return "DROP", "default"
}

// isReset reports whether a run resets sinks (FULL or RESET).
func isReset(rp validate.RunParams) bool {
	return rp.Refresh == validate.RefreshFull || rp.Refresh == validate.RefreshReset
}
