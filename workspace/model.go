package workspace

import (
	"strings"
	"time"
)

// Orchestrator types (Laktory 0.12+).
const (
	OrchestratorLakeflowJob         = "LAKEFLOW_JOB"
	OrchestratorLakeflowDeclarative = "LAKEFLOW_DECLARATIVE_PIPELINE"
	OrchestratorSparkDeclarative    = "SPARK_DECLARATIVE_PIPELINE"
	OrchestratorAirflow             = "AIRFLOW"
)

// Sink modes.
const (
	ModeAppend    = "APPEND"
	ModeOverwrite = "OVERWRITE"
	ModeMerge     = "MERGE"
)

// DefaultWriterColumn is the column that carries the writer id of each row
// of a shared table, unless shared.column names another.
const DefaultWriterColumn = "_laktory_writer"

// Located carries the position of an object (the start of its mapping) and
// of each field the YAML sets (the position of the field's value).
type Located struct {
	Pos    Pos
	Fields map[string]Pos
}

// At returns the position of field's value, or of the object when the field
// is not set.
func (l Located) At(field string) Pos {
	if p, ok := l.Fields[field]; ok {
		return p
	}
	return l.Pos
}

// Has reports whether the YAML sets field.
func (l Located) Has(field string) bool {
	_, ok := l.Fields[field]
	return ok
}

// Pipeline is one Laktory pipeline.
type Pipeline struct {
	Located
	Name string
	// File is the file that declares the pipeline: the pipeline file, or the
	// stack file for a pipeline of resources.pipelines. Relative paths
	// resolve against its folder.
	File string
	// StackKey is the key under resources.pipelines ("" outside a stack).
	StackKey         string
	Orchestrator     string // orchestrator type, "" when none
	DataframeBackend string // PYSPARK, POLARS or "" (Laktory's default: PYSPARK)
	DataframeAPI     string // NARWHALS, NATIVE or ""
	RootPath         string
	Variables        map[string]any
	// Stale is set when the pipeline's file no longer parses: the pipeline
	// is its last good content (see the file's LK001 diagnostic).
	Stale bool
	// Parameters are the pipeline's `parameters`, in declaration order.
	Parameters []*Parameter
	Nodes      []*Node
	// DAG is the node graph; see DAG.
	DAG *DAG
	// nodeIndex is the first node of each name (built with the DAG).
	nodeIndex map[string]*Node
}

// Declarative reports whether the orchestrator owns the tables (Lakeflow or
// Spark declarative pipelines).
func (p *Pipeline) Declarative() bool {
	return p.Orchestrator == OrchestratorLakeflowDeclarative || p.Orchestrator == OrchestratorSparkDeclarative
}

// MaterializedView reports whether sink sk of node n of p is a
// materialized view of a declarative pipeline: Laktory 0.13.1 declares a
// table sink of a batch node (no stream read, no one-time flow), the only
// node of p writing its table, with dp.materialized_view (define_table in
// its laktory_sdp.py and laktory_ldp.py), which each update recomputes and
// replaces whatever the sink's mode. Tables several nodes write are
// streaming tables their append flows append to.
func (p *Pipeline) MaterializedView(n *Node, sk *Sink) bool {
	if !p.Declarative() || sk.Kind != SinkTable || sk.IsView() || sk.MergeCDC != nil || sk.Table == "" ||
		n.Streaming() || sk.AsStream != nil && *sk.AsStream || n.Flow != nil && n.Flow.Once {
		return false
	}
	for _, o := range p.Nodes {
		if o == n {
			continue
		}
		for _, os := range o.Sinks {
			if os.Table == sk.Table {
				return false
			}
		}
	}
	return true
}

// Node returns the first node named name, or nil.
func (p *Pipeline) Node(name string) *Node {
	if p.nodeIndex != nil {
		return p.nodeIndex[name]
	}
	for _, n := range p.Nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// NodeRef is a reference to another node or source found in a transformer
// ({nodes.x} / {sources.x}) or a func_args value.
type NodeRef struct {
	Name string
	Pos  Pos
}

// Node is a pipeline node: sources, a transformer, expectations and sinks.
type Node struct {
	Located
	Name              string
	Pipeline          string // name of the pipeline
	Sources           []*Source
	Transformer       []*Step
	Expectations      []*Expectation
	Sinks             []*Sink
	DependsOn         []string
	Tags              []string
	PrimaryKeys       []string
	Comment           string
	ExecutionTaskName string
	// DataframeBackend and DataframeAPI are the effective values (node,
	// else pipeline).
	DataframeBackend string
	DataframeAPI     string
	// SparkConf is the node's effective Spark configuration: the job
	// cluster's spark_conf (LAKEFLOW_JOB's node-cluster) or the declarative
	// pipeline's configuration, then its flow's spark_conf (local runs read
	// spark.sql.session.timeZone from it).
	SparkConf map[string]string
	// Flow holds the append-flow options of a declarative pipeline (the
	// `flow:` extension), nil when absent.
	Flow *Flow
	// NodeRefs are the {nodes.x} references of the transformer, SourceRefs
	// the {sources.x} ones, in order of appearance.
	NodeRefs   []NodeRef
	SourceRefs []NodeRef
}

// TaskName is the node's task: execution_task_name, else node-{name}.
func (n *Node) TaskName() string {
	if n.ExecutionTaskName != "" {
		return n.ExecutionTaskName
	}
	return "node-" + n.Name
}

// SinkAt returns the sink declared at position index of the node's sinks
// list (Sink.Index, Writer.Sink), or nil (also for a nil node). A sink that failed to load is left
// out of Sinks, so the position is not an index into Sinks.
func (n *Node) SinkAt(index int) *Sink {
	if n == nil {
		return nil
	}
	for _, sk := range n.Sinks {
		if sk.Index == index {
			return sk
		}
	}
	return nil
}

// PrimarySink is the first sink that is not a quarantine sink, or nil.
func (n *Node) PrimarySink() *Sink {
	for _, s := range n.Sinks {
		if !s.IsQuarantine {
			return s
		}
	}
	return nil
}

// Streaming reports whether the node reads a stream (a source with
// as_stream: true).
func (n *Node) Streaming() bool {
	for _, s := range n.Sources {
		if s.AsStream {
			return true
		}
	}
	return false
}

// FlowName is the append flow of the node writing sink s in a declarative
// pipeline: flow.name, else {table_name}__{node_name} (the table's last name
// part for a table sink, the ForEach name or the folder name otherwise).
func (n *Node) FlowName(s *Sink) string {
	if n.Flow != nil && n.Flow.Name != "" {
		return n.Flow.Name
	}
	return s.targetName(n.Name) + "__" + n.Name
}

// SourceKind tells how a source reads.
type SourceKind string

// Source kinds.
const (
	SourceFile      SourceKind = "FILE"
	SourceTable     SourceKind = "TABLE"
	SourceNode      SourceKind = "PIPELINE_NODE"
	SourceDataFrame SourceKind = "DATAFRAME"
	SourceCustom    SourceKind = "CUSTOM"
)

// Rename maps a column to a new name; in a select list From == To.
type Rename struct {
	From, To string
}

// Source is one entry of a node's sources.
type Source struct {
	Located
	Index int
	Kind  SourceKind
	// Type is the explicit `type:` ("" when inferred from the fields).
	Type string
	Name string
	// Path is the path as written, ResolvedPath the absolute path (relative
	// paths resolve against the pipeline file's folder).
	Path, ResolvedPath, Format string
	// WrittenFormat is the format as written when it names one of
	// Laktory's in another case (`csv`): Format is then the upper-case
	// name, and Laktory applies none of its options for the format
	// (workspace/formats.go).
	WrittenFormat string
	TableName     string
	CatalogName   string
	SchemaName    string
	// TableRef is the parsed table name of a table source.
	TableRef *TableRef
	// Table is the identity of the table read: a table source, or a path
	// source pointing at a table folder. Empty otherwise.
	Table         TableID
	NodeName      string
	AsStream      bool
	ReaderKwargs  map[string]any
	ReaderMethods []Method
	Filter        string
	Selects       []Rename
	Renames       []Rename
	Drops         []string
	// DropDuplicates is true for drop_duplicates: true (all columns) or
	// when DropDuplicatesOn lists columns.
	DropDuplicates   bool
	DropDuplicatesOn []string
	Schema           *Schema
	HasHeader        *bool
	InferSchema      *bool
	// Data is a DATAFRAME source's inline `data` (nil for `df`, a Python
	// object).
	Data *InlineData
	// Backend is the source's effective dataframe_backend (its own, else
	// its node's or pipeline's; PYSPARK by default): it decides how the
	// files are read (Spark's JSON reader orders the columns by name).
	Backend string
}

// ReaderOption returns reader_kwargs[key], matching the key
// case-insensitively (Spark options are case-insensitive).
func (s *Source) ReaderOption(key string) (any, bool) {
	for k, v := range s.ReaderKwargs {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

// SkipChangeCommits reports whether reader_kwargs sets skipChangeCommits.
func (s *Source) SkipChangeCommits() bool {
	v, ok := s.ReaderOption("skipChangeCommits")
	return ok && truthy(v)
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return strings.EqualFold(x, "true")
	case int64:
		return x != 0
	}
	return false
}

// SinkKind tells what a sink writes.
type SinkKind string

// Sink kinds.
const (
	SinkFile         SinkKind = "FILE"
	SinkTable        SinkKind = "TABLE"
	SinkPipelineView SinkKind = "PIPELINE_VIEW"
	SinkForEach      SinkKind = "FOREACH"
)

// Sink is one entry of a node's sinks.
type Sink struct {
	Located
	Index int
	Kind  SinkKind
	// Backend is the sink's effective dataframe_backend (its own, else
	// its node's): "" is Laktory's default, PYSPARK.
	Backend string
	// Type is the explicit `type:` ("" when inferred from the fields).
	Type string
	// Path is the path as written, ResolvedPath the absolute path.
	Path, ResolvedPath string
	// Format is as written (upper case when WrittenFormat is set); a table
	// sink without format is DELTA.
	Format string
	// WrittenFormat is a file sink's format as written when it names one
	// of Laktory's in another case (`parquet`): PySpark writes it as
	// Spark's format of that name (workspace/formats.go).
	WrittenFormat    string
	TableName        string
	CatalogName      string
	SchemaName       string
	TableType        string // TABLE (default) or VIEW
	TableRef         *TableRef
	PipelineViewName string
	Mode             string // as written (upper case), "" when unset
	Shared           *Shared
	ResetMode        string
	IsQuarantine     bool
	CheckpointPath   string
	AsStream         *bool
	WriterKwargs     map[string]any
	WriterMethods    []Method
	Schema           *Schema
	MergeCDC         *MergeCDC
	Metadata         *TableMetadata
	CustomWriter     string
	// ForEach is the ForEach writer of a `foreach:` sink.
	ForEach *ForEach
	// Table is the identity of the written table ("" for ForEach and
	// pipeline-view sinks).
	Table TableID
}

// EffectiveFormat is the format, DELTA for a table sink that sets none.
func (s *Sink) EffectiveFormat() string {
	if s.Format == "" && s.Kind == SinkTable {
		return "DELTA"
	}
	return s.Format
}

// IsDelta reports whether the sink writes a Delta table.
func (s *Sink) IsDelta() bool { return s.EffectiveFormat() == "DELTA" }

// IsView reports whether the sink is a VIEW table sink.
func (s *Sink) IsView() bool { return s.Kind == SinkTable && s.TableType == "VIEW" }

// PartitionBy returns the columns of a partitionBy writer method; on
// POLARS, whose writer ignores writer_methods (Laktory 0.13.1), those of
// writer_kwargs: a DELTA sink's delta_write_options partition_by, a
// PARQUET sink's partition_by (polars' write_delta and write_parquet).
func (s *Sink) PartitionBy() []string {
	if s.Backend == "POLARS" {
		v := s.WriterKwargs["partition_by"]
		if s.IsDelta() {
			m, _ := s.WriterKwargs["delta_write_options"].(map[string]any)
			v = m["partition_by"]
		}
		switch x := v.(type) {
		case string:
			return []string{x}
		case []any:
			var out []string
			for _, e := range x {
				if c, ok := e.(string); ok {
					out = append(out, c)
				}
			}
			return out
		}
		return nil
	}
	var cols []string
	for _, m := range s.WriterMethods {
		if m.Name == "partitionBy" {
			for _, a := range m.Args {
				switch v := a.(type) {
				case string:
					cols = append(cols, v)
				case []any:
					for _, x := range v {
						if s, ok := x.(string); ok {
							cols = append(cols, s)
						}
					}
				}
			}
		}
	}
	return cols
}

// Describe names the sink for messages: table_name, path, view or ForEach name.
func (s *Sink) Describe() string {
	switch s.Kind {
	case SinkTable:
		return "table " + s.TableName
	case SinkFile:
		return "path " + s.Path
	case SinkPipelineView:
		return "view " + s.PipelineViewName
	case SinkForEach:
		if s.ForEach != nil && s.ForEach.Name != "" {
			return "ForEach sink " + s.ForEach.Name
		}
		return "ForEach sink"
	}
	return "sink"
}

func (s *Sink) targetName(node string) string {
	switch {
	case s.TableRef != nil:
		return s.TableRef.Table
	case s.Kind == SinkForEach:
		if s.ForEach != nil && s.ForEach.Name != "" {
			return s.ForEach.Name
		}
		return node
	case s.Kind == SinkPipelineView:
		return s.PipelineViewName
	}
	p := strings.TrimRight(s.Path, "/")
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// Shared holds a sink's `shared:` options (shared: true is the zero value).
type Shared struct {
	Located
	// WriterID is the pinned writer id ("" = {pipeline}.{node}).
	WriterID string
	// Column is the declared writer column ("" = _laktory_writer).
	Column string
	// Where is the ownership predicate ("" = a writer column is used).
	Where string
}

// UsesWriterColumn reports whether rows carry their writer in a column
// (otherwise the where predicate identifies them).
func (s *Shared) UsesWriterColumn() bool { return s.Where == "" }

// EffectiveColumn is the writer column ("" with a where predicate).
func (s *Shared) EffectiveColumn() string {
	if !s.UsesWriterColumn() {
		return ""
	}
	if s.Column != "" {
		return s.Column
	}
	return DefaultWriterColumn
}

// EffectiveWriterID is the writer id: the pinned one, else
// {pipeline}.{node} ("" with a where predicate).
func (s *Shared) EffectiveWriterID(pipeline, node string) string {
	if s.WriterID != "" {
		return s.WriterID
	}
	if !s.UsesWriterColumn() {
		return ""
	}
	return pipeline + "." + node
}

// Step is one transformer step: a SQL expression or a DataFrame method.
type Step struct {
	Located
	Index int
	// Expr is the SQL of an `expr:` step, with {df}, {sources.x} and
	// {nodes.x} placeholders.
	Expr         string
	FuncName     string
	FuncArgs     []Arg
	FuncKwargs   []Arg
	DataframeAPI string
}

// IsSQL reports whether the step is an `expr:` SQL step.
func (s *Step) IsSQL() bool { return s.FuncName == "" }

// Arg is a func_args item (Name "") or a func_kwargs entry, in YAML order.
// Value is a string, bool, int64, float64, nil, []any or map[string]any.
type Arg struct {
	Name  string
	Value any
	Pos   Pos
}

// Method is a reader or writer method: {name, args, kwargs}.
type Method struct {
	Name   string
	Args   []any
	Kwargs map[string]any
	Pos    Pos
}

// Expectation is a data quality expectation.
type Expectation struct {
	Located
	Name   string
	Expr   string
	Action string // WARN (default), DROP, QUARANTINE, FAIL
	Type   string // ROW (default) or AGGREGATE
	// ToleranceAbs / ToleranceRel are the tolerance, nil when unset.
	ToleranceAbs *int64
	ToleranceRel *float64
}

// Schema is an explicit table schema.
type Schema struct {
	Located
	Columns []Column
}

// Column is one column of a Schema.
type Column struct {
	Name string
	// Type is the dtype as the runner maps it to an engine's type: its
	// name as written (`long`, `Int64`), `timestamp_ntz` for a Datetime
	// without time zone, "" when the dtype is missing.
	Type string
	// DType is the dtype as written, nil when missing.
	DType    *DType
	Nullable bool
}

func (c *Column) setType() {
	switch {
	case c.DType == nil:
	case c.DType.NoTimeZone && strings.EqualFold(c.DType.Name, "datetime"):
		c.Type = "timestamp_ntz"
	default:
		c.Type = c.DType.Name
	}
}

// DType is a column's data type as Laktory 0.13.1's DType reads it: a name
// (Laktory's or one of its aliases, in any case), and for nested types the
// inner type (List, Array), the shape (Array) or the fields (Struct).
type DType struct {
	Located
	Name  string
	Inner *DType
	// Shape reports whether `shape` is set; HasFields whether `fields` is.
	Shape     bool
	HasFields bool
	Fields    []DField
	// NoTimeZone: `time_zone: null` (a Datetime without time zone: Spark's
	// TIMESTAMP_NTZ).
	NoTimeZone bool
	// TimeUnit is a Datetime's `time_unit` as written ("" when not set:
	// Laktory's us).
	TimeUnit string
}

// DField is a field of a Struct dtype.
type DField struct {
	Name  string
	DType *DType
}

// TableMetadata is a table sink's metadata (comment and properties).
type TableMetadata struct {
	Located
	Comment    string
	Properties map[string]string
	// Columns are metadata.columns, the columns' comments.
	Columns []*ColumnMetadata
}

// ColumnMetadata is one item of a sink's metadata.columns.
type ColumnMetadata struct {
	Located
	Name, Comment string
}

// Flow kinds.
const (
	FlowAppend = "append"
	FlowUpdate = "update"
)

// Flow holds a node's append-flow options in a declarative pipeline (our
// `flow:` extension of Laktory's node).
type Flow struct {
	Located
	// Name is the declared flow name ("" = {table_name}__{node_name}).
	Name string
	// Once marks a one-time (backfill) flow: a batch read that runs again
	// only after a full refresh.
	Once bool
	// ImportCheckpoint is a Structured Streaming checkpoint to import on the
	// flow's first update.
	ImportCheckpoint string
	Comment          string
	SparkConf        map[string]string
	// Kind is append (default) or update.
	Kind string
}

// ForEach is a sink that hands each row to user code: a command or an HTTP
// request (our `foreach:` extension).
type ForEach struct {
	Located
	// Name is the declared sink name ("" = the node name).
	Name string
	// Command is the writer process and its arguments.
	Command []string
	HTTP    *HTTPWriter
}

// HTTPWriter is the built-in HTTP writer of a ForEach sink.
type HTTPWriter struct {
	Located
	Method  string // PUT (default), POST, PATCH or DELETE
	URL     string // with {column} placeholders
	Headers map[string]string
	Timeout time.Duration // 0 = the runner's default
	// URLColumns are the columns named by the URL's placeholders, in order.
	URLColumns []string
}

// Parameter is a pipeline parameter, referenced as ${params.NAME} in the
// pipeline's nodes and set for each run (laktory run --param NAME=VALUE).
type Parameter struct {
	Located
	Name string
	// Default is the declared default; nil makes the parameter required.
	Default *string
	// Value is the value the snapshot was loaded with: the run's, else the
	// default; Set is false when neither exists.
	Value string
	Set   bool
	// EmptyRefused is true when the run gave the parameter an empty value,
	// refused (LK020) where it was given: it is not reported again as a
	// required parameter without a value.
	EmptyRefused bool
}

// MissingParameters returns the required parameters that have no value.
func (p *Pipeline) MissingParameters() []string {
	var out []string
	for _, prm := range p.Parameters {
		if !prm.Set && !prm.EmptyRefused {
			out = append(out, prm.Name)
		}
	}
	return out
}

// NestedDType reports whether t is a List, an Array or a Struct.
func NestedDType(t *DType) bool {
	if t == nil {
		return false
	}
	switch strings.ToLower(t.Name) {
	case "list", "array", "struct":
		return true
	}
	return false
}
