//go:build !unix

package foreach

import "os/exec"

// setProcessGroup makes cancellation kill the process (no process groups
// here: processes it started are not killed).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return cmd.Process.Kill()
	}
}
