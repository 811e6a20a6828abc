package main

import (
	"context"
	"regexp"
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
