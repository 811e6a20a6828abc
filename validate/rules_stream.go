package validate

import (
	"fmt"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// streaming checks streaming readers of shared tables (reader_kwargs
// skipChangeCommits): a whole-table reader duplicates rows after any
// writer's FULL refresh; a reader of one writer needs a FULL refresh after
// that writer's.
func (c *checker) streaming() {
	for _, r := range c.snap.Readers {
		if !r.SkipChangeCommits || r.Source < 0 {
			continue
		}
		n := c.snap.Node(r.Pipeline, r.Node)
		if n == nil || r.Source >= len(n.Sources) {
			continue
		}
		src := n.Sources[r.Source]
		at := src.At("reader_kwargs")
		if !r.AsStream {
			c.add(at, Warning, CodeSkipNotStream,
				fmt.Sprintf("node '%s' sets skipChangeCommits on a batch read: it only applies to streaming reads", r.Node),
				"add `as_stream: true` to the source, or remove skipChangeCommits")
			continue
		}
		t := c.snap.Table(r.Table)
		if t == nil {
			continue
		}
		switch r.Kind {
		case workspace.ReadTable, workspace.ReadPath:
			if !t.Shared() && len(nodesOf(t.Writers)) < 2 {
				continue
			}
			c.add(at, Warning, CodeSkipWholeTable,
				fmt.Sprintf("node '%s' streams the whole table %s, written by several writers, with skipChangeCommits: after a FULL refresh of any writer its rows are read again (duplicates)",
					r.Node, t.Label()),
				"keep the default reader (it stops on a writer's refresh and asks for a FULL refresh of this node), or read one writer with node_name")
		case workspace.ReadNode:
			if !t.Shared() {
				continue
			}
			c.add(at, Info, CodeSkipNodeReader,
				fmt.Sprintf("node '%s' streams writer '%s' with skipChangeCommits: refreshes of the other writers of %s don't affect it, but after a FULL refresh of '%s' run a FULL refresh of '%s' too, or the rows of '%s' arrive twice",
					r.Node, r.FromNode, t.Label(), r.FromNode, r.Node, r.FromNode),
				fmt.Sprintf("after each FULL refresh of %s, run: %s", r.FromNode, human.RunCommand(r.Pipeline, []string{r.Node}, RefreshFull, "")))
		}
	}
}
