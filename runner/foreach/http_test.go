package foreach_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/workspace"
)

// request is what the test server received.
type request struct {
	method, uri, body, remote string
	header                    http.Header
}

// apiServer is a loopback HTTP server recording requests and counting new
// connections; handle may answer differently (nil: 200 with a JSON body,
// which the writer must read for its connection to be reused).
type apiServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []request
	conns    atomic.Int64
}

func newAPIServer(t testing.TB, handle func(w http.ResponseWriter, r *http.Request, body string) bool) *apiServer {
	t.Helper()
	s := &apiServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, request{r.Method, r.RequestURI, string(b), r.RemoteAddr, r.Header.Clone()})
		s.mu.Unlock()
		if handle == nil || !handle(w, r, string(b)) {
			io.WriteString(w, `{"status":"stored"}`)
		}
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func httpSink(t testing.TB, h *workspace.HTTPWriter, opts foreach.Options) *foreach.Sink {
	t.Helper()
	sink, err := foreach.FromSpec(&workspace.ForEach{Name: "api", HTTP: h}, "node", opts)
	if err != nil {
		t.Fatal(err)
	}
	return sink
}

func TestHTTPWriter(t *testing.T) {
	srv := newAPIServer(t, nil)
	sink := httpSink(t, &workspace.HTTPWriter{URL: srv.URL + "/orders/{name}?v={id}&k={ name }",
		Headers: map[string]string{"Authorization": "Bearer t0k", "Content-Type": "application/vnd.api+json"}},
		foreach.Options{Parallelism: 3})
	const per = 20
	parts := make([]foreach.Partition, 3)
	want := map[string]string{} // URI -> body
	part := map[string]int{}    // URI -> partition
	all := make([][]string, len(parts))
	for p := range parts {
		var rows []string
		for i := range per {
			id := p*per + i
			name := fmt.Sprintf("a/b c?%d", id)
			row := fmt.Sprintf(`{"id":%d,"name":%q,"ts":"2024-01-02T03:04:05Z","price":"12.30"}`, id, name)
			rows = append(rows, row)
			uri := fmt.Sprintf("/orders/a%%2Fb%%20c%%3F%d?v=%d&k=a%%2Fb+c%%3F%d", id, id, id)
			want[uri] = row
			part[uri] = p
		}
		parts[p] = foreach.Partition{ID: int64(p), Rows: foreach.JSONRows(rows...)}
		all[p] = rows
	}
	res, err := sink.Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 1}, parts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 3*per {
		t.Errorf("rows %d", res.Rows)
	}
	if len(srv.requests) != 3*per {
		t.Fatalf("%d requests, want %d", len(srv.requests), 3*per)
	}
	remote := map[int]string{} // partition -> its connection
	for _, r := range srv.requests {
		body, ok := want[r.uri]
		if !ok {
			t.Errorf("unexpected request %s", r.uri)
			continue
		}
		if r.method != "PUT" || r.body != body || r.header.Get("Authorization") != "Bearer t0k" || r.header.Get("Content-Type") != "application/vnd.api+json" {
			t.Errorf("%s: %s %q %v", r.uri, r.method, r.body, r.header)
		}
		p := part[r.uri]
		if remote[p] == "" {
			remote[p] = r.remote
		} else if remote[p] != r.remote {
			t.Errorf("partition %d used connections %s and %s: keep-alive broken", p, remote[p], r.remote)
		}
		delete(want, r.uri)
	}
	if len(remote) != 3 || remote[0] == remote[1] || remote[1] == remote[2] || remote[0] == remote[2] {
		t.Errorf("partitions' connections %v: want one per partition", remote)
	}
	if n := srv.conns.Load(); n != 3 {
		t.Errorf("%d connections opened, want 3 (one per partition)", n)
	}
	// The next batch gets new sessions: one new connection per partition.
	if _, err := sink.Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 2}, []foreach.Partition{
		{ID: 0, Rows: foreach.JSONRows(all[0]...)}, {ID: 1, Rows: foreach.JSONRows(all[1]...)}}); err != nil {
		t.Fatal(err)
	}
	if n := srv.conns.Load(); n != 5 {
		t.Errorf("%d connections opened after a second batch of 2 partitions, want 5", n)
	}
}

func TestHTTPWriterMethodAndTypes(t *testing.T) {
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request, _ string) bool {
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"ok":true}`)
		return true
	})
	sink := httpSink(t, &workspace.HTTPWriter{Method: "POST", URL: srv.URL + "/v/{n}/{b}/{s}"}, foreach.Options{})
	row := `{"n":-1.5e3,"b":true,"s":"\u00e9\"x","nested":{"a":[1,{"b":"}"}]}}`
	_, err := sink.Write(context.Background(), foreach.Batch{EpochID: 1}, []foreach.Partition{{ID: 0, Rows: foreach.JSONRows(row)}})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.requests[0]
	if r.method != "POST" || r.uri != "/v/-1.5e3/true/%C3%A9%22x" || r.body != row || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("request %+v", r)
	}
}

func TestHTTPWriterFails(t *testing.T) {
	slow := make(chan struct{})
	t.Cleanup(func() { close(slow) })
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request, _ string) bool {
		switch {
		case strings.HasSuffix(r.URL.Path, "/3"):
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "\n  overloaded, retry later  \n")
		case strings.HasSuffix(r.URL.Path, "/4"):
			http.Error(w, "no such order", http.StatusNotFound)
		case strings.HasSuffix(r.URL.Path, "/5"):
			select {
			case <-slow:
			case <-r.Context().Done():
			}
		default:
			return false
		}
		return true
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	tests := []struct {
		name    string
		url     string
		rows    []string
		timeout time.Duration
		wantIs  []error
		msg     string
		done    int64
	}{
		{name: "5xx", url: srv.URL + "/o/{id}", rows: rowsOf(0, 6), done: 3, wantIs: []error{foreach.ErrHTTP},
			msg: "PUT " + srv.URL + "/o/3: 503 Service Unavailable: overloaded, retry later"},
		{name: "4xx", url: srv.URL + "/o/{id}", rows: rowsOf(4, 2), wantIs: []error{foreach.ErrHTTP},
			msg: "PUT " + srv.URL + "/o/4: 404 Not Found: no such order"},
		{name: "timeout", url: srv.URL + "/o/{id}", rows: rowsOf(5, 1), timeout: 50 * time.Millisecond,
			wantIs: []error{foreach.ErrHTTP, context.DeadlineExceeded},
			msg:    "PUT " + srv.URL + "/o/5: no response within 50ms (foreach.http.timeout)"},
		{name: "transport error", url: closed.URL + "/o/{id}", rows: rowsOf(0, 1), wantIs: []error{foreach.ErrHTTP},
			msg: "PUT " + closed.URL + "/o/0: dial tcp"},
		{name: "missing column", url: srv.URL + "/o/{order_id}", rows: rowsOf(0, 1), wantIs: []error{foreach.ErrRow},
			msg: `row 1: URL placeholder {order_id}: invalid row: no column "order_id" (the row has columns "id", "name")`},
		{name: "null column", url: srv.URL + "/o/{id}", rows: []string{`{"id":null}`}, wantIs: []error{foreach.ErrRow},
			msg: `column "id" is null`},
		{name: "object column", url: srv.URL + "/o/{id}", rows: []string{`{"id":{"a":1}}`}, wantIs: []error{foreach.ErrRow},
			msg: `column "id" is not a scalar: {"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink := httpSink(t, &workspace.HTTPWriter{URL: tt.url, Timeout: tt.timeout}, foreach.Options{})
			res, err := sink.Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 1}, []foreach.Partition{{ID: 2, Rows: foreach.JSONRows(tt.rows...)}})
			for _, want := range tt.wantIs {
				if !errors.Is(err, want) {
					t.Errorf("error %v is not %v", err, want)
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %v lacks %q", err, tt.msg)
			}
			if res.Rows != tt.done {
				t.Errorf("%d rows processed, want %d", res.Rows, tt.done)
			}
		})
	}
}

func TestHTTPWriterSpec(t *testing.T) {
	tests := []struct {
		name, url, method string
		msg               string
	}{
		{name: "empty", url: "", msg: "the URL is empty"},
		{name: "relative", url: "/orders/{id}", msg: "not an absolute http(s) URL"},
		{name: "scheme", url: "ftp://h/{id}", msg: "not an absolute http(s) URL"},
		{name: "host placeholder", url: "https://{host}/x/{id}", msg: "a placeholder in the scheme or host"},
		{name: "no path", url: "https://api.example.com{id}", msg: "a placeholder in the scheme or host"},
		{name: "empty placeholder", url: "https://h/o/{ }", msg: "empty placeholder {}"},
		{name: "unclosed", url: "https://h/o/{id", msg: "unmatched '{'"},
		{name: "nested", url: "https://h/o/{{id}}", msg: "unmatched '{'"},
		{name: "stray close", url: "https://h/o/id}", msg: "unmatched '}'"},
		{name: "bad method", url: "https://h/o/{id}", method: "GET /x", msg: "is not an HTTP method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := foreach.FromSpec(&workspace.ForEach{HTTP: &workspace.HTTPWriter{URL: tt.url, Method: tt.method}}, "api", foreach.Options{})
			if !errors.Is(err, foreach.ErrSpec) || !strings.Contains(err.Error(), tt.msg) || !strings.Contains(err.Error(), `ForEach sink "api"`) {
				t.Errorf("error %v, want ErrSpec with %q", err, tt.msg)
			}
		})
	}
}

func TestFromSpec(t *testing.T) {
	tests := []struct {
		name     string
		spec     *workspace.ForEach
		wantName string
		msg      string
	}{
		{name: "named", spec: &workspace.ForEach{Name: "outbox", Command: []string{"cat"}}, wantName: "outbox"},
		{name: "node name", spec: &workspace.ForEach{Command: []string{"cat"}}, wantName: "node"},
		{name: "no writer", spec: &workspace.ForEach{}, msg: "has no writer"},
		{name: "both", spec: &workspace.ForEach{Command: []string{"cat"}, HTTP: &workspace.HTTPWriter{URL: "http://h/x"}}, msg: "sets both"},
		{name: "nil", msg: "no `foreach` definition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink, err := foreach.FromSpec(tt.spec, "node", foreach.Options{})
			if tt.msg != "" {
				if !errors.Is(err, foreach.ErrSpec) || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("error %v, want ErrSpec with %q", err, tt.msg)
				}
				return
			}
			if err != nil || sink.Name() != tt.wantName {
				t.Errorf("sink %v, error %v", sink, err)
			}
		})
	}
	if _, err := foreach.Command(nil, foreach.Options{}); !errors.Is(err, foreach.ErrSpec) {
		t.Errorf("empty command: %v", err)
	}
}
