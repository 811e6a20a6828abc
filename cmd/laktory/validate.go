package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/schemaflow"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/spf13/cobra"
)

// workspaceFlags are the flags of commands that load a workspace.
type workspaceFlags struct {
	env  string
	lake string
	// params are the run's pipeline parameter values (laktory run --param).
	params map[string]string
}

func (f *workspaceFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.env, "env", "e", "", "stack environment (default: the first one the stack declares)")
	cmd.Flags().StringVar(&f.lake, "lake", "", "lake root (default: $LAKTORY_LAKE, else DIR/.laktory/lake)")
	registerWorkspaceCompletions(cmd)
}

// loadWorkspace loads the workspace in dir; a missing or unreadable folder
// is a usage error.
func (a *app) loadWorkspace(dir string, f workspaceFlags) (*workspace.Snapshot, error) {
	s, err := workspace.Load(a.ctx, dir, workspace.Options{Env: f.env, Lake: f.lake, Getenv: a.getenv, Params: f.params})
	if err != nil {
		return nil, usageError{err}
	}
	return s, nil
}

// displayPath shows a file as the user named the workspace: DIR/rel for a
// file inside it, the absolute path otherwise.
func displayPath(s *workspace.Snapshot, dirArg, file string) string {
	if file == "" {
		return ""
	}
	rel := s.Rel(file)
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(dirArg, rel)
}

// diagJSON is the JSON form of a diagnostic.
type diagJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

func init() {
	registerCommand("validate", func(a *app) *cobra.Command {
		var asJSON, deep, strict, schemas bool
		var wf workspaceFlags
		var paramFlags []string
		cmd := &cobra.Command{
			Use:   "validate [DIR]",
			Short: "Check the pipelines of a workspace (YAML, shared sinks, DAG, local runs)",
			Long: `validate loads every pipeline YAML file of the workspace DIR (default: the
current folder) and reports, file by file, what is wrong and how to fix it:
YAML and schema errors (unknown keys, wrong types and values), shared-sink
rules (writers of a table, ownership, overlapping where predicates),
declarative pipelines, append flows and ForEach sinks, streaming readers,
the node DAG, and what local runs cannot do yet.

Every node's SQL (expr steps, source filters, filter, with_columns, select,
aggregates, expectations, where predicates) is bound by DuckDB against the
schemas of what it reads: the source files' headers and footers (as a run
reads them), the Delta tables' logs, and for other nodes and tables not
written yet, the schemas their writers compute. No row is read beyond what
schema inference needs. A wrong column is reported at its place in the
YAML with DuckDB's candidates; a sink column whose type the table cannot
take is an error, one the table widens an info.

With --deep it also reads the Delta tables that shared sinks write (in the
lake) and checks them against their writers: a shared table written before
it was shared (no writer column), rows of writer ids no writer declares any
more (renamed or removed writers, with their row counts), and a writer
column left over after a switch to where predicates.

It reads YAML as Laktory 0.13.1 does; what Laktory rejects but local runs
do not need (orchestrator settings, the workbench's flow: and foreach:
extensions) is a warning, an error with --strict (or strict: true in
laktory-workbench.yaml). It lists the YAML files it did not read (neither a
pipeline, a stack nor included by one).

--param NAME=VALUE checks the pipelines with the values a run would give
their parameters (as laktory run --param): every ${params.NAME} in a
shared sink, a where predicate or a path takes the value before the rules
run.

With --schemas it also prints the schema each Delta sink writes: every
column with the Delta type the pipeline's backend writes it as (on POLARS
the type delta-rs writes for the Polars dtype: UInt32 as integer, a
Datetime of any unit as timestamp_ntz, a zoned one as timestamp), or why a
Delta table cannot store it.

It exits with 1 when the workspace has errors (warnings and infos don't
count), and prints every diagnostic as JSON with --json. Codes are stable
(LK001...); docs/validation.md lists them.`,
			Example: `  laktory validate
  laktory validate ./demo
  laktory validate --deep ./demo
  laktory validate --param 'own=client_id = 1'
  laktory validate --env prod --json ./stack-workspace`,
			Args: rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				dir := workspaceDir(args)
				params, err := parseParams(paramFlags)
				if err != nil {
					return err
				}
				wf.params = params
				s, err := a.loadWorkspace(dir, wf)
				if err != nil {
					return err
				}
				if err := checkParams(s, params); err != nil {
					return err
				}
				opts := validate.Options{Paths: runner.PathFacts(s), Strict: strict, Runnable: deep}
				r, err := runner.New(runner.Config{Threads: a.threads(), SchemaCache: a.schemaCache(), Sandbox: runner.Sandbox(s)})
				if err != nil {
					return err
				}
				defer r.Close()
				if deep {
					if opts.Facts, err = r.GatherFacts(a.ctx, s); err != nil {
						return err
					}
				}
				ds, err := r.Validate(a.ctx, s, opts)
				if err != nil {
					return err
				}
				var sinks []sinkSchemaJSON
				if schemas {
					ss, err := r.SinkSchemas(a.ctx, s)
					if err != nil {
						return err
					}
					sinks = sinkSchemas(s, dir, ss)
				}
				if asJSON {
					out := struct {
						Diagnostics []diagJSON       `json:"diagnostics"`
						Ignored     []string         `json:"ignored"`
						Sinks       []sinkSchemaJSON `json:"sink_schemas,omitempty"`
					}{Diagnostics: []diagJSON{}, Ignored: []string{}, Sinks: sinks}
					for _, f := range s.Ignored {
						out.Ignored = append(out.Ignored, displayPath(s, dir, f))
					}
					for _, d := range ds {
						out.Diagnostics = append(out.Diagnostics, diagJSON{File: displayPath(s, dir, d.File), Line: d.Line, Col: d.Col,
							Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Hint: d.Hint})
					}
					if err := a.printJSON(out); err != nil {
						return err
					}
				} else {
					printDiagnostics(a.stdout, s, dir, ds, a.color(a.stdout))
					if len(s.Ignored) > 0 {
						fmt.Fprintf(a.stdout, "\nnot read (neither a pipeline, a stack nor included by one): %d YAML files\n", len(s.Ignored))
						for _, f := range s.Ignored {
							fmt.Fprintf(a.stdout, "  %s\n", displayPath(s, dir, f))
						}
					}
					if schemas {
						printSinkSchemas(a.stdout, sinks)
					}
				}
				if workspace.HasErrors(ds) {
					return errProblems
				}
				return nil
			},
		}
		cmd.Flags().BoolVar(&asJSON, "json", false, "print the diagnostics as JSON")
		cmd.Flags().BoolVar(&deep, "deep", false, "also check the Delta tables of shared sinks against their writers, and make what cannot run on this machine (LK205, LK207) an error")
		cmd.Flags().BoolVar(&schemas, "schemas", false, "also print the schema each Delta sink writes, with the Delta types of the pipeline's backend")
		cmd.Flags().BoolVar(&strict, "strict", false, "make what Laktory 0.13.1 rejects an error (orchestrator settings, the flow: and foreach: extensions)")
		cmd.Flags().StringArrayVar(&paramFlags, "param", nil, "pipeline parameter NAME=VALUE, for ${params.NAME} (repeatable): check the pipelines as a run with these values")
		wf.register(cmd)
		return cmd
	})
}

// sinkSchemaJSON is the schema a Delta sink writes (validate --schemas).
type sinkSchemaJSON struct {
	Pipeline string           `json:"pipeline"`
	Node     string           `json:"node"`
	Sink     string           `json:"sink"`
	Backend  string           `json:"backend"`
	Columns  []sinkColumnJSON `json:"columns"`
}

type sinkColumnJSON struct {
	Name    string `json:"name"`
	Type    string `json:"type,omitempty"`
	Problem string `json:"problem,omitempty"`
}

func sinkSchemas(s *workspace.Snapshot, dir string, ss []schemaflow.SinkSchema) []sinkSchemaJSON {
	var out []sinkSchemaJSON
	for _, x := range ss {
		label := x.Sink.Describe()
		if x.Sink.Table == "" && x.Sink.ResolvedPath != "" {
			label = displayPath(s, dir, x.Sink.ResolvedPath)
		}
		backend := x.Sink.Backend
		if backend == "" {
			backend = "PYSPARK"
		}
		j := sinkSchemaJSON{Pipeline: x.Pipeline, Node: x.Node, Sink: label, Backend: backend, Columns: []sinkColumnJSON{}}
		for _, c := range x.Columns {
			j.Columns = append(j.Columns, sinkColumnJSON{Name: c.Name, Type: c.Type, Problem: c.Problem})
		}
		out = append(out, j)
	}
	return out
}

// printSinkSchemas prints the schemas Delta sinks write, a column a line.
func printSinkSchemas(w io.Writer, sinks []sinkSchemaJSON) {
	fmt.Fprintf(w, "\nsink schemas (%d Delta sinks whose columns are known):\n", len(sinks))
	for _, sk := range sinks {
		fmt.Fprintf(w, "  %s.%s -> %s (%s)\n", sk.Pipeline, sk.Node, sk.Sink, sk.Backend)
		width := 0
		for _, c := range sk.Columns {
			width = max(width, len(c.Name))
		}
		for _, c := range sk.Columns {
			t := c.Type
			if t == "" {
				t = "not writable: " + c.Problem
			}
			fmt.Fprintf(w, "    %-*s  %s\n", width, c.Name, t)
		}
	}
}

// ANSI styles of the human output.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

type painter bool

func (p painter) paint(style, s string) string {
	if !p {
		return s
	}
	return style + s + ansiReset
}

func severityStyle(sev workspace.Severity) string {
	switch sev {
	case workspace.SeverityError:
		return ansiBold + ansiRed
	case workspace.SeverityWarning:
		return ansiBold + ansiYellow
	}
	return ansiBold + ansiCyan
}

// printDiagnostics prints diagnostics grouped by file: the position, the
// severity, code and message, the source line with a caret under the
// column, and the hint.
func printDiagnostics(w io.Writer, s *workspace.Snapshot, dirArg string, ds []workspace.Diagnostic, color bool) {
	p := painter(color)
	counts := map[workspace.Severity]int{}
	file := "\x00"
	for _, d := range ds {
		counts[d.Severity]++
		if d.File != file {
			if file != "\x00" {
				fmt.Fprintln(w)
			}
			file = d.File
			name := displayPath(s, dirArg, d.File)
			if name == "" {
				name = "(run parameters)"
			}
			fmt.Fprintln(w, p.paint(ansiBold, name))
		}
		fmt.Fprintf(w, "  %d:%d %s %s %s\n", d.Line, d.Col, p.paint(severityStyle(d.Severity), d.Severity.String()),
			p.paint(ansiDim, d.Code), d.Message)
		if line, ok := sourceLine(s.Content(d.File), d.Line); ok {
			num := fmt.Sprint(d.Line)
			gutter := strings.Repeat(" ", len(num))
			fmt.Fprintf(w, "    %s %s %s\n", p.paint(ansiDim, num), p.paint(ansiDim, "|"), line)
			fmt.Fprintf(w, "    %s %s %s%s\n", gutter, p.paint(ansiDim, "|"), caretPad(line, d.Col), p.paint(severityStyle(d.Severity), "^"))
		}
		if d.Hint != "" {
			fmt.Fprintf(w, "    %s %s\n", p.paint(ansiCyan, "hint:"), d.Hint)
		}
	}
	if len(ds) > 0 {
		fmt.Fprintln(w)
	}
	if len(ds) == 0 {
		fmt.Fprintf(w, "%s %d pipelines, %d tables: no problems\n", p.paint(ansiBold, "ok"), len(s.Pipelines), len(s.Tables))
		return
	}
	fmt.Fprintf(w, "%s, %s, %s\n",
		plural(counts[workspace.SeverityError], "error"), plural(counts[workspace.SeverityWarning], "warning"),
		plural(counts[workspace.SeverityInfo], "info"))
}

func plural(n int, word string) string {
	if n == 1 || word == "info" {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// sourceLine returns line n (1-based) of content, without its newline.
func sourceLine(content []byte, n int) (string, bool) {
	if content == nil || n < 1 {
		return "", false
	}
	lines := bytes.Split(content, []byte("\n"))
	if n > len(lines) {
		return "", false
	}
	return strings.TrimRight(string(lines[n-1]), "\r"), true
}

// caretPad returns the blanks before column col of line, keeping tabs so the
// caret lines up.
func caretPad(line string, col int) string {
	var b strings.Builder
	for i, r := range []rune(line) {
		if i >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteRune('\t')
		} else {
			b.WriteRune(' ')
		}
	}
	for i := len([]rune(line)); i < col-1; i++ {
		b.WriteRune(' ')
	}
	return b.String()
}
