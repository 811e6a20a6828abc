package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/tui/lanes"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// tablePane shows the selected table: version, partitioning, rows per
// writer, schema, version history and a scrollable preview of its rows.
type tablePane struct {
	c       *common
	ws      *wsView
	id      workspace.TableID
	info    *TableInfo
	err     string
	loading bool
	// stale: the table changed since info was read (read it again when
	// the tab is shown).
	stale   bool
	offset  int // first line shown
	col     int // first preview column shown
	w, h    int
	focused bool
	q       string // the search: only the preview rows holding it show
	lines   []string
	view    []string
}

func newTablePane(c *common) tablePane { return tablePane{c: c} }

// SetSize sets the pane's size.
func (t *tablePane) SetSize(w, h int) {
	t.w, t.h = w, h
	t.render()
}

func (t *tablePane) setFocused(f bool) {
	t.focused = f
	t.render()
}

func (t *tablePane) setWorkspace(ws *wsView) {
	t.ws = ws
	t.render()
}

// setTable selects the table to show; it reports whether it changed (and
// its data must be read).
func (t *tablePane) setTable(id workspace.TableID) bool {
	if id == t.id {
		return false
	}
	t.id, t.info, t.err, t.offset, t.col = id, nil, "", 0, 0
	t.render()
	return true
}

// setLoading marks the table's data as being read.
func (t *tablePane) setLoading(on bool) {
	t.loading = on
	t.render()
}

// setInfo shows the data read for table id.
func (t *tablePane) setInfo(id workspace.TableID, info *TableInfo, err error) {
	if id != t.id {
		return
	}
	t.loading, t.stale = false, false
	t.info, t.err = info, ""
	if err != nil {
		t.err = err.Error()
	}
	t.render()
}

// Update scrolls the pane and the preview's columns.
func (t tablePane) Update(msg tea.Msg) (tablePane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return t, nil
	}
	k := t.c.keys
	off, moved := k.move(km, t.offset, max(t.h-2, 1), len(t.lines))
	switch {
	case moved:
		t.offset = off // the render clamps it
	case key.Matches(km, k.Left):
		t.col--
	case key.Matches(km, k.Right):
		t.col++
	default:
		return t, nil
	}
	t.render()
	return t, nil
}

// View returns the pane's lines.
func (t tablePane) View() []string { return t.view }

func (t *tablePane) query() string { return t.q }

func (t *tablePane) search(q string) int {
	t.q = q
	t.render()
	if q == "" || t.info == nil {
		return 0
	}
	n := 0
	for _, r := range t.info.Preview.Rows {
		if matches(q, r...) {
			n++
		}
	}
	if n > 0 {
		t.offset = -1
		t.step(true) // to the first match
	}
	return n
}

// step scrolls to the next line (or the previous one) holding the search.
func (t *tablePane) step(forward bool) {
	if t.q == "" || len(t.lines) == 0 {
		return
	}
	t.offset = stepIndex(t.offset, len(t.lines), forward, func(i int) bool { return matches(t.q, t.lines[i]) })
	t.render()
}

// ShortHelp implements help.KeyMap.
func (t tablePane) ShortHelp() []key.Binding {
	k := t.c.keys
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.Reload}
}

// FullHelp implements help.KeyMap.
func (t tablePane) FullHelp() [][]key.Binding {
	k := t.c.keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Left, k.Right, k.Reload}}
}

func (t *tablePane) render() {
	if t.w <= 0 || t.h <= 0 {
		t.view = nil
		return
	}
	text, preview := t.content()
	t.lines = append(wrapAll(text, t.w), preview...)
	t.offset = min(max(t.offset, 0), max(len(t.lines)-t.h, 0))
	end := min(t.offset+t.h, len(t.lines))
	t.view = fitLines(t.lines[t.offset:end], t.w, t.h)
}

// content is the pane's text (wrapped to the pane) and the preview of the
// table's rows (scrolled sideways).
func (t *tablePane) content() (text, preview []string) {
	st := t.c.st
	tb := t.ws.table(t.id)
	if tb == nil {
		return []string{st.Dim.Render("Select a table: a sink in the tree, or a lane of the graph.")}, nil
	}
	lines := []string{st.Bold.Render(tableLabel(tb)) + st.Dim.Render("  "+tb.Label())}
	switch {
	case t.err != "":
		return append(lines, st.StatusErr.Render("cannot read the table: "+t.err)), nil
	case t.info == nil && t.loading:
		return append(lines, st.Dim.Render("reading…")), nil
	case t.info == nil:
		return append(lines, st.Dim.Render("not read yet (ctrl+r reads it)")), nil
	}
	info := t.info
	if info.Stats.Facts.Err != "" {
		return append(append(lines, st.Warning.Render("unreadable: "+info.Stats.Facts.Err)), t.streamLines(tb)...), nil
	}
	if !info.Stats.Facts.Exists {
		return append(append(lines, st.Dim.Render("not written yet: run a writer of the table (r) to create it")), t.streamLines(tb)...), nil
	}
	if v := info.View; v != nil {
		return append(t.viewLines(lines, tb, info), t.streamLines(tb)...), nil
	}
	rows := human.Count(info.Stats.Rows) + " rows"
	if !info.Stats.RowsExact {
		rows = "at least " + rows
	}
	lines = append(lines, fmt.Sprintf("version %d · %s UTC · %s · %s · %s", info.Stats.Version, stamp(info.Timestamp),
		human.Plural(int64(info.Files), "file"), human.Bytes(info.SizeBytes), rows))
	part := "not partitioned"
	if len(info.Partitions) > 0 {
		part = "partitioned by " + strings.Join(info.Partitions, ", ")
	}
	if t.loading {
		part += st.Dim.Render("  (refreshing…)")
	}
	lines = append(lines, part)

	stats, have := t.ws.stats[t.id]
	writers, orphans := tableWriters(tb, stats, have)
	lines = append(lines, "", st.Accent.Render("Rows per writer"))
	w := min(t.w, 90)
	for _, wr := range writers {
		k, _ := lanes.Ownership(wr.w)
		n := st.Dim.Render("–")
		switch {
		case wr.err != "":
			n = st.Warning.Render("? " + wr.err)
		case wr.known:
			n = human.Count(wr.rows)
		}
		lines = append(lines, rightAlign("  "+lanes.Glyph(k)+" "+wr.w.Pipeline+"."+wr.w.Node+"  "+st.Dim.Render(wr.owner), n, w))
	}
	for _, o := range orphans {
		lines = append(lines, rightAlign("  "+st.Warning.Render("? "+o.id)+st.Dim.Render("  no writer declares it"), human.Count(o.rows), w))
	}
	if len(writers) > 1 && slices.ContainsFunc(writers, func(wr writerRows) bool { return wr.w.Declarative && !wr.known }) {
		lines = append(lines, st.Dim.Render("  (append flows share the table without a writer column: their rows are not told apart)"))
	}

	lines = append(lines, "", st.Accent.Render(fmt.Sprintf("Schema (%d columns)", len(info.Columns))))
	nameW := 4
	for _, c := range info.Columns {
		nameW = max(nameW, min(ansi.StringWidth(c.Name), 32))
	}
	for _, c := range info.Columns {
		var notes []string
		if !c.Nullable {
			notes = append(notes, "not null")
		}
		if c.Partition {
			notes = append(notes, "partition")
		}
		lines = append(lines, fmt.Sprintf("  %-*s  %-16s %s", nameW, ansi.Truncate(c.Name, 32, "…"), c.Type, st.Dim.Render(strings.Join(notes, ", "))))
	}

	if len(info.Properties) > 0 {
		lines = append(lines, "", st.Accent.Render("Properties"))
		for _, k := range sortedKeys(info.Properties) {
			lines = append(lines, "  "+k+" = "+info.Properties[k])
		}
	}

	lines = append(lines, "", st.Accent.Render(fmt.Sprintf("History (%d versions shown)", len(info.History))))
	for _, h := range info.History {
		lines = append(lines, fmt.Sprintf("  v%-4d %s  %-14s %s", h.Version, stamp(h.Timestamp), h.Operation, st.Dim.Render(historyDetail(h))))
	}

	lines = append(append(lines, t.streamLines(tb)...), "")
	return lines, t.previewLines(info.Preview)
}

// streamLines lists the table's streaming writers (their flows and
// checkpoints) and streaming readers.
func (t *tablePane) streamLines(tb *workspace.Table) []string {
	st := t.c.st
	snap := t.ws.snap
	var writers []string
	for _, w := range tb.Writers {
		p, n := snap.Pipeline(w.Pipeline), snap.Node(w.Pipeline, w.Node)
		sk := n.SinkAt(w.Sink)
		if p == nil || sk == nil || !(n.Streaming() || p.Declarative()) {
			continue
		}
		writers = append(writers, "  ⇢ "+w.Pipeline+"."+w.Node+st.Dim.Render("  flow "+runner.FlowName(p, n, sk)),
			st.Dim.Render("    checkpoint "+relPath(snap, runner.CheckpointDir(snap.Layout, p, n, sk))))
	}
	var readers []string
	for _, r := range tb.Readers {
		if r.AsStream {
			readers = append(readers, "  ⇠ "+r.Pipeline+"."+r.Node+st.Dim.Render("  "+readerOptions(r)))
		}
	}
	if len(writers)+len(readers) == 0 {
		return nil
	}
	lines := []string{"", st.Accent.Render(fmt.Sprintf("Streaming (%s, %s)", human.Plural(int64(len(writers)/2), "writer"),
		human.Plural(int64(len(readers)), "reader")))}
	return append(append(lines, writers...), readers...)
}

// mergeMetrics are the metrics a MERGE commit shows, by name: the rows
// always, the others when not zero.
var mergeMetrics = []struct {
	key, name string
	always    bool
}{
	{"numTargetRowsInserted", "inserted", true}, {"numTargetRowsUpdated", "updated", true}, {"numTargetRowsDeleted", "deleted", true},
	{"numSourceRows", "source", false}, {"numTargetFilesAdded", "filesAdded", false}, {"numTargetFilesRemoved", "filesRemoved", false},
	{"numTargetDeletionVectorsAdded", "dvsAdded", false},
}

// historyDetail sums up a commit's parameters and metrics: for a MERGE,
// the rows it inserted, updated and deleted, its source rows and files.
func historyDetail(h lake.HistoryEntry) string {
	var parts []string
	if h.Operation == "MERGE" {
		for _, m := range mergeMetrics {
			if v, ok := h.OperationMetrics[m.key]; ok && (m.always || compact(v) != "0") {
				parts = append(parts, m.name+"="+compact(v))
			}
		}
		if h.Engine != "" {
			parts = append(parts, h.Engine)
		}
		return strings.Join(parts, " ")
	}
	for _, k := range []string{"mode", "predicate"} {
		if v, ok := h.OperationParameters[k]; ok {
			parts = append(parts, k+"="+compact(v))
		}
	}
	for _, k := range sortedKeys(h.OperationMetrics) {
		if strings.HasPrefix(k, "num") {
			parts = append(parts, strings.TrimPrefix(k, "num")+"="+compact(h.OperationMetrics[k]))
		}
	}
	if h.Engine != "" {
		parts = append(parts, h.Engine)
	}
	return strings.Join(parts, " ")
}

func compact(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

const previewColWidth = 24

// previewLines draws the preview as a table, from column t.col on.
func (t *tablePane) previewLines(p Preview) []string {
	st := t.c.st
	if p.Err != "" {
		return []string{st.Accent.Render("Preview"), st.Warning.Render("  cannot read rows: " + p.Err)}
	}
	n := len(p.Columns)
	if n == 0 {
		return []string{st.Accent.Render("Preview"), st.Dim.Render("  no columns")}
	}
	t.col = min(max(t.col, 0), n-1)
	widths := make([]int, n)
	for i, c := range p.Columns {
		widths[i] = min(ansi.StringWidth(c), previewColWidth)
		for _, r := range p.Rows {
			if i < len(r) {
				widths[i] = min(max(widths[i], ansi.StringWidth(r[i])), previewColWidth)
			}
		}
	}
	last := t.col
	used := 2
	for last < n && used+widths[last]+3 <= t.w {
		used += widths[last] + 3
		last++
	}
	last = max(last, t.col+1)
	more := ""
	if p.More {
		more = ", more in the table"
	}
	title := st.Accent.Render(fmt.Sprintf("Preview (%s%s)", human.Plural(int64(len(p.Rows)), "row"), more)) +
		st.Dim.Render(fmt.Sprintf("  columns %d-%d of %d, ←/→ to scroll", t.col+1, last, n))
	row := func(vals []string, style func(string) string) string {
		var b strings.Builder
		b.WriteString("  ")
		for i := t.col; i < last; i++ {
			v := ""
			if i < len(vals) {
				v = vals[i]
			}
			v = ansi.Truncate(strings.ReplaceAll(v, "\n", "⏎"), widths[i], "…")
			b.WriteString(style(v))
			b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(v)))
			if i < last-1 {
				b.WriteString(st.Dim.Render(" │ "))
			}
		}
		return b.String()
	}
	lines := []string{title, row(p.Columns, func(s string) string { return st.Bold.Render(s) })}
	shown := 0
	for _, r := range p.Rows {
		if matches(t.q, r...) {
			lines = append(lines, row(r, func(s string) string { return s }))
			shown++
		}
	}
	switch {
	case len(p.Rows) == 0:
		lines = append(lines, st.Dim.Render("  the table is empty"))
	case t.q != "":
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %d of %s hold %q", shown, human.Plural(int64(len(p.Rows)), "row"), t.q)))
	}
	return lines
}

// viewLines describe a view (a VIEW sink): who wrote it and when, its SQL,
// the tables it reads and its columns. It holds no rows: readers evaluate
// its query (laktory table scan prints them).
func (t *tablePane) viewLines(lines []string, tb *workspace.Table, info *TableInfo) []string {
	st := t.c.st
	v := info.View
	w := max(min(t.w, 90), 20)
	lines = append(lines, fmt.Sprintf("view · created %s UTC by %s.%s · %s", stamp(info.Timestamp), v.Pipeline, v.Node, v.Dialect),
		st.Dim.Render("no rows of its own: its query is evaluated when it is read (laktory table scan "+tb.Label()+")"))
	lines = append(lines, "", st.Accent.Render("SQL"))
	for _, l := range wrap(v.SQL, w-2) {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "", st.Accent.Render("Reads"))
	for _, r := range v.Reads {
		lines = append(lines, "  "+r)
	}
	lines = append(lines, "", st.Accent.Render(fmt.Sprintf("Schema (%d columns, when created)", len(info.Columns))))
	for _, c := range info.Columns {
		lines = append(lines, fmt.Sprintf("  %-24s %s", ansi.Truncate(c.Name, 24, "…"), c.Type))
	}
	return append(lines, "")
}
