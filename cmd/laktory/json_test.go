package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// dataMaps are JSON objects whose keys are data (table properties, Delta's
// operation parameters and metrics, txn application ids, Spark conf), not
// field names.
var dataMaps = map[string]bool{"properties": true, "operation_parameters": true, "operation_metrics": true,
	"app_transactions": true, "spark_conf": true, "selection": true, "writer_rows": true, "tags": true}

// jsonStyle lists what breaks the JSON style at path: keys not in
// snake_case (Go field names, camelCase), null (an empty list is [], an
// unknown value is left out) and -1 for unknown.
func jsonStyle(path string, v any, bad *[]string) {
	switch x := v.(type) {
	case nil:
		*bad = append(*bad, path+": null")
	case float64:
		if x == -1 {
			*bad = append(*bad, path+": -1")
		}
	case []any:
		for i, e := range x {
			jsonStyle(fmt.Sprintf("%s[%d]", path, i), e, bad)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !snakeKey.MatchString(k) {
				*bad = append(*bad, path+"."+k+": not snake_case")
			}
			if dataMaps[k] {
				continue
			}
			jsonStyle(path+"."+k, x[k], bad)
		}
	}
}

// TestJSONStyle runs every command that prints JSON on the demo (after a
// run and a FULL refresh) and checks one style: snake_case keys, [] not
// null, no -1 for unknown.
func TestJSONStyle(t *testing.T) {
	dir := workspacetest.Demo(t)
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("run: %d\n%s%s", code, out, errs)
	}
	prices := filepath.Join(dir, ".laktory", "lake", "main", "default", "prices")
	commands := [][]string{
		{"run", dir, "--select", "pl-prices.feed_a", "--full-refresh", "--yes", "--json"},
		{"plan", dir, "--refresh", "RESET", "--reset-mode", "TRUNCATE", "--select", "pl-client-acme.orders", "--json"},
		{"plan", dir, "--select", "nope", "--json"},
		// Nothing to delete, no warning: "effects" and "warnings" are [].
		{"plan", dir, "--select", "pl-prices.feed_a", "--json"},
		{"run", dir, "--select", "pl-prices.feed_a", "--json"},
		{"validate", dir, "--json"},
		{"validate", dir, "--deep", "--json"},
		{"graph", dir, "--json"},
		{"history", dir, "--json"},
		{"history", dir, "--run", "2", "--json"},
		{"table", "describe", prices, "--json"},
		{"table", "log", prices, "--json"},
		{"table", "optimize", prices, "--json"},
		{"version", "--json"},
		{"init", filepath.Join(t.TempDir(), "ws"), "--json"},
	}
	for _, args := range commands {
		t.Run(strings.Join(args[:min(len(args), 2)], "_"), func(t *testing.T) {
			_, out, errs := runCLI(t, nil, args...)
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%v: not JSON: %v\n%s%s", args, err, out, errs)
			}
			var bad []string
			jsonStyle("$", v, &bad)
			if len(bad) > 0 {
				t.Errorf("%v:\n  %s", args, strings.Join(bad, "\n  "))
			}
		})
	}
}
