// Package human renders what people read and type back, alike in the CLI
// and the workbench: counts, sizes, durations and rates, and laktory
// commands that paste into a shell as they are printed.
//
// It is a leaf of the layering (it imports no project package), so every
// layer that talks to people (validate's hints, the runner's messages, the
// CLI and the TUI) uses the same formatter.
package human

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Count prints n with thousands separators: 1,234,567.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Plural counts a thing: "1 row", "2 rows", "3 batches", "1,200 files".
func Plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "ch") || strings.HasSuffix(word, "s") {
		return Count(n) + " " + word + "es"
	}
	if l := len(word); l > 1 && word[l-1] == 'y' && !strings.ContainsRune("aeiou", rune(word[l-2])) {
		return Count(n) + " " + strings.TrimSuffix(word, "y") + "ies"
	}
	return Count(n) + " " + word + "s"
}

// Bytes prints a size in binary units: 512 B, 12.5 KiB, 3.0 GiB.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// Duration prints a duration the way a person reads it: 850ms, 3.2s,
// 4m05s, 2h03m; a negative one is 0s.
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Rate prints bytes per second over d ("" when d is not positive).
func Rate(bytes int64, d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return Bytes(int64(float64(bytes)/d.Seconds())) + "/s"
}

// WriteProgress says how far a write is: the rows written so far (of
// total, when known), the bytes and the rate since the write started.
// Unknown parts are left out: "1,200 of 5,000 rows · 3.5 MiB · 1.2 MiB/s".
func WriteProgress(rows, total, bytes int64, elapsed time.Duration) string {
	var parts []string
	switch {
	case total > 0:
		parts = append(parts, Count(rows)+" of "+Plural(total, "row"))
	case rows > 0:
		parts = append(parts, Plural(rows, "row"))
	}
	if bytes > 0 {
		parts = append(parts, Bytes(bytes))
		if r := Rate(bytes, elapsed); r != "" {
			parts = append(parts, r)
		}
	}
	return strings.Join(parts, " · ")
}

// Command renders a laktory command line that pastes as is into a POSIX
// shell: Command("run", "--select", "*gold") is laktory run --select '*gold'.
// Every hint that tells the user what to run goes through it (or
// RunCommand), so hints are commands, with flags, never keyword arguments.
func Command(args ...string) string {
	q := make([]string, 0, len(args)+1)
	q = append(q, "laktory")
	for _, a := range args {
		q = append(q, Quote(a))
	}
	return strings.Join(q, " ")
}

// RunCommand is the laktory run of nodes of a pipeline ("" pipeline: of
// every pipeline; no nodes: all of its nodes) with a refresh ("" or
// INCREMENTAL: a normal run) and a reset mode override ("": none).
func RunCommand(pipeline string, nodes []string, refresh, resetMode string) string {
	args := []string{"run"}
	if pipeline != "" {
		args = append(args, "--pipeline", pipeline)
	}
	for _, n := range nodes {
		args = append(args, "--select", n)
	}
	if refresh != "" && !strings.EqualFold(refresh, "INCREMENTAL") {
		args = append(args, "--refresh", strings.ToUpper(refresh))
	}
	if resetMode != "" {
		args = append(args, "--reset-mode", strings.ToUpper(resetMode))
	}
	return Command(args...)
}

// Quote quotes a shell word when it needs it: plain names stay as they are,
// anything else is single-quoted.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// List joins names as a plain, comma-separated list: a, b, c.
func List(names []string) string { return strings.Join(names, ", ") }
