package s3test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// TestConditionalWritesAtomic: of writers racing to create one key with
// If-None-Match: *, exactly one succeeds, as on S3, even with Python
// switching threads as often as it can (which makes moto's own
// lookup-then-write race frequent: with LAKTORY_S3TEST_UNSERIALIZED=1 this
// test fails).
func TestConditionalWritesAtomic(t *testing.T) {
	srv := Start(t, "LAKTORY_S3TEST_SWITCH_INTERVAL=0.000001")
	bucket := srv.Bucket(t)
	ctx := context.Background()
	const keys, writers = 80, 8
	var doubled []string
	for k := range keys {
		key := fmt.Sprintf("_delta_log/%020d.json", k)
		var wins atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				body := fmt.Sprintf("writer %d\n", w)
				_, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key,
					Body: strings.NewReader(body), ContentLength: aws.Int64(int64(len(body))), IfNoneMatch: aws.String("*")})
				if err == nil {
					wins.Add(1)
				}
			}()
		}
		close(start)
		wg.Wait()
		if n := wins.Load(); n != 1 {
			doubled = append(doubled, fmt.Sprintf("%s: %d winners", key, n))
		}
	}
	if len(doubled) > 0 {
		t.Fatalf("%d of %d keys did not have exactly one writer win: %s", len(doubled), keys, strings.Join(doubled, "; "))
	}
}

// TestStartOnATakenPort: a server started on a port another server holds
// (two test processes that chose the same free port) fails to start and
// says so, rather than being taken for ready when the other server
// answers, and then dying with the other process. Fails without the
// token: the readiness check was answered by the first server.
func TestStartOnATakenPort(t *testing.T) {
	first := Shared(t)
	port, err := strconv.Atoi(first.Endpoint[strings.LastIndexByte(first.Endpoint, ':')+1:])
	if err != nil {
		t.Fatal(err)
	}
	srv, err := startOnPort(Python(), port)
	if err == nil {
		srv.Stop()
		t.Fatalf("a second server on %s was taken for started (the first one answered)", first.Endpoint)
	}
	if !strings.Contains(err.Error(), "moto exited") {
		t.Errorf("the error = %v; want that the second server exited", err)
	}
	if _, err := first.Client().ListBuckets(context.Background(), &s3.ListBucketsInput{}); err != nil {
		t.Fatalf("the first server: %v", err)
	}
}
