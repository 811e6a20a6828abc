package main

import (
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// paramWorkspace is two pipelines sharing a table by where predicates, one
// of them from a parameter: pa owns client_id = 1 (its default), pb
// client_id = 2.
func paramWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"pipelines/pa.yaml": `name: pa
parameters:
  own:
    default: client_id = 1
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: ${params.own}
`,
		"pipelines/pb.yaml": `name: pb
nodes:
- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: client_id = 2
`,
		"data/a/1.jsonl": "{\"id\": 1, \"client_id\": 1}\n{\"id\": 2, \"client_id\": 1}\n{\"id\": 3, \"client_id\": 1}\n",
		"data/b/1.jsonl": "{\"id\": 4, \"client_id\": 2}\n{\"id\": 5, \"client_id\": 2}\n",
	})
	return dir
}

// TestValidateParams: validate --param checks the pipelines with a run's
// parameter values: a where predicate from a parameter is checked against
// the other writers after substitution; an empty or undeclared --param is
// refused.
func TestValidateParams(t *testing.T) {
	dir := paramWorkspace(t)
	if code, out, errs := runCLI(t, nil, "validate", dir); code != ExitOK {
		t.Fatalf("the default: exit %d\n%s%s", code, out, errs)
	}
	tests := []struct {
		param string
		code  int
		want  string
	}{
		{"own=client_id = 3", ExitOK, "no problems"},
		{"own=client_id = 2", ExitProblems, "LK108 pa.a and pb.b write main.default.orders with the same `shared.where` (client_id = 2)"},
		{"own=client_id IN (1, 2)", ExitProblems, "LK111 the `where` predicates of pa.a (client_id IN (1, 2)) and pb.b (client_id = 2) overlap"},
		{"own=", ExitProblems, "LK020 --param own= gives parameter 'own' an empty value"},
		{"other=1", ExitUsage, "--param other: no pipeline declares it"},
	}
	for _, tt := range tests {
		t.Run(tt.param, func(t *testing.T) {
			code, out, errs := runCLI(t, nil, "validate", "--param", tt.param, dir)
			if code != tt.code || !strings.Contains(out+errs, tt.want) {
				t.Fatalf("exit %d (want %d), want %q in\n%s%s", code, tt.code, tt.want, out, errs)
			}
		})
	}
}
