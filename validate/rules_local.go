package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// Formats local runs read and write.
var (
	// IPC is Polars' only (Arrow IPC files, read through arrow-go).
	// TEXT is PySpark's only (Spark's text reader: a `value` per line).
	LocalSourceFormats = []string{"CSV", "JSON", "JSONL", "NDJSON", "PARQUET", "DELTA", "IPC", "TEXT"}
	LocalSinkFormats   = []string{"DELTA", "PARQUET", "CSV", "JSON", "JSONL", "NDJSON"}
)

// local checks what local runs cannot do yet, and the sink and source
// combinations Laktory itself rejects.
func (c *checker) local() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			for _, s := range n.Sources {
				c.localSource(n, s)
				c.polarsReaderKwargs(n, s)
				c.polarsSourceSchema(n, s)
			}
			for _, sk := range n.Sinks {
				c.localSink(n, sk)
				c.laktorySink(n, sk)
				c.mergeSink(n, sk)
				c.polarsWriterKwargs(n, sk)
			}
		}
	}
}

func (c *checker) localSource(n *workspace.Node, s *workspace.Source) {
	switch s.Kind {
	case workspace.SourceDataFrame, workspace.SourceCustom:
		if s.Data != nil {
			break // inline data: runs read it (the schema flow types it)
		}
		c.add(s.Pos, Warning, CodeLocalFormat,
			fmt.Sprintf("source #%d of node '%s' is a %s source, which only exists in Python: local runs cannot read it", s.Index+1, n.Name, s.Kind),
			"read a file (`path` + `format`), a table (`table_name`) or a node (`node_name`)")
	case workspace.SourceFile:
		if s.Format != "" && !slices.Contains(LocalSourceFormats, s.Format) && !strings.Contains(s.Format, "${") {
			c.add(s.At("format"), Warning, CodeLocalFormat,
				fmt.Sprintf("local runs cannot read %s files (source #%d of node '%s')", s.Format, s.Index+1, n.Name),
				"local runs read "+strings.Join(LocalSourceFormats, ", "))
		}
	case workspace.SourceTable:
		if n.DataframeBackend == "POLARS" {
			c.add(s.Pos, Error, CodePolars, "Unity Catalog data source does not support the Polars backend.",
				"read the table's files with `path` + `format: DELTA`, or use the PYSPARK backend")
		}
	}
}

func (c *checker) localSink(n *workspace.Node, sk *workspace.Sink) {
	if sk.CustomWriter != "" {
		c.add(sk.At("custom_writer"), Warning, CodeLocalFormat,
			fmt.Sprintf("node '%s' writes with the Python custom_writer %s: local runs cannot call it", n.Name, sk.CustomWriter),
			"write to a DELTA, PARQUET, CSV or JSON sink")
	}
	c.deletionVectors(n, sk)
	c.isolationLevel(n, sk)
	f := sk.EffectiveFormat()
	if parts := sk.PartitionBy(); sk.Kind == workspace.SinkFile && strings.EqualFold(f, "JSON") && len(parts) > 0 && sk.Backend != "POLARS" {
		// On POLARS write_json takes no partition_by: its writer_kwargs check says so.
		c.add(sk.At("writer_methods"), Error, CodeJSONPartitions,
			fmt.Sprintf("local runs cannot write sink #%d of node '%s' partitioned by %s: Spark writes JSON files in one folder per value (%s=.../part-*.json), and DuckDB's JSON COPY has no PARTITION_BY", sk.Index+1, n.Name, strings.Join(parts, ", "), parts[0]),
			"remove the partitionBy writer method, or write the sink as PARQUET, CSV or DELTA, which local runs partition as Spark does")
	}
	if (sk.Kind == workspace.SinkFile || sk.Kind == workspace.SinkTable) && f != "" && !slices.Contains(LocalSinkFormats, strings.ToUpper(f)) && !strings.Contains(f, "${") {
		c.add(sk.At("format"), Warning, CodeLocalFormat,
			fmt.Sprintf("local runs cannot write %s (sink #%d of node '%s')", f, sk.Index+1, n.Name),
			"local runs write "+strings.Join(LocalSinkFormats, ", "))
	}
}

// polarsDeltaModes are the modes Laktory 0.13.1 writes a DELTA file sink
// with on the POLARS backend (POLARS_DELTA_MODES).
var polarsDeltaModes = []string{"ERROR", "APPEND", "OVERWRITE", "MERGE"}

// laktorySink mirrors sink checks Laktory makes when it builds the model.
func (c *checker) laktorySink(n *workspace.Node, sk *workspace.Sink) {
	merge := sk.Mode == workspace.ModeMerge || sk.MergeCDC != nil
	if merge && !sk.IsDelta() && sk.Kind != workspace.SinkForEach {
		msg := "Only 'DELTA' format is supported with 'MERGE' mode."
		if sk.Kind == workspace.SinkTable {
			msg = fmt.Sprintf("MERGE mode requires DELTA format, got '%s'.", sk.EffectiveFormat())
		}
		c.add(sk.At("format"), Error, CodeMergeFormat, msg, "set `format: DELTA`")
	}
	if sk.IsView() && sk.ResetMode == "TRUNCATE" {
		c.add(sk.At("reset_mode"), Error, CodeTruncateView, "reset_mode TRUNCATE is not supported by view", "remove reset_mode (a view is dropped)")
	}
	if sk.CustomWriter != "" && sk.Mode != "" {
		c.add(sk.At("mode"), Error, CodeCustomWriterMode, "`custom_writer` and `mode` are mutually exclusive.", "remove `mode`: the custom writer decides how to write")
	}
	if sk.CustomWriter != "" && sk.MergeCDC != nil {
		c.add(sk.At("merge_cdc_options"), Error, CodeCustomWriterMode, "`custom_writer` and `merge_cdc_options` are mutually exclusive.", "remove `merge_cdc_options`")
	}
	if sk.Backend != "POLARS" && n.DataframeBackend != "POLARS" {
		return
	}
	switch {
	case sk.Kind == workspace.SinkTable:
		c.add(sk.Pos, Error, CodePolars,
			"Table data sink does not support the Polars backend. Use FileDataSink with DELTA format for Polars file-based writes.",
			"write `path:` + `format: DELTA`, or use the PYSPARK backend")
	case sk.Kind == workspace.SinkFile && sk.Format == "DELTA" && !slices.Contains(polarsDeltaModes, sk.Mode) && !strings.Contains(sk.Mode, "${"):
		mode, at := sk.Mode, sk.At("mode")
		if mode == "" {
			mode, at = "None", sk.Pos
		}
		c.add(at, Error, CodePolars, fmt.Sprintf("Mode '%s' is not supported for Polars DataFrame with DELTA format. Set to %s", mode, workspace.PyList(polarsDeltaModes)),
			"set `mode: APPEND` (or OVERWRITE, ERROR, MERGE)")
	case sk.Kind == workspace.SinkFile && sk.Format != "DELTA" && sk.Mode != "":
		c.add(sk.At("mode"), Error, CodePolars, fmt.Sprintf("Mode '%s' is not supported for Polars DataFrame. Set to `None`", sk.Mode), "remove `mode`")
	}
	if merge {
		c.add(sk.At("mode"), Error, CodePolars,
			"MERGE is requested with the POLARS backend, which is not currently implemented for merge operations.",
			"use the PYSPARK backend, or APPEND/OVERWRITE")
	}
}

// DVReadersLost names the readers that refuse a Delta table with the
// deletionVectors feature, as measured by the interop tests
// (docs/delta-tables.md, "Deletion vectors"): delta-rs' pyarrow path
// refuses the feature itself, DVs written or not, and so does polars 1.32.0
// (the version laktory[polars] 0.13.1 installs).
const DVReadersLost = "deltalake (delta-rs) 1.6's pyarrow readers (DeltaTable.to_pyarrow_table, to_pyarrow_dataset, to_pandas) and polars 1.32.0 (the version laktory[polars] 0.13.1 installs)"

// deletionVectors warns about a sink whose table properties enable
// deletion vectors: deletes then mark rows instead of rewriting files, and
// some readers cannot read the table.
func (c *checker) deletionVectors(n *workspace.Node, sk *workspace.Sink) {
	if sk.Metadata == nil {
		return
	}
	for k, v := range sk.Metadata.Properties {
		if strings.EqualFold(k, "delta.enableDeletionVectors") && strings.EqualFold(strings.TrimSpace(v), "true") {
			c.add(sk.Metadata.At("properties"), Warning, CodeDeletionVectors,
				fmt.Sprintf("node '%s' writes %s with deletion vectors (delta.enableDeletionVectors=true): deletes and FULL refreshes mark rows instead of rewriting files, and %s refuse the table; delta-rs' DataFusion QueryBuilder, Spark and Databricks read it",
					n.Name, sk.Describe(), DVReadersLost),
				"remove the property to keep every reader, or read the table with deltalake's QueryBuilder or Spark; `laktory table optimize` purges the deleted rows")
		}
	}
}

// IsolationLevels are the values of delta.isolationLevel a sink may set
// (in any case, as Delta parses them: IsolationLevel.fromString): the
// levels Databricks lets a table have, which local runs honour as Delta
// does (docs/delta-tables.md, "Conflicts and isolation levels").
var IsolationLevels = []string{"Serializable", "WriteSerializable"}

// isolationLevel refuses a delta.isolationLevel that local runs would not
// honour as Delta does: SnapshotIsolation (Delta honours it on a table
// that has it, but refuses to set it), a value that is no level (Delta
// refuses every write to such a table, DELTA_INVALID_ISOLATION_LEVEL, as
// local runs do), or the key in another case (Delta's property keys are
// case-insensitive, DeltaConfigs.validateConfigurations, so Databricks
// writes delta.isolationLevel where local runs would keep the key as it is
// and read the table as Serializable).
func (c *checker) isolationLevel(n *workspace.Node, sk *workspace.Sink) {
	if sk.Metadata == nil {
		return
	}
	const key = "delta.isolationLevel"
	for _, k := range slices.Sorted(maps.Keys(sk.Metadata.Properties)) {
		if !strings.EqualFold(k, key) {
			continue
		}
		v := sk.Metadata.Properties[k]
		at := sk.Metadata.At("properties")
		if k != key {
			c.add(at, Error, CodeIsolationLevel,
				fmt.Sprintf("node '%s' sets the table property %s of %s: Delta reads it as %s (its keys are case-insensitive), local runs would not", n.Name, k, sk.Describe(), key),
				"write the key as "+key)
			continue
		}
		if strings.Contains(v, "${") || slices.ContainsFunc(IsolationLevels, func(l string) bool { return strings.EqualFold(l, v) }) {
			continue
		}
		if strings.EqualFold(v, "SnapshotIsolation") {
			c.add(at, Error, CodeIsolationLevel,
				fmt.Sprintf("node '%s' sets %s = %s on %s: Delta refuses to set it on a table (OSS Delta: only Serializable; Databricks: Serializable or WriteSerializable), so the pipeline would not deploy", n.Name, key, v, sk.Describe()),
				"set "+strings.Join(IsolationLevels, " or ")+" (WriteSerializable does not conflict with blind appends)")
			continue
		}
		c.add(at, Error, CodeIsolationLevel,
			fmt.Sprintf("node '%s' sets %s = %q on %s, which is no isolation level: Delta refuses every write to such a table (DELTA_INVALID_ISOLATION_LEVEL), and so do local runs", n.Name, key, v, sk.Describe()),
			"set "+strings.Join(IsolationLevels, " or ")+", or remove the property (Serializable)")
	}
}
