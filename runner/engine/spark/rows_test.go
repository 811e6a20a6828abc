package spark

import (
	"testing"

	"github.com/laktory/workbench/runner/engine"
)

// TestRowJSON: Spark's JSON of a row keeps null members, writes
// timestamps in UTC with microseconds and decimals as strings (the form of
// engine.Rows); a relation without columns is {}.
func TestRowJSON(t *testing.T) {
	got := rowJSON([]engine.Column{{Name: "k", Type: "Long"}, {Name: "it's", Type: "Decimal"}})
	want := `to_json(named_struct('k', "k", 'it\'s', CAST("it's" AS STRING)), map('ignoreNullFields', 'false', 'timeZone', 'UTC', ` +
		`'timestampFormat', 'yyyy-MM-dd\'T\'HH:mm:ss.SSSSSS\'Z\'', 'timestampNTZFormat', 'yyyy-MM-dd\'T\'HH:mm:ss.SSSSSS'))`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := rowJSON(nil); got != "'{}'" {
		t.Fatalf("no columns: %s", got)
	}
}
