package tui

import (
	"context"
	"sync"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// LocalRunner runs refreshes with the runner package, and remembers the
// runs it started so the program can wait for them before it exits.
type LocalRunner struct {
	R *runner.Runner

	mu   sync.Mutex
	runs []*runner.Run
}

// Plan implements Runner.
func (l *LocalRunner) Plan(ctx context.Context, snap *workspace.Snapshot, req runner.Request) (*runner.Plan, error) {
	return l.R.Plan(ctx, snap, req)
}

// Start implements Runner.
func (l *LocalRunner) Start(ctx context.Context, plan *runner.Plan) (RunHandle, error) {
	run, err := l.R.Start(ctx, plan)
	if err != nil {
		return nil, err // not a typed nil
	}
	l.mu.Lock()
	l.runs = append(l.runs, run)
	l.mu.Unlock()
	return run, nil
}

// Validate implements Validator: the runner's validation, schema flow
// included.
func (l *LocalRunner) Validate(ctx context.Context, snap *workspace.Snapshot, opts validate.Options) ([]workspace.Diagnostic, error) {
	return l.R.Validate(ctx, snap, opts)
}

// Wait waits until every run started has ended (cancel them first to stop
// them: they then end before their next commit).
func (l *LocalRunner) Wait() {
	l.mu.Lock()
	runs := l.runs
	l.mu.Unlock()
	for _, r := range runs {
		<-r.Done()
	}
}
