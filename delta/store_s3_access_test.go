package delta

import (
	"context"
	"errors"
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
