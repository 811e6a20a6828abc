// Package assets holds the files embedded in the laktory binary: the demo
// and starter workspaces, the run-history migrations and the UI theme. It
// has no logic beyond writing an embedded tree to disk, and imports no
// project package.
package assets

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed demo starter
var files embed.FS

// Demo is the demo workspace: pipelines, landing data and a README.
func Demo() fs.FS { return sub("demo") }

// Starter is the workspace written by `laktory init` without --demo.
func Starter() fs.FS { return sub("starter") }

func sub(dir string) fs.FS {
	f, err := fs.Sub(files, dir)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return f
}

// ErrNotEmpty is returned by WriteTree when the destination holds files.
var ErrNotEmpty = errors.New("destination folder is not empty")

// WriteTree copies every file of fsys below dir, creating folders as needed.
// It refuses a dir that already holds anything (unless overwrite is true), so
// it never mixes a template with a user's files.
func WriteTree(fsys fs.FS, dir string, overwrite bool) error {
	if !overwrite {
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if len(entries) > 0 {
			return fmt.Errorf("%s: %w (choose a new folder)", dir, ErrNotEmpty)
		}
	}
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}
