package main

import (
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/laktory/workbench/assets"
	"github.com/spf13/cobra"
)

type initResult struct {
	Dir      string `json:"dir"`
	Template string `json:"template"`
	Files    int    `json:"files"`
}

func init() {
	registerCommand("init", func(a *app) *cobra.Command {
		var demo, asJSON bool
		cmd := &cobra.Command{
			Use:   "init DIR",
			Short: "Create a workspace folder (a starter pipeline, or the demo)",
			Long: `init writes a new workspace into DIR, which must be empty or missing.

Without --demo it writes one starter pipeline and a sample CSV file. With
--demo it writes the demo workspace: four pipelines that show shared tables
(writer column and where predicates), a streaming reader with
skipChangeCommits, a declarative pipeline with a backfill flow, and a ForEach
sink, with a few hundred rows of landing data.`,
			Example: `  laktory init ./my-workspace
  laktory init --demo ./demo`,
			Args: rangeArgs(1, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				dir, err := filepath.Abs(args[0])
				if err != nil {
					return err
				}
				tmpl, fsys := "starter", assets.Starter()
				if demo {
					tmpl, fsys = "demo", assets.Demo()
				}
				if err := assets.WriteTree(fsys, dir, false); err != nil {
					return err
				}
				res := initResult{Dir: dir, Template: tmpl, Files: countFiles(fsys)}
				if asJSON {
					return a.printJSON(res)
				}
				fmt.Fprintf(a.stdout, "Wrote the %s workspace (%d files) to %s\n", tmpl, res.Files, dir)
				fmt.Fprintf(a.stdout, "Local state (tables, checkpoints, run history) will live in %s\n",
					filepath.Join(dir, ".laktory"))
				return nil
			},
		}
		cmd.Flags().BoolVar(&demo, "demo", false, "write the demo workspace")
		cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
		return cmd
	})
}

func countFiles(fsys fs.FS) int {
	n := 0
	_ = fs.WalkDir(fsys, ".", func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
