package spark

import (
	"context"
	"fmt"
	"strings"

	"github.com/laktory/workbench/delta"
)

// A lake in a bucket (s3://bucket/prefix) is the same objects for the
// workbench and for Spark: Spark reaches them through Hadoop's s3a
// (hadoop-aws, with the AWS SDK bundle it is built with, on the server's
// classpath), and each task's session is given the bucket's
// configuration as the workbench's AWS chain resolves it, as per-bucket
// s3a options (fs.s3a.bucket.BUCKET.*): the endpoint and path-style
// addressing of an S3-compatible server, the region, and the credentials.
//
// Delta's LogStore for s3a is S3SingleDriverLogStore: it excludes the
// writers of one Spark driver with an in-process lock, checks that the
// commit file does not exist (a HEAD), then creates it. Create performance
// and conditional create are set for the lake's bucket
// (fs.s3a.create.performance, fs.s3a.create.conditional.enabled), meant to
// make that create a conditional PUT (If-None-Match: *); measured with
// Spark 4.2.0, Delta 4.4.0 and hadoop-aws 3.5.0 against an S3-compatible
// server (TestInteropSparkDynamoDBLogStore, opt-in), the commit's PUT
// carries no such header: a commit of another writer (the workbench's
// local engine, delta-rs, another driver) made between Spark's check and
// its PUT is overwritten. So Spark and any other writer must not write one
// bucket table at the same moment (docs/object-storage.md, "Which writers
// may write one table at once"); within one run of the Spark engine every
// commit goes through the one driver. lostConditionalCommit still reads a
// 412 as a lost race where a store does honour the condition. Any other
// LogStore (the multi-cluster S3DynamoDBLogStore among them) is refused:
// its exclusion lives in DynamoDB, which our commits never see.

// s3aScheme rewrites an s3:// location as s3a://, the scheme of Hadoop's
// S3 filesystem (s3:// has no filesystem in Apache Spark).
func s3aScheme(path string) string {
	if rest, ok := strings.CutPrefix(path, "s3://"); ok {
		return "s3a://" + rest
	}
	return path
}

// isBucketPath says whether path names an object in a bucket.
func isBucketPath(path string) bool {
	return strings.HasPrefix(path, "s3://") || strings.HasPrefix(path, "s3a://")
}

// logStoreSafe is the one LogStore class the Spark engine takes on a bucket
// lake: its commits exclude the driver's own writers (not other writers:
// see above).
const logStoreSafe = "io.delta.storage.S3SingleDriverLogStore"

// bucketConf are the s3a options of the bucket of a, for its bucket only.
func bucketConf(a delta.S3Access) map[string]string {
	p := "fs.s3a.bucket." + a.Bucket + "."
	c := map[string]string{
		p + "endpoint.region": a.Region,
		// Meant to create a commit file with If-None-Match: * (see above:
		// measured, Spark's commit PUT does not carry it).
		p + "create.performance":         "true",
		p + "create.conditional.enabled": "true",
	}
	if a.Endpoint != "" {
		c[p+"endpoint"] = a.Endpoint
		c[p+"path.style.access"] = fmt.Sprint(a.PathStyle)
		c[p+"connection.ssl.enabled"] = fmt.Sprint(strings.HasPrefix(a.Endpoint, "https://"))
	}
	switch {
	case a.AccessKeyID != "" && a.SessionToken != "":
		c[p+"aws.credentials.provider"] = "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider"
		c[p+"access.key"], c[p+"secret.key"], c[p+"session.token"] = a.AccessKeyID, a.SecretAccessKey, a.SessionToken
	case a.AccessKeyID != "":
		c[p+"aws.credentials.provider"] = "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"
		c[p+"access.key"], c[p+"secret.key"] = a.AccessKeyID, a.SecretAccessKey
	}
	return c
}

// useBucket gives the session the configuration of the bucket of path
// (once per session), after checking once per engine that the server can
// write it safely.
func (s *Session) useBucket(ctx context.Context, path string) error {
	if !isBucketPath(path) {
		return nil
	}
	bucket, _, err := delta.S3Location(path)
	if err != nil {
		return err
	}
	if s.buckets[bucket] {
		return nil
	}
	conf, err := s.e.bucket(ctx, path)
	if err != nil {
		return err
	}
	for k, v := range conf {
		if err := s.set(ctx, k, v); err != nil {
			return fmt.Errorf("spark: the s3a configuration of bucket %s: %w", bucket, err)
		}
	}
	if s.buckets == nil {
		s.buckets = map[string]bool{}
	}
	s.buckets[bucket] = true
	return nil
}

// bucket returns the s3a options of the bucket of path, resolved once per
// engine, and checks the server's LogStore and s3a once.
func (e *Engine) bucket(ctx context.Context, path string) (map[string]string, error) {
	bucket, _, err := delta.S3Location(path)
	if err != nil {
		return nil, err
	}
	e.bucketsMu.Lock()
	defer e.bucketsMu.Unlock()
	if c, ok := e.buckets[bucket]; ok {
		return c, nil
	}
	if e.s3Err != nil {
		return nil, e.s3Err
	}
	a, err := delta.S3AccessOf(ctx, path)
	if err != nil {
		return nil, err
	}
	c := bucketConf(a)
	if e.buckets == nil {
		e.buckets = map[string]map[string]string{}
	}
	e.buckets[bucket] = c
	return c, nil
}

// ErrBucketLake: the server cannot write a lake in a bucket safely (a
// LogStore whose commits do not exclude ours).
var ErrBucketLake = fmt.Errorf("%w: a lake in a bucket", ErrConnect)

// checkS3 checks that the server's Delta LogStore for s3a is
// S3SingleDriverLogStore, on the session s (Open's, before it is the
// engine's admin). Whether the server has s3a at all shows at the first
// read of the bucket (Spark's "No FileSystem for scheme" or a missing
// S3AFileSystem class): asking the JVM from SQL loads classes with Spark's
// own class loader, which does not see --packages.
func checkS3(ctx context.Context, s *Session, remote string) error {
	set := map[string]string{}
	for _, key := range logStoreKeys {
		rs, err := s.rows(ctx, "SET "+key)
		if err != nil || len(rs) == 0 || len(rs[0]) < 2 {
			continue
		}
		set[key] = strings.TrimSpace(fmt.Sprint(rs[0][1]))
	}
	return logStoreProblem(remote, set)
}

// logStoreKeys are the configurations naming Delta's LogStore for s3a.
var logStoreKeys = []string{"spark.delta.logStore.s3a.impl", "spark.delta.logStore.class"}

// logStoreProblem says why the server's LogStore configuration (SET's
// values of logStoreKeys; "<undefined>" when unset) does not exclude our
// commits, or nil.
func logStoreProblem(remote string, set map[string]string) error {
	for _, key := range logStoreKeys {
		v := set[key]
		if v == "" || v == "<undefined>" || v == logStoreSafe {
			continue
		}
		return fmt.Errorf("%w: %s sets %s=%s: the Spark engine takes only %s on a bucket lake; "+
			"a DynamoDB LogStore serializes Spark's writers only, and no other writer may write a bucket table while Spark commits to it (docs/object-storage.md, which writers may write one table at once)", ErrBucketLake, remote, key, v, logStoreSafe)
	}
	return nil
}
