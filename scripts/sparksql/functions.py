"""Prints the names of Spark's built-in SQL functions (operators excluded),
one per line, for runner/sparksql/spark_functions.txt:

    functions.py > runner/sparksql/spark_functions.txt
"""
import re

from pyspark.sql import SparkSession

spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
spark.sparkContext.setLogLevel("OFF")
names = sorted({r[0].split(".")[-1] for r in spark.sql("SHOW SYSTEM FUNCTIONS").collect()})
print("# Spark %s built-in functions (scripts/sparksql/functions.py)" % spark.version)
for n in names:
    if re.fullmatch(r"[a-z_][a-z0-9_]*", n):
        print(n)
