package validate

import (
	"fmt"
	"regexp"
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

// placeholderRe matches the {df}, {sources.x} and {nodes.x} of an expr.
var placeholderRe = regexp.MustCompile(`\{(df|sources\.\w+|nodes\.\w+)\}`)

// exprStatements reports the `expr` steps holding more than one SQL
// statement: Laktory runs an expr as one query (spark.sql), and statements
// before it (COPY, ATTACH, INSTALL...) would run locally only.
func (c *checker) exprStatements() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			for _, st := range n.Transformer {
				if !st.IsSQL() || !strings.Contains(st.Expr, ";") {
					continue
				}
				text := placeholderRe.ReplaceAllString(st.Expr, "__laktory_input")
				switch k := c.parser.statementCount(text); {
				case k > 1:
					c.add(st.At("expr"), Error, CodeExprStmts,
						fmt.Sprintf("the `expr` of transformer step #%d of node '%s' holds %d SQL statements: an expr is one query (Laktory runs it with spark.sql)", st.Index+1, n.Name, k),
						"keep the query only: statements before it would run locally and nowhere else")
				case k == -2:
					c.add(st.At("expr"), Error, CodeExprStmts,
						fmt.Sprintf("the `expr` of transformer step #%d of node '%s' holds a statement that is not a query", st.Index+1, n.Name),
						"an expr is one SELECT query: remove the other statements (COPY, ATTACH, INSTALL, SET...)")
				}
			}
		}
	}
}
