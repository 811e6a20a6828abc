package spark

import (
	"context"
	"fmt"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
)

// Merge implements engine.Txn.
func (t *Txn) Merge(context.Context, delta.MergeSpec) (delta.MergeMetrics, error) {
	return delta.MergeMetrics{}, fmt.Errorf("%w: MERGE into %s", engine.ErrUnsupported, t.path)
}

// KeyScan implements engine.Txn.
func (t *Txn) KeyScan(context.Context, string, []delta.MergeKey, []string) (string, error) {
	return "", fmt.Errorf("%w: MERGE into %s", engine.ErrUnsupported, t.path)
}

// WriteFiles implements engine.Session.
func (s *Session) WriteFiles(_ context.Context, target, _ string, w engine.FileWrite) (int64, error) {
	return 0, fmt.Errorf("%w: writing %s files (%s)", engine.ErrUnsupported, w.Format, target)
}
