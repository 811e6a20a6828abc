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
				if !strings.EqualFold(sk.Mode, "COMPLETE") || c.aggregates(n) {
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

// StreamSQL is what an SQL implementation (Options.SQL) may offer besides
// DuckDB's parser: Spark SQL's front end, which reads a streaming node's
// query as Spark's streaming check reads its analyzed plan (the runner's
// does). Without it, LK168 reads the SQL's text.
type StreamSQL interface {
	// StreamingAggregate parses a Spark SQL query and reports whether its
	// result is a stream and whether its plan has an Aggregate over a
	// stream; stream tells which placeholders ("df", "sources.x",
	// "nodes.x") read a stream. err: the text does not parse.
	StreamingAggregate(query string, stream func(placeholder string) bool) (streaming, aggregate bool, err error)
}

// aggregates reports whether the node's transformer has a streaming
// aggregation: a step whose plan aggregates a stream (StreamSQL; the
// text's GROUP BY or aggregate function where there is none or the step
// does not parse), or a grouping method.
func (c *checker) aggregates(n *workspace.Node) bool {
	front, _ := c.parser.src.(StreamSQL)
	if front == nil {
		front, _ = fallbackSQL.(StreamSQL)
	}
	streaming := len(n.Sources) > 0 && n.Sources[0].AsStream // {df}
	for _, st := range n.Transformer {
		if !st.IsSQL() {
			name := strings.ToLower(st.FuncName)
			name = name[strings.LastIndex(name, ".")+1:]
			switch name {
			case "groupby", "group_by", "agg", "groupby_and_agg", "rollup", "cube":
				return true
			}
			continue
		}
		if front != nil {
			df := streaming
			s, agg, err := front.StreamingAggregate(st.Expr, func(ph string) bool { return placeholderStreams(n, ph, df) })
			if err == nil {
				if agg {
					return true
				}
				streaming = s
				continue
			}
		}
		if aggregateRe.MatchString(stringLitRe.ReplaceAllString(st.Expr, "''")) {
			return true
		}
	}
	return false
}

// placeholderStreams reports whether a placeholder of a transformer step
// reads a stream: {df} is the previous step's output (the first source for
// the first step), {sources.x} the source named x, {nodes.x} a source
// reading node x, else node x's output read as a batch (Laktory's default).
func placeholderStreams(n *workspace.Node, ph string, df bool) bool {
	switch {
	case strings.EqualFold(ph, "df"):
		return df
	case strings.HasPrefix(ph, "sources."):
		name := ph[len("sources."):]
		for _, s := range n.Sources {
			if s.Name == name {
				return s.AsStream
			}
		}
	case strings.HasPrefix(ph, "nodes."):
		name := ph[len("nodes."):]
		for _, s := range n.Sources {
			if s.NodeName == name {
				return s.AsStream
			}
		}
	}
	return false
}
