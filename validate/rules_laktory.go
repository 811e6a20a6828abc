package validate

import (
	"fmt"

	"github.com/laktory/workbench/workspace"
)

// laktoryRunFails reports what Laktory 0.13.1 loads and then fails on when
// it runs it, without a check of its own (an AttributeError, not one of
// the rules of docs/laktory-rules.md): reported here, at validate, as the
// severity policy says.
func (c *checker) laktoryRunFails() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			c.quarantineWithoutExpectations(p, n)
		}
	}
}

// quarantineWithoutExpectations: PipelineNode.check_expectations returns
// early for a node without expectations, leaving its quarantine frame
// None, and the quarantine sink is then created and written with None
// (BaseDataSink._update_backend_from_df, or the backend's writer): the
// run fails with an AttributeError. With expectations, none of them
// QUARANTINE, the sink gets the whole frame (the runner's expectations,
// runner/compile.go).
func (c *checker) quarantineWithoutExpectations(p *workspace.Pipeline, n *workspace.Node) {
	if len(n.Expectations) > 0 {
		return
	}
	for _, sk := range n.Sinks {
		if !sk.IsQuarantine {
			continue
		}
		c.add(sk.At("is_quarantine"), Error, CodeQuarantineNoExpect,
			fmt.Sprintf("quarantine sink %s of node '%s' of pipeline '%s' has no quarantine frame: the node declares no expectations, and Laktory 0.13.1's run fails writing it (AttributeError: 'NoneType' object has no attribute 'implementation')",
				sk.Describe(), n.Name, p.Name),
			"declare the node's `expectations` (a QUARANTINE one selects the rows the sink gets), or remove `is_quarantine` / the sink")
	}
}
