package validate

import (
	"flag"
	"os"
	"sort"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the code table of docs/validation.md")

// codesMarkdown is the table of every diagnostic code, in code order, as
// docs/validation.md shows it.
func codesMarkdown() string {
	codes := append([]CodeInfo(nil), Codes...)
	sort.Slice(codes, func(i, j int) bool { return codes[i].Code < codes[j].Code })
	var b strings.Builder
	b.WriteString("| code | severity | what |\n|---|---|---|\n")
	for _, c := range codes {
		b.WriteString("| " + c.Code + " | " + c.Severity.String() + " | " + strings.ReplaceAll(c.Title, "|", `\|`) + " |\n")
	}
	return b.String()
}

// TestCodesDocCurrent: docs/validation.md lists the diagnostic codes as
// Codes documents them (regenerate with -update-docs).
func TestCodesDocCurrent(t *testing.T) {
	const path = "../docs/validation.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- codes:begin -->\n", "<!-- codes:end -->"
	doc := string(raw)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, strings.TrimSpace(begin), end)
	}
	want := doc[:i+len(begin)] + codesMarkdown() + doc[j:]
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != doc {
		t.Errorf("%s's code table is not current: run go test ./validate -run TestCodesDocCurrent -update-docs", path)
	}
}
