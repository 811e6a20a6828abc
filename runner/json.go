package runner

import "encoding/json"

// The JSON of runs, plans and events leaves out what is unknown rather
// than writing -1 (the Go values keep -1): an effect's rows without
// stats, an event's table version when it names none, the rows a task
// read when it only reset its sinks.

// MarshalJSON leaves rows out when unknown.
func (e Effect) MarshalJSON() ([]byte, error) {
	type plain Effect
	return json.Marshal(struct {
		plain
		Rows *int64 `json:"rows,omitempty"`
	}{plain(e), known(e.Rows)})
}

// UnmarshalJSON reads rows left out as unknown (-1).
func (e *Effect) UnmarshalJSON(b []byte) error {
	type plain Effect
	aux := struct {
		*plain
		Rows *int64 `json:"rows"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.Rows = orUnknown(aux.Rows)
	return nil
}

// MarshalJSON leaves the version out when the event names none.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	return json.Marshal(struct {
		plain
		Version *int64 `json:"version,omitempty"`
	}{plain(e), known(e.Version)})
}

// UnmarshalJSON reads a version left out as none (-1).
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event
	aux := struct {
		*plain
		Version *int64 `json:"version"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.Version = orUnknown(aux.Version)
	return nil
}

// MarshalJSON leaves rows_read out when the task read nothing (it only
// reset its sinks).
func (t TaskSummary) MarshalJSON() ([]byte, error) {
	type plain TaskSummary
	return json.Marshal(struct {
		plain
		RowsRead *int64 `json:"rows_read,omitempty"`
	}{plain(t), known(t.RowsRead)})
}

// UnmarshalJSON reads rows_read left out as none (-1).
func (t *TaskSummary) UnmarshalJSON(b []byte) error {
	type plain TaskSummary
	aux := struct {
		*plain
		RowsRead *int64 `json:"rows_read"`
	}{plain: (*plain)(t)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	t.RowsRead = orUnknown(aux.RowsRead)
	return nil
}

func known(n int64) *int64 {
	if n < 0 {
		return nil
	}
	return &n
}

func orUnknown(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}
