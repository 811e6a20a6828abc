package validate

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// confinement reports the paths a run may create, replace or delete that
// lie outside the workspace, the lake and the roots of the workbench
// config, or that are or hold one of them (the snapshot resolved them,
// symbolic links included, when it was built).
func (c *checker) confinement() {
	for _, wp := range c.snap.WritePaths {
		if wp.Problem == "" {
			continue
		}
		hint := fmt.Sprintf("point `%s` inside the workspace or the lake, or add its folder to `roots:` in %s", wp.Key, workspace.ConfigFileName)
		if strings.HasPrefix(wp.Problem, "is ") || strings.HasPrefix(wp.Problem, "holds ") {
			hint = fmt.Sprintf("give the %s a folder of its own: a run may replace or delete it", wp.What)
		}
		real := ""
		if wp.Real != "" && wp.Real != wp.Path {
			real = " (" + wp.Real + ")"
		}
		c.add(wp.Pos, Error, CodePathOutside,
			fmt.Sprintf("the %s %s%s %s: a run creates, replaces and deletes paths only strictly inside the workspace, the lake and the roots of %s",
				wp.What, wp.Path, real, wp.Problem, workspace.ConfigFileName), hint)
	}
}
