package frame

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the table of docs/dataframe-api.md")

// TestDocCurrent: docs/dataframe-api.md lists what func_name steps may
// call as the front end has it (regenerate with -update-docs).
func TestDocCurrent(t *testing.T) {
	path := "../../docs/dataframe-api.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- api:begin -->\n", "<!-- api:end -->"
	doc := string(raw)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, strings.TrimSpace(begin), end)
	}
	want := doc[:i+len(begin)] + APIMarkdown() + doc[j:]
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != doc {
		t.Errorf("%s's table is not current: run go test ./runner/frame -run TestDocCurrent -update-docs", path)
	}
}
