"""Appends N commits of 10 rows (id from START, w = 'spark') to a Delta table
in a bucket with Spark 4.2 + Delta 4.4 through s3a, with Delta's LogStore
for s3a chosen by LOGSTORE: 'dynamodb' (S3DynamoDBLogStore, multi-cluster)
or 'single' (S3SingleDriverLogStore, the default), for the opt-in test of
concurrent writers on S3 (TestInteropSparkDynamoDBLogStore). The AWS_*
environment points s3a at the server; DELTA_DYNAMODB_JARS lists the jars of
io.delta:delta-storage-s3-dynamodb:4.4.0 and the AWS SDK v1 DynamoDB client
it needs (com.amazonaws:aws-java-sdk-dynamodb), and the JVM property
laktory.test.ddb.endpoint names the DynamoDB endpoint for a client that
reads it (S3DynamoDBLogStore's own client has no endpoint setting: see the
test). S3A_CREATE_PERFORMANCE and S3A_CREATE_CONDITIONAL set s3a's
fs.s3a.create.performance and fs.s3a.create.conditional.enabled (false
unless given). Prints one JSON line when ready, then one per commit."""
import json, os, sys, time
from pyspark.sql import SparkSession

uri, start, n, logstore = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ep = os.environ["AWS_ENDPOINT_URL"]
b = (SparkSession.builder.master("local[1]")
     .config("spark.jars.packages", "io.delta:delta-spark_4.2_2.13:4.4.0,org.apache.hadoop:hadoop-aws:3.5.0")
     .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
     .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")
     .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
     .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
     .config("spark.hadoop.fs.s3a.endpoint", ep)
     .config("spark.hadoop.fs.s3a.path.style.access", "true")
     .config("spark.hadoop.fs.s3a.connection.ssl.enabled", "false")
     .config("spark.hadoop.fs.s3a.endpoint.region", os.environ.get("AWS_REGION", "us-east-1"))
     .config("spark.hadoop.fs.s3a.access.key", os.environ["AWS_ACCESS_KEY_ID"])
     .config("spark.hadoop.fs.s3a.secret.key", os.environ["AWS_SECRET_ACCESS_KEY"])
     .config("spark.hadoop.fs.s3a.create.performance", os.environ.get("S3A_CREATE_PERFORMANCE", "false"))
     .config("spark.hadoop.fs.s3a.create.conditional.enabled", os.environ.get("S3A_CREATE_CONDITIONAL", "false")))
if logstore == "dynamodb":
    b = (b.config("spark.jars", os.environ["DELTA_DYNAMODB_JARS"])
         .config("spark.delta.logStore.s3a.impl", "io.delta.storage.S3DynamoDBLogStore")
         .config("spark.io.delta.storage.S3DynamoDBLogStore.ddb.tableName", os.environ.get("DDB_TABLE", "delta_log"))
         .config("spark.io.delta.storage.S3DynamoDBLogStore.ddb.region", os.environ.get("AWS_REGION", "us-east-1"))
         .config("spark.driver.extraJavaOptions", "-Dlaktory.test.ddb.endpoint=" + ep))
spark = b.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
path = uri.replace("s3://", "s3a://", 1)
print(json.dumps({"ready": True}), flush=True)
for i in range(n):
    lo = start + 10 * i
    df = spark.range(lo, lo + 10).selectExpr("id", "'spark' AS w")
    t0 = time.time()
    try:
        df.write.format("delta").mode("append").save(path)
        print(json.dumps({"commit": i, "from": lo, "s": round(time.time() - t0, 3)}), flush=True)
    except Exception as e:
        print(json.dumps({"commit": i, "from": lo, "error": str(e)[:300]}), flush=True)
spark.stop()
