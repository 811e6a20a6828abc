package delta

import (
	"context"
	"encoding/json"
	"testing"
)

// TestJSONAndTextValues scans one row of every kind of column through
// DuckDB and checks how it is rendered.
func TestJSONAndTextValues(t *testing.T) {
	db := openTestDB(t)
	rows, err := db.QueryContext(context.Background(), `SELECT
		42::BIGINT AS l, 12.500::DECIMAL(7,3) AS dec, -0.05::DECIMAL(4,2) AS neg, 'x"y' AS s,
		DATE '2021-09-08' AS d, TIMESTAMPTZ '2021-09-08 11:11:11.123456+02' AS tz,
		TIMESTAMP '2021-09-08 11:11:11' AS ntz, 'NaN'::DOUBLE AS nan, '\x01A'::BLOB AS bin,
		NULL::INT AS n, {'a': 1, 'b': [DATE '2020-01-01']} AS st, MAP {1: 'one'} AS m, MAP {'k': 2.5::DECIMAL(3,1)} AS sm,
		170141183460469231731687303715884105727::HUGEINT AS huge`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	names, _ := rows.Columns()
	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if !rows.Next() {
		t.Fatal("no row")
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{}
	text := map[string]string{}
	for i, n := range names {
		obj[n] = JSONValue(vals[i], types[i].DatabaseTypeName())
		text[n] = TextValue(vals[i], types[i].DatabaseTypeName(), false)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"bin":"AUE=","d":"2021-09-08","dec":"12.500","huge":"170141183460469231731687303715884105727","l":42,"m":[{"key":1,"value":"one"}],"n":null,"nan":"NaN","neg":"-0.05","ntz":"2021-09-08T11:11:11","s":"x\"y","sm":{"k":"2.5"},"st":{"a":1,"b":["2020-01-01T00:00:00Z"]},"tz":"2021-09-08T09:11:11.123456Z"}`
	if string(b) != want {
		t.Fatalf("JSON:\n got %s\nwant %s", b, want)
	}
	for k, w := range map[string]string{"bin": `\x01A`, "n": "NULL", "dec": "12.500", "tz": "2021-09-08T09:11:11.123456Z", "st": `{"a":1,"b":["2020-01-01T00:00:00Z"]}`, "l": "42"} {
		if text[k] != w {
			t.Errorf("text %s = %q, want %q", k, text[k], w)
		}
	}
	if TextValue(nil, "", true) != "" {
		t.Error("empty NULL")
	}
}
