package javauri

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// TestSparkCases compares Parse and Part with what Spark 4.2's
// try_parse_url gave for random URLs (testdata/cases.json, by
// scripts/sparksql/url_cases.py): every part of a URL Java accepts, NULL
// for every part of one it rejects.
func TestSparkCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Parts []string `json:"parts"`
		Cases []struct {
			URL   string    `json:"url"`
			Parts []*string `json:"parts"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var valid, invalid, unsupported int
	for _, c := range doc.Cases {
		u, err := Parse(c.URL)
		if errors.Is(err, ErrUnsupported) {
			unsupported++
			continue
		}
		for i, part := range doc.Parts {
			want := c.Parts[i]
			var got string
			ok := false
			if err == nil {
				got, ok = u.Part(part)
			}
			switch {
			case want == nil && ok:
				t.Errorf("try_parse_url(%q, %s) = %q, want NULL", c.URL, part, got)
			case want != nil && !ok:
				t.Errorf("try_parse_url(%q, %s) = NULL (%v), want %q", c.URL, part, err, *want)
			case want != nil && got != *want:
				t.Errorf("try_parse_url(%q, %s) = %q, want %q", c.URL, part, got, *want)
			}
		}
		if err == nil {
			valid++
		} else {
			invalid++
		}
	}
	// Not judged: IPv6 literals netip reads apart from Java (the zone
	// URLs' IPv4 and one-colon literals among them).
	if valid < 200 || invalid < 200 || unsupported > 30 {
		t.Errorf("%d valid, %d invalid, %d unsupported: too few cases", valid, invalid, unsupported)
	}
	t.Logf("%d URLs: %d valid, %d rejected as Java rejects them, %d not judged", len(doc.Cases), valid, invalid, unsupported)
}
