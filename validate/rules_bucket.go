package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// sparkLogStoreKeys are the Spark configurations naming Delta's LogStore
// for S3 paths (s3a://, s3://) or for every path.
var sparkLogStoreKeys = []string{"spark.delta.logStore.s3a.impl", "spark.delta.logStore.s3.impl", "spark.delta.logStore.class"}

// safeLogStore is Delta's default LogStore for S3, the one the Spark engine
// takes on a bucket lake (runner/engine/spark's logStoreSafe; that check
// reads the s3a key only, its tables being s3a:// paths). It excludes one
// driver's own writers, not the workbench's: measured, its commit PUT
// carries no If-None-Match, so no Spark writer may write a bucket table at
// the moment another writer does (docs/object-storage.md). Other LogStores
// are warned of here because they promise an exclusion that does not
// reach the workbench's commits.
const safeLogStore = "io.delta.storage.S3SingleDriverLogStore"

// bucketLogStores warns (LK233), when the lake is in a bucket, of a node
// writing a table there whose deployed Spark configuration (the job
// cluster's spark_conf, a declarative pipeline's configuration, a flow's
// spark_conf) names another LogStore for S3 than S3SingleDriverLogStore,
// such as Delta's multi-cluster S3DynamoDBLogStore: its writers exclude
// each other through a DynamoDB table the workbench never reads, so a
// workbench commit made inside one of theirs takes the version, and then
// Spark's copy of its commit replaces the workbench's, or fails and Spark's
// commit is lost, both reported done (TestInteropSparkDynamoDBLogStore).
// Whether the deployed pipeline writes the very objects the workbench
// writes cannot be seen from here: a warning.
func (c *checker) bucketLogStores() {
	if !c.snap.Layout.RemoteLake() {
		return
	}
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			var set []string
			for _, k := range sparkLogStoreKeys {
				if v := strings.TrimSpace(n.SparkConf[k]); v != "" && v != safeLogStore && !strings.HasSuffix(v, ".S3SingleDriverLogStore") {
					set = append(set, k+"="+v)
				}
			}
			if len(set) == 0 {
				continue
			}
			slices.Sort(set)
			for _, sk := range n.Sinks {
				if sk.Kind != workspace.SinkTable || sk.Table == "" || sk.IsView() {
					continue
				}
				c.add(sk.Pos, Warning, CodeBucketLogStore,
					fmt.Sprintf("node '%s' of pipeline '%s' writes %s in the bucket lake %s, and its Spark configuration sets %s: "+
						"that LogStore's writers exclude each other through its own store (a DynamoDB table), which the workbench and delta-rs never read; "+
						"a workbench commit made during one of its commits is overwritten by Spark's, or makes Spark's commit vanish, both reported done",
						n.Name, p.Name, sk.Describe(), c.snap.Layout.Lake, list(set)),
					"never let that cluster and the workbench write the table at the same moment (docs/object-storage.md, which writers may write one table at once)")
				break
			}
		}
	}
}
