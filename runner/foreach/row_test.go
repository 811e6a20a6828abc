package foreach_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/foreach"
)

func TestRow(t *testing.T) {
	row, err := foreach.ParseRow([]byte(` { "id" : 7 , "a\"b":"x\u00e9", "n":null, "o":{"k":[1,"]}"]}, "f":-1.5E+3, "t":true, "id":8 } `))
	if err != nil {
		t.Fatal(err)
	}
	var names, values []string
	for k, v := range row.Columns() {
		names = append(names, k)
		values = append(values, string(v))
	}
	if got := strings.Join(names, "|"); got != `id|a"b|n|o|f|t|id` {
		t.Errorf("names %s", got)
	}
	if got := strings.Join(values, "|"); got != `7|"x\u00e9"|null|{"k":[1,"]}"]}|-1.5E+3|true|8` {
		t.Errorf("values %s", got)
	}
	tests := []struct {
		name, col, text, raw string
		err                  error
	}{
		{name: "number, first of duplicates", col: "id", text: "7", raw: "7"},
		{name: "escaped name and value", col: `a"b`, text: "xé", raw: `"x\u00e9"`},
		{name: "bool", col: "t", text: "true", raw: "true"},
		{name: "exponent", col: "f", text: "-1.5E+3", raw: "-1.5E+3"},
		{name: "null", col: "n", raw: "null", err: foreach.ErrRow},
		{name: "object", col: "o", raw: `{"k":[1,"]}"]}`, err: foreach.ErrRow},
		{name: "missing", col: "zz", err: foreach.ErrRow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, ok := row.Get(tt.col)
			if string(raw) != tt.raw || ok != (tt.raw != "") {
				t.Errorf("Get = %s, %v", raw, ok)
			}
			text, err := row.Text(tt.col)
			if text != tt.text || !errors.Is(err, tt.err) {
				t.Errorf("Text = %q, %v", text, err)
			}
		})
	}
	var v struct {
		ID int `json:"id"`
	}
	if err := row.Decode(&v); err != nil || v.ID != 8 { // encoding/json: the last duplicate
		t.Errorf("Decode: %+v %v", v, err)
	}
	c := row.Clone()
	if !bytes.Equal(c.JSON(), row.JSON()) || &c.JSON()[0] == &row.JSON()[0] {
		t.Error("Clone must copy")
	}
}

func TestParseRowRejects(t *testing.T) {
	for _, in := range []string{"", "  ", "[1]", `"s"`, "1", `{"a":}`, `{"a":1`, `{"a":1}x`} {
		if _, err := foreach.ParseRow([]byte(in)); !errors.Is(err, foreach.ErrRow) {
			t.Errorf("ParseRow(%q) = %v, want ErrRow", in, err)
		}
	}
}

// FuzzRowColumns: on any JSON object, Columns yields the members
// encoding/json reads, in order, with the same names and raw values.
func FuzzRowColumns(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a\\"":"}\\"","b":[{"c":"]"}],"d":null}`, ` {"x" : [ 1 , 2 ] , "y":{ } } `, `{"":""}`, `{"a":"\u0041"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		row, err := foreach.ParseRow([]byte(s))
		if err != nil {
			return
		}
		dec := json.NewDecoder(strings.NewReader(s))
		if _, err := dec.Token(); err != nil { // {
			t.Fatal(err)
		}
		var want []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			want = append(want, k.(string)+"="+string(v))
		}
		var got []string
		for k, v := range row.Columns() {
			got = append(got, k+"="+string(v))
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%s: columns %q, want %q", s, got, want)
		}
	})
}

func TestLines(t *testing.T) {
	in := "{\"a\":1}\r\n\n   \n{\"a\":2}\n{\"a\":3}"
	c := &closer{Reader: strings.NewReader(in)}
	src := foreach.Lines(c)
	var got []string
	for {
		b, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	if strings.Join(got, ",") != `{"a":1},{"a":2},{"a":3}` {
		t.Errorf("rows %q", got)
	}
	src.(io.Closer).Close()
	if !c.closed {
		t.Error("Lines must close its reader")
	}
	long := foreach.Lines(io.MultiReader(strings.NewReader("{\"a\":1}\n"), strings.NewReader(`{"a":"`+strings.Repeat("x", foreach.MaxRowSize)+`"}`)))
	long.Next()
	if _, err := long.Next(); err == nil || !strings.Contains(err.Error(), "line 2 is longer than 67108864 bytes") {
		t.Errorf("long line: %v", err)
	}
}

type closer struct {
	io.Reader
	closed bool
}

func (c *closer) Close() error { c.closed = true; return nil }
