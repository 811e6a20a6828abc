package delta

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// TraceEnv names a file to which every S3 request of the process is
// appended, one line each: the time, the method, the bucket, key and
// query (without the SDK's x-id), the bytes sent, the status, the bytes
// received, the duration, the conditional and range headers, and the
// operation. No other header is written (no signature, no credential).
// It is how a figure of docs/object-storage.md is explained request by
// request (scripts/bench/s3trace.sh sums a trace).
const TraceEnv = "LAKTORY_S3_TRACE"

// traceFiles are the trace files opened by this process, by path: a
// client made after the variable changed writes to the new file.
var traceFiles struct {
	mu sync.Mutex
	by map[string]*traceFile
}

type traceFile struct {
	mu sync.Mutex
	w  io.Writer
}

func openTrace(path string) *traceFile {
	traceFiles.mu.Lock()
	defer traceFiles.mu.Unlock()
	if t, ok := traceFiles.by[path]; ok {
		return t
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=%s: %v (no trace)\n", TraceEnv, path, err)
		return nil
	}
	if traceFiles.by == nil {
		traceFiles.by = map[string]*traceFile{}
	}
	t := &traceFile{w: f}
	traceFiles.by[path] = t
	return t
}

// traceOption adds the request trace to a client's options when
// LAKTORY_S3_TRACE names a file (opened once per process and path,
// appended to).
func traceOption(apiOptions []func(*middleware.Stack) error) []func(*middleware.Stack) error {
	path := os.Getenv(TraceEnv)
	if path == "" {
		return apiOptions
	}
	t := openTrace(path)
	if t == nil {
		return apiOptions
	}
	return append(apiOptions, func(st *middleware.Stack) error {
		return st.Deserialize.Add(middleware.DeserializeMiddlewareFunc("laktoryTrace", t.request), middleware.After)
	})
}

func (t *traceFile) request(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	start := time.Now()
	out, md, err := next.HandleDeserialize(ctx, in)
	req, ok := in.Request.(*smithyhttp.Request)
	if !ok {
		return out, md, err
	}
	status, got := 0, int64(-1)
	if resp, ok := out.RawResponse.(*smithyhttp.Response); ok && resp != nil {
		status, got = resp.StatusCode, resp.ContentLength
	}
	t.write(start, req.Method, traceTarget(req.URL), req.ContentLength, status, got, time.Since(start),
		req.Header.Get, middleware.GetOperationName(ctx))
	return out, md, err
}

// traceTarget is the request's path and query, the SDK's x-id (the
// operation's name, written apart) left out.
func traceTarget(u *url.URL) string {
	p := strings.TrimPrefix(u.EscapedPath(), "/")
	q := u.Query()
	q.Del("x-id")
	if s := q.Encode(); s != "" {
		p += "?" + s
	}
	return p
}

func (t *traceFile) write(start time.Time, method, target string, sent int64, status int, got int64, took time.Duration, header func(string) string, op string) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s sent=%d status=%d got=%d %s", start.UTC().Format("15:04:05.000"), method, target, max(sent, 0), status, got, took.Round(time.Microsecond))
	for _, h := range []string{"If-None-Match", "If-Match", "Range"} {
		if v := header(h); v != "" {
			b.WriteString(" " + h + "=" + v)
		}
	}
	if op != "" {
		b.WriteString(" op=" + op)
	}
	b.WriteByte('\n')
	t.mu.Lock()
	io.WriteString(t.w, b.String()) //nolint:errcheck // a trace line lost is no failure
	t.mu.Unlock()
}
