package foreach

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultHTTPTimeout is the per-request timeout of HTTP writers that set
// none.
const DefaultHTTPTimeout = 30 * time.Second

// HTTPConfig is the built-in HTTP writer: one request per row.
type HTTPConfig struct {
	// Method is PUT when empty.
	Method string
	// URL is an absolute http(s) URL whose path and query may name row
	// columns in braces: https://api.example.com/orders/{order_id}. Values
	// are path-escaped in the path and query-escaped in the query.
	URL string
	// Headers are sent with every request; Content-Type defaults to
	// application/json.
	Headers map[string]string
	// Timeout bounds each request; 0 means Options.HTTPTimeout.
	Timeout time.Duration
}

// HTTP returns a Factory whose writers send each row as the JSON body of
// one request to the URL templated from the row: naming a row key in the
// URL makes a retried row update its resource instead of duplicating it.
// Each partition gets its own keep-alive session (an http.Client with its
// own Transport), closed with the partition.
//
// Any failure fails the partition (ErrHTTP), naming the method, the URL,
// the status and the start of the response body: a status other than 2xx,
// a transport error, a timeout. Rows are never dropped silently.
func HTTP(c HTTPConfig, opts Options) (Factory, error) {
	tpl, err := parseURLTemplate(c.URL)
	if err != nil {
		return nil, err
	}
	method := strings.ToUpper(strings.TrimSpace(c.Method))
	if method == "" {
		method = http.MethodPut
	}
	if strings.ContainsAny(method, " \t/:") {
		return nil, fmt.Errorf("%w: foreach.http.method %q is not an HTTP method (PUT, POST, PATCH, DELETE)", ErrSpec, c.Method)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = opts.HTTPTimeout
	}
	if timeout <= 0 {
		timeout = DefaultHTTPTimeout
	}
	header := http.Header{"Content-Type": {"application/json"}, "User-Agent": {"laktory-foreach"}}
	for k, v := range c.Headers {
		header.Set(k, v)
	}
	return func(ctx context.Context, t Target) (Writer, error) {
		tr := newTransport()
		return &httpWriter{tpl: tpl, method: method, header: header, timeout: timeout,
			tr: tr, client: &http.Client{Transport: tr}}, nil
	}, nil
}

// newTransport is a partition's own transport: one connection, kept alive.
func newTransport() *http.Transport {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		MaxIdleConns:          4,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
	}
}

// httpWriter is the Writer of one partition of an HTTP sink.
type httpWriter struct {
	tpl     urlTemplate
	method  string
	header  http.Header
	timeout time.Duration
	tr      *http.Transport
	client  *http.Client
	buf     []byte
}

func (h *httpWriter) Open(partitionID, epochID int64) (bool, error) { return true, nil }

func (h *httpWriter) Process(ctx context.Context, row Row) error {
	u, err := h.tpl.expand(h.buf[:0], row)
	if err != nil {
		return err
	}
	h.buf = u[:0]
	target := string(u)
	rctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	// The transport may still read the body after Do returns; the row's
	// buffer is reused for the next row, so send a copy.
	req, err := http.NewRequestWithContext(rctx, h.method, target, bytes.NewReader(bytes.Clone(row.JSON())))
	if err != nil {
		return fmt.Errorf("%w: %s %s: %v", ErrRow, h.method, target, err)
	}
	req.Header = h.header.Clone()
	resp, err := h.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%w: %s %s: no response within %s (foreach.http.timeout): %w", ErrHTTP, h.method, target, h.timeout, err)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %s %s: %w", ErrHTTP, h.method, target, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%w: %s %s: %s: %s", ErrHTTP, h.method, target, resp.Status, snippet(body, 300))
	}
	// Read the body to its end so that the connection is reused.
	if _, err := io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)); err != nil {
		return fmt.Errorf("%w: %s %s: %s, reading the response: %w", ErrHTTP, h.method, target, resp.Status, err)
	}
	return nil
}

func (h *httpWriter) Close(error) error {
	h.tr.CloseIdleConnections()
	return nil
}

// urlTemplate is a URL with {column} placeholders.
type urlTemplate struct {
	parts []urlPart
}

// urlPart is a literal, or a column whose value is escaped for the path or
// the query.
type urlPart struct {
	lit    string
	column string
	query  bool
}

func parseURLTemplate(raw string) (urlTemplate, error) {
	var t urlTemplate
	fail := func(format string, args ...any) (urlTemplate, error) {
		return urlTemplate{}, fmt.Errorf("%w: foreach.http.url %q: %s", ErrSpec, raw, fmt.Sprintf(format, args...))
	}
	if strings.TrimSpace(raw) == "" {
		return fail("the URL is empty: e.g. url: https://api.example.com/orders/{order_id}")
	}
	inQuery := false
	var plain strings.Builder // the URL with placeholders as "x", to check
	rest := raw
	for rest != "" {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			t.parts = append(t.parts, urlPart{lit: rest})
			plain.WriteString(rest)
			break
		}
		if rest[open] == '}' {
			return fail("unmatched '}'")
		}
		closing := strings.IndexAny(rest[open+1:], "{}")
		if closing < 0 || rest[open+1+closing] != '}' {
			return fail("unmatched '{': write placeholders as {column}")
		}
		lit := rest[:open]
		inQuery = inQuery || strings.Contains(lit, "?")
		col := strings.TrimSpace(rest[open+1 : open+1+closing])
		if col == "" {
			return fail("empty placeholder {}: name a column, e.g. {order_id}")
		}
		if lit != "" {
			t.parts = append(t.parts, urlPart{lit: lit})
		}
		t.parts = append(t.parts, urlPart{column: col, query: inQuery})
		plain.WriteString(lit)
		plain.WriteString("x")
		rest = rest[open+1+closing+1:]
	}
	u, err := url.Parse(plain.String())
	if err != nil {
		return fail("%v", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fail("not an absolute http(s) URL: e.g. https://api.example.com/orders/{order_id}")
	}
	if first := strings.IndexByte(raw, '{'); first >= 0 {
		if end := authorityEnd(raw); end < 0 || first < end {
			return fail("a placeholder in the scheme or host: only the path and the query can name columns")
		}
	}
	return t, nil
}

// authorityEnd returns the index where s's path, query or fragment starts
// (after "scheme://host"), or -1 when s has none.
func authorityEnd(s string) int {
	i := strings.Index(s, "://")
	if i < 0 {
		return -1
	}
	if j := strings.IndexAny(s[i+3:], "/?#"); j >= 0 {
		return i + 3 + j
	}
	return -1
}

// expand appends the URL for row to dst.
func (t urlTemplate) expand(dst []byte, row Row) ([]byte, error) {
	for _, p := range t.parts {
		if p.column == "" {
			dst = append(dst, p.lit...)
			continue
		}
		v, err := row.Text(p.column)
		if err != nil {
			return nil, fmt.Errorf("URL placeholder {%s}: %w", p.column, err)
		}
		if p.query {
			dst = append(dst, url.QueryEscape(v)...)
		} else {
			dst = append(dst, url.PathEscape(v)...)
		}
	}
	return dst, nil
}
