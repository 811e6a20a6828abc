package validate

import "github.com/laktory/workbench/workspace"

// Diagnostic is one problem: file, line, column, severity, a stable code, a
// message saying what is wrong and a hint saying how to fix it. It is the
// workspace package's type, so load and rule diagnostics mix freely.
type Diagnostic = workspace.Diagnostic

// Severity grades a diagnostic (error, warning, info).
type Severity = workspace.Severity

// Severities.
const (
	Error   = workspace.SeverityError
	Warning = workspace.SeverityWarning
	Info    = workspace.SeverityInfo
)

// CodeInfo documents one diagnostic code.
type CodeInfo struct {
	Code     string
	Severity Severity
	Title    string
}

// Rule codes. Load codes (LK0xx) are declared in package workspace.
const (
	CodeNotShared          = "LK101"
	CodeMultiWriterFormat  = "LK102"
	CodeSharedMode         = "LK103"
	CodeSharedFormat       = "LK104"
	CodeOwnershipKind      = "LK105"
	CodeSharedColumn       = "LK106"
	CodeSameWriterID       = "LK107"
	CodeSameWhere          = "LK108"
	CodeDType              = "LK109"
	CodeWhereSyntax        = "LK110"
	CodeWhereOverlap       = "LK111"
	CodeWhereUnproven      = "LK112"
	CodeWhereColumn        = "LK113"
	CodeUnresolvedRef      = "LK114"
	CodeWhereFloatEqual    = "LK115"
	CodeNameTooLong        = "LK116"
	CodeTolerance          = "LK117"
	CodeAggregateAction    = "LK118"
	CodeSparkNoMode        = "LK119"
	CodeDeclarativeOwner   = "LK120"
	CodeParamUndeclared    = "LK121"
	CodeSharedNotDeclared  = "LK122"
	CodeStreamExpectation  = "LK123"
	CodeDeclarativeTwice   = "LK124"
	CodeTruncateFile       = "LK125"
	CodeStreamMismatch     = "LK128"
	CodeSparkMode          = "LK129"
	CodePipelineViewRead   = "LK143"
	CodeViewColumnComment  = "LK144"
	CodeDeclarativeShared  = "LK130"
	CodeDeclarativeNodeRd  = "LK131"
	CodeDeclarativeWriter  = "LK132"
	CodeTableProperties    = "LK133"
	CodeExpectationsDiffer = "LK134"
	CodeFlowNotDeclarative = "LK135"
	CodeFlowOnceStream     = "LK136"
	CodeFlowCheckpoint     = "LK137"
	CodeFlowUpdate         = "LK138"
	CodeFlowName           = "LK139"
	CodeForEachWriter      = "LK140"
	CodeForEachColumn      = "LK141"
	CodeForEachURL         = "LK142"
	CodeSkipWholeTable     = "LK150"
	CodeSkipNodeReader     = "LK151"
	CodeSkipNotStream      = "LK152"
	CodeAggregatePandas    = "LK153"
	CodePandasCheck        = "LK154"
	CodeStreamDistinctAgg  = "LK155"
	CodeStreamChainedAgg   = "LK156"
	CodeStreamIntersect    = "LK157"
	CodeStreamAppendAgg    = "LK158"
	CodeRefreshValue       = "LK160"
	CodeResetModeValue     = "LK161"
	CodeResetWithoutRefr   = "LK162"
	CodeFullOverrideShared = "LK163"
	CodeFullOverrideOthers = "LK164"
	CodeDeclarativeRefresh = "LK165"
	CodeResetOtherWriters  = "LK166"
	CodeViewDeclarative    = "LK167"
	CodeCompleteNoAgg      = "LK168"
	CodeUnknownNode        = "LK170"
	CodeDuplicateNode      = "LK171"
	CodeCycle              = "LK172"
	CodeUnknownSource      = "LK173"
	CodeLocalStep          = "LK180"
	CodeFrameFails         = "LK181"
	CodeViewSource         = "LK174"
	CodeViewStream         = "LK175"
	CodeViewTransformer    = "LK176"
	CodeViewExpectations   = "LK177"
	CodeViewIgnored        = "LK178"
	CodeViewOtherSink      = "LK179"
	CodeLocalFormat        = "LK182"
	CodeLocalUnsupported   = "LK183"
	CodeDeletionVectors    = "LK184"
	CodeInlineData         = "LK185"
	CodeMergeFormat        = "LK190"
	CodeTruncateView       = "LK191"
	CodePolars             = "LK192"
	CodePolarsReaderArg    = "LK198"
	CodePolarsReaderLocal  = "LK199"
	CodePolarsWriterArg    = "LK186"
	CodePolarsWriterLocal  = "LK187"
	CodePolarsWriterFails  = "LK188"
	CodeCustomWriterMode   = "LK193"
	CodeMergeOptions       = "LK194"
	CodeMergeDeleteWhere   = "LK196"
	CodeQuarantineNoExpect = "LK189"
	CodeLDPSink            = "LK195"
	CodeLegacyTable        = "LK201"
	CodeOrphanWriters      = "LK202"
	CodeOwnershipSwitch    = "LK203"
	CodeFactsUnreadable    = "LK204"
	CodeSourceMissing      = "LK205"
	CodeNotRegular         = "LK206"
	CodeRemotePath         = "LK207"
	CodeIsolationLevel     = "LK208"
	CodePolarsFileType     = "LK220"
	CodePolarsReaderType   = "LK221"
	CodePolarsNDJSONDType  = "LK222"
	CodePolarsSchemaDType  = "LK223"
	CodePolarsNDJSONValues = "LK224"
	// LK23x: a lake in a bucket (docs/object-storage.md).
	CodeBucketLakeEngine = "LK230"
	CodeBucketLakeView   = "LK231"
	CodeBucketSparkNew   = "LK232"
	CodeBucketLogStore   = "LK233"
	CodeCrossCycle       = "LK240" // docs/running.md, "Order across pipelines"
	CodeMaterializedView = "LK241" // docs/declarative.md, "Materialized views"
	CodeReadBeforeWrite  = "LK242" // docs/running.md, "Order within a pipeline"
	CodeJSONPartitions   = "LK243" // docs/running.md, file sinks
	CodeSQLBind          = "LK301"
	CodeSQLDialect       = "LK302"
	CodeSQLDiffers       = "LK303"
	CodeNotBoolean       = "LK304"
	CodeSinkType         = "LK305"
	CodeSinkWidened      = "LK306"
	CodeSchemaUnknown    = "LK307"
	CodeNullDropped      = "LK308"
	// LK4xx: what a run may touch (paths, predicates, SQL).
	CodeWhereShape  = "LK401"
	CodeWhereReads  = "LK402"
	CodePathOutside = "LK403"
	CodeExprStmts   = "LK404"
)

// Codes documents every diagnostic code, load codes included. Codes are
// stable: a code is never reused for another problem.
var Codes = []CodeInfo{
	{workspace.CodeYAMLSyntax, Error, "the file is not valid YAML"},
	{workspace.CodeUnknownKey, Error, "unknown key (with the closest allowed key)"},
	{workspace.CodeWrongType, Error, "a value of the wrong type"},
	{workspace.CodeBadEnum, Error, "a value outside the allowed set (warning for a file format PySpark passes through)"},
	{workspace.CodeMissingField, Error, "a required field is missing"},
	{workspace.CodeInclude, Error, "!use / !extend / !update target missing, of the wrong kind or circular"},
	{workspace.CodeRenamed, Error, "a name Laktory renamed (pre-0.12 orchestrator types, dlt_template)"},
	{workspace.CodeDuplicateKey, Error, "a key declared twice in one mapping"},
	{workspace.CodeUnresolvedVar, Warning, "${vars.x} names no variable (pipeline, stack or environment)"},
	{workspace.CodeExpression, Info, "${{ ... }} Python expressions are not evaluated"},
	{workspace.CodeStackEnv, Error, "--env names no environment of the stack"},
	{workspace.CodeReadFile, Error, "a file cannot be read"},
	{workspace.CodeAmbiguousKind, Error, "a source, sink or step whose kind cannot be told (e.g. path and table_name)"},
	{workspace.CodeDuplicatePipe, Error, "two pipelines share a name"},
	{workspace.CodeConflictingKeys, Error, "keys that exclude each other (source and sources, where with writer_id)"},
	{workspace.CodeUnsupportedValue, Error, "a value Laktory rejects for the backend (streaming with Polars)"},
	{workspace.CodeLaktoryRejects, Warning, "Laktory rejects it at load, local runs are not affected (orchestrator keys, serverless without an environment version); an error with --strict"},
	{workspace.CodeExtension, Warning, "a workbench extension (`flow:`, sink `foreach:`) that Laktory rejects; an error with --strict"},
	{workspace.CodeParameter, Error, "pipeline `parameters` Laktory rejects (reserved, undeclared, outside nodes), or a required one a run leaves unset"},
	{workspace.CodeParamAsText, Warning, "${params.x} in a pipeline that declares no `parameters`: Laktory leaves it as text (an error where a run would use it as a path or table name, LK114)"},
	{workspace.CodeStackResourceName, Error, "a stack resource whose `resource_options.name` is not its key: Laktory refuses the stack"},
	{workspace.CodeStackSettingsRef, Error, "a `${resources...}` reference in the stack's `settings`: Laktory refuses the stack (only Terraform resolves it)"},
	{workspace.CodeNotRead, Error, "a YAML file that looks like a pipeline but is not read (a near-miss of `nodes`, a list of nodes)"},
	{workspace.CodeBadName, Error, "a catalog_name, schema_name or table_name part that is not an identifier (a period, a slash, a space, `..`)"},
	{workspace.CodeExpansion, Error, "a value whose ${vars.x} substitution expands beyond 1 MiB, or a file whose substitutions produce more than 16 MiB (variables repeating each other)"},
	{CodeNotShared, Error, "several nodes of a pipeline write a table and some sinks don't declare shared"},
	{CodeMultiWriterFormat, Error, "a table written by several nodes needs DELTA sinks in APPEND mode"},
	{CodeSharedMode, Error, "a shared sink is not in APPEND mode"},
	{CodeSharedFormat, Error, "a shared sink is not DELTA"},
	{CodeOwnershipKind, Error, "writers of a table identify their rows differently (writer column and where)"},
	{CodeSharedColumn, Error, "writers of a table use different shared.column"},
	{CodeSameWriterID, Error, "writers of a table share a writer id"},
	{CodeSameWhere, Error, "writers of a table share a where predicate"},
	{CodeWhereSyntax, Error, "a where predicate is not valid SQL"},
	{CodeWhereOverlap, Error, "the where predicates of two writers overlap (a row both would own)"},
	{CodeWhereUnproven, Warning, "cannot prove that two where predicates are disjoint"},
	{CodeWhereColumn, Error, "a where predicate names a column its table does not have (schema flow)"},
	{CodeDeclarativeOwner, Error, "a table written by a declarative pipeline has other writers"},
	{CodeParamUndeclared, Error, "a run's --param that no pipeline of the run declares: Laktory's resolve_parameters refuses it"},
	{CodeSharedNotDeclared, Warning, "a writer of a table written by several pipelines doesn't declare shared"},
	{CodeDeclarativeShared, Error, "shared is not supported with declarative orchestrators"},
	{CodeDeclarativeNodeRd, Error, "reading a writer with node_name / {nodes.x} when several nodes append to its table (declarative)"},
	{CodeDeclarativeWriter, Error, "writers of a declarative table must be streaming, non-MERGE Delta sinks"},
	{CodeTableProperties, Error, "writers of a declarative table set conflicting table properties"},
	{CodeExpectationsDiffer, Error, "writers of a declarative table declare different expectations"},
	{CodeFlowNotDeclarative, Error, "flow: options on a pipeline that is not declarative"},
	{CodeFlowOnceStream, Error, "a once flow reads a stream"},
	{CodeFlowCheckpoint, Error, "import_checkpoint on a flow that cannot import one"},
	{CodeFlowUpdate, Error, "an update flow that does not write a ForEach sink"},
	{CodeFlowName, Error, "two flows with one name write a target"},
	{CodeForEachWriter, Error, "a foreach sink needs exactly one of command and http"},
	{CodeForEachColumn, Error, "a foreach URL placeholder names no column of the node's output"},
	{CodeForEachURL, Error, "a foreach URL is not an http(s) URL"},
	{CodeSkipWholeTable, Warning, "a whole-table reader of a shared table uses skipChangeCommits (duplicates)"},
	{CodeSkipNodeReader, Info, "a node_name reader with skipChangeCommits needs a FULL refresh after its writer's"},
	{CodeSkipNotStream, Warning, "skipChangeCommits on a batch read has no effect"},
	{CodeAggregatePandas, Warning, "an AGGREGATE expectation on POLARS: Laktory computes it with pandas, which laktory[polars] does not install"},
	{CodePandasCheck, Error, "a narwhals expectation on PYSPARK that can be NULL or reads a float column: Laktory counts it on a pandas copy of the frame, which local runs model for SQL expectations only (schema flow)"},
	{CodeStreamDistinctAgg, Error, "a streaming node in COMPLETE mode with a distinct aggregate (count(DISTINCT v)): Spark refuses it"},
	{CodeStreamChainedAgg, Error, "a streaming node in COMPLETE mode with an aggregation over another's output: Spark refuses it (global watermark correctness check)"},
	{CodeStreamIntersect, Error, "a streaming node in COMPLETE mode with an INTERSECT of a stream: Spark refuses it"},
	{CodeStreamAppendAgg, Error, "a streaming aggregation written in APPEND mode: Spark refuses it without a watermark, which Laktory 0.13.1 cannot declare"},
	{CodeRefreshValue, Error, "unknown refresh value"},
	{CodeResetModeValue, Error, "unknown reset_mode value"},
	{CodeResetWithoutRefr, Error, "reset_mode without refresh FULL or RESET"},
	{CodeFullOverrideShared, Error, "refresh=FULL with a reset_mode override on a shared sink"},
	{CodeFullOverrideOthers, Error, "refresh=FULL with a reset_mode override on a table shared with other pipelines"},
	{CodeDeclarativeRefresh, Error, "RESET or a reset_mode other than DROP on a declarative pipeline"},
	{CodeResetOtherWriters, Warning, "a reset of a whole shared table: writers of other pipelines need a FULL refresh"},
	{CodeViewDeclarative, Error, "a VIEW sink in a declarative pipeline (Laktory refuses it at load)"},
	{CodeCompleteNoAgg, Error, "a streaming sink in COMPLETE mode on a node that does not aggregate: Spark refuses it"},
	{CodeUnknownNode, Error, "a node_name, depends_on or {nodes.x} names no node of the pipeline"},
	{CodeDuplicateNode, Error, "a node name declared twice in a pipeline"},
	{CodeCycle, Error, "the nodes of a pipeline form a cycle"},
	{CodeUnknownSource, Error, "{sources.x} names no source of the node"},
	{CodeLocalStep, Error, "a transformer step that cannot run locally: a func_name step with a construct local runs do not translate, named (schema flow)"},
	{CodeFrameFails, Error, "a func_name step Laktory 0.13.1 fails on, with its message: a method the dataframe_api lacks, a missing column (with the candidates), a type error (schema flow)"},
	{CodeViewSource, Error, "a view node reads what is not a table: a file or DATAFRAME source, a node without a table sink (Laktory refuses it at load or its run fails)"},
	{CodeViewStream, Error, "a view node reads a stream (Laktory refuses it at load)"},
	{CodeViewTransformer, Error, "a view node's transformer is not a single SQL step (Laktory refuses it at load)"},
	{CodeViewExpectations, Error, "a view node has expectations (Laktory refuses it at load)"},
	{CodeViewIgnored, Warning, "a VIEW sink or its node's source sets what a view ignores: mode, merge_cdc_options, format, writer options, streaming; a source's filter, selects, renames, drops"},
	{CodeViewOtherSink, Error, "a view node has a sink that is not a VIEW: Laktory's run writes it with the view's SQL and fails"},
	{CodeLocalFormat, Warning, "a source, sink or format that does not run locally"},
	{CodeLocalUnsupported, Error, "a run selects a node local runs do not support yet: nothing runs"},
	{CodeDeletionVectors, Warning, "a sink enables deletion vectors: the readers that cannot read such a table are named"},
	{CodeInlineData, Error, "a DATAFRAME source's inline data its backend fails to build (polars' TypeError or ShapeError, Spark's CANNOT_MERGE_TYPE), with its message (schema flow)"},
	{CodeMergeFormat, Error, "MERGE needs a DELTA sink"},
	{CodeTruncateView, Error, "reset_mode TRUNCATE on a view"},
	{CodePolars, Error, "a sink or source Laktory rejects with the Polars backend"},
	{CodeCustomWriterMode, Error, "custom_writer with mode or merge_cdc_options"},
	{CodeMergeOptions, Error, "merge_cdc_options Laktory rejects, or with which its merge fails"},
	{CodeMergeDeleteWhere, Error, "an SCD type 1 delete_where Laktory's text replacement breaks"},
	{CodeQuarantineNoExpect, Error, "a quarantine sink on a node without expectations: Laktory's run fails writing it (AttributeError)"},
	{CodeLDPSink, Error, "a sink Lakeflow Declarative Pipelines do not support"},
	{CodePolarsReaderArg, Error, "a POLARS file source's reader_kwargs holds an argument polars' reader does not take (Laktory's run fails with its TypeError)"},
	{CodePolarsReaderLocal, Error, "a POLARS file source's reader_kwargs holds an argument polars applies and local runs do not"},
	{CodePolarsWriterArg, Error, "a POLARS file sink's writer_kwargs holds an argument polars' writer does not take, or `mode` (Laktory's run fails with its TypeError)"},
	{CodePolarsWriterLocal, Error, "a POLARS file sink's writer_kwargs holds an argument polars applies and local runs do not"},
	{CodePolarsWriterFails, Warning, "a POLARS file sink Laktory 0.13.1 writes otherwise: writer_methods it ignores, a folder it does not create, a partitioned sink it creates unpartitioned, an ERROR DELTA sink it never writes"},
	{CodeLegacyTable, Error, "a shared table without its writer column (deep)"},
	{CodeOrphanWriters, Warning, "rows of writer ids no current writer declares (deep)"},
	{CodeOwnershipSwitch, Warning, "a table keeps a writer column its writers no longer use (deep)"},
	{CodeFactsUnreadable, Warning, "the facts of a table could not be read (deep)"},
	{CodeSourceMissing, Warning, "a file source path that does not exist on this machine (read from disk by the caller); an error in plans, runs and validate --deep"},
	{CodeBucketLakeEngine, Error, "a run on the Spark engine with the lake in a bucket (s3://) on a server that cannot write it safely: no s3a (hadoop-aws), or a Delta LogStore other than S3SingleDriverLogStore (DynamoDB's does not exclude the workbench's commits); nothing runs"},
	{CodeBucketLakeView, Error, "a VIEW sink with the lake in a bucket (s3://): views are files of a local lake; nothing runs"},
	{CodeBucketSparkNew, Error, "on the Spark engine with the lake in a bucket, a sink whose table does not exist yet declares a comment: Delta's DataFrame writer, which creates bucket tables there, writes no description; nothing runs"},
	{CodeBucketLogStore, Warning, "with the lake in a bucket, a node writing a table there whose deployed Spark configuration names a Delta LogStore for S3 other than S3SingleDriverLogStore (S3DynamoDBLogStore): its commits and the workbench's do not exclude each other, and a commit of either made during the other's is lost"},
	{CodeJSONPartitions, Error, "a JSON file sink with partitionBy: Spark writes one folder per value, which local runs cannot write (DuckDB's JSON COPY has no PARTITION_BY)"},
	{CodeReadBeforeWrite, Warning, "a node reads a table a later node of its pipeline writes: Laktory runs the reader first (a table_name source is no DAG edge), so it reads the table as the last run left it, and a first run fails"},
	{CodeCrossCycle, Warning, "pipelines read each other's tables in a cycle: a run of them orders every read but one, which reads the table as the last run left it"},
	{CodeMaterializedView, Warning, "a mode on a batch node's table sink in a declarative pipeline: Laktory declares it as a materialized view, which each update replaces whatever the mode"},
	{CodeIsolationLevel, Error, "a sink sets delta.isolationLevel to what Delta refuses to set on a table (SnapshotIsolation, a value that is no isolation level) or under a key in another case, which Delta reads as delta.isolationLevel and local runs would not"},
	{CodeRemotePath, Warning, "a file source or sink path on Databricks or in an object store (/Volumes/..., dbfs:/..., s3://...) that no `paths:` of laktory-workbench.yaml maps to a local folder; an error in plans, runs and validate --deep"},
	{CodeNotRegular, Warning, "a file source's folder holds entries that are not regular files (a FIFO, socket, device, link to a folder): skipped, never opened"},
	{CodeSQLBind, Error, "SQL that does not bind against its inputs' schemas: an unknown column or function, a type mismatch (schema flow)"},
	{CodeSQLDialect, Error, "SQL the node's dialect cannot translate to the local engine's (schema flow)"},
	{CodeSQLDiffers, Warning, "SQL whose local result may differ from the dialect's engine (schema flow)"},
	{CodeNotBoolean, Error, "an expectation that is not a boolean expression (schema flow)"},
	{CodePolarsFileType, Error, "a POLARS CSV, JSON or NDJSON sink with a column polars' writer cannot write (write_csv: nested, binary, duration; write_json: binary): Laktory's run fails, and so does ours (schema flow)"},
	{CodePolarsReaderType, Error, "a POLARS file source's reader_kwargs holds a value polars' reader raises TypeError on: `schema_overrides` other than null or `{}` (YAML cannot spell a polars dtype; Laktory's run fails with polars' message)"},
	{CodePolarsNDJSONDType, Error, "a POLARS JSONL or NDJSON source's `schema` declares a dtype polars 1.32.0's NDJSON reader panics on (Int8, Int16, UInt8, UInt16, Duration as a column's dtype: `unexpected dtype when deserializing ndjson`): Laktory's run fails"},
	{CodePolarsSchemaDType, Error, "a POLARS JSONL or NDJSON source's `schema` declares Enum (polars' `TypeError: Enum.__init__() missing 1 required positional argument: 'categories'`) or UInt128 (`InvalidOperationError: constructing a Series with data type Unknown(Any) from AnyValues is not supported`): Laktory's read fails whatever the data"},
	{CodePolarsNDJSONValues, Warning, "a POLARS JSONL or NDJSON source's `schema` declares Decimal: polars 1.32.0 fails on every value that is not null (`unexpected value while building Series of type Decimal(Some(38), Some(0)); found value of type UInt64: 12`), and so do local runs"},
	{CodeSinkType, Error, "a sink column whose type the Delta table cannot take: the append fails (schema flow)"},
	{CodeSinkWidened, Info, "a sink column cast to the table's wider type (schema flow)"},
	{CodeSchemaUnknown, Warning, "a source or table whose schema cannot be read: its node's SQL is not checked (schema flow)"},
	{CodeNullDropped, Warning, "a DROP or QUARANTINE expectation that is NULL on rows with NULLs: Laktory removes them from the output without quarantining them (on POLARS without counting them; on PYSPARK its pandas check may count them) (schema flow)"},
	{CodeWhereShape, Error, "a where predicate is not exactly one expression on its own (e.g. `a = 1) OR (true`, a list, a clause)"},
	{CodeWhereReads, Error, "a where predicate reads more than the row (subquery, table function, file reader, non-deterministic function)"},
	{CodePathOutside, Error, "a path a run may write or delete lies outside the workspace, the lake and the configured roots, or is or holds one of them"},
	{CodeWhereFloatEqual, Error, "a where predicate compares a floating-point column for equality (=, <>, IN): rows computed otherwise never match it (schema flow)"},
	{CodeNameTooLong, Error, "a sink whose table folder or checkpoint files would have a name longer than a file system takes (255 bytes)"},
	{CodeUnresolvedRef, Error, "an unresolved ${vars.x} in a path, table name, predicate or SQL a run uses, or a ${params.x} left as text (LK021) in a path or table name (it would be used as written)"},
	{CodeDType, Error, "a schema column's dtype Laktory refuses: a name it does not know (`long`, `decimal(10,2)`), a List or Array without `inner`, an Array without `shape`, a Struct without `fields`"},
	{CodeTolerance, Error, "an expectation `tolerance` with neither or both of `abs` and `rel`"},
	{CodeAggregateAction, Error, "an AGGREGATE expectation with action DROP or QUARANTINE (they act on rows)"},
	{CodeStreamExpectation, Error, "an expectation a streaming node cannot take: AGGREGATE, or with a tolerance other than abs 0"},
	{CodeDeclarativeTwice, Error, "a node of a declarative pipeline writes one table or view twice"},
	{CodeTruncateFile, Error, "reset_mode TRUNCATE on a file sink that is not DELTA"},
	{CodeStreamMismatch, Error, "a PySpark sink's as_stream contradicts its node (a stream written as static, a batch as a stream): Laktory's write fails"},
	{CodeSparkMode, Error, "a PySpark sink mode its frame's writer does not take (OVERWRITE on a stream, COMPLETE or UPDATE on a batch): Laktory's write fails"},
	{CodePipelineViewRead, Error, "a node of the run reads a pipeline_view_name node from its sink (the run does not execute it, or on PySpark a stream): Laktory's read fails"},
	{CodeViewColumnComment, Error, "a column comment in the metadata of a HIVE_METASTORE VIEW sink: Laktory's metadata update fails"},
	{CodeSparkNoMode, Error, "a PySpark sink without `mode` (other than a streaming quarantine sink): Laktory's write fails, Mode 'None' is not supported"},
	{CodeExprStmts, Error, "a transformer expr holds more than one SQL statement (an expr is one query)"},
}

// Lookup returns the documentation of code.
func Lookup(code string) (CodeInfo, bool) {
	for _, c := range Codes {
		if c.Code == code {
			return c, true
		}
	}
	return CodeInfo{}, false
}
