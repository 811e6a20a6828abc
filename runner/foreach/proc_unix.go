//go:build unix

package foreach

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in its own process group and makes its
// cancellation kill the whole group (the writer and anything it started).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
