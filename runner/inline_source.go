package runner

import (
	"fmt"

	"github.com/laktory/workbench/runner/inline"
	"github.com/laktory/workbench/workspace"
)

// inlineSQL reads a DATAFRAME source's inline data as its backend builds
// it (runner/inline).
func inlineSQL(src *workspace.Source) (string, error) {
	f, err := inline.Read(src.Data, src.Backend)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrSource, err)
	}
	return f.SQL, nil
}
