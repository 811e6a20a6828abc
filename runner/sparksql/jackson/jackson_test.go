package jackson

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// get_json_object's results as Spark 4.2 gives them (pyspark, by hand).
func TestGetJSONObject(t *testing.T) {
	null := "<NULL>"
	for _, tc := range []struct{ json, path, want string }{
		{`{"a":1,"b":2}`, `$.*`, null},
		{`{"a":[1,2,3]}`, `$.a[*]`, `[1,2,3]`},
		{`{"a":[1]}`, `$.a[*]`, `1`},
		{`{"a":["x","y"]}`, `$.a[*]`, `["x","y"]`},
		{`{"a":["x"]}`, `$.a[*]`, `"x"`},
		{`{"a":"x"}`, `$.a`, `x`},
		{`{"a":[[1,2],[3]]}`, `$.a[*][*]`, `[1,2,3]`},
		{`{"a":[[1,2],[3]]}`, `$.a[*]`, `[[1,2],[3]]`},
		{`{"a":[{"b":1},{"c":2},{"b":3}]}`, `$.a[*].b`, `[1,3]`},
		{`{"a":[{"b":1},{"c":2}]}`, `$.a[*].b`, `1`},
		{`{"a":[]}`, `$.a[*]`, null},
		{`{"a":[]}`, `$.a[0]`, null},
		{`{"a":[],"b":[1]}`, `$.a[0].x`, null},
		{`[1.50,2e3,"q"]`, `$[*]`, `[1.5,2000.0,"q"]`},
		{`{"a":1}`, `$['*']`, null},
		{`{"a":1}`, `$ .a`, null},
		{`{"a b":1}`, `$.a b`, `1`},
		{`{"a":1}`, `$. a`, `1`},
		{`{"a":[1,null,2]}`, `$.a[*]`, `[1,null,2]`},
		{`{"a":[null]}`, `$.a[*]`, `null`},
		{`{"a":[{"b":null}]}`, `$.a[*].b`, null},
		{`{"o":[{"l":[{"s":"a"}]},{"l":[]}]}`, `$.o[*].l[*].s`, `["a"],[]`},
		{`[[[1,2],[3]],[[4]]]`, `$[*][*][*]`, `[[1,2,3],4]`},
		{`{"a":[1,2], "b": }`, `$.a[*]`, null},
		{`{"a":[1,2]} trailing`, `$.a[*]`, `[1,2]`},
		{`{'a':['x','y']}`, `$.a[*]`, `["x","y"]`},
		{`{"a":[1E20, 1e-4]}`, `$.a`, `[1.0E20,1.0E-4]`},
	} {
		p, ok, err := ParsePath(tc.path)
		got := null
		if err != nil {
			t.Errorf("%s %s: %v", tc.json, tc.path, err)
			continue
		}
		if ok {
			out, found, err := GetJSONObject(tc.json, p)
			if err != nil {
				t.Errorf("%s %s: %v", tc.json, tc.path, err)
				continue
			}
			if found {
				got = out
			}
		}
		if got != tc.want {
			t.Errorf("get_json_object(%s, %s) = %s, want %s", tc.json, tc.path, got, tc.want)
		}
	}
}

// The reader of from_json: strict JSON of the first value, Malformed
// where Jackson fails, Unsupported where its reading is not reproduced.
func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		f    Features
		want string // "!" malformed, "?" unsupported, "" no value
	}{
		{`{"a": 1 /* c */, "b": "x" // end` + "\n}", Features{Comments: true}, `{"a":1,"b":"x"}`},
		{`{"a": 1 /* c */}`, Features{}, "!"},
		{`{"a": 1 # c` + "\n}", Features{Comments: true}, "!"},
		{`{a: 1, b_2: "x", $c: true}`, Features{UnquotedNames: true}, `{"a":1,"b_2":"x","$c":true}`},
		{`{a: 1}`, Features{}, "!"},
		{`{'a': 'it\'s', "b": ['p', "q"]}`, Features{SingleQuotes: true}, `{"a":"it's","b":["p","q"]}`},
		{`{'a': 1}`, Features{}, "!"},
		{`{"a":1} x`, Features{}, `{"a":1}`},
		{`{"a":1`, Features{}, "!"},
		{`{"a":01}`, Features{}, "!"},
		{`{"a":"\x"}`, Features{}, "!"},
		{"{\"a\":\"x\ty\"}", Features{}, "!"},
		{"{\"a\":\"x\ty\"}", Features{ControlChars: true}, `{"a":"x\ty"}`},
		{`{"a":1,"a":2}`, Features{}, "?"},
		{`{"a":NaN}`, Features{NonNumeric: true}, "?"},
		{`{"a":NaN}`, Features{}, "!"},
		{`{"a":[1,}`, Features{}, "!"},
		{`  `, Features{}, ""},
		{`5`, Features{}, `5`},
		{`5x`, Features{}, "!"},
		{`{"a":truex}`, Features{}, "!"},
		{`{"a":"\ud83d\ude00"}`, Features{}, `{"a":"😀"}`},
		{`{"a":"\ud83d"}`, Features{}, "?"},
	} {
		out, ok, err := Normalize(tc.in, tc.f)
		got := out
		switch {
		case errors.Is(err, ErrMalformed):
			got = "!"
		case errors.Is(err, ErrUnsupported):
			got = "?"
		case err != nil:
			t.Errorf("%s: %v", tc.in, err)
			continue
		case !ok:
			got = ""
		}
		if got != tc.want {
			t.Errorf("Normalize(%s, %+v) = %q (%v), want %q", tc.in, tc.f, got, err, tc.want)
		}
	}
}

// Jackson's DefaultPrettyPrinter, as to_json's pretty writes (Spark 4.2).
func TestPretty(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, "{\n  \"a\" : 1\n}"},
		{`[1,2]`, "[ 1, 2 ]"},
		{`{"k":[{"x":1}]}`, "{\n  \"k\" : [ {\n    \"x\" : 1\n  } ]\n}"},
		{`[{"k":1},{}]`, "[ {\n  \"k\" : 1\n}, { } ]"},
		{`{"a":{}}`, "{\n  \"a\" : { }\n}"},
		{`[[1,2],[]]`, "[ [ 1, 2 ], [ ] ]"},
		{`{"s":"a,b:{[\"]}"}`, "{\n  \"s\" : \"a,b:{[\\\"]}\"\n}"},
	} {
		if got := Pretty(tc.in); got != tc.want {
			t.Errorf("Pretty(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestJavaDouble(t *testing.T) {
	for in, want := range map[string]string{
		"1.50": "1.5", "2e3": "2000.0", "-0.0": "-0.0", "1E-2": "0.01", "1e2": "100.0", "0.001": "0.001",
		"0.0001": "1.0E-4", "1234567": "1234567.0", "12345678": "1.2345678E7", "1e7": "1.0E7", "1e20": "1.0E20",
		"3.14159": "3.14159", "-12.25e-1": "-1.225", "123456789012345678901.0": "1.2345678901234568E20",
	} {
		got, err := JavaDouble(in)
		if err != nil || got != want {
			t.Errorf("JavaDouble(%s) = %s, %v, want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"1e400", "5e-324"} {
		if _, err := JavaDouble(in); !errors.Is(err, ErrUnsupported) {
			t.Errorf("JavaDouble(%s): %v, want ErrUnsupported", in, err)
		}
	}
}

// TestSparkCases compares the package with Spark 4.2 on random JSON texts
// and paths (testdata/cases.json, by scripts/sparksql/jackson_cases.py):
// get_json_object's result for every pair, and for every text whether
// from_json's reader reads it (its corrupt record is NULL) with the
// options allowComments (c), allowUnquotedFieldNames (u) and
// allowSingleQuotes false (n). Cases whose reading is not reproduced
// (ErrUnsupported) are counted, never compared.
func TestSparkCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Paths []struct {
			JSON, Path string
			Spark      *string
		} `json:"get_json_object"`
		Reads []struct {
			JSON       *string `json:"json"`
			Options    string  `json:"options"`
			Corrupt    *string `json:"corrupt"`
			StructNull bool    `json:"struct_null"`
		} `json:"from_json"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var same, found, unsupported int
	for _, c := range file.Paths {
		p, ok, err := ParsePath(c.Path)
		var got *string
		if err == nil && ok {
			var out string
			var hit bool
			out, hit, err = GetJSONObject(c.JSON, p)
			if hit {
				got = &out
			}
		}
		if errors.Is(err, ErrUnsupported) {
			unsupported++
			continue
		}
		if err != nil {
			t.Errorf("get_json_object(%q, %q): %v", c.JSON, c.Path, err)
			continue
		}
		if (got == nil) != (c.Spark == nil) || got != nil && *got != *c.Spark {
			t.Errorf("get_json_object(%q, %q) = %v, Spark %v", c.JSON, c.Path, show(got), show(c.Spark))
			continue
		}
		same++
		if got != nil {
			found++
		}
	}
	t.Logf("get_json_object: %d of %d pairs as Spark (%d non-NULL), %d not reproduced", same, len(file.Paths), found, unsupported)
	var reads, malformed, runsupported int
	for _, c := range file.Reads {
		if c.JSON == nil {
			continue
		}
		f := Features{SingleQuotes: true, NonNumeric: true}
		for _, o := range c.Options {
			switch o {
			case 'c':
				f.Comments = true
			case 'u':
				f.UnquotedNames = true
			case 'n':
				f.SingleQuotes = false
			}
		}
		out, ok, err := Normalize(*c.JSON, f)
		if errors.Is(err, ErrUnsupported) {
			runsupported++
			continue
		}
		// Spark: a blank text is NULL; a text read as an object has no
		// corrupt record; a malformed one, or another value, has.
		var bad bool
		switch {
		case errors.Is(err, ErrMalformed):
			bad = true
		case err != nil:
			t.Errorf("from_json(%q): %v", *c.JSON, err)
			continue
		case !ok:
			if !c.StructNull {
				t.Errorf("from_json(%q, %s): blank here, Spark reads %v", *c.JSON, c.Options, show(c.Corrupt))
			}
			continue
		default:
			bad = out[0] != '{'
		}
		if c.StructNull || bad != (c.Corrupt != nil) {
			t.Errorf("from_json(%q, %s): malformed %v (%s), Spark's corrupt record %v (NULL struct %v)", *c.JSON, c.Options, bad, out, show(c.Corrupt), c.StructNull)
			continue
		}
		reads++
		if bad {
			malformed++
		}
	}
	t.Logf("from_json's reader: %d of %d texts as Spark (%d malformed), %d not reproduced", reads, len(file.Reads), malformed, runsupported)
}

func show(s *string) string {
	if s == nil {
		return "NULL"
	}
	return "'" + *s + "'"
}
