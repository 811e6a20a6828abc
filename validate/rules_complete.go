package validate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// completeMode checks the streaming sinks of mode COMPLETE (Spark's
// OutputMode.Complete, which Laktory 0.13.1 passes to writeStream), and
// of modes APPEND and MERGE (Spark's Append: an aggregation needs a
// watermark, which Laktory cannot declare: LK158), as
// Spark's streaming check (UnsupportedOperationChecker) reads the node's
// query, reporting its first refusal: no streaming aggregation (LK168),
// then a distinct aggregate (LK155) or an INTERSECT of a stream (LK157),
// then a streaming aggregation over another (LK156). A node whose SQL
// Spark's analyzer refuses first (an unknown function: a Python UDF) is
// not judged here: the schema flow reports the analyzer's error (LK301).
func (c *checker) completeMode() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			if !n.Streaming() || n.DataframeBackend == "POLARS" {
				continue // a batch COMPLETE is refused elsewhere; POLARS streams nothing (LK016)
			}
			var shape *StreamShape
			for _, sk := range n.Sinks {
				appendMode := appendOutput(sk)
				if !strings.EqualFold(sk.Mode, "COMPLETE") && !appendMode {
					continue
				}
				if shape == nil {
					s := c.streamShape(n)
					shape = &s
				}
				at := sk.At("mode")
				switch {
				case shape.Unresolved != "":
				case appendMode:
					if shape.Aggregate {
						c.add(at, Error, CodeStreamAppendAgg,
							fmt.Sprintf("node '%s' streams an aggregation into sink %s in %s mode: Spark 4.2 refuses it ([STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: append. This output mode is not supported for streaming aggregations without watermark on streaming DataFrames/DataSets.), and Laktory 0.13.1 declares no watermark",
								n.Name, sk.Describe(), strings.ToUpper(sk.Mode)),
							"use mode COMPLETE (each batch rewrites the aggregation over all the input), or aggregate in a batch node")
					}
				case !shape.Aggregate:
					c.add(at, Error, CodeCompleteNoAgg,
						fmt.Sprintf("sink %s of node '%s' is written in COMPLETE mode, but the node does not aggregate: Spark 4.2 refuses it ([STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: complete. This output mode is not supported for no streaming aggregations on streaming DataFrames/DataSets.)",
							sk.Describe(), n.Name),
						"aggregate in the transformer (GROUP BY, or an aggregate function over the stream), or use mode APPEND")
				case shape.Distinct != "":
					c.add(at, Error, CodeStreamDistinctAgg,
						fmt.Sprintf("node '%s' streams into sink %s with a distinct aggregate, %s: Spark 4.2 refuses it (Distinct aggregations are not supported on streaming DataFrames/Datasets.), where a local run would compute it",
							n.Name, sk.Describe(), shape.Distinct),
						"use approx_count_distinct(), as Spark suggests, or collect_set() and size()")
				case shape.Intersect:
					c.add(at, Error, CodeStreamIntersect,
						fmt.Sprintf("node '%s' streams into sink %s through an INTERSECT of a stream: Spark 4.2 refuses it (Intersect of streaming DataFrames/Datasets is not supported), where a local run would compute it",
							n.Name, sk.Describe()),
						"join the inputs (a semi join, LEFT SEMI JOIN) instead of INTERSECT")
				case shape.Chained:
					c.add(at, Error, CodeStreamChainedAgg,
						fmt.Sprintf("node '%s' streams into sink %s with a streaming aggregation over the output of another (a derived table, UNION or DISTINCT over an aggregate, or a step after an aggregating one): Spark 4.2 refuses it (Detected pattern of possible 'correctness' issue due to global watermark.), where a local run would compute it",
							n.Name, sk.Describe()),
						"aggregate once per node: write the first aggregation to its own table and aggregate that in a downstream node")
				}
			}
		}
	}
}

// appendOutput reports whether a streaming sink writes in Spark's Append
// output mode: mode APPEND, and MERGE (Laktory's foreachBatch, whose
// query Spark checks in its default Append mode); a ForEach sink is the
// workbench's own.
func appendOutput(sk *workspace.Sink) bool {
	return (strings.EqualFold(sk.Mode, "APPEND") || sk.IsMerge()) && sk.Kind != workspace.SinkForEach
}

// aggregateRe finds an aggregation in SQL: GROUP BY, or a call of one of
// Spark's aggregate functions.
var aggregateRe = regexp.MustCompile(`(?i)\bgroup\s+by\b|\b(count|count_if|sum|avg|mean|min|max|min_by|max_by|first|first_value|last|last_value|any_value|collect_list|collect_set|array_agg|approx_count_distinct|approx_percentile|percentile|percentile_approx|median|mode|stddev|stddev_pop|stddev_samp|std|variance|var_pop|var_samp|corr|covar_pop|covar_samp|skewness|kurtosis|bool_and|bool_or|every|some|bit_and|bit_or|bit_xor|string_agg|listagg|histogram_numeric|regr_\w+)\s*\(`)

// stringLitRe matches Spark SQL's string literals (backslash escapes),
// whose text is no call.
var stringLitRe = regexp.MustCompile(`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`)

// StreamShape is what Spark's streaming check sees of one SQL step or of
// a node's transformer (StreamSQL).
type StreamShape struct {
	// Streaming: the result is a stream.
	Streaming bool
	// Aggregate: the plan has a streaming aggregation (COMPLETE needs one).
	Aggregate bool
	// Aggregated: the result is a streaming aggregation's output (a later
	// step that aggregates it again chains on it).
	Aggregated bool
	// Chained: a streaming aggregation over another's output.
	Chained bool
	// Intersect: an INTERSECT with a streaming side.
	Intersect bool
	// Distinct: the first distinct aggregate call of a streaming
	// aggregation ("count(DISTINCT ...)"), or "".
	Distinct string
	// Unresolved: what Spark's analyzer refuses before its streaming
	// check (an unknown function), or "".
	Unresolved string
}

// StreamSQL is what an SQL implementation (Options.SQL) may offer besides
// DuckDB's parser: Spark SQL's front end, which reads a streaming node's
// query as Spark's streaming check reads its analyzed plan (the runner's
// does). Without it, LK168 reads the SQL's text.
type StreamSQL interface {
	// StreamShape parses a Spark SQL query and reports what Spark's
	// streaming check sees of it; read tells what each placeholder ("df",
	// "sources.x", "nodes.x") reads (Streaming, Aggregated). err: the
	// text does not parse.
	StreamShape(query string, read func(placeholder string) StreamShape) (StreamShape, error)
}

// streamShape folds the node's transformer steps as Spark composes them
// ({df} of a step is the previous step's output): a step whose plan
// aggregates a stream (StreamSQL; the text's GROUP BY or aggregate
// function where there is none or the step does not parse), or a grouping
// method, aggregates.
func (c *checker) streamShape(n *workspace.Node) StreamShape {
	front, _ := c.parser.src.(StreamSQL)
	if front == nil {
		front, _ = fallbackSQL.(StreamSQL)
	}
	var out StreamShape
	df := StreamShape{Streaming: len(n.Sources) > 0 && n.Sources[0].AsStream}
	for _, st := range n.Transformer {
		if !st.IsSQL() {
			name := strings.ToLower(st.FuncName)
			name = name[strings.LastIndex(name, ".")+1:]
			switch name {
			case "groupby", "group_by", "agg", "groupby_and_agg", "rollup", "cube":
				out.Chained = out.Chained || df.Aggregated
				out.Aggregate = true
				df.Aggregated = df.Streaming
			}
			continue
		}
		if front != nil {
			prev := df
			s, err := front.StreamShape(st.Expr, func(ph string) StreamShape {
				if strings.EqualFold(ph, "df") {
					return prev
				}
				return StreamShape{Streaming: placeholderStreams(n, ph, prev.Streaming)}
			})
			if err == nil {
				out.Aggregate = out.Aggregate || s.Aggregate
				out.Chained = out.Chained || s.Chained
				out.Intersect = out.Intersect || s.Intersect
				if out.Distinct == "" {
					out.Distinct = s.Distinct
				}
				if out.Unresolved == "" {
					out.Unresolved = s.Unresolved
				}
				df = StreamShape{Streaming: s.Streaming, Aggregated: s.Aggregated}
				continue
			}
		}
		if aggregateRe.MatchString(stringLitRe.ReplaceAllString(st.Expr, "''")) {
			out.Aggregate = true
			df.Aggregated = df.Streaming
		}
	}
	return out
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
