package delta

import (
	"context"
	"fmt"
	"os"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3Access is how this process reaches a bucket, as the AWS configuration
// chain resolves it (the same chain the S3 store uses): what another
// client of the same bucket (Spark's s3a) needs to see the same objects.
type S3Access struct {
	Bucket string
	// Endpoint is the custom endpoint of an S3-compatible server ("" for
	// AWS S3 itself); PathStyle says whether it is addressed
	// http://host/bucket/key (as the store does for a custom endpoint).
	Endpoint  string
	PathStyle bool
	Region    string
	// Credentials resolved from the chain ("" when it has none: anonymous
	// access, or a client with credentials of its own).
	AccessKeyID, SecretAccessKey, SessionToken string
}

// S3AccessOf resolves the AWS configuration chain for the bucket of an
// s3:// (or s3a://) location: endpoint, addressing, region and the
// credentials, retrieved now (temporary credentials expire: a long job
// needs a client with a provider of its own).
func S3AccessOf(ctx context.Context, uri string) (S3Access, error) {
	bucket, _, err := S3Location(uri)
	if err != nil {
		return S3Access{}, err
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return S3Access{}, fmt.Errorf("%w: %s: the AWS configuration cannot be loaded: %v", ErrStoreAccess, uri, err)
	}
	a := S3Access{Bucket: bucket, Region: cfg.Region}
	if a.Region == "" {
		a.Region = "us-east-1"
	}
	opts := s3.NewFromConfig(cfg).Options()
	if opts.BaseEndpoint != nil {
		a.Endpoint = *opts.BaseEndpoint
		a.PathStyle = os.Getenv("LAKTORY_S3_VIRTUAL_HOSTED") != "1"
	}
	if cfg.Credentials != nil {
		c, err := cfg.Credentials.Retrieve(ctx)
		if err != nil {
			return S3Access{}, fmt.Errorf("%w: %s: the AWS configuration chain gives no credentials: %v", ErrStoreAccess, uri, err)
		}
		a.AccessKeyID, a.SecretAccessKey, a.SessionToken = c.AccessKeyID, c.SecretAccessKey, c.SessionToken
	}
	return a, nil
}
