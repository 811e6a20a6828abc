package main

import (
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// TestInteropSparkEngineBucket runs the steps of TestInteropSparkEngine's
// demo with each engine's lake in a bucket of a moto server on loopback
// (lake: s3://BUCKET/local and s3://BUCKET/spark): the local engine through
// the workbench's S3 store, Spark through s3a (hadoop-aws, started by
// spark_connect.sh with SPARK_CONNECT_S3=1) with the bucket's
// configuration from the AWS chain given to each task's session. After
// each step delta-rs reads both engines' tables from the bucket and
// compares them row for row; concurrent_writer has the local engine
// refresh one writer of the shared all_orders in the Spark workspace's
// bucket table while Spark refreshes the other: Spark's commits are not
// conditional, so the Spark run holds the table's lease and each local
// refresh meanwhile is refused, nothing written (concurrentWriterLeased);
// afterwards the table ends as the two refreshes one after the other
// leave it.
//
// Opt-in as TestInteropSparkEngine (LAKTORY_SPARK_PYTHON, LAKTORY_PYTHON
// with deltalake and moto[server]; LAKTORY_SPARK_REMOTE for a running
// server started with SPARK_CONNECT_S3=1):
//
//	LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python LAKTORY_PYTHON=$PWD/.venv/bin/python \
//	  go test ./cmd/laktory -run TestInteropSparkEngineBucket -timeout 60m -v
func TestInteropSparkEngineBucket(t *testing.T) {
	sparkPy := sparkOptIn(t)
	py := deltaPython(t)
	s3 := s3test.Shared(t)
	s3.Setenv(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the object cache of the runs
	bucket := s3.Bucket(t)
	srv := sparkConnect(t, sparkPy)
	checkDemoOnEngines(t, py, srv, map[string]string{"local": "s3://" + bucket + "/local", "spark": "s3://" + bucket + "/spark"})
}
