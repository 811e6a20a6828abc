package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/laktory/workbench/runner/engine/spark"
)

// sparkProxy is a gRPC proxy in front of a Spark Connect server: it
// forwards every call as it is, and counts the calls by method (what a
// run asks of the server: each costs Spark's per-call latency).
type sparkProxy struct {
	remote string // sc://host:port of the proxy
	mu     sync.Mutex
	calls  map[string]int
	// watches are told of each request holding their text.
	watches map[string]chan struct{}
	// holds keep the first request holding their text from the server
	// until released.
	holds map[string]*proxyHold
}

// proxyHold is a request held by the proxy (hold).
type proxyHold struct {
	text    string
	held    chan struct{} // closed when the request is held
	release chan struct{} // closed to let it go on
	once    sync.Once
}

// startSparkProxy starts a proxy in front of the Spark Connect server at
// remote, stopped at the end of the test.
func startSparkProxy(t *testing.T, remote string) *sparkProxy {
	t.Helper()
	u, err := url.Parse(remote)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(u.Host, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}), grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(1<<30)))
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &sparkProxy{remote: "sc://" + l.Addr().String(), calls: map[string]int{}, watches: map[string]chan struct{}{}, holds: map[string]*proxyHold{}}
	srv := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}), grpc.UnknownServiceHandler(p.forward(conn)),
		grpc.MaxRecvMsgSize(1<<30), grpc.MaxSendMsgSize(1<<30))
	go srv.Serve(l) //nolint:errcheck // ends with Stop
	t.Cleanup(func() {
		srv.Stop()
		conn.Close()
	})
	return p
}

// forward relays one call (unary or streaming: the same on the wire) to
// the server: messages both ways, then the server's headers, trailers and
// status (error classes included).
func (p *sparkProxy) forward(conn *grpc.ClientConn) grpc.StreamHandler {
	return func(_ any, ss grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(ss)
		p.mu.Lock()
		p.calls[method[strings.LastIndex(method, "/")+1:]]++
		p.mu.Unlock()
		ctx, cancel := context.WithCancel(ss.Context())
		defer cancel()
		if md, ok := metadata.FromIncomingContext(ss.Context()); ok {
			ctx = metadata.NewOutgoingContext(ctx, md.Copy())
		}
		cs, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method)
		if err != nil {
			return err
		}
		go func() {
			for {
				var m []byte
				if err := ss.RecvMsg(&m); err != nil {
					cs.CloseSend() //nolint:errcheck // the call ends anyway
					return
				}
				if h := p.observe(m); h != nil {
					<-h.release
				}
				if err := cs.SendMsg(&m); err != nil {
					return
				}
			}
		}()
		for first := true; ; first = false {
			var m []byte
			err := cs.RecvMsg(&m)
			if first {
				if md, herr := cs.Header(); herr == nil {
					ss.SendHeader(md) //nolint:errcheck // a failed call reports its status below
				}
			}
			if err != nil {
				ss.SetTrailer(cs.Trailer())
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			if err := ss.SendMsg(&m); err != nil {
				return err
			}
		}
	}
}

// watch returns a channel told (without blocking: it holds up to 16)
// of each request that holds text, e.g. a statement of SQL.
func (p *sparkProxy) watch(text string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := make(chan struct{}, 16)
	p.watches[text] = ch
	return ch
}

// hold keeps the first request that holds text from reaching the server
// until release is called (at the end of the test at the latest): held
// is closed once that request is held. The call that sent it waits, as
// for a slow statement.
func (p *sparkProxy) hold(t *testing.T, text string) (held <-chan struct{}, release func()) {
	h := &proxyHold{text: text, held: make(chan struct{}), release: make(chan struct{})}
	p.mu.Lock()
	p.holds[text] = h
	p.mu.Unlock()
	release = func() { h.once.Do(func() { close(h.release) }) }
	t.Cleanup(release)
	return h.held, release
}

// observe tells the watches of m, and returns the hold that takes it
// (nil: m goes on at once).
func (p *sparkProxy) observe(m []byte) *proxyHold {
	p.mu.Lock()
	defer p.mu.Unlock()
	for text, ch := range p.watches {
		if bytes.Contains(m, []byte(text)) {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
	for text, h := range p.holds {
		if bytes.Contains(m, []byte(text)) {
			delete(p.holds, text)
			close(h.held)
			return h
		}
	}
	return nil
}

// take returns the calls counted since the last take, by method.
func (p *sparkProxy) take() rpcCalls {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.calls
	p.calls = map[string]int{}
	return c
}

// rpcCalls counts calls to Spark Connect by method.
type rpcCalls map[string]int

func (c rpcCalls) total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

func (c rpcCalls) String() string {
	var parts []string
	for _, m := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, fmt.Sprintf("%s %d", m, c[m]))
	}
	return fmt.Sprintf("%d calls (%s)", c.total(), strings.Join(parts, ", "))
}

// rawCodec passes messages through as bytes.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *v.(*[]byte), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*v.(*[]byte) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// sparkLatency measures the wall time of a trivial query (SELECT 1) and
// the calls it makes, through the proxy: the median of n.
func sparkLatency(t *testing.T, p *sparkProxy, n int) (perQuery time.Duration, calls rpcCalls) {
	t.Helper()
	eng, err := spark.Open(t.Context(), p.remote)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	s, err := eng.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var one int64
	if err := s.QueryRow(t.Context(), "SELECT 1", &one); err != nil { // warm
		t.Fatal(err)
	}
	p.take()
	took := make([]time.Duration, n)
	for i := range took {
		start := time.Now()
		if err := s.QueryRow(t.Context(), "SELECT 1", &one); err != nil {
			t.Fatal(err)
		}
		took[i] = time.Since(start)
	}
	calls = p.take()
	for m := range calls {
		calls[m] /= n
	}
	slices.Sort(took)
	return took[n/2], calls
}
