//go:build unix

package history

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processExists reports whether a process with this pid exists (signal 0
// checks without sending anything; EPERM means it exists but is not ours).
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// processStart returns the start time of a process in clock ticks since boot
// (field 22 of /proc/PID/stat), or "" where there is no /proc.
func processStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:]) // from field 3 (state) on
	if len(f) < 20 {
		return ""
	}
	return f[19]
}
