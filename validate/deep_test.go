package validate

import (
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestDeepRules(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{
		"col.yaml":   writers("pl", "", appendShared, appendShared),
		"where.yaml": "name: w\nnodes:\n- name: a\n  sinks:\n  - table_name: tw\n    mode: APPEND\n    shared: {where: x = 1}\n",
	}, workspace.Options{})
	var t1, tw workspace.TableID
	for _, tb := range s.Tables {
		switch tb.Name {
		case "main.default.t":
			t1 = tb.ID
		case "main.default.tw":
			tw = tb.ID
		}
	}
	tests := []struct {
		name  string
		facts map[workspace.TableID]TableFacts
		want  []W
	}{
		{name: "not written yet", facts: map[workspace.TableID]TableFacts{t1: {}, tw: {}}},
		{name: "consistent", facts: map[workspace.TableID]TableFacts{
			t1: {Exists: true, Columns: []string{"_laktory_writer", "x"}, WriterColumn: "_laktory_writer", WriterRows: map[string]int64{"pl.a": 3, "pl.b": 2}},
			tw: {Exists: true, Columns: []string{"x"}},
		}},
		{name: "written before it was shared", facts: map[workspace.TableID]TableFacts{t1: {Exists: true, Columns: []string{"x"}}},
			want: []W{
				D("col.yaml", 7, 13, CodeLegacyTable, "table main.default.t has no `_laktory_writer` column: it was written before it was shared"),
				D("col.yaml", 12, 13, CodeLegacyTable, "--refresh RESET --reset-mode DROP && laktory run --select"),
			}},
		{name: "rows of removed writers", facts: map[workspace.TableID]TableFacts{
			t1: {Exists: true, Columns: []string{"_laktory_writer", "x"}, WriterColumn: "_laktory_writer", WriterRows: map[string]int64{"pl.a": 3, "pl.c": 5, "old.x": 1}},
		}, want: []W{D("col.yaml", 7, 13, CodeOrphanWriters, "'old.x' (1 rows), 'pl.c' (5 rows)")}},
		{name: "switched to where", facts: map[workspace.TableID]TableFacts{tw: {Exists: true, Columns: []string{"_laktory_writer", "x"}}},
			want: []W{D("where.yaml", 7, 21, CodeOwnershipSwitch, "its writers now own their rows with `where`")}},
		{name: "unreadable", facts: map[workspace.TableID]TableFacts{tw: {Err: "corrupt log"}},
			want: []W{D("where.yaml", 5, 5, CodeFactsUnreadable, "corrupt log")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			workspacetest.Expect(t, s, Check(s, Options{Facts: tt.facts}), tt.want)
		})
	}
}
