package validate_test

import (
	"testing"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestBucketLogStores: with the lake in a bucket, a node writing a table
// there whose deployed Spark configuration names another Delta LogStore
// for S3 than S3SingleDriverLogStore is warned of at its sink (LK233);
// the default LogStore, a local lake or a node without a table sink is
// not.
func TestBucketLogStores(t *testing.T) {
	pipeline := func(conf string) string {
		return `name: pl
orchestrator:
  type: LAKEFLOW_JOB
  job_clusters:
  - job_cluster_key: node-cluster
    new_cluster:
      spark_conf: {` + conf + `}
nodes:
- name: n
  source:
    table_name: src
  sinks:
  - table_name: out
`
	}
	const dynamo = "spark.delta.logStore.s3a.impl: io.delta.storage.S3DynamoDBLogStore, spark.io.delta.storage.S3DynamoDBLogStore.ddb.tableName: delta_log"
	tests := []struct {
		name, lake, conf string
		want             []workspacetest.Want
	}{
		{name: "DynamoDB LogStore, bucket lake", lake: "s3://team-bucket/lake", conf: dynamo,
			want: []workspacetest.Want{workspacetest.D("pl.yaml", 13, 0, validate.CodeBucketLogStore,
				"sets spark.delta.logStore.s3a.impl=io.delta.storage.S3DynamoDBLogStore")}},
		{name: "any path's LogStore class, bucket lake", lake: "s3://team-bucket/lake", conf: "spark.delta.logStore.class: io.delta.storage.S3DynamoDBLogStore",
			want: []workspacetest.Want{workspacetest.D("pl.yaml", 13, 0, validate.CodeBucketLogStore, "makes Spark's commit vanish")}},
		{name: "default LogStore, bucket lake", lake: "s3://team-bucket/lake", conf: "spark.delta.logStore.s3a.impl: io.delta.storage.S3SingleDriverLogStore"},
		{name: "DynamoDB LogStore, local lake", lake: "lake", conf: dynamo},
		{name: "no LogStore, bucket lake", lake: "s3://team-bucket/lake", conf: "spark.sql.session.timeZone: UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{
				workspace.ConfigFileName: "lake: " + tt.lake + "\n",
				"pl.yaml":                pipeline(tt.conf),
			}, workspace.Options{})
			var ds []workspace.Diagnostic
			for _, d := range validate.Check(s, validate.Options{}) {
				if d.Code == validate.CodeBucketLogStore {
					ds = append(ds, d)
				}
			}
			workspacetest.Expect(t, s, ds, tt.want)
		})
	}
}
