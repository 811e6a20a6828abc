package tui

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/tui/lanes"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// common is shared by every pane: styles, keys, the clock and the
// workspace's folder.
type common struct {
	st   *Styles
	keys *KeyMap
	now  func() time.Time
	dir  string // paths in messages are shown relative to it
}

// relAll shortens the paths of each line (rel).
func (c *common) relAll(lines []string) []string {
	for i, l := range lines {
		lines[i] = c.rel(l)
	}
	return lines
}

// rel shortens the paths under the workspace's folder in a message.
func (c *common) rel(s string) string {
	if c.dir == "" {
		return s
	}
	return strings.ReplaceAll(s, strings.TrimSuffix(c.dir, string(filepath.Separator))+string(filepath.Separator), "")
}

// wsView is the workspace as the panes show it: a snapshot, its
// diagnostics placed on its objects, the tables' stats and the lane
// matrix. It is replaced as a whole, never modified.
type wsView struct {
	snap  *workspace.Snapshot
	diags []workspace.Diagnostic
	ix    *index
	stats map[workspace.TableID]TableStats
	graph *lanes.Graph
}

func newWSView(snap *workspace.Snapshot, diags []workspace.Diagnostic, stats map[workspace.TableID]TableStats) *wsView {
	ix := buildIndex(snap, diags)
	return &wsView{snap: snap, diags: diags, ix: ix, stats: stats, graph: lanes.Build(snap, ix.writerState)}
}

func factsOf(stats map[workspace.TableID]TableStats) map[workspace.TableID]validate.TableFacts {
	if len(stats) == 0 {
		return nil
	}
	out := make(map[workspace.TableID]validate.TableFacts, len(stats))
	for id, s := range stats {
		out[id] = s.Facts
	}
	return out
}

func (v *wsView) table(id workspace.TableID) *workspace.Table {
	if v == nil || v.snap == nil || id == "" {
		return nil
	}
	return v.snap.Table(id)
}

// tableLabel is a table's short name.
func tableLabel(t *workspace.Table) string {
	if t.Name != "" {
		return shortName(t.Name)
	}
	return t.Label()
}

// shortName drops the default catalog and schema of a table name.
func shortName(name string) string {
	return strings.TrimPrefix(name, workspace.DefaultCatalog+"."+workspace.DefaultSchema+".")
}

// writerRows is a writer of a table with the rows it owns in it.
type writerRows struct {
	w     *workspace.Writer
	owner string // writer id, predicate or "whole table"
	rows  int64
	known bool
	err   string
}

// orphan is a writer id found in a table that no writer declares.
type orphan struct {
	id   string
	rows int64
}

// tableWriters lists the writers of t with their rows (from the stats),
// and the orphan writer ids of the table's writer column.
func tableWriters(t *workspace.Table, st TableStats, have bool) ([]writerRows, []orphan) {
	var out []writerRows
	declared := map[string]bool{}
	for _, w := range t.Writers {
		wr := writerRows{w: w}
		switch w.Ownership {
		case workspace.OwnerColumn:
			wr.owner = "id " + w.WriterID
			if w.WriterID == w.Pipeline+"."+w.Node {
				wr.owner = "writer id"
			}
			declared[w.WriterID] = true
			if have && st.Facts.Exists && st.Facts.WriterColumn == w.Column {
				wr.rows, wr.known = st.Facts.WriterRows[w.WriterID], true
			}
		case workspace.OwnerWhere:
			wr.owner = "where " + w.Where
			if n, ok := st.PredicateRows[w.Where]; ok && have {
				wr.rows, wr.known = n, true
			}
			wr.err = st.PredicateErr[w.Where]
		default:
			wr.owner = "whole table"
			if w.View {
				wr.owner = "defines the view"
			}
			if w.Declarative {
				wr.owner = "flow " + w.Flow
			}
			if have && st.Facts.Exists && !t.Shared() && len(t.Writers) == 1 {
				wr.rows, wr.known = st.Rows, st.RowsExact
			}
		}
		out = append(out, wr)
	}
	var orphans []orphan
	if have && st.Facts.WriterColumn != "" {
		for _, id := range sortedKeys(st.Facts.WriterRows) {
			if !declared[id] {
				orphans = append(orphans, orphan{id: id, rows: st.Facts.WriterRows[id]})
			}
		}
		// Rows whose writer column is NULL belong to no writer either
		// (the facts count them apart from the empty id).
		if st.Facts.NullWriterRows > 0 {
			orphans = append(orphans, orphan{id: "NULL", rows: st.Facts.NullWriterRows})
		}
	}
	return out, orphans
}

// runMark is the mark of a run status in the tree.
func runMark(st *Styles, s history.Status) string {
	switch s {
	case history.StatusRunning, history.StatusQueued:
		return st.Running.Render("▶")
	case history.StatusSucceeded:
		return st.OK.Render("✓")
	case history.StatusFailed:
		return st.Error.Render("↯")
	case history.StatusCancelled, history.StatusSkipped, history.StatusInterrupted:
		return st.Dim.Render("–")
	}
	return " "
}

// stateMark is the mark of a validation state.
func stateMark(st *Styles, s lanes.State, withOK bool) string {
	glyph := "✓"
	switch s {
	case lanes.Error:
		glyph = "✗"
	case lanes.Warning:
		glyph = "!"
	case lanes.Info:
		glyph = "i"
	default:
		if !withOK {
			return " "
		}
	}
	return st.state(s).Render(glyph)
}

func severityMark(st *Styles, s workspace.Severity) string {
	return stateMark(st, severityState(s), false)
}

// statusStyle styles a run status word.
func statusStyle(st *Styles, s history.Status) lipgloss.Style {
	switch s {
	case history.StatusRunning, history.StatusQueued:
		return st.Running
	case history.StatusSucceeded:
		return st.OK
	case history.StatusFailed:
		return st.Error
	}
	return st.Dim
}

// stamp formats a time in UTC to the minute.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// shortStamp formats a time in UTC as month-day hour:minute.
func shortStamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("01-02 15:04")
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
