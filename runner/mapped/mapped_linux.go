package mapped

import (
	"fmt"
	"os"
	"syscall"
)

// Open maps the file at path read-only.
func Open(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close() // the mapping outlives the descriptor
	fi, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		return &File{b: []byte{}}, nil
	}
	if int64(int(fi.Size())) != fi.Size() {
		return nil, fmt.Errorf("map %s: %d bytes is too large", path, fi.Size())
	}
	b, err := syscall.Mmap(int(fh.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		return nil, &os.PathError{Op: "mmap", Path: path, Err: err}
	}
	return &File{b: b, unmap: syscall.Munmap}, nil
}
