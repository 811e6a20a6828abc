// Package s3test starts a real S3-compatible server for tests: moto in
// server mode (moto[server] from PyPI, in the interop venv of
// scripts/requirements-interop.txt), on a loopback port chosen for it, one
// per test process. Tests give each case a bucket of its own.
//
// The server is found through $LAKTORY_PYTHON (else python3). When that
// Python has no moto, tests skip, unless LAKTORY_REQUIRE_INTEROP=1
// (scripts/test.sh and CI set it): then they fail and say what to install.
// The server dies with the test process (Pdeathsig), and Main stops it
// when the package's tests end.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Credentials and region the server is used with (moto accepts any).
const (
	AccessKey = "laktory-test"
	SecretKey = "laktory-test-secret"
	Region    = "us-east-1"
)

// Server is a running moto server.
type Server struct {
	// Endpoint is its URL, http://127.0.0.1:PORT.
	Endpoint string
	cmd      *exec.Cmd
	client   *s3.Client
	stderr   *lockedWriter
}

var shared struct {
	sync.Mutex
	srv *Server
	err error
}

// Python is the interpreter that runs moto.
func Python() string {
	if p := os.Getenv("LAKTORY_PYTHON"); p != "" {
		return p
	}
	return "python3"
}

// Shared returns the process's server, starting it on first use. It skips
// the test when moto is missing (fails under LAKTORY_REQUIRE_INTEROP=1).
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if shared.srv == nil && shared.err == nil {
		shared.srv, shared.err = start()
	}
	if shared.err != nil {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatalf("the S3-compatible test server is required (LAKTORY_REQUIRE_INTEROP=1) and cannot start: %v\n"+
				"install it with: %s -m pip install -r scripts/requirements-interop.txt (moto[server]), or set LAKTORY_PYTHON", shared.err, Python())
		}
		t.Skipf("no S3-compatible test server (moto[server] for %s): %v", Python(), shared.err)
	}
	return shared.srv
}

// Main runs a package's tests and then stops the shared server:
// func TestMain(m *testing.M) { s3test.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	shared.Lock()
	if shared.srv != nil {
		shared.srv.Stop()
		shared.srv = nil
	}
	shared.Unlock()
	os.Exit(code)
}

func start() (*Server, error) {
	py := Python()
	if out, err := exec.Command(py, "-c", "import moto.server, flask, werkzeug").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s cannot import moto.server: %v: %s", py, err, strings.TrimSpace(string(out)))
	}
	var lastErr error
	for try := 0; try < 3; try++ {
		srv, err := startOnce(py)
		if err == nil {
			return srv, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// serverScript runs moto's server as python -m moto.server does, with one
// change: the requests that write (PUT, POST, DELETE) are handled one at a
// time. moto checks If-None-Match and If-Match by looking the key up and
// then writing it, in a thread per request, so two conditional writes of
// one key racing each other could both succeed (observed under load:
// "2 writers won"), which S3 never lets happen. Reads stay concurrent.
// LAKTORY_S3TEST_SWITCH_INTERVAL sets Python's thread switch interval (a
// small one makes such races frequent: TestConditionalWritesAtomic), and
// LAKTORY_S3TEST_UNSERIALIZED=1 leaves the writes concurrent, as moto has
// them (to see that test fail).
const serverScript = `
import argparse, os, sys, threading
from werkzeug.serving import run_simple
from moto.server import DomainDispatcherApplication, create_backend_app
try:
    from moto.server import MotoRequestHandler  # moto 5.2.5; older ones use werkzeug's
except ImportError:
    MotoRequestHandler = None

p = argparse.ArgumentParser()
p.add_argument("-H", "--host", default="127.0.0.1")
p.add_argument("-p", "--port", type=int, required=True)
args = p.parse_args()
os.environ.setdefault("MOTO_PORT", str(args.port))
if os.environ.get("LAKTORY_S3TEST_SWITCH_INTERVAL"):
    sys.setswitchinterval(float(os.environ["LAKTORY_S3TEST_SWITCH_INTERVAL"]))
app = DomainDispatcherApplication(create_backend_app)
app.debug = True
writes = threading.Lock()
serialized = os.environ.get("LAKTORY_S3TEST_UNSERIALIZED") != "1"

token = os.environ.get("LAKTORY_S3TEST_TOKEN", "").encode()

def handle(environ, start_response):
    if environ.get("PATH_INFO") == "/laktory-s3test-token":
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(token)))])
        return [token]
    if serialized and environ.get("REQUEST_METHOD") in ("PUT", "POST", "DELETE"):
        with writes:
            body = app(environ, start_response)
            try:
                return [b"".join(body)]
            finally:
                if hasattr(body, "close"):
                    body.close()
    return app(environ, start_response)

run_simple(args.host, args.port, handle, threaded=True, request_handler=MotoRequestHandler)
`

func startOnce(py string, env ...string) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return startOnPort(py, port, env...)
}

// startOnPort starts the server on port. The port was free when chosen,
// but another process (another package's tests) may have chosen it too
// before either server bound it: the server that lost exits, and a
// readiness check by URL alone would be answered by the other process's
// server, which dies with that process. So the server answers
// /laktory-s3test-token with a token of this start only, and a port
// answered otherwise is not ours.
func startOnPort(py string, port int, env ...string) (*Server, error) {
	tok := make([]byte, 16)
	rand.Read(tok) //nolint:errcheck // never fails
	token := hex.EncodeToString(tok)
	cmd := exec.Command(py, "-c", serverScript, "-H", "127.0.0.1", "-p", fmt.Sprint(port))
	cmd.Env = append(append(os.Environ(), env...), "LAKTORY_S3TEST_TOKEN="+token)
	stderr := &lockedWriter{}
	cmd.Stdout, cmd.Stderr = nil, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	srv := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, stderr: stderr}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	hc := &http.Client{Timeout: 2 * time.Second}
	for {
		resp, err := hc.Get(srv.Endpoint + "/laktory-s3test-token")
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && string(body) == token {
				break
			}
			// Another server answers on the port: wait for ours to exit.
		}
		select {
		case err := <-exited:
			return nil, fmt.Errorf("moto exited: %v: %s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			srv.Stop()
			return nil, fmt.Errorf("moto did not answer on %s within 60 s: %s", srv.Endpoint, stderr.String())
		}
	}
	srv.client = s3.New(s3.Options{
		BaseEndpoint: aws.String(srv.Endpoint), Region: Region, UsePathStyle: true,
		Credentials: aws.NewCredentialsCache(staticCreds{}),
	})
	return srv, nil
}

// Start starts a server of the test's own, with env added to its
// environment, stopped when the test ends (Shared is the usual one).
func Start(t testing.TB, env ...string) *Server {
	t.Helper()
	py := Python()
	if out, err := exec.Command(py, "-c", "import moto.server, flask, werkzeug").CombinedOutput(); err != nil {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatalf("the S3-compatible test server is required (LAKTORY_REQUIRE_INTEROP=1): %s: %v: %s", py, err, out)
		}
		t.Skipf("no S3-compatible test server (moto[server] for %s): %v", py, err)
	}
	srv, err := startOnce(py, env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// Stop kills the server.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // gone already is fine
	}
}

// Env is the environment that points the AWS SDK's configuration chain
// (and delta-rs, and Spark's s3a through its environment provider) at the
// server, with no other source of configuration: no profile, no shared
// files, no instance metadata.
func (s *Server) Env() []string {
	return []string{
		"AWS_ENDPOINT_URL_S3=" + s.Endpoint,
		"AWS_ENDPOINT_URL=" + s.Endpoint,
		"AWS_ACCESS_KEY_ID=" + AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + SecretKey,
		"AWS_REGION=" + Region,
		"AWS_DEFAULT_REGION=" + Region,
		"AWS_EC2_METADATA_DISABLED=true",
		"AWS_CONFIG_FILE=/dev/null",
		"AWS_SHARED_CREDENTIALS_FILE=/dev/null",
		"AWS_PROFILE=",
		"AWS_SESSION_TOKEN=",
		// delta-rs (object_store) refuses plain http without it.
		"AWS_ALLOW_HTTP=true",
	}
}

// Setenv sets Env for the rest of the test (t.Setenv: not with
// t.Parallel).
func (s *Server) Setenv(t testing.TB) {
	t.Helper()
	for _, kv := range s.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// Bucket creates a bucket of a fresh name and returns it.
func (s *Server) Bucket(t testing.TB) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b) //nolint:errcheck // never fails
	name := "lk-" + hex.EncodeToString(b)
	if _, err := s.client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: &name}); err != nil {
		t.Fatalf("create bucket %s: %v", name, err)
	}
	return name
}

// Client is an S3 client of the server, for tests that look at the
// bucket behind the store's back.
func (s *Server) Client() *s3.Client { return s.client }

type staticCreds struct{}

func (staticCreds) Retrieve(context.Context) (aws.Credentials, error) {
	return aws.Credentials{AccessKeyID: AccessKey, SecretAccessKey: SecretKey, Source: "s3test"}, nil
}

type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b.Len() < 1<<16 {
		w.b.Write(p)
	}
	return len(p), nil
}
