// Package validate runs pure rules over a workspace snapshot and returns
// diagnostics: Check(snap, opts) []Diagnostic. Rules never read files and
// the package links no SQL engine: the `where` predicates of shared sinks
// are parsed by the SQL parser the caller passes (Options.SQL: DuckDB's
// json_serialize_sql, which the runner provides), once per predicate text,
// and proven disjoint by an interval prover. Deep rules run over table facts passed in as data
// (Options.Facts, gathered by runner.GatherFacts). RunParameters validates
// the refresh and reset_mode of a run, for the runner and the CLI.
//
// # Diagnostic codes
//
// Codes are stable. LK0xx come from loading (package workspace), LK1xx from
// the rules, LK2xx from the deep rules over table facts, LK3xx from the
// schema flow (runner/schemaflow: SQL bound against the inputs' schemas
// read from files and tables; declared here so every code is listed in one
// place), LK4xx from the rules on what a run may touch (paths, ownership
// predicates, SQL). The default severity follows the code (LK004 is a
// warning for a file format PySpark passes through).
//
//	LK001  error    the file is not valid YAML
//	LK002  error    unknown key (with the closest allowed key)
//	LK003  error    a value of the wrong type
//	LK004  error    a value outside the allowed set (warning for a file format PySpark passes through)
//	LK005  error    a required field is missing
//	LK006  error    !use / !extend / !update target missing, of the wrong kind or circular
//	LK007  error    a name Laktory renamed (pre-0.12 orchestrator types, dlt_template)
//	LK008  error    a key declared twice in one mapping
//	LK009  warning  ${vars.x} names no variable (pipeline, stack or environment)
//	LK010  info     ${{ ... }} Python expressions are not evaluated
//	LK011  error    --env names no environment of the stack
//	LK012  error    a file cannot be read
//	LK013  error    a source, sink or step whose kind cannot be told (e.g. path and table_name)
//	LK014  error    two pipelines share a name
//	LK015  error    keys that exclude each other (source and sources, where with writer_id)
//	LK016  error    a value Laktory rejects for the backend (streaming with Polars)
//	LK017  warning  Laktory rejects it at load, local runs are not affected (orchestrator keys, serverless); error with --strict
//	LK018  warning  a workbench extension (flow:, sink foreach:) that Laktory rejects; error with --strict
//	LK019  error    a YAML file that looks like a pipeline but is not read (a near-miss of nodes, a list of nodes)
//	LK020  error    pipeline parameters Laktory rejects (reserved, undeclared, outside nodes), or a required one a run leaves unset
//	LK021  warning  ${params.x} in a pipeline that declares no parameters: Laktory leaves it as text (LK114 where a run uses it as a path or table name)
//	LK050  error    a catalog_name, schema_name or table_name part that is not an identifier (a period, a slash, a space, `..`)
//	LK051  error    a value whose ${vars.x} substitution expands beyond 1 MiB, or a file whose substitutions produce more than 16 MiB (variables repeating each other)
//	LK101  error    several nodes of a pipeline write a table and some sinks don't declare shared
//	LK102  error    a table written by several nodes needs DELTA sinks in APPEND mode
//	LK103  error    a shared sink is not in APPEND mode
//	LK104  error    a shared sink is not DELTA
//	LK105  error    writers of a table identify their rows differently (writer column and where)
//	LK106  error    writers of a table use different shared.column
//	LK107  error    writers of a table share a writer id
//	LK108  error    writers of a table share a where predicate
//	LK110  error    a where predicate is not valid SQL
//	LK111  error    the where predicates of two writers overlap (a row both would own)
//	LK112  warning  cannot prove that two where predicates are disjoint
//	LK113  error    a where predicate names a column its table does not have (schema flow)
//	LK120  error    a table written by a declarative pipeline has other writers
//	LK122  warning  a writer of a table written by several pipelines doesn't declare shared
//	LK130  error    shared is not supported with declarative orchestrators
//	LK131  error    reading a writer with node_name / {nodes.x} when several nodes append to its table (declarative)
//	LK132  error    writers of a declarative table must be streaming, non-MERGE Delta sinks
//	LK133  error    writers of a declarative table set conflicting table properties
//	LK134  error    writers of a declarative table declare different expectations
//	LK135  error    flow: options on a pipeline that is not declarative
//	LK136  error    a once flow reads a stream
//	LK137  error    import_checkpoint on a flow that cannot import one
//	LK138  error    an update flow that does not write a ForEach sink
//	LK139  error    two flows with one name write a target
//	LK140  error    a foreach sink needs exactly one of command and http
//	LK141  error    a foreach URL placeholder names no column of the node's output
//	LK142  error    a foreach URL is not an http(s) URL
//	LK150  warning  a whole-table reader of a shared table uses skipChangeCommits (duplicates)
//	LK151  info     a node_name reader with skipChangeCommits needs a FULL refresh after its writer's
//	LK152  warning  skipChangeCommits on a batch read has no effect
//	LK153  warning  an AGGREGATE expectation on POLARS: Laktory computes it with pandas, which laktory[polars] does not install
//	LK154  error    a narwhals expectation on PYSPARK that can be NULL or reads a float column: Laktory counts it on a pandas copy of the frame, which local runs model for SQL expectations only (schema flow)
//	LK155  error    a streaming node in COMPLETE mode with a distinct aggregate (count(DISTINCT v)): Spark refuses it
//	LK156  error    a streaming node in COMPLETE mode with an aggregation over another's output: Spark refuses it (global watermark correctness check)
//	LK157  error    a streaming node in COMPLETE mode with an INTERSECT of a stream: Spark refuses it
//	LK158  error    a streaming aggregation written in APPEND mode: Spark refuses it without a watermark, which Laktory 0.13.1 cannot declare
//	LK160  error    unknown refresh value
//	LK161  error    unknown reset_mode value
//	LK162  error    reset_mode without refresh FULL or RESET
//	LK163  error    refresh=FULL with a reset_mode override on a shared sink
//	LK164  error    refresh=FULL with a reset_mode override on a table shared with other pipelines
//	LK165  error    RESET or a reset_mode other than DROP on a declarative pipeline
//	LK166  warning  a reset of a whole shared table: writers of other pipelines need a FULL refresh
//	LK167  error    a VIEW sink in a declarative pipeline (Laktory refuses it at load)
//	LK168  error    a streaming sink in COMPLETE mode on a node that does not aggregate: Spark refuses it
//	LK170  error    a node_name, depends_on or {nodes.x} names no node of the pipeline
//	LK171  error    a node name declared twice in a pipeline
//	LK172  error    the nodes of a pipeline form a cycle
//	LK173  error    {sources.x} names no source of the node
//	LK180  error    a transformer step that cannot run locally: a func_name step with a construct local runs do not translate, named (schema flow)
//	LK181  error    a func_name step Laktory 0.13.1 fails on, with its message: a method the dataframe_api lacks, a missing column (with the candidates), a type error (schema flow)
//	LK174  error    a view node reads what is not a table: a file or DATAFRAME source, a node without a table sink (Laktory refuses it at load or its run fails)
//	LK175  error    a view node reads a stream (Laktory refuses it at load)
//	LK176  error    a view node's transformer is not a single SQL step (Laktory refuses it at load)
//	LK177  error    a view node has expectations (Laktory refuses it at load)
//	LK178  warning  a VIEW sink or its node's source sets what a view ignores: mode, merge_cdc_options, format, writer options, streaming; a source's filter, selects, renames, drops
//	LK179  error    a view node has a sink that is not a VIEW: Laktory's run writes it with the view's SQL and fails
//	LK182  warning  a source, sink or format that does not run locally
//	LK183  error    a run selects a node local runs do not support yet: nothing runs
//	LK184  warning  a sink enables deletion vectors: the readers that cannot read such a table are named
//	LK185  error    a DATAFRAME source's inline data its backend fails to build (polars' TypeError or ShapeError, Spark's CANNOT_MERGE_TYPE), with its message (schema flow)
//	LK190  error    MERGE needs a DELTA sink
//	LK191  error    reset_mode TRUNCATE on a view
//	LK192  error    a sink or source Laktory rejects with the Polars backend
//	LK193  error    custom_writer with mode or merge_cdc_options
//	LK194  error    merge_cdc_options Laktory rejects, or with which its merge fails
//	LK196  error    an SCD type 1 delete_where Laktory's text replacement breaks
//	LK189  error    a quarantine sink on a node without expectations: Laktory's run fails writing it (AttributeError)
//	LK195  error    a sink Lakeflow Declarative Pipelines do not support
//	LK198  error    a POLARS file source's reader_kwargs holds an argument polars' reader does not take (Laktory's run fails with its TypeError)
//	LK199  error    a POLARS file source's reader_kwargs holds an argument polars applies and local runs do not
//	LK221  error    a POLARS file source's reader_kwargs holds a value polars' reader raises TypeError on (schema_overrides: YAML cannot spell a polars dtype)
//	LK222  error    a POLARS JSONL or NDJSON source's schema declares a dtype polars 1.32.0's NDJSON reader panics on (Int8, Int16, UInt8, UInt16, Duration as a column's dtype): Laktory's run fails
//	LK223  error    a POLARS JSONL or NDJSON source's schema declares Enum (polars' TypeError: Enum needs its categories) or UInt128 (InvalidOperationError); a JSON source's Enum, Decimal, Categorical, Binary, Object, Int128 or UInt128 (read_json panics: not yet implemented): Laktory's read fails whatever the data
//	LK224  warning  a POLARS JSONL or NDJSON source's schema declares Decimal: polars 1.32.0 fails on every value that is not null (found value of type ...), so Laktory's run fails unless the column is null in every line
//	LK186  error    a POLARS file sink's writer_kwargs holds an argument polars' writer does not take, or `mode` (Laktory's run fails with its TypeError)
//	LK187  error    a POLARS file sink's writer_kwargs holds an argument polars applies and local runs do not
//	LK188  warning  a POLARS file sink Laktory 0.13.1 writes otherwise: writer_methods it ignores, a folder it does not create, a partitioned sink it creates unpartitioned, an ERROR DELTA sink it never writes
//	LK201  error    a shared table without its writer column (deep)
//	LK202  warning  rows of writer ids no current writer declares (deep)
//	LK203  warning  a table keeps a writer column its writers no longer use (deep)
//	LK204  warning  the facts of a table could not be read (deep)
//	LK205  error    a file source path that does not exist (the caller reads the disk)
//	LK301  error    SQL that does not bind against its inputs' schemas: an unknown column or function, a type mismatch (schema flow)
//	LK302  error    SQL the node's dialect cannot translate to the local engine's (schema flow)
//	LK303  warning  SQL whose local result may differ from the dialect's engine (schema flow)
//	LK304  error    an expectation that is not a boolean expression (schema flow)
//	LK305  error    a sink column whose type the Delta table cannot take: the append fails (schema flow)
//	LK306  info     a sink column cast to the table's wider type (schema flow)
//	LK307  warning  a source or table whose schema cannot be read: its node's SQL is not checked (schema flow)
//	LK401  error    a where predicate is not exactly one expression on its own (e.g. `a = 1) OR (true`, a list, a clause)
//	LK402  error    a where predicate reads more than the row (subquery, table function, file reader, non-deterministic function)
//	LK403  error    a path a run may write or delete lies outside the workspace, the lake and the configured roots, or is or holds one of them
//	LK404  error    a transformer expr holds more than one SQL statement (an expr is one query)
package validate
