package runner

import (
	"fmt"

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
	check := func(what, path string) error {
		if _, err := g.Check(path); err != nil {
			return fmt.Errorf("%w: node '%s': %s: %w", ErrSink, x.tp.node.Name, what, err)
		}
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
