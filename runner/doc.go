// Package runner plans and executes refreshes of a workspace against the
// local lake, emits events, and keeps the run history in SQLite.
//
// A run is planned, then started:
//
//	r, err := runner.New(runner.Config{})
//	plan, err := r.Plan(ctx, snap, runner.Request{Pipelines: []string{"pl-prices"},
//		Selectors: []string{"feed_a"}, Refresh: "FULL"})
//	// plan.Effects: what will be deleted or reset, to confirm first
//	run, err := r.Start(ctx, plan)
//	for e := range run.Events() { ... }     // live progress
//	sum, err := run.Wait()                  // Summary; err wraps ErrTasksFailed
//
// Plan rejects invalid requests before anything runs, with a *PlanError
// carrying validation's diagnostics: unknown pipelines or selectors, bad
// refresh/reset_mode combinations (validate.RunParameters), errors in the
// selected pipelines' files, and nodes using what local runs do not
// support yet (one check, in unsupported.go: VIEW and pipeline view sinks,
// MERGE sinks of declarative pipelines, Python-only sources and custom
// writers, formats DuckDB does not read, streaming writes other than APPEND
// or MERGE), or what the run's engine does not (engineUnsupported: nothing
// today; MERGE and file sinks run on the Spark engine too). The errors
// include the schema flow's (Validate,
// package runner/schemaflow): the selected nodes' SQL bound against the
// schemas of what they read, compiled by the same compiler over empty
// relations, and their sinks' column types against their tables.
//
// The SQL of a node goes through its dialect's translator (Config.Dialect,
// default Dialect; package runner/dialect) both when it runs and when it is
// checked.
//
// Each selected node is a task; tasks run in parallel as the node DAG
// allows (Request.Parallel). A task resets its sinks as the refresh asks
// (FULL, RESET, reset_mode), then reads its sources into DuckDB views (one
// connection per task, one database per Runner: rows never pass through
// Go), applies its transformer (SQL `expr` steps with {df}, {sources.x},
// {nodes.x}, and func_name steps translated by runner/frame for the node's
// backend and dataframe_api)
// and expectations, and writes its sinks (runner/sink, through the
// engine's session and transactions): Delta tables, MERGE sinks
// (merge_cdc_options, SCD type 1 and 2, planned by runner/merge),
// PARQUET/CSV/JSON files and ForEach sinks.
//
// Shared sinks: a writer-column sink writes its writer id as the table's
// first column; a `where` sink must write only rows matching its predicate
// (checked before anything is written). A FULL refresh of a shared sink
// deletes the writer's rows in one commit, then appends its new ones in
// another (as Laktory does: streaming readers see the delete apart from
// the new rows). Commits
// that conflict with concurrent writers are retried (RetryPolicy) on a
// fresh snapshot; each retry is an event and a history record. Cancelling
// a run abandons commits in progress: nothing of them is visible.
//
// Streaming (as_stream: true): a node reading a stream has one flow per
// sink, each with a checkpoint in Spark Structured Streaming's layout
// (CheckpointDir: offsets/N, commits/N, metadata, sources/). A run
// processes what is available when it starts (trigger availableNow), in
// micro-batches: file sources each new file once (maxFilesPerTrigger),
// Delta sources the snapshot then the commits after it with Spark's
// offsets (reservoirVersion, index) and rules (skipChangeCommits,
// ignoreDeletes, ignoreChanges, startingVersion; DELTA_SOURCE_IGNORE_DELETE
// otherwise). A Delta sink commits each batch with txn(appId = the flow id,
// version = the batch id): exactly once across crashes. ForEach sinks hand
// each batch to runner/foreach (at least once).
//
// Declarative orchestrators: the nodes writing one table append through
// their own flows (FlowName), remembered per table in the history; `flow:`
// options once, import_checkpoint and kind: update are run as Lakeflow
// does, and a full refresh clears each table once and resets every flow.
//
// The package's root coordinates; the subsystems live below it
// (docs/development.md, "Inside the runner"): the node selection
// (runner/selection), streaming checkpoints and writer locks
// (runner/checkpoint), landing files (runner/landing), the sinks
// (runner/sink), the Spark SQL dialect (runner/dialect/spark), the
// engines (runner/engine). In the root, a run (run.go) runs its tasks
// (taskExec, task.go), each recording through its taskLog, keeping its
// refreshes recoverable (recovery, intent.go) and running its flows'
// micro-batches (flowRun, stream.go).
//
// Everything a run does is recorded in the workspace's history
// (runner/history): the run, its tasks, every table operation, retries,
// rows deleted per writer, warnings and the event log.
package runner
