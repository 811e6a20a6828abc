package main

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// commandRe finds the laktory commands of a message or hint: a command
// runs from "laktory " to the end of the text or a closing parenthesis;
// "&&" chains commands.
var commandRe = regexp.MustCompile(`laktory [a-z][^()]*`)

// shellWords splits a command line as a POSIX shell does for the quoting
// human.Quote writes (plain words and single-quoted ones).
func shellWords(s string) []string {
	var out []string
	var b strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			in, quoted = !in, true
		case r == ' ' && !in:
			if b.Len() > 0 || quoted {
				out = append(out, b.String())
			}
			b.Reset()
			quoted = false
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 || quoted {
		out = append(out, b.String())
	}
	return out
}

// checkPastable fails unless every laktory command in text is one the CLI
// parses as is (known command, known flags, valid values count), and the
// text has no keyword arguments or Python lists.
func checkPastable(t *testing.T, text string) int {
	t.Helper()
	for _, bad := range []string{"refresh=", "reset_mode=", "['", "refresh='"} {
		if strings.Contains(text, bad) {
			t.Errorf("%q: uses %q (a hint names flags and plain lists)", text, bad)
		}
	}
	n := 0
	for _, m := range commandRe.FindAllString(text, -1) {
		for _, c := range strings.Split(m, " && ") {
			n++
			words := shellWords(strings.TrimSpace(c))
			a := &app{ctx: context.Background(), getenv: func(string) string { return "" }}
			root := a.rootCommand()
			cmd, rest, err := root.Find(words[1:])
			if err != nil || cmd == root {
				t.Errorf("%q: %q is not a command: %v", text, c, err)
				continue
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("%q: %q does not parse: %v", text, c, err)
				continue
			}
			if cmd.Args != nil {
				if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
					t.Errorf("%q: %q: %v", text, c, err)
				}
			}
			if strings.HasSuffix(c, ",") || strings.HasSuffix(c, ".") {
				t.Errorf("%q: %q ends with punctuation", text, c)
			}
		}
	}
	return n
}

// TestHintsPasteAsIs collects the messages and hints of the demo's
// validation (with deep facts), of rejected and warned run parameters and
// of a plan's warnings, and checks that every command they name pastes as
// is.
func TestHintsPasteAsIs(t *testing.T) {
	dir := workspacetest.Demo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	var ds []workspace.Diagnostic
	var prices, orders workspace.TableID
	for _, tb := range snap.Tables {
		switch tb.Name {
		case "main.default.prices":
			prices = tb.ID
		case "main.default.all_orders":
			orders = tb.ID
		}
	}
	facts := map[workspace.TableID]validate.TableFacts{
		prices: {Exists: true, Columns: []string{"x"}},                                        // legacy: no writer column
		orders: {Exists: true, Columns: []string{workspace.DefaultWriterColumn, "client_id"}}, // switched to where
	}
	ds = append(ds, validate.Check(snap, validate.Options{Facts: facts})...)
	facts[prices] = validate.TableFacts{Exists: true, Columns: []string{workspace.DefaultWriterColumn}, WriterColumn: workspace.DefaultWriterColumn,
		WriterRows: map[string]int64{"pl-prices.feed_a": 3, "pl-prices.gone": 2}} // orphans
	ds = append(ds, validate.Check(snap, validate.Options{Facts: facts})...)
	for _, req := range []validate.RunRequest{
		{Refresh: "sometimes"}, {Refresh: "FULL", ResetMode: "shred"}, {ResetMode: "DROP"},
		{Refresh: "FULL", ResetMode: "DROP", Selection: map[string][]string{"pl-prices": {"feed_a"}}},
		{Refresh: "FULL", ResetMode: "DROP", Selection: map[string][]string{"pl-client-acme": {"orders"}}},
		{Refresh: "RESET", ResetMode: "DROP", Selection: map[string][]string{"pl-client-acme": {"orders"}}},
		{Refresh: "RESET", Selection: map[string][]string{"pl-events": nil}},
	} {
		_, more := validate.RunParameters(snap, req)
		ds = append(ds, more...)
	}
	r, err := runner.New(runner.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	plan, err := r.Plan(context.Background(), snap, runner.Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a"}, Refresh: "FULL"})
	if err != nil {
		t.Fatal(err)
	}
	ds = append(ds, plan.Warnings...)
	commands := 0
	for _, d := range ds {
		commands += checkPastable(t, d.Message) + checkPastable(t, d.Hint)
	}
	if len(ds) < 10 || commands < 8 {
		t.Fatalf("%d diagnostics naming %d commands: the scenarios do not cover the hints", len(ds), commands)
	}
}

// TestHintsTouchOnlyTheirSubject plans every laktory run command the hints
// about a shared table name (a legacy table, an ownership switch, a FULL
// refresh with a reset-mode override, a whole-table RESET leaving writers
// of other pipelines behind) and checks that, pasted as they are, they
// touch only what the message is about: a hint about one table resets no
// other table and runs every writer of it again (none left without its
// rows or with a checkpoint the table no longer matches); a hint about
// some writers deletes the rows of those writers only.
func TestHintsTouchOnlyTheirSubject(t *testing.T) {
	dir := workspacetest.Demo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	ids := map[string]workspace.TableID{}
	writers := map[workspace.TableID][]string{}
	for _, tb := range snap.Tables {
		ids[tb.Name] = tb.ID
		for _, w := range tb.Writers {
			writers[tb.ID] = append(writers[tb.ID], w.Pipeline+"."+w.Node)
		}
	}
	prices, orders := ids["main.default.prices"], ids["main.default.all_orders"]
	r, err := runner.New(runner.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	deep := func(facts map[workspace.TableID]validate.TableFacts) []workspace.Diagnostic {
		return validate.Check(snap, validate.Options{Facts: facts})
	}
	params := func(req validate.RunRequest) []workspace.Diagnostic {
		_, ds := validate.RunParameters(snap, req)
		return ds
	}
	for _, tc := range []struct {
		name string
		code string
		ds   []workspace.Diagnostic
		// table: the hint is about this table; writers: about these
		// writers (pipeline.node).
		table   workspace.TableID
		writers []string
	}{
		{name: "legacy table", code: validate.CodeLegacyTable, table: prices,
			ds: deep(map[workspace.TableID]validate.TableFacts{prices: {Exists: true, Columns: []string{"x"}}})},
		{name: "ownership switched to where", code: validate.CodeOwnershipSwitch, table: orders,
			ds: deep(map[workspace.TableID]validate.TableFacts{orders: {Exists: true, Columns: []string{workspace.DefaultWriterColumn, "client_id"}}})},
		{name: "FULL with a reset mode, other pipelines", code: validate.CodeFullOverrideOthers, table: orders,
			ds: params(validate.RunRequest{Refresh: "FULL", ResetMode: "DROP", Selection: map[string][]string{"pl-client-acme": {"orders"}}})},
		{name: "FULL with a reset mode, one pipeline", code: validate.CodeFullOverrideShared, table: prices,
			ds: params(validate.RunRequest{Refresh: "FULL", ResetMode: "DROP", Selection: map[string][]string{"pl-prices": {"feed_a"}}})},
		{name: "RESET of a table with writers outside the run", code: validate.CodeResetOtherWriters, writers: []string{"pl-client-globex.orders"},
			ds: params(validate.RunRequest{Refresh: "RESET", ResetMode: "DROP", Selection: map[string][]string{"pl-client-acme": {"orders"}}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hints []string
			for _, d := range tc.ds {
				if d.Code == tc.code {
					hints = append(hints, d.Hint)
				}
			}
			if len(hints) == 0 {
				t.Fatalf("no %s in %v", tc.code, tc.ds)
			}
			for _, hint := range hints {
				tasks := map[string]bool{}
				commands := 0
				for _, m := range commandRe.FindAllString(hint, -1) {
					for _, c := range strings.Split(m, " && ") {
						req, ok := runRequest(t, c)
						if !ok {
							continue
						}
						commands++
						plan, err := r.Plan(context.Background(), snap, req)
						if err != nil {
							t.Fatalf("%q: %q does not plan: %v", hint, c, err)
						}
						for _, task := range plan.Tasks {
							tasks[task.Key] = true
						}
						for _, e := range plan.Effects {
							switch {
							case e.Kind == runner.EffectResetCheckpoint || e.Kind == runner.EffectResume:
							case tc.table != "" && e.Table != tc.table:
								t.Errorf("%q: %q also does %s on %s", hint, c, e.Kind, e.Table)
							case tc.writers != nil && (e.Kind != runner.EffectDeleteRows || !slices.Contains(tc.writers, e.Task)):
								t.Errorf("%q: %q also does %s for %s on %s", hint, c, e.Kind, e.Task, e.Table)
							}
						}
					}
				}
				if commands == 0 {
					t.Fatalf("%q names no run command", hint)
				}
				if tc.table != "" {
					for _, w := range writers[tc.table] {
						if !tasks[w] {
							t.Errorf("%q resets %s but never runs its writer %s again: its rows stay lost (or its checkpoint disagrees with the table)", hint, tc.table, w)
						}
					}
				}
			}
		})
	}
}

// runRequest is the runner request of a laktory run command line (ok
// false for another command).
func runRequest(t *testing.T, line string) (runner.Request, bool) {
	t.Helper()
	words := shellWords(strings.TrimSpace(line))
	if len(words) < 2 || words[1] != "run" {
		return runner.Request{}, false
	}
	a := &app{ctx: context.Background(), getenv: func(string) string { return "" }}
	cmd, rest, err := a.rootCommand().Find(words[1:])
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	fl := cmd.Flags()
	pipelines, _ := fl.GetStringArray("pipeline")
	selectors, _ := fl.GetStringArray("select")
	refresh, _ := fl.GetString("refresh")
	mode, _ := fl.GetString("reset-mode")
	return runner.Request{Pipelines: pipelines, Selectors: selectors, Refresh: refresh, ResetMode: mode}, true
}
