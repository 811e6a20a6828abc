package runner

import (
	"runtime"
	"testing"
)

// TestConfigThreads: Config.Threads is the threads setting of the
// runner's database; 0 leaves DuckDB's default.
func TestConfigThreads(t *testing.T) {
	for _, n := range []int{1, 0} {
		r := testRunner(t, func(c *Config) { c.Threads = n })
		var got int
		if err := r.db.QueryRowContext(t.Context(), "SELECT current_setting('threads')").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if want := map[int]int{1: 1, 0: runtime.NumCPU()}[n]; got != want {
			t.Errorf("Threads %d: DuckDB's threads %d, want %d", n, got, want)
		}
	}
}
