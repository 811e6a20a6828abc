package spark

import (
	"errors"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
)

// TestBucketConf: the s3a options a session gets for the lake's bucket
// are that bucket's only, with the endpoint of an S3-compatible server
// path-style, the credentials of the AWS chain with the provider that reads
// them, and conditional creates (commit files with If-None-Match: *).
func TestBucketConf(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    delta.S3Access
		want map[string]string
	}{
		{"moto, static keys", delta.S3Access{Bucket: "b", Endpoint: "http://127.0.0.1:5000", PathStyle: true, Region: "us-east-1", AccessKeyID: "k", SecretAccessKey: "s"},
			map[string]string{
				"fs.s3a.bucket.b.endpoint": "http://127.0.0.1:5000", "fs.s3a.bucket.b.path.style.access": "true", "fs.s3a.bucket.b.connection.ssl.enabled": "false",
				"fs.s3a.bucket.b.endpoint.region": "us-east-1", "fs.s3a.bucket.b.create.performance": "true", "fs.s3a.bucket.b.create.conditional.enabled": "true",
				"fs.s3a.bucket.b.aws.credentials.provider": "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
				"fs.s3a.bucket.b.access.key":               "k", "fs.s3a.bucket.b.secret.key": "s",
			}},
		{"AWS, session credentials", delta.S3Access{Bucket: "lake", Region: "eu-west-1", AccessKeyID: "k", SecretAccessKey: "s", SessionToken: "t"},
			map[string]string{
				"fs.s3a.bucket.lake.endpoint.region": "eu-west-1", "fs.s3a.bucket.lake.create.performance": "true", "fs.s3a.bucket.lake.create.conditional.enabled": "true",
				"fs.s3a.bucket.lake.aws.credentials.provider": "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider",
				"fs.s3a.bucket.lake.access.key":               "k", "fs.s3a.bucket.lake.secret.key": "s", "fs.s3a.bucket.lake.session.token": "t",
			}},
		{"no credentials: the cluster's own", delta.S3Access{Bucket: "lake", Region: "us-east-2"},
			map[string]string{
				"fs.s3a.bucket.lake.endpoint.region": "us-east-2", "fs.s3a.bucket.lake.create.performance": "true", "fs.s3a.bucket.lake.create.conditional.enabled": "true",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := bucketConf(tc.a)
			if len(got) != len(tc.want) {
				t.Errorf("%d options, want %d: %v", len(got), len(tc.want), got)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// TestBucketPaths: a table in a bucket is named through s3a in Spark SQL,
// and the files of a stream's batch as Spark's _metadata.file_path gives
// them.
func TestBucketPaths(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{tableRef("s3://b/lake/main/default/t"), "delta.`s3a://b/lake/main/default/t`"},
		{tableRef("s3a://b/lake/t"), "delta.`s3a://b/lake/t`"},
		{tableRef("/lake/t"), "delta.`/lake/t`"},
		{filePath("s3://b/lake/t", "part-0.parquet"), "s3a://b/lake/t/part-0.parquet"},
		{filePath("s3://b/lake/t/", "p=1/part-0.parquet"), "s3a://b/lake/t/p=1/part-0.parquet"},
		{filePath("s3://b/lake/t", "s3://b/elsewhere/part-0.parquet"), "s3a://b/elsewhere/part-0.parquet"},
		{filePath("/lake/t", "part-0.parquet"), "file:/lake/t/part-0.parquet"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

// TestLostConditionalCommit: s3a's 412 on a commit file is a lost commit
// race, which the runner retries; a 412 elsewhere is not.
func TestLostConditionalCommit(t *testing.T) {
	lost := errors.New("org.apache.hadoop.fs.s3a.RemoteFileChangedException: PUT s3a://b/lake/t/_delta_log/00000000000000000003.json: 412 PreconditionFailed")
	if err := classify(lost); !errors.Is(err, delta.ErrConcurrentAppend) {
		t.Errorf("a refused conditional commit: %v is no commit conflict", err)
	}
	other := errors.New("org.apache.hadoop.fs.s3a.RemoteFileChangedException: GET s3a://b/lake/t/part-0.parquet: 412 changed during the read")
	if err := classify(other); errors.Is(err, delta.ErrConcurrentAppend) {
		t.Errorf("a data file's 412 taken for a commit conflict: %v", err)
	}
}

// TestLogStoreProblem: a server whose Delta LogStore for s3a is not
// S3SingleDriverLogStore (the DynamoDB one, set by scheme or for every
// scheme) cannot write a bucket lake the workbench writes too.
func TestLogStoreProblem(t *testing.T) {
	for _, tc := range []struct {
		set  map[string]string
		want string // "" when accepted
	}{
		{map[string]string{}, ""},
		{map[string]string{"spark.delta.logStore.s3a.impl": "<undefined>", "spark.delta.logStore.class": "<undefined>"}, ""},
		{map[string]string{"spark.delta.logStore.s3a.impl": "io.delta.storage.S3SingleDriverLogStore"}, ""},
		{map[string]string{"spark.delta.logStore.s3a.impl": "io.delta.storage.S3DynamoDBLogStore"}, "sets spark.delta.logStore.s3a.impl=io.delta.storage.S3DynamoDBLogStore"},
		{map[string]string{"spark.delta.logStore.class": "io.delta.storage.S3DynamoDBLogStore"}, "sets spark.delta.logStore.class=io.delta.storage.S3DynamoDBLogStore"},
	} {
		err := logStoreProblem("sc://h:1", tc.set)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: refused: %v", tc.set, err)
		case tc.want != "" && (!errors.Is(err, ErrBucketLake) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: %v, want an ErrBucketLake naming %q", tc.set, err, tc.want)
		}
	}
}
