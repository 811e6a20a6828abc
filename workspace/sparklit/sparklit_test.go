package sparklit

import "testing"

func TestToDuckDB(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`client_id = 1`, `client_id = 1`},
		{`client = "acme"`, `client = 'acme'`},
		{`name = 'it\'s' OR name = "say ""hi"""`, `name = 'it''s' OR name = 'say "hi"'`},
		{`s = 'a\nb\\c\%\u0041\101'`, "s = 'a\nb\\c\\%AA'"},
		{"`we\"ird` = \"x\" -- \"comment\"\n", "`we\"ird` = 'x' -- \"comment\"\n"},
		{`a = /* "c" */ "x"`, `a = /* "c" */ 'x'`},
		{`a = "unclosed`, `a = "unclosed`},
	} {
		if got := ToDuckDB(c.in); got != c.want {
			t.Errorf("ToDuckDB(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
