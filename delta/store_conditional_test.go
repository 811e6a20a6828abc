package delta

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/laktory/workbench/delta/s3test"
)

// conditionalFront stands before the test server as an S3-compatible
// server without an atomic put-if-absent would:
//
//   - "ignores": it drops If-None-Match and If-Match, so every
//     conditional write is a plain one (a server that ignores them);
//   - "check-then-put": it answers a PutObject with If-None-Match: * by
//     looking the key up, then, when it is absent, writing it
//     unconditionally 50 ms later: a conditional write that is honoured
//     one request at a time but not atomic, as moto's own check is
//     (writers racing for one key may all pass the check);
//   - "conflict-first-race": it answers the first probeRacers conditional
//     writes of a key other than the first one with 409
//     ConditionalRequestConflict (S3's answer while another conditional
//     write of the key is in flight), then lets everything through.
func conditionalFront(t *testing.T, srv *s3test.Server, mode string) string {
	t.Helper()
	u, err := url.Parse(srv.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	client := srv.Client()
	var (
		mu        sync.Mutex
		firstKey  string
		conflicts int
	)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mode == "conflict-first-race" && r.Method == http.MethodPut && r.Header.Get("If-None-Match") == "*" {
			mu.Lock()
			if firstKey == "" {
				firstKey = r.URL.Path
			}
			conflict := r.URL.Path != firstKey && conflicts < probeRacers
			if conflict {
				conflicts++
			}
			mu.Unlock()
			if conflict {
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(http.StatusConflict)
				io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>ConditionalRequestConflict</Code><Message>A conflicting conditional operation is currently in progress against this resource.</Message></Error>`) //nolint:errcheck // best effort
				return
			}
		}
		if mode != "check-then-put" || r.Method != http.MethodPut || r.Header.Get("If-None-Match") != "*" {
			if mode == "ignores" {
				r.Header.Del("If-None-Match")
				r.Header.Del("If-Match")
			}
			proxy.ServeHTTP(w, r)
			return
		}
		bucket, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		_, err := client.HeadObject(r.Context(), &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
		if err == nil {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusPreconditionFailed)
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>`) //nolint:errcheck // best effort
			return
		}
		time.Sleep(50 * time.Millisecond)
		r.Header.Del("If-None-Match")
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	return front.URL
}

// TestS3StoreRefusesWithoutAtomicPutIfAbsent: a server that ignores
// If-None-Match, and one whose conditional write is a check then a write,
// are found out when the bucket is opened: the store reads, but refuses
// every commit (put-if-absent, a table's creation) with an error that
// says what the check found, and writes nothing.
func TestS3StoreRefusesWithoutAtomicPutIfAbsent(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Shared(t)
	for _, tt := range []struct{ mode, want string }{
		{"ignores", "the server ignores conditional writes"},
		{"check-then-put", "not atomic"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			srv.Setenv(t)
			bucket := srv.Bucket(t)
			front := conditionalFront(t, srv, tt.mode)
			t.Setenv("AWS_ENDPOINT_URL_S3", front)
			t.Setenv("AWS_ENDPOINT_URL", front)

			st, err := OpenS3Store(ctx, "s3://"+bucket+"/lake/t")
			if err != nil {
				t.Fatalf("open: %v (reading must stay possible)", err)
			}
			if st.Capabilities().AtomicPutIfAbsent {
				t.Fatal("the store claims an atomic put-if-absent")
			}
			err = CheckWritable(st)
			if !errors.Is(err, ErrPutIfAbsentUnsupported) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "s3://"+bucket+"/lake/t") {
				t.Fatalf("CheckWritable = %v; want ErrPutIfAbsentUnsupported naming the store and %q", err, tt.want)
			}
			key := "_delta_log/" + CommitFileName(0)
			if err := st.PutIfAbsent(ctx, key, []byte("{}\n")); !errors.Is(err, ErrPutIfAbsentUnsupported) {
				t.Fatalf("PutIfAbsent = %v; want ErrPutIfAbsentUnsupported", err)
			}
			db := writeTestDB(t)
			schema, err := QuerySchema(ctx, db, "SELECT 1::BIGINT AS id")
			if err != nil {
				t.Fatal(err)
			}
			_, err = Create(ctx, "s3://"+bucket+"/lake/main/default/t2", TableDefinition{Schema: schema}, WriteOptions{})
			if !errors.Is(err, ErrPutIfAbsentUnsupported) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Create = %v; want ErrPutIfAbsentUnsupported saying %q", err, tt.want)
			}
			// Nothing was written: the probes are deleted, no commit stands.
			root, err := OpenS3Store(ctx, "s3://"+bucket)
			if err != nil {
				t.Fatal(err)
			}
			if left, err := root.List(ctx, "", ListOptions{Recursive: true}); err != nil || len(left) != 0 {
				t.Fatalf("objects left in the bucket: %v, %v; want none", left, err)
			}
		})
	}
}

// TestS3StoreProbeRacesAgainAfterConflicts: a race of the probe in which
// every writer gets 409 (a conditional write in flight) proves nothing
// either way; the probe races again on a new key, and the store writes.
func TestS3StoreProbeRacesAgainAfterConflicts(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Shared(t)
	srv.Setenv(t)
	bucket := srv.Bucket(t)
	front := conditionalFront(t, srv, "conflict-first-race")
	t.Setenv("AWS_ENDPOINT_URL_S3", front)
	t.Setenv("AWS_ENDPOINT_URL", front)
	st, err := OpenS3Store(ctx, "s3://"+bucket+"/lake/t")
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckWritable(st); err != nil {
		t.Fatalf("CheckWritable after a race of 409s: %v; want the store writable", err)
	}
	key := "_delta_log/" + CommitFileName(0)
	if err := st.PutIfAbsent(ctx, key, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if err := st.PutIfAbsent(ctx, key, []byte("{}\n")); !errors.Is(err, ErrObjectExists) {
		t.Fatalf("second PutIfAbsent = %v; want ErrObjectExists", err)
	}
}
