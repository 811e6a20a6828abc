package main

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// pty is a pseudo terminal: the program under test gets the slave as its
// terminal, the test types into and reads from the master.
type pty struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
	done          chan struct{}
}

// openPTY opens a pseudo terminal and starts reading what is written to it.
func openPTY(t *testing.T) *pty {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo terminal: %v", err)
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		t.Skipf("unlock the pseudo terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		t.Skipf("pseudo terminal number: %v", err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Skipf("open the pseudo terminal: %v", err)
	}
	p := &pty{master: master, slave: slave, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { slave.Close(); master.Close() })
	return p
}

// output closes the terminal and returns everything written to it.
func (p *pty) output() string {
	p.slave.Close()
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}
