package delta

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// TestS3AccessOf: the access another client of the bucket needs (Spark's
// s3a) is what the AWS chain resolves for the store: the custom endpoint
// path-style, the region, the static credentials; virtual-hosted with
// LAKTORY_S3_VIRTUAL_HOSTED=1; no endpoint for AWS itself; and a location
// that is not s3:// is refused.
func TestS3AccessOf(t *testing.T) {
	srv := s3test.Shared(t)
	srv.Setenv(t)
	ctx := context.Background()
	a, err := S3AccessOf(ctx, "s3a://lake-bucket/some/prefix")
	if err != nil {
		t.Fatal(err)
	}
	want := S3Access{Bucket: "lake-bucket", Endpoint: srv.Endpoint, PathStyle: true, Region: s3test.Region, AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey}
	if a != want {
		t.Errorf("got %+v, want %+v", a, want)
	}
	t.Setenv("LAKTORY_S3_VIRTUAL_HOSTED", "1")
	if a, err := S3AccessOf(ctx, "s3://lake-bucket"); err != nil || a.PathStyle {
		t.Errorf("virtual-hosted: %+v, %v", a, err)
	}
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_SESSION_TOKEN", "tok")
	if a, err := S3AccessOf(ctx, "s3://lake-bucket"); err != nil || a.Endpoint != "" || a.SessionToken != "tok" {
		t.Errorf("AWS with session credentials: %+v, %v", a, err)
	}
	if _, err := S3AccessOf(ctx, "gs://lake-bucket"); !errors.Is(err, ErrUnsupportedStore) {
		t.Errorf("gs://: %v", err)
	}
}

// TestS3Trace: with LAKTORY_S3_TRACE set, every request of a client made
// then is a line of the file: method, key, bytes sent and received, the
// conditional headers; no header carrying a signature or a key.
func TestS3Trace(t *testing.T) {
	srv := s3test.Shared(t)
	srv.Setenv(t)
	trace := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv(TraceEnv, trace)
	ctx := context.Background()
	st, err := OpenS3Store(ctx, "s3://"+srv.Bucket(t)+"/p")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, "a/x.bin", strings.NewReader("0123456789"), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, "a/x.bin"); err != nil {
		t.Fatal(err)
	}
	if err := st.PutIfAbsent(ctx, "a/x.bin", []byte("abc")); !errors.Is(err, ErrObjectExists) {
		t.Fatal(err)
	}
	if _, err := st.ReadRange(ctx, "a/x.bin", 2, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := st.List(ctx, "a", ListOptions{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, want := range []string{"PUT " + st.bucket + "/p/a/x.bin sent=10 status=200", "GET " + st.bucket + "/p/a/x.bin sent=0 status=200 got=10",
		"PUT " + st.bucket + "/p/a/x.bin sent=3 status=412", "If-None-Match=* op=PutObject",
		"got=10", "op=GetObject", "got=3", "Range=bytes=2-4 op=GetObject", "prefix=p%2Fa%2F", "op=ListObjectsV2"} {
		if !strings.Contains(log, want) {
			t.Errorf("trace lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "x-id=") {
		t.Errorf("trace keeps the SDK's x-id:\n%s", log)
	}
	if strings.Contains(log, s3test.SecretKey) || strings.Contains(log, "Signature") || strings.Contains(log, s3test.AccessKey) {
		t.Errorf("trace holds a credential:\n%s", log)
	}
}
