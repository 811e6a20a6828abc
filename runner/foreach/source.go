package foreach

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
)

// Source yields the rows of one partition, each one JSON object.
//
// Next returns the next row, or io.EOF after the last one. The returned
// slice only has to stay valid until the following call, so a source can
// reuse its buffer. A Source that also implements io.Closer is closed when
// its partition ends, whatever the outcome.
type Source interface {
	Next() ([]byte, error)
}

// MaxRowSize is the largest row (in bytes) Lines accepts.
const MaxRowSize = 64 << 20

// Lines returns a Source over JSON lines: one JSON object per line; blank
// lines are skipped. It is the fastest way to feed a partition written by
// DuckDB (`COPY (SELECT ...) TO 'part.jsonl' (FORMAT json)`, or a query's
// output through a pipe). If r is an io.Closer it is closed with the
// partition.
func Lines(r io.Reader) Source {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRowSize)
	l := &lines{sc: sc}
	if c, ok := r.(io.Closer); ok {
		l.c = c
	}
	return l
}

type lines struct {
	sc *bufio.Scanner
	c  io.Closer
	n  int64
}

func (l *lines) Next() ([]byte, error) {
	for l.sc.Scan() {
		l.n++
		if b := trimSpace(l.sc.Bytes()); len(b) > 0 {
			return b, nil
		}
	}
	if err := l.sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, fmt.Errorf("line %d is longer than %d bytes", l.n+1, MaxRowSize)
		}
		return nil, err
	}
	return nil, io.EOF
}

func (l *lines) Close() error {
	if l.c != nil {
		return l.c.Close()
	}
	return nil
}

// SQLRows returns a Source over a query's result whose single column is the
// row as JSON text, e.g. `SELECT ` + RowJSON(cols) + ` FROM batch`. The
// column must be text (VARCHAR), not DuckDB's JSON type, which the driver
// decodes. The rows are closed with the partition.
func SQLRows(rows *sql.Rows) Source { return &sqlRows{rows: rows} }

type sqlRows struct {
	rows *sql.Rows
	buf  sql.RawBytes
}

func (s *sqlRows) Next() ([]byte, error) {
	if !s.rows.Next() {
		if err := s.rows.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	if err := s.rows.Scan(&s.buf); err != nil {
		return nil, fmt.Errorf("the query must return one text column holding the row's JSON: %w", err)
	}
	return s.buf, nil
}

func (s *sqlRows) Close() error { return s.rows.Close() }

// Querier runs a query: *sql.DB and *sql.Conn are Queriers.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Query returns a Partition.Open function running query (one text column
// holding each row's JSON, see SQLRows) when the partition starts, so that
// no more queries are open than partitions being written. Partitions
// running at once need a Querier that runs concurrent queries (a *sql.DB;
// one *sql.Conn runs one query at a time).
func Query(q Querier, query string, args ...any) func(context.Context) (Source, error) {
	return func(ctx context.Context) (Source, error) {
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return nil, err
		}
		return SQLRows(rows), nil
	}
}

// JSONRows returns a Source over rows already in memory, each one JSON
// object (tests and programs embedding the runner).
func JSONRows(rows ...string) Source { return &memRows{rows: rows} }

type memRows struct {
	rows []string
	i    int
}

func (m *memRows) Next() ([]byte, error) {
	if m.i >= len(m.rows) {
		return nil, io.EOF
	}
	m.i++
	return []byte(m.rows[m.i-1]), nil
}
