package foreach

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Environment variables of a command writer, besides the parent's.
const (
	EnvPartitionID = "LAKTORY_FOREACH_PARTITION_ID"
	EnvEpochID     = "LAKTORY_FOREACH_EPOCH_ID"
	EnvFlow        = "LAKTORY_FOREACH_FLOW"
	EnvSink        = "LAKTORY_FOREACH_SINK"
)

// stderrTail is how much of a command's stderr its error quotes (the end).
const stderrTail = 4 << 10

// Command returns a Factory running argv as the writer process of each
// partition: started by Open in opts.Dir, with the parent's environment,
// opts.Env and the LAKTORY_FOREACH_* variables (partition id, epoch id,
// flow and sink names); each row is written to its stdin as one JSON line;
// Close closes stdin and waits for it. Its stdout is discarded.
//
// The partition fails (ErrCommand) when the process cannot start, exits
// with a non-zero status (the error quotes the end of its stderr, trimmed)
// or exits before reading all its rows. When the partition fails or its
// context ends, the process's whole process group is killed.
func Command(argv []string, opts Options) (Factory, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf(`%w: the command is empty: name the program and its arguments, e.g. command: ["python3", "writer.py"]`, ErrSpec)
	}
	argv = append([]string(nil), argv...)
	env := append([]string(nil), opts.Env...)
	return func(ctx context.Context, t Target) (Writer, error) {
		return &commandWriter{ctx: ctx, argv: argv, dir: opts.Dir, env: env, target: t}, nil
	}, nil
}

// commandWriter is the Writer of one partition of a command sink.
type commandWriter struct {
	ctx    context.Context // the partition's: ending it kills the process
	argv   []string
	dir    string
	env    []string
	target Target

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	w      *bufio.Writer
	stderr tailBuffer
	rows   int64
	done   bool  // waited for
	result error // the process's outcome once waited for
	line   bytes.Buffer
}

func (c *commandWriter) Open(partitionID, epochID int64) (bool, error) {
	cmd := exec.CommandContext(c.ctx, c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Env = append(cmd.Env,
		EnvPartitionID+"="+strconv.FormatInt(partitionID, 10),
		EnvEpochID+"="+strconv.FormatInt(epochID, 10),
		EnvFlow+"="+c.target.Flow,
		EnvSink+"="+c.target.Sink)
	cmd.Stderr = &c.stderr
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return false, fmt.Errorf("%w: %s: %w", ErrCommand, c.name(), err)
	}
	if err := cmd.Start(); err != nil {
		return false, fmt.Errorf("%w: cannot start %s: %w (check foreach.command; a relative program path is relative to the pipeline file's folder)", ErrCommand, c.name(), err)
	}
	c.cmd, c.stdin = cmd, stdin
	c.w = bufio.NewWriterSize(stdin, 64<<10)
	return true, nil
}

func (c *commandWriter) Process(ctx context.Context, row Row) error {
	b := row.JSON()
	if bytes.IndexByte(b, '\n') >= 0 { // one row, one line
		c.line.Reset()
		if err := json.Compact(&c.line, b); err != nil {
			return fmt.Errorf("%w: %v", ErrRow, err)
		}
		b = c.line.Bytes()
	}
	_, err := c.w.Write(b)
	if err == nil {
		err = c.w.WriteByte('\n')
	}
	if err != nil {
		return c.writeFailed(err)
	}
	c.rows++
	return nil
}

// writeFailed explains a failed write to stdin: the process's exit.
func (c *commandWriter) writeFailed(err error) error {
	if cerr := c.ctx.Err(); cerr != nil {
		c.wait()
		return cerr
	}
	if res := c.wait(); res != nil {
		return res
	}
	return fmt.Errorf("%w: %s exited before reading all its rows (%d written): %v", ErrCommand, c.name(), c.rows, err)
}

func (c *commandWriter) Close(err error) error {
	if c.cmd == nil || c.done {
		return nil
	}
	if err != nil {
		// The partition failed: the process must not take a partial
		// input for a complete one.
		_ = c.cmd.Cancel()
		c.wait()
		return nil
	}
	if ferr := c.w.Flush(); ferr != nil {
		return c.writeFailed(ferr)
	}
	if cerr := c.stdin.Close(); cerr != nil && !errors.Is(cerr, os.ErrClosed) {
		return c.writeFailed(cerr)
	}
	return c.wait()
}

// wait waits for the process once and returns its outcome as an error.
func (c *commandWriter) wait() error {
	if c.done {
		return c.result
	}
	c.done = true
	c.stdin.Close()
	err := c.cmd.Wait()
	switch {
	case err == nil:
	case c.ctx.Err() != nil:
		c.result = c.ctx.Err()
	default:
		var ee *exec.ExitError
		status := err.Error()
		if errors.As(err, &ee) {
			status = ee.ProcessState.String() // "exit status 3", "signal: killed"
		}
		c.result = fmt.Errorf("%w: %s: %s: %s", ErrCommand, c.name(), status, c.stderr.text())
	}
	return c.result
}

func (c *commandWriter) name() string {
	return strconv.Quote(strings.Join(c.argv, " "))
}

// tailBuffer keeps the last stderrTail bytes written to it.
type tailBuffer struct {
	mu      sync.Mutex
	buf     []byte
	dropped bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	return len(p), nil
}

// text returns the kept stderr, trimmed, for an error message.
func (t *tailBuffer) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(strings.ToValidUTF8(string(t.buf), "\uFFFD"))
	switch {
	case s == "":
		return "(nothing on stderr)"
	case t.dropped:
		return "stderr (end): …" + s
	}
	return "stderr: " + s
}
