package human

import (
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"}, {-1234, "-1,234"}} {
		if got := Count(tt.n); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n          int64
		word, want string
	}{{1, "row", "1 row"}, {0, "row", "0 rows"}, {1200, "file", "1,200 files"}, {2, "batch", "2 batches"},
		{3, "retry", "3 retries"}, {2, "day", "2 days"}, {1, "retry", "1 retry"}} {
		if got := Plural(tt.n, tt.word); got != tt.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tt.n, tt.word, got, tt.want)
		}
	}
}

func TestBytesDurationRate(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Bytes(512), "512 B"}, {Bytes(12_800), "12.5 KiB"}, {Bytes(3 << 30), "3.0 GiB"},
		{Duration(850 * time.Millisecond), "850ms"}, {Duration(3200 * time.Millisecond), "3.2s"},
		{Duration(245 * time.Second), "4m05s"}, {Duration(123 * time.Minute), "2h03m"}, {Duration(-time.Second), "0s"},
		{Rate(10<<20, 2*time.Second), "5.0 MiB/s"}, {Rate(10, 0), ""},
		{WriteProgress(1200, 5000, 3<<20, time.Second), "1,200 of 5,000 rows · 3.0 MiB · 3.0 MiB/s"},
		{WriteProgress(0, 0, 2048, 0), "2.0 KiB"},
		{WriteProgress(7, 0, 0, time.Second), "7 rows"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestCommand checks that commands paste as is: flags, plain words, shell
// quoting where a word needs it.
func TestCommand(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{RunCommand("pl-prices", []string{"gld_prices_a"}, "FULL", ""), "laktory run --pipeline pl-prices --select gld_prices_a --refresh FULL"},
		{RunCommand("pl-a", nil, "reset", "drop"), "laktory run --pipeline pl-a --refresh RESET --reset-mode DROP"},
		{RunCommand("", []string{"a", "b"}, "INCREMENTAL", ""), "laktory run --select a --select b"},
		{Command("run", "--select", "*gold"), "laktory run --select '*gold'"},
		{Command("table", "scan", "prices", "--where", "a = 'x'"), `laktory table scan prices --where 'a = '\''x'\'''`},
		{Command("history", "--run", "42"), "laktory history --run 42"},
		{Quote(""), "''"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %s\nwant %s", tt.got, tt.want)
		}
	}
}
