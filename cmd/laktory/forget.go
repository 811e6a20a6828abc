package main

import (
	"fmt"

	"github.com/laktory/workbench/runner"
	"github.com/spf13/cobra"
)

// forgetJSON is laktory table forget-writer's JSON output.
type forgetJSON struct {
	Plan     *runner.WriterDeletion `json:"plan"`
	DryRun   bool                   `json:"dry_run"`
	Declined bool                   `json:"declined"`
	Deleted  int64                  `json:"deleted"`
}

func (a *app) tableForgetWriterCommand() *cobra.Command {
	var wf struct {
		dir string
		workspaceFlags
	}
	var id string
	var null, yes, dryRun, asJSON bool
	cmd := &cobra.Command{
		Use:   "forget-writer TABLE (--writer ID | --null)",
		Short: "Delete the rows of one writer id (a renamed or removed writer's) from a shared table",
		Long: `forget-writer deletes from the shared table TABLE (a table_name of the
workspace --dir, or its lake path) exactly the rows whose writer column
holds ID (--writer ID), or is NULL (--null): the rows of a writer that was
renamed or removed, which no FULL refresh deletes any more (LK202). No
other row is touched and no checkpoint is reset; an id a current writer
declares is refused (its RESET deletes its rows with its checkpoint).

It prints the plan (the predicate and the rows it matches) first; on a
terminal you confirm it (--yes skips the question), without one it is
refused unless --yes is given. --dry-run prints the plan only.`,
		Example: `  laktory table forget-writer orders --writer pl-old.orders --dir ./demo
  laktory table forget-writer main.default.orders --null --dir ./demo --yes`,
		Args: rangeArgs(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if null == (id != "") || (!null && !cmd.Flags().Changed("writer")) {
				return usagef("give the writer id with --writer ID, or --null for the rows without one (not both)")
			}
			snap, err := a.loadWorkspace(wf.dir, wf.workspaceFlags)
			if err != nil {
				return err
			}
			r, err := runner.New(runner.Config{Threads: a.threads(), SchemaCache: a.schemaCache(), Sandbox: runner.Sandbox(snap)})
			if err != nil {
				return err
			}
			defer r.Close()
			d, err := r.PlanWriterDeletion(a.ctx, snap, args[0], id, null)
			if err != nil {
				return err
			}
			out := a.stdout
			if asJSON {
				out = a.stderr
			}
			res := forgetJSON{Plan: d, DryRun: dryRun}
			fmt.Fprintf(out, "This would delete the rows of writer id %s from %s: %d rows (WHERE %s, version %d).\n", d.Describe(), d.Label, d.Rows, d.Predicate, d.Version)
			switch {
			case dryRun || d.Rows == 0:
				fmt.Fprintln(out, "Nothing was changed.")
				if asJSON {
					return a.printJSON(res)
				}
				return nil
			case !yes && !a.interactive():
				fmt.Fprintln(a.stderr, "Refused: without a terminal the deletion cannot be confirmed. Nothing was changed: run again with --yes to proceed.")
				res.Declined = true
			case !yes && !a.confirm(out):
				fmt.Fprintln(out, "Not confirmed: nothing was changed.")
				res.Declined = true
			}
			if res.Declined {
				if asJSON {
					a.printJSON(res) //nolint:errcheck // the exit code says it
				}
				return errProblems
			}
			if res.Deleted, err = r.DeleteWriterRows(a.ctx, d); err != nil {
				return err
			}
			fmt.Fprintf(out, "Deleted %d rows of writer id %s from %s.\n", res.Deleted, d.Describe(), d.Label)
			if asJSON {
				return a.printJSON(res)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&wf.dir, "dir", ".", "workspace folder, to resolve table names and its writers")
	cmd.Flags().StringVar(&wf.lake, "lake", "", "lake root (default: $LAKTORY_LAKE, else DIR/.laktory/lake)")
	cmd.Flags().StringVar(&wf.env, "env", "", "stack environment (default: the first one the stack declares)")
	cmd.Flags().StringVar(&id, "writer", "", "the writer id whose rows are deleted")
	cmd.Flags().BoolVar(&null, "null", false, "delete the rows whose writer column is NULL")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be deleted, and change nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan and the result as JSON")
	return cmd
}
