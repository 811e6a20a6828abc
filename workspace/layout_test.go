package workspace

import (
	"path/filepath"
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

// TestLayoutRefusesObjectStoreLake: --lake s3://... (or LAKTORY_LAKE) is
// refused, not taken as a folder named "s3:" in the current folder.
func TestLayoutRefusesObjectStoreLake(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range [][2]string{{"s3://bucket/lake", ""}, {"", "s3a://bucket/lake"}, {"abfss://c@a.dfs.core.windows.net/l", ""}} {
		_, err := NewLayout(dir, tc[0], tc[1])
		if err == nil || !strings.Contains(err.Error(), "names an object store") {
			t.Errorf("NewLayout(%q, %q) = %v; want the object store refused", tc[0], tc[1], err)
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
