package frame

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// dump writes a syntax tree compactly, for the parser's tests.
func dump(n Node) string {
	switch x := n.(type) {
	case *Name:
		return x.ID
	case *Const:
		switch x.Kind {
		case ConstStr:
			return fmt.Sprintf("%q", x.Str)
		case ConstInt:
			return fmt.Sprint(x.Int)
		case ConstFloat:
			return fmt.Sprint(x.Float) + "f"
		}
		return x.Text
	case *Attr:
		return dump(x.X) + "." + x.Name
	case *Call:
		var parts []string
		for _, a := range x.Args {
			parts = append(parts, dump(a))
		}
		for _, k := range x.Kw {
			parts = append(parts, k.Name+"="+dump(k.Value))
		}
		return dump(x.Fn) + "(" + strings.Join(parts, ", ") + ")"
	case *BinOp:
		return "(" + dump(x.L) + " " + x.Op + " " + dump(x.R) + ")"
	case *UnaryOp:
		return "(" + x.Op + " " + dump(x.X) + ")"
	case *Compare:
		s := dump(x.L)
		for i, op := range x.Ops {
			s += " " + op + " " + dump(x.Rs[i])
		}
		return "(" + s + ")"
	case *BoolOp:
		var parts []string
		for _, e := range x.Xs {
			parts = append(parts, dump(e))
		}
		return "(" + strings.Join(parts, " "+x.Op+" ") + ")"
	case *List:
		var parts []string
		for _, e := range x.Elts {
			parts = append(parts, dump(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *Tuple:
		var parts []string
		for _, e := range x.Elts {
			parts = append(parts, dump(e))
		}
		return "tuple(" + strings.Join(parts, ", ") + ")"
	case *Dict:
		var parts []string
		for i := range x.Keys {
			parts = append(parts, dump(x.Keys[i])+": "+dump(x.Values[i]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *Subscript:
		return dump(x.X) + "[" + dump(x.Index) + "]"
	}
	return "?"
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`nw.col("data").struct.field("symbol").cast(nw.dtypes.String())`, `nw.col("data").struct.field("symbol").cast(nw.dtypes.String())`},
		{`nw.col('x').clip(lower_bound=0, upper_bound=2)`, `nw.col("x").clip(lower_bound=0, upper_bound=2)`},
		{`(nw.col("a") > 0) & (nw.col("b") < 3) | ~nw.col("c")`, `(((nw.col("a") > 0) & (nw.col("b") < 3)) | (~ nw.col("c")))`},
		{`100 - nw.col("a") * 2 ** -1`, `(100 - (nw.col("a") * (2 ** -1)))`},
		{`-nw.col("a") // 2 % 3`, `(((- nw.col("a")) // 2) % 3)`},
		{`nw.col("a") ** 2 ** 3`, `(nw.col("a") ** (2 ** 3))`},
		{`nw.concat_str([nw.col("a"), nw.col("b")], separator="-")`, `nw.concat_str([nw.col("a"), nw.col("b")], separator="-")`},
		{`F.when(F.col("a") > 0, "pos").otherwise("neg")`, `F.when((F.col("a") > 0), "pos").otherwise("neg")`},
		{`nw.col("s").str.replace(r"(\d+)-(\d+)", "$2")`, `nw.col("s").str.replace("(\\d+)-(\\d+)", "$2")`},
		{`"a" "b"`, `"ab"`},
		{`'it\'s'`, `"it's"`},
		{`col("x").is_in([1, 2.5, None, True])`, `col("x").is_in([1, 2.5f, None, True])`},
		{`pl.col("a").cast({"a": pl.Int32})`, `pl.col("a").cast({"a": pl.Int32})`},
		{`x[0]`, `x[0]`},
		{`a < b < c`, `(a < b < c)`},
		{`a not in [1]`, `(a not in [1])`},
		{`a and b or not c`, `((a and b) or (not c))`},
		{"  nw.col(\n'a'\n)  ", `nw.col("a")`},
		{"nw.col('a') \\\n + 1", `(nw.col("a") + 1)`},
		{"nw.col('a')  # the price", `nw.col("a")`},
		{"1_000 + 0x10 + 1e3 + .5", `(((1000 + 16) + 1000f) + 0.5f)`},
		{"(1, 2)", "tuple(1, 2)"},
		{"f(a,)", "f(a)"},
	} {
		n, err := Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := dump(n); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// A SyntaxError keeps the text as a plain string in Laktory (SQL written
// where Python is evaluated, "Walmart (Inc)" is valid Python); valid
// Python that is not evaluated here is ErrUnsupported.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		in          string
		syntax      bool
		unsupported string
	}{
		{in: "CAST(x AS INT)", syntax: true},
		{in: "SUM(x) FILTER (WHERE y)", syntax: true},
		{in: "count(*)", syntax: true},
		{in: "nw.col('a'", syntax: true},
		{in: "'unterminated", syntax: true},
		{in: "a b", syntax: true},
		{in: "01 + 2", syntax: true},
		{in: "f(a=1, 2)", syntax: true},
		{in: "f(a=1, a=2)", syntax: true},
		{in: "nw.col('a')\nnw.col('b')", syntax: true},
		{in: "", syntax: true},
		{in: "x.if", syntax: true},
		{in: "lambda x: x", unsupported: "a lambda"},
		{in: "[c for c in cols]", unsupported: "a comprehension"},
		{in: "a if b else c", unsupported: "a conditional expression"},
		{in: "f(*cols)", unsupported: "unpacking"},
		{in: "x[1:2]", unsupported: "a slice"},
		{in: `f"{a}"`, unsupported: "an f-string"},
		{in: "{1, 2}", unsupported: "a set"},
		{in: "(y := 1)", unsupported: "an assignment expression"},
		{in: "1j", unsupported: "a complex number"},
	} {
		_, err := Parse(c.in)
		var se *syntaxError
		var fe *Error
		switch {
		case c.syntax && !errors.As(err, &se):
			t.Errorf("%q: %v, want a SyntaxError", c.in, err)
		case !c.syntax && (!errors.As(err, &fe) || !errors.Is(err, ErrUnsupported) || !strings.Contains(fe.Msg, c.unsupported)):
			t.Errorf("%q: %v, want unsupported %q", c.in, err, c.unsupported)
		}
	}
}

// Positions are byte offsets of the argument's text.
func TestParsePositions(t *testing.T) {
	n, err := Parse(`nw.col("a") + nw.col("zz")`)
	if err != nil {
		t.Fatal(err)
	}
	b := n.(*BinOp)
	if b.P != 12 || b.R.Pos() != 14 {
		t.Errorf("operator at %d, right operand at %d; want 12, 14", b.P, b.R.Pos())
	}
	call := b.R.(*Call)
	if call.Args[0].Pos() != 21 {
		t.Errorf("the argument at %d, want 21", call.Args[0].Pos())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`nw.col("a").round(2)`, `F.when(F.col("a") > 0, 1)`, `[1, {"a": (2,)}]`, "a if b", `r"\d"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err == nil && n == nil {
			t.Fatal("no tree and no error")
		}
	})
}
