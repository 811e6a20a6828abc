package validate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// completeMode checks the streaming sinks of mode COMPLETE (Spark's
// OutputMode.Complete, which Laktory 0.13.1 passes to writeStream): Spark
// refuses it for a query without a streaming aggregation
// (UnsupportedOperationChecker), so the node's transformer must aggregate.
func (c *checker) completeMode() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			if !n.Streaming() || n.DataframeBackend == "POLARS" {
				continue // a batch COMPLETE is refused elsewhere; POLARS streams nothing (LK016)
			}
			for _, sk := range n.Sinks {
				if !strings.EqualFold(sk.Mode, "COMPLETE") || aggregates(n) {
					continue
				}
				c.add(sk.At("mode"), Error, CodeCompleteNoAgg,
					fmt.Sprintf("sink %s of node '%s' is written in COMPLETE mode, but the node does not aggregate: Spark 4.2 refuses it ([STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: complete. This output mode is not supported for no streaming aggregations on streaming DataFrames/DataSets.)",
						sk.Describe(), n.Name),
					"aggregate in the transformer (GROUP BY, or an aggregate function over the stream), or use mode APPEND")
			}
		}
	}
}

// aggregateRe finds an aggregation in SQL: GROUP BY, or a call of one of
// Spark's aggregate functions.
var aggregateRe = regexp.MustCompile(`(?i)\bgroup\s+by\b|\b(count|count_if|sum|avg|mean|min|max|min_by|max_by|first|first_value|last|last_value|any_value|collect_list|collect_set|array_agg|approx_count_distinct|approx_percentile|percentile|percentile_approx|median|mode|stddev|stddev_pop|stddev_samp|std|variance|var_pop|var_samp|corr|covar_pop|covar_samp|skewness|kurtosis|bool_and|bool_or|every|some|bit_and|bit_or|bit_xor|string_agg|listagg|histogram_numeric|regr_\w+)\s*\(`)

// stringLitRe matches Spark SQL's string literals (backslash escapes),
// whose text is no call.
var stringLitRe = regexp.MustCompile(`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`)

// aggregates reports whether a step of the node's transformer aggregates:
// SQL with GROUP BY or an aggregate function, or a grouping method.
func aggregates(n *workspace.Node) bool {
	for _, st := range n.Transformer {
		if st.IsSQL() {
			if aggregateRe.MatchString(stringLitRe.ReplaceAllString(st.Expr, "''")) {
				return true
			}
			continue
		}
		name := strings.ToLower(st.FuncName)
		name = name[strings.LastIndex(name, ".")+1:]
		switch name {
		case "groupby", "group_by", "agg", "groupby_and_agg", "rollup", "cube":
			return true
		}
	}
	return false
}
