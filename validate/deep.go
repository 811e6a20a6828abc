package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// TableFacts is what is known of an existing table, gathered by the caller
// (runner.GatherFacts reads Delta tables) and passed to Check as data.
type TableFacts struct {
	// Exists is false when the table has not been written yet.
	Exists bool
	// Columns are the table's columns, in table order.
	Columns []string
	// WriterColumn is the column counted in WriterRows ("" when not
	// counted), WriterRows the number of rows per writer id.
	WriterColumn string
	WriterRows   map[string]int64
	// Err says why the facts could not be read ("" when they could).
	Err string
}

// deep runs the rules that need table facts: a shared table without its
// writer column, rows of writer ids no writer declares, and a writer column
// left over after a switch to `where`.
func (c *checker) deep() {
	for _, id := range slices.Sorted(maps.Keys(c.opts.Facts)) {
		f := c.opts.Facts[id]
		t := c.snap.Table(id)
		if t == nil || len(t.Writers) == 0 {
			continue
		}
		at := t.Writers[0].Pos
		if f.Err != "" {
			c.add(at, Warning, CodeFactsUnreadable,
				fmt.Sprintf("cannot read table %s to check it against its writers: %s", t.Label(), f.Err),
				"the deep checks of this table are skipped; check that the table's folder is a readable Delta table")
			continue
		}
		if !f.Exists {
			continue
		}
		var col, where []*workspace.Writer
		for _, w := range t.Writers {
			switch w.Ownership {
			case workspace.OwnerColumn:
				col = append(col, w)
			case workspace.OwnerWhere:
				where = append(where, w)
			}
		}
		if len(col) > 0 {
			c.deepColumn(t, f, col)
		}
		if len(where) > 0 && len(col) == 0 && slices.Contains(f.Columns, workspace.DefaultWriterColumn) {
			c.add(c.sharedPos(where[0], "where"), Warning, CodeOwnershipSwitch,
				fmt.Sprintf("table %s has the writer column %s, but its writers now own their rows with `where`: rows written before the switch keep their writer and may match no predicate",
					t.Label(), workspace.DefaultWriterColumn),
				"drop the table once, then run normally: "+dropOnce(where[0]))
		}
	}
}

func (c *checker) deepColumn(t *workspace.Table, f TableFacts, ws []*workspace.Writer) {
	column := ws[0].Column
	if !slices.Contains(f.Columns, column) {
		for _, w := range ws {
			c.add(c.sharedPos(w, ""), Error, CodeLegacyTable,
				fmt.Sprintf("table %s has no `%s` column: it was written before it was shared (or by writers owning rows with `where`), so writes will fail until it is dropped once",
					t.Label(), column),
				"drop the table once, then run normally: "+dropOnce(w))
		}
		return
	}
	if f.WriterColumn != column || len(f.WriterRows) == 0 {
		return
	}
	declared := map[string]bool{}
	for _, w := range ws {
		declared[w.WriterID] = true
	}
	var orphans []string
	for _, id := range slices.Sorted(maps.Keys(f.WriterRows)) {
		if !declared[id] {
			orphans = append(orphans, fmt.Sprintf("'%s' (%d rows)", id, f.WriterRows[id]))
		}
	}
	if len(orphans) == 0 {
		return
	}
	first := strings.Trim(strings.SplitN(orphans[0], " ", 2)[0], "'")
	c.add(c.sharedPos(ws[0], ""), Warning, CodeOrphanWriters,
		fmt.Sprintf("table %s holds rows of writer ids no current writer declares: %s. A renamed or removed writer's rows are never deleted by a FULL refresh",
			t.Label(), strings.Join(orphans, ", ")),
		fmt.Sprintf("pin `shared.writer_id` before renaming a writer; delete the rows (DELETE FROM %s WHERE %s = '%s'), or drop the table once, then run normally: %s",
			tableName(t), column, first, dropOnce(ws[0])))
}

// dropOnce is the command that drops a writer's table (a RESET with DROP
// of the writer) and the normal run after it.
func dropOnce(w *workspace.Writer) string {
	return human.RunCommand(w.Pipeline, []string{w.Node}, RefreshReset, "DROP") + " && " +
		human.RunCommand(w.Pipeline, nil, "", "")
}
