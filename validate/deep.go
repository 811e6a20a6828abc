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
	// NullWriterRows counts the rows whose writer column is NULL (not in
	// WriterRows, where "" is the empty id).
	NullWriterRows int64
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
				"drop the table once, then run normally: "+ResetTableCommand(t, "DROP"))
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
				"drop the table once, then run normally: "+ResetTableCommand(t, "DROP"))
		}
		return
	}
	if f.WriterColumn != column || len(f.WriterRows) == 0 && f.NullWriterRows == 0 {
		return
	}
	declared := map[string]bool{}
	for _, w := range ws {
		declared[w.WriterID] = true
	}
	var orphans, commands []string
	var anchor *workspace.Writer
	for _, id := range slices.Sorted(maps.Keys(f.WriterRows)) {
		if !declared[id] {
			orphans = append(orphans, fmt.Sprintf("'%s' (%d rows)", id, f.WriterRows[id]))
			commands = append(commands, human.Command("table", "forget-writer", tableName(t), "--writer", id))
			if anchor == nil {
				anchor = closestWriter(ws, id)
			}
		}
	}
	if f.NullWriterRows > 0 {
		orphans = append(orphans, fmt.Sprintf("NULL (%d rows)", f.NullWriterRows))
		commands = append(commands, human.Command("table", "forget-writer", tableName(t), "--null"))
	}
	if len(orphans) == 0 {
		return
	}
	if anchor == nil {
		anchor = ws[0]
	}
	// The hint deletes exactly the rows the message is about, id by id
	// (NULL included), and nothing of the current writers'.
	c.add(c.sharedPos(anchor, ""), Warning, CodeOrphanWriters,
		fmt.Sprintf("table %s holds rows of writer ids no current writer declares: %s. A renamed or removed writer's rows are never deleted by a FULL refresh",
			t.Label(), strings.Join(orphans, ", ")),
		fmt.Sprintf("pin `shared.writer_id` before renaming a writer; if these rows are no longer wanted, delete exactly them, id by id (each command shows its plan and asks first): %s",
			strings.Join(commands, " && ")))
}

// closestWriter is the writer an orphan id most likely belonged to: one of
// the same pipeline (the id's part before the last '.'), else the first.
func closestWriter(ws []*workspace.Writer, id string) *workspace.Writer {
	if i := strings.LastIndex(id, "."); i > 0 {
		for _, w := range ws {
			if w.Pipeline == id[:i] {
				return w
			}
		}
	}
	return ws[0]
}

// ResetTableCommand is the command that resets the whole table t with
// reset mode mode (a RESET of every writer of it, in one run: the table is
// reset once and every writer's checkpoint with it), then runs those
// writers normally, so none is left without its rows or with a checkpoint
// the table no longer matches; it touches no other table.
func ResetTableCommand(t *workspace.Table, mode string) string {
	var sels []string
	for _, w := range t.Writers {
		if s := w.Pipeline + "." + w.Node; !slices.Contains(sels, s) {
			sels = append(sels, s)
		}
	}
	return human.RunCommand("", sels, RefreshReset, mode) + " && " + human.RunCommand("", sels, "", "")
}
