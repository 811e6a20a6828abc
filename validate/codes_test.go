package validate

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCodesDocumented: every code used in the validate and workspace
// sources is documented in Codes, once, and every documented code is used.
func TestCodesDocumented(t *testing.T) {
	re := regexp.MustCompile(`"(LK\d{3})"`)
	used := map[string]bool{}
	for _, dir := range []string{".", "../workspace"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if filepath.Ext(f) == ".go" && !regexp.MustCompile(`_test\.go$`).MatchString(f) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range re.FindAllStringSubmatch(string(b), -1) {
					used[m[1]] = true
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, c := range Codes {
		if seen[c.Code] {
			t.Errorf("%s documented twice", c.Code)
		}
		seen[c.Code] = true
		if c.Title == "" {
			t.Errorf("%s has no title", c.Code)
		}
		if !used[c.Code] {
			t.Errorf("%s is documented but never declared", c.Code)
		}
	}
	for c := range used {
		if _, ok := Lookup(c); !ok {
			t.Errorf("%s is used but not documented in Codes", c)
		}
	}
}
