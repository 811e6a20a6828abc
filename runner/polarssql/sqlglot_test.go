package polarssql

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/laktory/workbench/runner/sqlfront"
)

// TestSqlglotText: Laktory's SQL parser as sqlglot 30 and laktory
// 0.13.1 see 129 expressions (testdata/sqlglot/text.json, by
// scripts/polars/sqlglot_text.py): each prints as sqlglot prints it (the
// text Laktory's messages embed), has sqlglot's node class, and the raise
// of Laktory's parse (its exception class and message), or none.
func TestSqlglotText(t *testing.T) {
	raw, err := os.ReadFile("testdata/sqlglot/text.json")
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Cases []struct {
			Expr, Text, Class, Error, Message string
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	for _, c := range data.Cases {
		e, err := LaktorySyntax.ParseExpr(c.Expr)
		if err != nil {
			t.Errorf("%s: does not parse: %v", c.Expr, err)
			continue
		}
		if got := sqlglotText(e, c.Expr); got != c.Text {
			t.Errorf("%s: prints %q, sqlglot %q", c.Expr, got, c.Text)
		}
		if got := sqlglotClass(e); got != c.Class {
			t.Errorf("%s: class %s, sqlglot %s", c.Expr, got, c.Class)
		}
		err = (&laktory{text: c.Expr, sc: &scope{}}).visit(e)
		var fe *sqlfront.Error
		switch {
		case c.Error == "" && err != nil:
			t.Errorf("%s: Laktory's parser accepts it; here %v", c.Expr, err)
		case c.Error != "" && !errors.As(err, &fe):
			t.Errorf("%s: Laktory raises %s: %s; here %v", c.Expr, c.Error, c.Message, err)
		case c.Error != "" && (fe.Class != c.Error || fe.Msg != c.Message):
			t.Errorf("%s: Laktory raises %s: %s; here %s: %s", c.Expr, c.Error, c.Message, fe.Class, fe.Msg)
		}
	}
}
