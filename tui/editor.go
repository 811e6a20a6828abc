package tui

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
)

// editorArgs returns the command line that opens file at line with editor
// (a command with optional arguments, as $EDITOR holds it): terminal editors
// take +LINE before the file, VS Code (--goto) and Sublime Text take
// file:line, other editors get the file alone.
func editorArgs(editor, file string, line int) ([]string, error) {
	fields := strings.Fields(editor)
	if len(fields) == 0 {
		return nil, ErrNoEditor
	}
	name := strings.TrimSuffix(strings.ToLower(filepath.Base(fields[0])), ".exe")
	args := fields
	if line < 1 {
		return append(args, file), nil
	}
	switch name {
	case "vi", "vim", "nvim", "gvim", "mvim", "view", "nano", "pico", "emacs", "emacsclient", "micro", "hx", "helix", "kak", "ne", "joe", "jed", "mg":
		return append(args, fmt.Sprintf("+%d", line), file), nil
	case "code", "code-insiders", "codium", "vscodium", "cursor":
		return append(args, "--goto", fmt.Sprintf("%s:%d", file, line)), nil
	case "subl", "sublime_text", "zed":
		return append(args, fmt.Sprintf("%s:%d", file, line)), nil
	}
	return append(args, file), nil
}

// editorProcess runs the editor when the program hands it the terminal:
// the command (and its PATH lookup) is only built then, not in Update.
type editorProcess struct {
	args           []string
	stdin          io.Reader
	stdout, stderr io.Writer
}

// SetStdin implements tea.ExecCommand.
func (p *editorProcess) SetStdin(r io.Reader) { p.stdin = r }

// SetStdout implements tea.ExecCommand.
func (p *editorProcess) SetStdout(w io.Writer) { p.stdout = w }

// SetStderr implements tea.ExecCommand.
func (p *editorProcess) SetStderr(w io.Writer) { p.stderr = w }

// Run implements tea.ExecCommand.
func (p *editorProcess) Run() error {
	c := exec.Command(p.args[0], p.args[1:]...)
	c.Stdin, c.Stdout, c.Stderr = p.stdin, p.stdout, p.stderr
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(p.args, " "), err)
	}
	return nil
}
