package s3test

import (
	"context"
	"fmt"
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
