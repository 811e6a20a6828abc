package tui

import (
	"slices"
	"testing"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// TestTableWritersOrphans: writer ids no writer declares are orphans,
// and so are rows whose writer column is NULL (counted apart from the
// empty id), so the table and graph views show every row no writer owns.
func TestTableWritersOrphans(t *testing.T) {
	tbl := &workspace.Table{Writers: []*workspace.Writer{{Ownership: workspace.OwnerColumn, Column: "_laktory_writer", WriterID: "pl.a", Pipeline: "pl", Node: "a"}}}
	for _, tc := range []struct {
		name  string
		facts validate.TableFacts
		want  []orphan
	}{
		{"none", validate.TableFacts{Exists: true, WriterColumn: "_laktory_writer", WriterRows: map[string]int64{"pl.a": 3}}, nil},
		{"old id and empty id", validate.TableFacts{Exists: true, WriterColumn: "_laktory_writer", WriterRows: map[string]int64{"pl.a": 3, "pl.old": 2, "": 1}},
			[]orphan{{id: "", rows: 1}, {id: "pl.old", rows: 2}}},
		{"NULL ids", validate.TableFacts{Exists: true, WriterColumn: "_laktory_writer", WriterRows: map[string]int64{"pl.a": 3}, NullWriterRows: 4},
			[]orphan{{id: "NULL", rows: 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := tableWriters(tbl, TableStats{Facts: tc.facts}, true)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("orphans %+v, want %+v", got, tc.want)
			}
		})
	}
}
