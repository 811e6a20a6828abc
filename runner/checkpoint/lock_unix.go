//go:build unix

package checkpoint

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive or shared lock on f without waiting.
func tryLock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

// canLock: flock tells a live record holder from a dead one.
const canLock = true
