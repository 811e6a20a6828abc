package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
	"github.com/spf13/cobra"
)

// historyList is the JSON form of `laktory history`.
type historyList struct {
	Dir      string        `json:"dir"`
	Runs     []history.Run `json:"runs"`
	HasOlder bool          `json:"has_older"` // more runs: --before the last id
}

// nameEngine names the local engine of r ("engine": "local" in JSON, as
// run --json says it); the history stores it as "".
func nameEngine(r history.Run) history.Run {
	if r.Engine == "" {
		r.Engine = engine.Local
	}
	return r
}

func init() {
	registerCommand("history", func(a *app) *cobra.Command {
		var asJSON, wide bool
		var limit int
		var runID, before int64
		cmd := &cobra.Command{
			Use:   "history [DIR]",
			Short: "List past runs, or show one run's tasks, table operations, retries and deletions",
			Long: `history reads the run history of the workspace DIR (default: the current
folder), kept in DIR/.laktory/state.db by laktory run and the TUI.

Without --run it lists the runs, newest first: id, start (UTC), duration,
status, refresh, engine (local, or spark and its Spark Connect server),
selection, rows written and deleted, and retries. With
--run ID it shows that run: its tasks, every table operation (Delta version,
rows added and deleted, files), commit retries (attempt, delay, error),
rows deleted per writer, and messages. --json prints the same as JSON,
events included.

Listing a workspace that never ran creates nothing. Opening an existing
history brings its schema up to date and marks the runs of processes that
died as interrupted. It exits with 0 whatever the runs' outcome, and with 2
for an unknown run id.`,
			Example: `  laktory history
  laktory history ./demo --limit 50
  laktory history ./demo --before 81      # the page after run 81
  laktory history ./demo --run 42
  laktory history ./demo --run 42 --json`,
			Args: rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				if limit < 1 || limit > history.MaxLimit {
					return usagef("--limit must be between 1 and %d (got %d)", history.MaxLimit, limit)
				}
				showRun := cmd.Flags().Changed("run")
				if showRun && runID < 1 {
					return usagef("--run takes a run id, a positive number (got %d)", runID)
				}
				layout, err := workspace.NewLayout(workspaceDir(args), "", a.getenv(workspace.LakeEnv))
				if err != nil {
					return usageError{err}
				}
				if fi, err := os.Stat(layout.Dir); err != nil || !fi.IsDir() {
					return usagef("%s is not a workspace folder", layout.Dir)
				}
				path := layout.StateDB()
				if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
					// Listing must not create the database.
					if showRun {
						return fmt.Errorf("run %d is not in the history of %s: it has no runs yet (run `laktory run` first)",
							runID, layout.Dir)
					}
					if asJSON {
						return a.printJSON(historyList{Dir: layout.Dir, Runs: []history.Run{}})
					}
					fmt.Fprintf(a.stdout, "No runs yet in %s (run `laktory run` first)\n", layout.Dir)
					return nil
				}
				s, err := history.Open(a.ctx, path)
				if err != nil {
					return err
				}
				defer s.Close()
				p := painter(a.color(a.stdout))
				if showRun {
					d, err := s.RunDetail(a.ctx, runID)
					if errors.Is(err, history.ErrNotFound) {
						return fmt.Errorf("run %d is not in the history of %s (`laktory history` lists the runs)", runID, layout.Dir)
					}
					if err != nil {
						return err
					}
					if asJSON {
						d.Run = nameEngine(d.Run)
						return a.printJSON(d)
					}
					printRunDetail(a.stdout, d, p, a.cutter(wide))
					return nil
				}
				page, err := s.ListRuns(a.ctx, history.Page{Limit: limit, Before: before}, history.Filter{})
				if err != nil {
					return err
				}
				if asJSON {
					for i := range page.Runs {
						page.Runs[i] = nameEngine(page.Runs[i])
					}
					return a.printJSON(historyList{Dir: layout.Dir, Runs: page.Runs, HasOlder: page.HasOlder})
				}
				if len(page.Runs) == 0 {
					fmt.Fprintf(a.stdout, "No runs yet in %s (run `laktory run` first)\n", layout.Dir)
					return nil
				}
				printRuns(a.stdout, page.Runs, p, a.cutter(wide))
				if page.HasOlder {
					fmt.Fprintf(a.stdout, "\nOlder runs: laktory history %s --before %d\n",
						workspaceDir(args), page.Runs[len(page.Runs)-1].ID)
				}
				return nil
			},
		}
		cmd.Flags().Int64Var(&runID, "run", 0, "show the run with this id")
		cmd.Flags().IntVar(&limit, "limit", history.DefaultLimit, "list at most this many runs")
		cmd.Flags().Int64Var(&before, "before", 0, "list the runs older than this run id (the next page)")
		cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
		cmd.Flags().BoolVar(&wide, "wide", false, wideHelp)
		return cmd
	})
}

// printRuns prints runs as an aligned table.
func printRuns(w io.Writer, runs []history.Run, p painter, c cutter) {
	t := textTable{header: []string{"RUN", "STARTED (UTC)", "DURATION", "STATUS", "REFRESH", "ENGINE", "SELECTION",
		"WRITTEN", "DELETED", "RETRIES"}, right: map[int]bool{0: true, 2: true, 7: true, 8: true, 9: true}}
	for _, r := range runs {
		t.rows = append(t.rows, []string{strconv.FormatInt(r.ID, 10), fmtClock(r.StartedAt), fmtDuration(r.Duration()),
			string(r.Status), refreshText(r), c.line(r.EngineLabel(), 40), c.line(selectionText(r), 40), human.Count(r.RowsWritten),
			human.Count(r.RowsDeleted), human.Count(r.Retries)})
	}
	t.print(w, "", p, map[int]func(string) string{3: statusStyle})
}

// printRunDetail prints one run: a summary, then its tasks, operations,
// retries, deletions and messages.
func printRunDetail(w io.Writer, d history.RunDetail, p painter, c cutter) {
	r := d.Run
	took := "took " + fmtDuration(r.Duration())
	if r.EndedAt.IsZero() {
		took = "not finished"
	}
	fmt.Fprintf(w, "%s %s, %s, started %s UTC, %s\n", p.paint(ansiBold, fmt.Sprintf("Run %d", r.ID)),
		p.paint(statusStyle(string(r.Status)), string(r.Status)), refreshText(r), fmtClock(r.StartedAt), took)
	field := func(name, value string) { fmt.Fprintf(w, "  %-10s %s\n", name, value) }
	ws := r.Workspace
	if r.Env != "" {
		ws += " (env " + r.Env + ")"
	}
	field("Workspace", ws)
	field("Selection", fmt.Sprintf("%s, parallelism %d", selectionText(r), r.Parallelism))
	field("Engine", r.EngineLabel())
	field("Rows", fmt.Sprintf("read %s, written %s, deleted %s", human.Count(r.RowsRead), human.Count(r.RowsWritten), human.Count(r.RowsDeleted)))
	field("Counts", fmt.Sprintf("tasks %d (failed %d), retries %d, warnings %d, errors %d",
		r.Tasks, r.TasksFailed, r.Retries, r.Warnings, r.Errors))
	if r.Error != "" {
		field("Error", p.paint(ansiRed, r.Error))
	}
	if !r.Status.Done() || r.Status == history.StatusInterrupted {
		field("Process", fmt.Sprintf("pid %d on %s", r.PID, r.Host))
	}

	section := func(title string, t textTable, styles map[int]func(string) string) {
		fmt.Fprintf(w, "\n%s\n", p.paint(ansiBold, title))
		if len(t.rows) == 0 {
			fmt.Fprintln(w, "  none")
			return
		}
		t.print(w, "  ", p, styles)
	}
	tasks := textTable{header: []string{"TASK", "STATUS", "STARTED", "DURATION", "READ", "WRITTEN", "DELETED", "RETRIES", "ERROR"},
		right: map[int]bool{3: true, 4: true, 5: true, 6: true, 7: true}}
	for _, t := range d.Tasks {
		tasks.rows = append(tasks.rows, []string{t.Key, string(t.Status), fmtTimeOfDay(t.StartedAt), fmtDuration(t.Duration()),
			human.Count(t.RowsRead), human.Count(t.RowsWritten), human.Count(t.RowsDeleted), human.Count(t.Retries), c.line(t.Error, 60)})
	}
	section("Tasks", tasks, map[int]func(string) string{1: statusStyle})

	ops := textTable{header: []string{"TASK", "TABLE", "VERSION", "OPERATION", "ADDED", "DELETED", "FILES +/-", "DURATION", "DETAIL"},
		right: map[int]bool{2: true, 4: true, 5: true, 7: true}}
	for _, o := range d.Operations {
		version := "-"
		if o.Version != nil {
			version = strconv.FormatInt(*o.Version, 10)
		}
		ops.rows = append(ops.rows, []string{orDash(o.Task), o.Table, version, o.Operation, human.Count(o.RowsAdded),
			human.Count(o.RowsDeleted), fmt.Sprintf("+%d -%d", o.FilesAdded, o.FilesRemoved), fmtDuration(o.Duration), c.line(o.Detail, 50)})
	}
	section("Table operations", ops, nil)

	retries := textTable{header: []string{"TASK", "TABLE", "ATTEMPT", "DELAY", "ERROR"}, right: map[int]bool{2: true, 3: true}}
	for _, x := range d.Retries {
		retries.rows = append(retries.rows, []string{orDash(x.Task), orDash(x.Table), strconv.Itoa(x.Attempt),
			fmtDuration(x.Delay), c.line(x.Error, 80)})
	}
	section("Retries", retries, nil)

	dels := textTable{header: []string{"TASK", "TABLE", "WRITER", "ROWS DELETED", "VERSION"}, right: map[int]bool{3: true, 4: true}}
	for _, x := range d.Deletions {
		owner := x.Writer
		if owner == "" {
			owner = "where " + x.Predicate
		}
		version := "-"
		if x.Version != nil {
			version = strconv.FormatInt(*x.Version, 10)
		}
		dels.rows = append(dels.rows, []string{orDash(x.Task), x.Table, c.line(owner, 60), human.Count(x.Rows), version})
	}
	section("Deleted rows per writer", dels, nil)

	msgs := textTable{header: []string{"SEVERITY", "TASK", "CODE", "MESSAGE"}}
	for _, m := range d.Messages {
		msgs.rows = append(msgs.rows, []string{string(m.Severity), orDash(m.Task), orDash(m.Code), c.line(m.Text, 100)})
	}
	section("Messages", msgs, map[int]func(string) string{0: severityText})

	switch n := len(d.Events); n {
	case 0:
	case 1:
		fmt.Fprintln(w, "\nEvent log: 1 entry (--json shows it)")
	default:
		fmt.Fprintf(w, "\nEvent log: %d entries (--json shows them)\n", n)
	}
}

// textTable is an aligned table of plain cells; styles colour cells after
// padding, so colours never break the alignment.
type textTable struct {
	header []string
	rows   [][]string
	right  map[int]bool // right-aligned columns
}

func (t textTable) print(w io.Writer, indent string, p painter, styles map[int]func(string) string) {
	width := make([]int, len(t.header))
	for _, row := range append([][]string{t.header}, t.rows...) {
		for i, c := range row {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	line := func(row []string, header bool) {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			cell := c + pad
			if t.right[i] {
				cell = pad + c
			}
			if i == len(row)-1 {
				cell = strings.TrimRight(cell, " ")
			}
			if cell == "" {
				continue // an empty last cell: no trailing blanks
			}
			switch {
			case header:
				cell = p.paint(ansiDim, cell)
			case styles[i] != nil && bool(p):
				cell = styles[i](cell)
			}
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(cell)
		}
		fmt.Fprintln(w, b.String())
	}
	line(t.header, true)
	for _, row := range t.rows {
		line(row, false)
	}
}

// statusStyle colours a (padded) status cell.
func statusStyle(s string) string {
	switch history.Status(strings.TrimSpace(s)) {
	case history.StatusSucceeded:
		return ansiGreen + s + ansiReset
	case history.StatusFailed:
		return ansiBold + ansiRed + s + ansiReset
	case history.StatusCancelled, history.StatusInterrupted, history.StatusSkipped:
		return ansiYellow + s + ansiReset
	}
	return ansiCyan + s + ansiReset
}

func severityText(s string) string {
	switch history.Severity(strings.TrimSpace(s)) {
	case history.SeverityError:
		return ansiBold + ansiRed + s + ansiReset
	case history.SeverityWarning:
		return ansiBold + ansiYellow + s + ansiReset
	}
	return ansiCyan + s + ansiReset
}

// ansiGreen completes the ANSI styles of validate.go for succeeded runs.
const ansiGreen = "\x1b[32m"

func refreshText(r history.Run) string {
	if r.ResetMode != "" {
		return string(r.Refresh) + "+" + string(r.ResetMode)
	}
	return string(r.Refresh)
}

func selectionText(r history.Run) string {
	sel := append(append([]string{}, r.Pipelines...), r.Selectors...)
	if len(sel) == 0 {
		return "all pipelines"
	}
	return strings.Join(sel, ", ")
}

func fmtClock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

func fmtTimeOfDay(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("15:04:05")
}

// fmtDuration is a duration as people read it (human.Duration), "-" when
// unknown.
func fmtDuration(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return human.Duration(d)
}

// cutter shortens the cells of a table of text on a terminal (not with
// --wide); output that is not a terminal is never cut.
type cutter bool

// cutter is on when stdout is a terminal and --wide is not given.
func (a *app) cutter(wide bool) cutter { return cutter(isTerminal(a.stdout) && !wide) }

// line is s on one line: when cutting, its first line, at most n
// characters (" …" says more lines follow); else all of it, its lines
// joined by " ⏎ ".
func (c cutter) line(s string, n int) string {
	if !c {
		return strings.Join(strings.Split(s, "\n"), " ⏎ ")
	}
	return cutLine(s, n)
}

// fit is s, cut to at most n characters when cutting.
func (c cutter) fit(s string, n int) string {
	if !c {
		return s
	}
	return ellipsis(s, n)
}

// cutLine keeps the first line of s, at most n characters; " …" says
// more lines follow.
func cutLine(s string, n int) string {
	first, _, multi := strings.Cut(s, "\n")
	if utf8.RuneCountInString(first) > n {
		return ellipsis(first, n)
	}
	if multi {
		return first + " …"
	}
	return first
}

// ellipsis cuts s to at most n characters, "…" ending a cut.
func ellipsis(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// wideHelp is the help of --wide.
const wideHelp = "on a terminal, print long cells whole (output that is not a terminal is never cut)"
