package main

import (
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Shell completion of values (`laktory completion bash|zsh|fish|powershell`
// writes the script): the workspace's pipelines, nodes (pipeline.node and
// node names), tags, tables and environments, the refresh and reset modes,
// and folders for DIR. The workspace is the command's DIR argument (or
// --dir of the table commands), with its --env and --lake.

// completeFunc completes a flag's value or an argument.
type completeFunc = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// fixed completes one of values.
func fixed(values ...string) completeFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// fromWorkspace completes with the names list finds in the workspace of
// the command line (nothing when it does not load).
func fromWorkspace(list func(cmd *cobra.Command, s *workspace.Snapshot) []string) completeFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		dir := workspaceDir(args)
		if f := cmd.Flags().Lookup("dir"); f != nil {
			dir = f.Value.String()
		}
		opts := workspace.Options{}
		if f := cmd.Flags().Lookup("env"); f != nil {
			opts.Env = f.Value.String()
		}
		if f := cmd.Flags().Lookup("lake"); f != nil {
			opts.Lake = f.Value.String()
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		s, err := workspace.Load(ctx, dir, opts)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, v := range list(cmd, s) {
			if strings.HasPrefix(v, toComplete) && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeDir completes the optional DIR argument with folders.
func completeDir(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveFilterDirs
}

var (
	pipelineNames = fromWorkspace(func(_ *cobra.Command, s *workspace.Snapshot) []string {
		var out []string
		for _, p := range s.Pipelines {
			out = append(out, p.Name)
		}
		return out
	})
	// nodeSelectors are pipeline.node, then node names, task names and
	// tags, of the pipelines --pipeline names (default: all).
	nodeSelectors = fromWorkspace(func(cmd *cobra.Command, s *workspace.Snapshot) []string {
		only, _ := cmd.Flags().GetStringArray("pipeline")
		var qualified, names []string
		for _, p := range s.Pipelines {
			if len(only) > 0 && !slices.Contains(only, p.Name) {
				continue
			}
			for _, n := range p.Nodes {
				qualified = append(qualified, p.Name+"."+n.Name)
				names = append(names, n.Name)
				if n.ExecutionTaskName != "" {
					names = append(names, n.ExecutionTaskName)
				}
				names = append(names, n.Tags...)
			}
		}
		slices.Sort(names)
		return append(qualified, names...)
	})
	environments = fromWorkspace(func(_ *cobra.Command, s *workspace.Snapshot) []string { return s.Envs })
	// tableNames are the workspace's tables by name (short when in the
	// default catalog and schema) and by folder for path sinks.
	tableNames = fromWorkspace(func(_ *cobra.Command, s *workspace.Snapshot) []string {
		var out []string
		for _, t := range s.Tables {
			if t.Name != "" {
				out = append(out, strings.TrimPrefix(t.Name, workspace.DefaultCatalog+"."+workspace.DefaultSchema+"."), t.Name)
			}
		}
		return out
	})
)

// registerRunCompletions completes the flags of laktory run and plan.
func registerRunCompletions(cmd *cobra.Command) {
	cmd.ValidArgsFunction = completeDir
	cmd.RegisterFlagCompletionFunc("pipeline", pipelineNames)                   //nolint:errcheck // the flags exist
	cmd.RegisterFlagCompletionFunc("select", nodeSelectors)                     //nolint:errcheck
	cmd.RegisterFlagCompletionFunc("refresh", fixed(validate.Refreshes...))     //nolint:errcheck
	cmd.RegisterFlagCompletionFunc("reset-mode", fixed(validate.ResetModes...)) //nolint:errcheck
}

// registerWorkspaceCompletions completes DIR and --env.
func registerWorkspaceCompletions(cmd *cobra.Command) {
	if cmd.ValidArgsFunction == nil {
		cmd.ValidArgsFunction = completeDir
	}
	cmd.RegisterFlagCompletionFunc("env", environments) //nolint:errcheck
	cmd.RegisterFlagCompletionFunc("lake", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}) //nolint:errcheck
}

// registerTableCompletions completes TABLE with the tables of the
// workspace of --dir, and --dir and --lake with folders.
func registerTableCompletions(cmd *cobra.Command) {
	cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names, _ := tableNames(cmd, nil, toComplete)
		return names, cobra.ShellCompDirectiveFilterDirs // or a table's folder
	}
	dirs := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	cmd.RegisterFlagCompletionFunc("dir", dirs)  //nolint:errcheck // the flags exist
	cmd.RegisterFlagCompletionFunc("lake", dirs) //nolint:errcheck
}
