package workspace

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseTableName(t *testing.T) {
	tests := []struct {
		name, in, cat, sch string
		want               TableRef
	}{
		{"bare", "prices", "", "", TableRef{"main", "default", "prices"}},
		{"schema", "sales.orders", "", "", TableRef{"main", "sales", "orders"}},
		{"full", "dev.sales.orders", "", "", TableRef{"dev", "sales", "orders"}},
		{"sink catalog and schema", "orders", "prod", "gold", TableRef{"prod", "gold", "orders"}},
		{"name wins over sink schema", "silver.orders", "prod", "gold", TableRef{"prod", "silver", "orders"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseTableName(tt.in, tt.cat, tt.sch); got != tt.want {
				t.Fatalf("ParseTableName(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestLayout(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLayout(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, ".laktory", "lake"); l.Lake != want {
		t.Fatalf("lake = %s, want %s", l.Lake, want)
	}
	if got, want := l.TablePath(ParseTableName("prices", "", "")), filepath.Join(dir, ".laktory", "lake", "main", "default", "prices"); got != want {
		t.Fatalf("table path = %s, want %s", got, want)
	}
	if got := l.StateDB(); got != filepath.Join(dir, ".laktory", "state.db") {
		t.Fatalf("state db = %s", got)
	}
	env := filepath.Join(dir, "envlake")
	if l, _ = NewLayout(dir, "", env); l.Lake != env {
		t.Fatalf("env override: lake = %s", l.Lake)
	}
	flag := filepath.Join(dir, "flaglake")
	if l, _ = NewLayout(dir, flag, env); l.Lake != flag {
		t.Fatalf("flag override: lake = %s", l.Lake)
	}
}

// TestLayoutLakeLocation: --lake (or LAKTORY_LAKE) may name an S3 bucket
// (s3:// or s3a://, kept as an s3:// URI whose tables are URIs below it);
// any other object store is refused, never taken as a folder named "s3:"
// or "gs:" in the current folder.
func TestLayoutLakeLocation(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ flag, env, want string }{
		{"s3://bucket/lake", "", "s3://bucket/lake"},
		{"", "s3a://bucket/lake/", "s3://bucket/lake"},
		{"s3://bucket", "/ignored", "s3://bucket"},
	} {
		l, err := NewLayout(dir, tc.flag, tc.env)
		if err != nil || l.Lake != tc.want || !l.RemoteLake() {
			t.Errorf("NewLayout(%q, %q) = %q, %v; want %q", tc.flag, tc.env, l.Lake, err, tc.want)
			continue
		}
		if got, want := l.TablePath(ParseTableName("c.s.t", "", "")), tc.want+"/c/s/t"; got != want {
			t.Errorf("table path %q, want %q", got, want)
		}
		if !slices.Contains(l.AllowedRoots(), tc.want) {
			t.Errorf("allowed roots %v lack the lake", l.AllowedRoots())
		}
	}
	for _, tc := range []struct{ lake, want string }{
		{"abfss://c@a.dfs.core.windows.net/l", "names an object store"},
		{"gs://b/l", "names an object store"},
		{"s3://", "names no bucket"},
		{"s3://b/x/../y", "empty, . or .. part"},
		{"s3://b//y", "empty, . or .. part"},
	} {
		if _, err := NewLayout(dir, tc.lake, ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewLayout(%q) = %v; want %q", tc.lake, err, tc.want)
		}
	}
	for _, ok := range []string{"rel/lake", "/abs/lake", "./a://b", "file.name://x"} {
		if err := LocalFolder(ok); err != nil {
			t.Errorf("LocalFolder(%q) = %v", ok, err)
		}
	}
}

func TestResolvePath(t *testing.T) {
	file := filepath.Join("/ws", "pipelines", "pl.yaml")
	if got := ResolvePath(file, "../data/x"); got != filepath.Join("/ws", "data", "x") {
		t.Fatalf("relative: %s", got)
	}
	if got := ResolvePath(file, "/abs/x"); got != "/abs/x" {
		t.Fatalf("absolute: %s", got)
	}
	if got := ResolvePath(file, "s3://bucket/x"); got != "s3://bucket/x" {
		t.Fatalf("uri: %s", got)
	}
}
