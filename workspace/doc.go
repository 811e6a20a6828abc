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
// pipeline file that declares them (for a stack, the stack file's folder).
package workspace
