package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

type versionInfo struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
	DuckDB  string `json:"duckdb_go"`
}

func buildVersion() versionInfo {
	v := versionInfo{Version: version, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v.Commit = s.Value[:12]
			}
		}
		for _, d := range bi.Deps {
			if d.Path == "github.com/duckdb/duckdb-go/v2" {
				v.DuckDB = d.Version
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}

func versionString() string {
	v := buildVersion()
	if v.Commit != "" {
		return v.Version + " (" + v.Commit + ")"
	}
	return v.Version
}

func init() {
	registerCommand("version", func(a *app) *cobra.Command {
		var asJSON bool
		cmd := &cobra.Command{
			Use:     "version",
			Short:   "Print the version of laktory",
			Example: "  laktory version\n  laktory version --json",
			Args:    rangeArgs(0, 0),
			RunE: func(cmd *cobra.Command, args []string) error {
				v := buildVersion()
				if asJSON {
					return a.printJSON(v)
				}
				fmt.Fprintf(a.stdout, "laktory %s\n", versionString())
				fmt.Fprintf(a.stdout, "  %s %s/%s, duckdb-go %s\n", v.Go, v.OS, v.Arch, v.DuckDB)
				return nil
			},
		}
		cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
		return cmd
	})
}
