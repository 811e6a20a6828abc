package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the CLI in-process and returns its exit code and output.
func runCLI(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string { return env[k] }
	code := Main(context.Background(), args, strings.NewReader(""), &out, &errb, getenv)
	return code, out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, nil, "version")
	if code != ExitOK || !strings.HasPrefix(out, "laktory ") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
	code, out, _ = runCLI(t, nil, "--version")
	if code != ExitOK || !strings.HasPrefix(out, "laktory ") {
		t.Fatalf("--version: code %d, out %q", code, out)
	}
	code, out, _ = runCLI(t, nil, "version", "--json")
	var v versionInfo
	if code != ExitOK || json.Unmarshal([]byte(out), &v) != nil || v.Version == "" || v.Go == "" {
		t.Fatalf("version --json: code %d, out %q", code, out)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"unknown command", []string{"frobnicate"}},
		{"unknown flag", []string{"version", "--nope"}},
		{"missing argument", []string{"init"}},
		{"extra argument", []string{"version", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, nil, tt.args...)
			if code != ExitUsage {
				t.Fatalf("exit code %d, want %d (stderr %q)", code, ExitUsage, stderr)
			}
			if !strings.Contains(stderr, "laktory:") {
				t.Fatalf("stderr %q does not explain the error", stderr)
			}
		})
	}
}

func TestHelpEverywhereWithExamples(t *testing.T) {
	a := &app{ctx: context.Background(), getenv: func(string) string { return "" }}
	root := a.rootCommand()
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if c.Example == "" {
			t.Errorf("command %q has no examples in --help", c.Name())
		}
		code, out, _ := runCLI(t, nil, c.Name(), "--help")
		if code != ExitOK || !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help: code %d, output lacks examples", c.Name(), code)
		}
	}
}

func TestInit(t *testing.T) {
	for _, demo := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "ws")
		args := []string{"init", dir, "--json"}
		if demo {
			args = append(args, "--demo")
		}
		code, out, stderr := runCLI(t, nil, args...)
		if code != ExitOK {
			t.Fatalf("init demo=%v: code %d, stderr %q", demo, code, stderr)
		}
		var res initResult
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Files == 0 {
			t.Fatalf("init --json output %q: %v", out, err)
		}
		want := "pipelines/pl-example.yaml"
		if demo {
			want = "pipelines/pl-prices.yaml"
		}
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Fatalf("init demo=%v did not write %s", demo, want)
		}
		// Refuses a folder that already holds files.
		if code, _, stderr := runCLI(t, nil, "init", dir); code != ExitUsage || !strings.Contains(stderr, "not empty") {
			t.Fatalf("init into a non-empty folder: code %d, stderr %q", code, stderr)
		}
	}
}

func TestColor(t *testing.T) {
	a := &app{getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}}
	if a.color(os.Stdout) {
		t.Fatal("NO_COLOR set: colours must be off")
	}
	a.getenv = func(string) string { return "" }
	if a.color(&bytes.Buffer{}) {
		t.Fatal("not a terminal: colours must be off")
	}
}

// A misspelt LAKTORY_FAILPOINT would never stop the process: a crash test
// given one would pass without crashing. The CLI refuses it before doing
// anything.
func TestUnknownFailPointRefused(t *testing.T) {
	tests := []struct {
		spec string
		want int
	}{
		{"", ExitOK},
		{"refresh.done", ExitOK},
		{"refresh.done:2", ExitOK},
		{"delta.commit.after", ExitOK},
		{"refresh.dnoe", ExitUsage},
		{"refresh.dnoe:2", ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			code, _, errOut := runCLI(t, map[string]string{"LAKTORY_FAILPOINT": tt.spec}, "version")
			if code != tt.want {
				t.Fatalf("LAKTORY_FAILPOINT=%q: exit %d, want %d (stderr %q)", tt.spec, code, tt.want, errOut)
			}
			if tt.want == ExitUsage && (!strings.Contains(errOut, "unknown fail point \"refresh.dnoe\"") || !strings.Contains(errOut, "refresh.done")) {
				t.Fatalf("stderr %q does not name the unknown point and the known ones", errOut)
			}
		})
	}
}
