package tui

import (
	"context"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/workspace"
)

// LocalRunner runs refreshes with the runner package.
type LocalRunner struct{ R *runner.Runner }

// Plan implements Runner.
func (l LocalRunner) Plan(ctx context.Context, snap *workspace.Snapshot, req runner.Request) (*runner.Plan, error) {
	return l.R.Plan(ctx, snap, req)
}

// Start implements Runner.
func (l LocalRunner) Start(ctx context.Context, plan *runner.Plan) (RunHandle, error) {
	run, err := l.R.Start(ctx, plan)
	if err != nil {
		return nil, err // not a typed nil
	}
	return run, nil
}
