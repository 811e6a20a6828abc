package runner

import (
	"context"
	"fmt"
	"slices"
)

// presentDrops are the columns of a source's `drops` that the relation
// from has, as Laktory 0.13.1 drops them: df.drop(*drops, strict=False)
// (narwhals), so a name the frame does not have is ignored rather than an
// error, and names match exactly (narwhals compares them as written, on
// both backends).
func (c *compiler) presentDrops(ctx context.Context, from string, drops []string) ([]string, error) {
	cols, err := c.s.describe(ctx, "SELECT * FROM "+from)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSource, err)
	}
	names := columnNames(cols)
	var out []string
	for _, d := range drops {
		if slices.Contains(names, d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}
