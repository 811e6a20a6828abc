"""A local Spark 4.2 + Delta 4.4 session for the recording scripts of
scripts/interop (the Laktory-on-Spark corpora, the conflict rules): two
cores, 1 GB, loopback only, UTC, its warehouse and Derby home in the
script's work folder. Test-only: the product never runs Python or Spark.
"""

import os


def start(work, app, shuffle_partitions=2):
    from delta import configure_spark_with_delta_pip
    from pyspark.sql import SparkSession
    b = (SparkSession.builder.master("local[2]").appName(app)
         .config("spark.driver.memory", "1g").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", str(shuffle_partitions))
         .config("spark.sql.warehouse.dir", os.path.join(work, "wh"))
         .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + os.path.join(work, "derby"))
         .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
         .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog"))
    spark = configure_spark_with_delta_pip(b).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
