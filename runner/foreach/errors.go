package foreach

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Errors of this package wrap them with %w and a message
// that says where (sink, flow, epoch, partition, row), what and how to fix
// it; test them with errors.Is. A failed partition is reported as a
// *PartitionError wrapping one of them (or the error of a Go writer, or the
// context's error).
var (
	// ErrSpec: a sink definition cannot be used (no writer, an empty
	// command, a bad URL template). Nothing was written.
	ErrSpec = errors.New("invalid ForEach sink")

	// ErrBatch: the micro-batch given to Sink.Write is malformed (two
	// partitions with one id, a partition without rows). Nothing was written.
	ErrBatch = errors.New("invalid micro-batch")

	// ErrSource: the rows of a partition cannot be read.
	ErrSource = errors.New("cannot read rows")

	// ErrRow: a row cannot be written: it is not a JSON object, or it has
	// no usable value for a URL placeholder.
	ErrRow = errors.New("invalid row")

	// ErrCommand: a command writer failed: it could not start, exited
	// with a non-zero status, or exited before reading all its rows.
	ErrCommand = errors.New("ForEach command failed")

	// ErrHTTP: an HTTP writer's request failed: a status other than 2xx,
	// a transport error or a timeout.
	ErrHTTP = errors.New("ForEach HTTP request failed")

	// ErrPanic: a Go writer panicked; the panic is reported as the
	// partition's error instead of crashing the program.
	ErrPanic = errors.New("ForEach writer panicked")
)

// PartitionError is the error of one partition of a micro-batch: which
// sink, flow, epoch and partition failed, how many rows it had processed,
// and why (Err, which errors.Is/As see through).
type PartitionError struct {
	Sink        string
	Flow        string
	EpochID     int64
	PartitionID int64
	// Rows is the number of rows the writer processed before the failure.
	Rows int64
	Err  error
}

func (e *PartitionError) Error() string {
	var b strings.Builder
	b.WriteString("ForEach sink ")
	fmt.Fprintf(&b, "%q", e.Sink)
	if e.Flow != "" {
		fmt.Fprintf(&b, ", flow %q", e.Flow)
	}
	fmt.Fprintf(&b, ", epoch %d, partition %d", e.EpochID, e.PartitionID)
	if e.Rows > 0 {
		fmt.Fprintf(&b, " (after %d rows)", e.Rows)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *PartitionError) Unwrap() error { return e.Err }
