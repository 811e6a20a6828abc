package validate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// varRefRe is a ${vars.x} (or ${var.x}) reference left in a value: it named
// no variable when the workspace loaded (LK009 says so where it is).
var varRefRe = regexp.MustCompile(`\$\{vars?\.([a-zA-Z_][a-zA-Z0-9_]*)\}`)

// unresolvedRefs reports an unresolved ${vars.x} in what a run uses as a
// path, a table name, a predicate or SQL (LK114): Laktory reads the text
// as written, so the run would read, write or delete something other than
// meant (a folder named ${vars.x}, a predicate that does not parse).
// Elsewhere (a comment, a tag) LK009's warning is enough.
func (c *checker) unresolvedRefs() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			for i, src := range n.Sources {
				what := fmt.Sprintf("source #%d of node '%s'", i+1, n.Name)
				c.unresolvedIn(src.Path, src.At("path"), what, "path")
				c.paramsAsTextIn(p, src.Path, src.At("path"), what, "path")
				c.unresolvedIn(src.Filter, src.At("filter"), what, "filter")
				for _, f := range []string{"table_name", "schema_name", "catalog_name"} {
					v := map[string]string{"table_name": src.TableName, "schema_name": src.SchemaName, "catalog_name": src.CatalogName}[f]
					c.unresolvedIn(v, src.At(f), what, f)
					c.paramsAsTextIn(p, v, src.At(f), what, f)
				}
			}
			for _, st := range n.Transformer {
				c.unresolvedIn(st.Expr, st.At("expr"), fmt.Sprintf("step #%d of node '%s'", st.Index+1, n.Name), "expr")
			}
			for _, e := range n.Expectations {
				c.unresolvedIn(e.Expr, e.At("expr"), fmt.Sprintf("expectation '%s' of node '%s'", e.Name, n.Name), "expr")
			}
			for i, sk := range n.Sinks {
				what := fmt.Sprintf("sink #%d of node '%s'", i+1, n.Name)
				c.unresolvedIn(sk.Path, sk.At("path"), what, "path")
				c.paramsAsTextIn(p, sk.Path, sk.At("path"), what, "path")
				for _, f := range []string{"table_name", "schema_name", "catalog_name"} {
					v := map[string]string{"table_name": sk.TableName, "schema_name": sk.SchemaName, "catalog_name": sk.CatalogName}[f]
					c.unresolvedIn(v, sk.At(f), what, f)
					c.paramsAsTextIn(p, v, sk.At(f), what, f)
				}
				if sk.Shared != nil {
					c.unresolvedIn(sk.Shared.Where, sk.Shared.At("where"), what, "shared.where")
				}
			}
		}
	}
}

// paramRefRe is a ${params.x} reference.
var paramRefRe = regexp.MustCompile(`\$\{params\.([a-zA-Z_][a-zA-Z0-9_]*)\}`)

// paramsAsTextIn reports a ${params.x} left as text (its pipeline declares
// no parameters, LK021) in a path or a table name (LK114): the run would
// write, read or delete a folder or table named so.
func (c *checker) paramsAsTextIn(p *workspace.Pipeline, text string, at workspace.Pos, what, field string) {
	if len(p.Parameters) > 0 {
		return
	}
	m := paramRefRe.FindStringIndex(text)
	if m == nil {
		return
	}
	c.add(at, Error, CodeUnresolvedRef,
		fmt.Sprintf("the `%s` of %s holds %s, which pipeline '%s' does not declare: Laktory and a run would use %q as written", field, what, text[m[0]:m[1]], p.Name, text),
		fmt.Sprintf("declare it under `parameters:` of pipeline '%s' (with a default, or set by --param), or write the value", p.Name))
}

func (c *checker) unresolvedIn(text string, at workspace.Pos, what, field string) {
	m := varRefRe.FindStringSubmatchIndex(text)
	if m == nil {
		return
	}
	name := text[m[2]:m[3]]
	c.add(at, Error, CodeUnresolvedRef,
		fmt.Sprintf("the `%s` of %s holds %s, which names no variable: a run would use %q as written", field, what, text[m[0]:m[1]], text),
		fmt.Sprintf("declare `%s` under `variables:` (pipeline, node or stack), set the environment variable %s, or correct the name", name, strings.ToUpper(name)))
}
