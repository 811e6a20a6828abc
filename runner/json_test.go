package runner

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONUnknownLeftOut: -1 (unknown) is left out of the JSON and read
// back as -1; known values, 0 included, stay.
func TestJSONUnknownLeftOut(t *testing.T) {
	for _, tc := range []struct {
		v       any
		back    any
		missing string
		get     func(any) int64
	}{
		{Effect{Kind: EffectDropTable, Rows: -1}, &Effect{}, `"rows"`, func(v any) int64 { return v.(*Effect).Rows }},
		{Event{Kind: EventWarning, Version: -1}, &Event{}, `"version"`, func(v any) int64 { return v.(*Event).Version }},
		{TaskSummary{Key: "pl.a", RowsRead: -1}, &TaskSummary{}, `"rows_read"`, func(v any) int64 { return v.(*TaskSummary).RowsRead }},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), tc.missing) || strings.Contains(string(b), "-1") {
			t.Fatalf("%s: unknown is written", b)
		}
		if err := json.Unmarshal(b, tc.back); err != nil || tc.get(tc.back) != -1 {
			t.Fatalf("%s read back as %+v (%v)", b, tc.back, err)
		}
	}
	b, _ := json.Marshal(Event{Kind: EventOperation, Version: 0, Table: "t"})
	var ev Event
	if !strings.Contains(string(b), `"version":0`) || json.Unmarshal(b, &ev) != nil || ev.Version != 0 || ev.Table != "t" {
		t.Fatalf("version 0: %s -> %+v", b, ev)
	}
}
