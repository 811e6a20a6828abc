//go:build unix

package runner

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive lock on f without waiting.
func tryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
