package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/laktory/workbench/workspace"
)

// paramField is a required pipeline parameter the run asks for, as
// laktory run --param NAME=VALUE sets it: the value goes to every pipeline
// of the run that declares it.
type paramField struct {
	name      string
	pipelines []string
	value     []rune
}

// paramsForm is the run waiting for its parameters.
type paramsForm struct {
	fields    []paramField
	resetMode string
}

// missingParams are the required parameters without a value of the
// pipelines t runs, in declaration order.
func missingParams(snap *workspace.Snapshot, t runTarget) []paramField {
	var out []paramField
	for _, p := range snap.Pipelines {
		if _, ok := t.selection[p.Name]; len(t.selection) > 0 && !ok {
			continue
		}
		for _, name := range p.MissingParameters() {
			i := slices.IndexFunc(out, func(f paramField) bool { return f.name == name })
			if i < 0 {
				out = append(out, paramField{name: name})
				i = len(out) - 1
			}
			out[i].pipelines = append(out[i].pipelines, p.Name)
		}
	}
	return out
}

// newParamsDialog asks for the fields, each prefilled with the value last
// given in this session.
func newParamsDialog(t runTarget, refresh, resetMode string, fields []paramField, last map[string]string) *dialog {
	for i := range fields {
		fields[i].value = []rune(last[fields[i].name])
	}
	d := &dialog{kind: dlgParams, title: runTitle(refresh, resetMode, t.desc), target: t, refresh: refresh,
		params: &paramsForm{fields: fields, resetMode: resetMode},
		body:   []string{"Required parameters (${params.NAME}) without a default: the run needs a value for each."}}
	d.renderParams()
	return d
}

// renderParams lays the fields out as the dialog's options, the cursor on
// the field being typed, and says which pipelines declare it.
func (d *dialog) renderParams() {
	width := 0
	for _, f := range d.params.fields {
		width = max(width, len(f.name))
	}
	d.options, d.notes = d.options[:0], d.notes[:0]
	for i, f := range d.params.fields {
		cursor := ""
		if i == d.cursor {
			cursor = "▏"
		}
		d.options = append(d.options, fmt.Sprintf("%-*s = %s%s", width, f.name, string(f.value), cursor))
		d.notes = append(d.notes, "declared by "+strings.Join(f.pipelines, ", ")+" (laktory run --param "+f.name+"=VALUE)")
	}
}

// paramsKey edits the parameters: typing changes the field under the
// cursor (e is text here), tab/↑/↓ move between fields, ctrl+e switches the
// engine, enter goes to the next field and, on the last with every value
// given, plans the run; esc cancels.
func (m *Model) paramsKey(msg tea.KeyMsg) tea.Cmd {
	d := m.dialog
	fs := d.params.fields
	f := &fs[d.cursor]
	switch msg.Type {
	case tea.KeyEsc:
		m.dialog = nil
		m.setStatus("run cancelled: nothing was changed", false)
		return nil
	case tea.KeyRunes, tea.KeySpace:
		f.value = append(f.value, msg.Runes...)
	case tea.KeyBackspace:
		if len(f.value) > 0 {
			f.value = f.value[:len(f.value)-1]
		}
	case tea.KeyCtrlU:
		f.value = nil
	case tea.KeyCtrlE:
		return m.switchEngine(d)
	case tea.KeyTab, tea.KeyDown:
		d.cursor = (d.cursor + 1) % len(fs)
	case tea.KeyShiftTab, tea.KeyUp:
		d.cursor = (d.cursor + len(fs) - 1) % len(fs)
	case tea.KeyEnter:
		if empty := slices.IndexFunc(fs, func(f paramField) bool { return strings.TrimSpace(string(f.value)) == "" }); empty >= 0 {
			if empty == d.cursor {
				m.setStatus(f.name+" needs a value", true)
			}
			d.cursor = empty
			break
		}
		return m.submitParams(d)
	}
	d.renderParams()
	return nil
}

// submitParams remembers the values and loads the workspace with them (a
// command); the run is planned on that snapshot.
func (m *Model) submitParams(d *dialog) tea.Cmd {
	values := map[string]string{}
	var given []string
	for _, f := range d.params.fields {
		values[f.name] = strings.TrimSpace(string(f.value))
		given = append(given, f.name+"="+values[f.name])
		if m.paramValues == nil {
			m.paramValues = map[string]string{}
		}
		m.paramValues[f.name] = values[f.name]
	}
	t := d.target
	t.desc += " with " + strings.Join(given, " ")
	m.seq.run++
	m.dialog = &dialog{kind: dlgPlanning, title: runTitle(d.refresh, d.params.resetMode, t.desc), token: m.seq.run,
		target: t, refresh: d.refresh, params: d.params, body: []string{"Loading the pipelines with " + strings.Join(given, ", ") + "…"}}
	return paramsCmd(m.ctx, m.seq.run, m.ws.snap, values)
}

// paramsMsg is the workspace loaded with a run's parameters.
type paramsMsg struct {
	token int
	snap  *workspace.Snapshot
	err   error
}

func paramsCmd(ctx context.Context, token int, snap *workspace.Snapshot, values map[string]string) tea.Cmd {
	return func() tea.Msg {
		s, err := workspace.WithParams(ctx, snap, values)
		return paramsMsg{token: token, snap: s, err: err}
	}
}

// paramsLoaded plans the run on the snapshot with its parameters.
func (m *Model) paramsLoaded(msg paramsMsg) tea.Cmd {
	d := m.dialog
	if d == nil || d.kind != dlgPlanning || d.token != msg.token || d.params == nil {
		return nil // cancelled meanwhile
	}
	if msg.err != nil {
		m.dialog = &dialog{kind: dlgMessage, title: "Cannot run " + d.title, body: []string{msg.err.Error()}}
		return nil
	}
	return m.planWith(msg.snap, d.target, d.refresh, d.params.resetMode)
}
