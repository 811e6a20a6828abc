package tui

import (
	"fmt"
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

// editorCommand builds the process that opens file at line.
func editorCommand(editor, file string, line int) (*exec.Cmd, error) {
	args, err := editorArgs(editor, file, line)
	if err != nil {
		return nil, err
	}
	return exec.Command(args[0], args[1:]...), nil
}
