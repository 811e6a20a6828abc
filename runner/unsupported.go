package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/inline"
	"github.com/laktory/workbench/runner/selection"
	"github.com/laktory/workbench/runner/sink"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// localModes are the sink modes local runs write ("" is APPEND for Delta
// sinks, OVERWRITE for other file formats).
var localModes = []string{"", workspace.ModeAppend, workspace.ModeOverwrite, workspace.ModeMerge, modeError, modeErrorIfExists, modeIgnore}

// Spark's other batch save modes.
const (
	modeError         = sink.ModeError
	modeErrorIfExists = sink.ModeErrorIfExists
	modeIgnore        = sink.ModeIgnore
	modeComplete      = sink.ModeComplete
)

// unsupported is THE place that lists what local runs cannot execute yet.
// A run that selects (or must execute, as an upstream node without sinks)
// such a node is rejected before anything runs, with one diagnostic per
// feature naming the node. Lifting a restriction means deleting its case
// here and implementing it in the task.
func unsupported(p *workspace.Pipeline, n *workspace.Node) []validate.Diagnostic {
	var ds []validate.Diagnostic
	add := func(at workspace.Pos, feature, hint string) {
		ds = append(ds, workspace.NewDiagnostic(at, workspace.SeverityError, validate.CodeLocalUnsupported,
			fmt.Sprintf("node '%s' of pipeline '%s' uses %s, which local runs do not support yet", n.Name, p.Name, feature), hint))
	}
	const pick = "leave this node out of the run (--select the batch nodes), or run it on Databricks/Spark"
	nested := func(sc *workspace.Schema, label string) {
		if sc == nil {
			return
		}
		for _, c := range sc.Columns {
			if workspace.NestedDType(c.DType) {
				add(c.DType.Pos, fmt.Sprintf("the nested dtype %s of column '%s' in the schema of %s", c.DType.Name, c.Name, label),
					"declare the column as a string, or leave it out of the schema")
			}
		}
	}
	for _, s := range n.Sources {
		nested(s.Schema, fmt.Sprintf("source #%d", s.Index+1))
	}
	for _, sk := range n.Sinks {
		nested(sk.Schema, "sink "+sk.Describe())
	}
	for _, s := range n.Sources {
		label := fmt.Sprintf("source #%d", s.Index+1)
		switch {
		case s.Kind == workspace.SourceDataFrame && s.Data != nil:
			if _, err := inline.Read(s.Data, s.Backend); errors.Is(err, inline.ErrUnsupported) {
				add(s.At("data"), fmt.Sprintf("%s (%s)", err, label), "write the data as integers, floats, strings and booleans, or read a file")
			}
		case s.Kind == workspace.SourceDataFrame || s.Kind == workspace.SourceCustom:
			add(s.Pos, fmt.Sprintf("a %s source (%s), which only exists in Python", strings.ToLower(string(s.Kind)), label),
				"read a file (path + format), a table (table_name) or a node (node_name)")
		case s.Kind == workspace.SourceFile && strings.EqualFold(s.Format, "TEXT") && unappliedOption(s, textOptions) != "":
			add(s.At("reader_kwargs"), fmt.Sprintf("the text reader option %s (%s)", unappliedOption(s, textOptions), label), "local runs apply "+strings.Join(textOptions, ", ")+" to TEXT sources")
		case s.Kind == workspace.SourceFile && !slices.Contains(validate.LocalSourceFormats, strings.ToUpper(s.Format)):
			add(s.At("format"), fmt.Sprintf("the source format %q (%s)", s.Format, label), "local runs read "+strings.Join(validate.LocalSourceFormats, ", "))
		}
	}
	for _, sk := range n.Sinks {
		label := "sink " + sk.Describe()
		switch {
		case sk.Kind == workspace.SinkForEach:
			// Handed to runner/foreach.
		case sk.Kind == workspace.SinkPipelineView && n.Streaming():
			add(sk.Pos, fmt.Sprintf("a streaming write into a pipeline view (%s)", label), pick)
		case sk.Kind == workspace.SinkPipelineView:
			// A view of the pipeline: nothing is stored (view.go).
		case sk.AsStream != nil && *sk.AsStream && !n.Streaming():
			add(sk.At("as_stream"), fmt.Sprintf("a streaming write of a batch read (as_stream: true, %s)", label),
				"read a stream (`as_stream: true` on a source), or remove `as_stream` from the sink")
		case sk.IsMerge() && p.Declarative():
			add(sk.At("mode"), fmt.Sprintf("a MERGE sink in a declarative pipeline (%s), which Databricks builds with create_auto_cdc_flow", label),
				"run it on Databricks, or use a LAKEFLOW_JOB pipeline (Laktory's own MERGE, which local runs do)")
		case sk.MergeCDC != nil && !sk.IsMerge():
			add(sk.At("merge_cdc_options"), fmt.Sprintf("merge_cdc_options with the mode %s (%s): Laktory then creates the table from the options but appends the rows", sinkMode(sk), label),
				"set `mode: MERGE` to merge the changes, or remove `merge_cdc_options`")
		case n.Streaming() && sinkMode(sk) == sink.ModeComplete && !sk.IsDelta():
			add(sk.At("mode"), fmt.Sprintf("the streaming write mode COMPLETE into a %s sink (%s): Spark's file sinks append only", sk.EffectiveFormat(), label), "write a DELTA table, or use mode APPEND")
		case n.Streaming() && sk.Kind != workspace.SinkForEach && sinkMode(sk) != workspace.ModeAppend && sinkMode(sk) != sink.ModeComplete && !sk.IsMerge():
			add(sk.At("mode"), fmt.Sprintf("the streaming write mode %s (%s)", sk.Mode, label), "streaming flows append (or MERGE): use mode APPEND")
		case sk.IsView() && delta.IsRemoteLocation(string(sk.Table)):
			add(sk.At("table_type"), fmt.Sprintf("a VIEW sink in a lake on object storage (%s): views live in a local lake only", label), "use a local lake, or write a table (remove `table_type: VIEW`)")
		case sk.CustomWriter != "":
			add(sk.At("custom_writer"), fmt.Sprintf("the Python custom_writer %s (%s)", sk.CustomWriter, label), "write to a DELTA, PARQUET, CSV or JSON sink")
		case !slices.Contains(validate.LocalSinkFormats, sk.EffectiveFormat()):
			add(sk.At("format"), fmt.Sprintf("the sink format %q (%s)", sk.EffectiveFormat(), label), "local runs write "+strings.Join(validate.LocalSinkFormats, ", "))
		case n.Streaming() && sinkMode(sk) == modeComplete && p.Declarative():
			add(sk.At("mode"), fmt.Sprintf("the streaming write mode COMPLETE in a declarative pipeline (%s), whose flows append", label), "use mode APPEND, or a LAKEFLOW_JOB pipeline")
		case !slices.Contains(localModes, sk.Mode) && !(n.Streaming() && sinkMode(sk) == modeComplete):
			add(sk.At("mode"), fmt.Sprintf("the sink mode %s (%s)", sk.Mode, label), "use mode APPEND or OVERWRITE")
		}
	}
	return ds
}

// engineUnsupported lists what the run's engine cannot execute yet, beyond
// unsupported: DATAFRAME sources with inline data (their query is
// DuckDB's SQL). The Spark engine runs batch and streaming
// nodes into Delta sinks (APPEND, OVERWRITE and the refreshes of shared
// sinks), MERGE sinks (Laktory's merge in Spark SQL: Delta's MERGE INTO,
// Txn.Merge), file sinks (Spark's DataFrame writer, Session.WriteFiles),
// the flows of declarative pipelines (append flows, once,
// import_checkpoint, a full refresh clearing the table once), which the
// runner emulates through the engine seam as it does for the local
// engine, ForEach sinks (each batch's rows come back to Go through
// Session.Rows), update flows included (their state is Parquet files the
// engine writes and reads, Session.SaveParquet; COMPLETE mode keeps its
// input there too), VIEW sinks (the view evaluated by Spark, its file
// written as locally), and sources with a
// declared schema (Spark's reader given it). A feature an engine cannot
// run is refused here, before anything runs, rather than computed
// elsewhere than the engine chosen.
func engineUnsupported(info engine.Info, p *workspace.Pipeline, n *workspace.Node) []validate.Diagnostic {
	if info.Name == engine.Local {
		return nil
	}
	var ds []validate.Diagnostic
	for _, sk := range n.Sinks {
		if sk.Metadata == nil {
			continue
		}
		// OSS Delta, which the Spark engine runs, accepts only Serializable:
		// creating a table with WriteSerializable (or setting it) fails
		// with "requirement failed: delta.isolationLevel must be
		// Serializable" (Delta 4.4), where Databricks and local runs take
		// it. Refused before anything runs rather than at the create.
		if v := sk.Metadata.Properties["delta.isolationLevel"]; strings.EqualFold(v, "WriteSerializable") {
			ds = append(ds, workspace.NewDiagnostic(sk.Metadata.At("properties"), workspace.SeverityError, validate.CodeLocalUnsupported,
				fmt.Sprintf("node '%s' of pipeline '%s' sets delta.isolationLevel = %s on %s, which the %s engine's Delta (open-source Delta Lake) refuses: \"delta.isolationLevel must be Serializable\"", n.Name, p.Name, v, sk.Describe(), info.Name),
				"run it on the local engine (without --engine spark), or set delta.isolationLevel to Serializable (or remove it) where the pipeline runs on open-source Spark"))
		}
	}
	for _, s := range n.Sources {
		if s.Kind == workspace.SourceDataFrame {
			ds = append(ds, workspace.NewDiagnostic(s.At("data"), workspace.SeverityError, validate.CodeLocalUnsupported,
				fmt.Sprintf("node '%s' of pipeline '%s' uses a DATAFRAME source with inline data (source #%d), which the %s engine does not run yet", n.Name, p.Name, s.Index+1, info.Name),
				"run it on the local engine (without --engine spark), or leave the node out of the run"))
		}
	}
	return ds
}

// bucketLakeUnsupported refuses, when the lake is in a bucket, the VIEW
// sinks of the run (a view is a file of a local lake) and a run on an
// engine that cannot read and write the bucket safely (engine.Info's
// BucketLake: a Spark server without s3a, or with a LogStore whose commits
// do not exclude ours, docs/object-storage.md).
func bucketLakeUnsupported(info engine.Info, snap *workspace.Snapshot, sel selection.Selection) []validate.Diagnostic {
	if !snap.Layout.RemoteLake() {
		return nil
	}
	var ds []validate.Diagnostic
	for _, p := range sel.Pipelines {
		for _, name := range sel.Nodes[p.Name] {
			n := p.Node(name)
			if n == nil {
				continue
			}
			for _, sk := range n.Sinks {
				if sk.IsView() {
					ds = append(ds, workspace.NewDiagnostic(sk.Pos, workspace.SeverityError, validate.CodeBucketLakeView,
						fmt.Sprintf("node '%s' of pipeline '%s' writes the view %s, and the lake %s is in a bucket: views are files of a local lake", n.Name, p.Name, sk.TableName, snap.Layout.Lake),
						"write the view's rows to a table (table_type TABLE), or run the pipeline on a local lake (--lake DIR)"))
				}
			}
		}
	}
	if info.Name == engine.Local || info.BucketLake == "" {
		return ds
	}
	at := workspace.Pos{File: filepath.Join(snap.Dir, workspace.ConfigFileName), Line: 1, Col: 1}
	if snap.Config != nil {
		at = snap.Config.Pos
		if p, ok := snap.Config.Fields["lake"]; ok {
			at = p
		}
	}
	return append(ds, workspace.NewDiagnostic(at, workspace.SeverityError, validate.CodeBucketLakeEngine,
		fmt.Sprintf("the lake %s is in a bucket, and the %s engine cannot read and write it safely: %s", snap.Layout.Lake, info.Name, info.BucketLake),
		"start the Spark Connect server with hadoop-aws and Delta's default S3 LogStore (docs/object-storage.md), run on the local engine (without --engine spark), or point the workspace at a lake folder the cluster sees (--lake)"))
}

// bucketSparkNewTables refuses, on the Spark engine with the lake in a
// bucket, a sink with a comment (metadata.comment) whose table does not
// exist yet: Spark creates a bucket table with Delta's DataFrame writer
// (a CREATE TABLE takes the folder of its writer claims for an existing
// table, runner/engine/spark), which writes no description, where the
// local engine and Laktory write it. A table that exists keeps its own.
func bucketSparkNewTables(ctx context.Context, info engine.Info, snap *workspace.Snapshot, sel selection.Selection) ([]validate.Diagnostic, error) {
	if info.Name == engine.Local || !snap.Layout.RemoteLake() {
		return nil, nil
	}
	var ds []validate.Diagnostic
	for _, p := range sel.Pipelines {
		for _, name := range sel.Nodes[p.Name] {
			n := p.Node(name)
			if n == nil {
				continue
			}
			for _, sk := range n.Sinks {
				if sk.Table == "" || sk.IsView() || sk.Metadata == nil || sk.Metadata.Comment == "" {
					continue
				}
				_, err := delta.Open(ctx, string(sk.Table))
				if err == nil {
					continue
				}
				if !errors.Is(err, delta.ErrNotDeltaTable) {
					return nil, err
				}
				ds = append(ds, workspace.NewDiagnostic(sk.At("metadata"), workspace.SeverityError, validate.CodeBucketSparkNew,
					fmt.Sprintf("node '%s' of pipeline '%s' creates %s in the bucket with a comment, which the %s engine does not write there (Delta's DataFrame writer creates bucket tables)", n.Name, p.Name, sk.Describe(), info.Name),
					"run its first run on the local engine (without --engine spark), which creates the table with its comment, or remove metadata.comment"))
			}
		}
	}
	return ds, nil
}
