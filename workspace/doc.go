// Package workspace loads a folder of Laktory pipeline YAML files into an
// immutable Snapshot (pipelines, nodes, writers, tables, readers and the
// graph between them) and watches the folder for changes.
//
// # Workspace layout
//
// A workspace is a folder. Pipelines are the *.yaml / *.yml files anywhere
// below it that hold a pipeline (a top-level "name" and "nodes"); a stack.yaml
// may declare several pipelines under resources.pipelines, as Laktory stacks
// do. Hidden folders (.git, .laktory, ...) are not searched.
//
// Local state lives in DIR/.laktory/:
//
//	.laktory/
//	  lake/<catalog>/<schema>/<table>/   Delta tables named by table_name
//	  checkpoints/<pipeline>/<node>/<sink>/  streaming checkpoints
//	  state.db                           run history (SQLite)
//
// A table_name "t" lives at lake/main/default/t, "s.t" at lake/main/s/t and
// "c.s.t" at lake/c/s/t (default catalog "main", default schema "default").
// The --lake flag, then the LAKTORY_LAKE environment variable, override the
// lake root.
//
// Relative path: values in a pipeline resolve against the folder of the
// pipeline file that declares them (for a stack, the stack file's folder).//
// # Loading
//
// Load(ctx, dir, opts) reads every YAML file into an immutable *Snapshot:
// Pipelines (with their Nodes, Sources, transformer Steps, Expectations and
// Sinks, each carrying the position of every field it sets), the node DAG
// of each pipeline, Writers (pipeline.node.sink with its ownership: writer
// column and writer id, or where predicate), Tables (one TableID per table
// folder: a table_name sink and a path sink on the same lake folder are one
// table) and Readers. A broken file never fails the load: YAML syntax
// errors, unknown keys (with a suggestion), wrong types and values outside
// an enum become Diagnostics (codes LK0xx, documented in package validate)
// and the rest of the workspace loads.
//
// Laktory's YAML features are supported: !use (a YAML file, a .sql file as
// a string, or a folder as a list), - !extend file and <<: !update file,
// relative to the including file; ${vars.x} / ${var.x} from the variables
// of the stack, its environment, the pipeline and the node (inner wins),
// then the environment (Options.Getenv); stacks (resources.pipelines and
// environments, Options.Env, default the first environment); the legacy
// `source:` key; pre-0.12 orchestrator names give Laktory's rename error.
// Two extensions for declarative pipelines are parsed: a node's `flow:`
// (name, once, import_checkpoint, comment, spark_conf, kind) and a
// `foreach:` sink (name, and command or http: method, url, headers,
// timeout).
//
// Reload(ctx, prev, changed) re-parses only the changed files and the files
// that include them; Watch(ctx, snap, opts) does it on every save
// (fsnotify on the folders, debounced) and sends each new snapshot on a
// channel.
package workspace
