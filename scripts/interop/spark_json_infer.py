#!/usr/bin/env python3
"""Record how Spark 4.2 types JSON lines whose shape changes after the rows
DuckDB samples (20,480), for TestJSONInferWholeFile.

    spark_json_infer.py OUT.json

Writes the files of runner/testdata/json-infer/cases.json (each case: rows
given by a rule, see rows()) to a temporary folder, reads each with
spark.read.json(path) (no schema: Spark's inference reads every row, as
samplingRatio's default 1.0 says), and records the inferred schema (its
simpleString) and a few aggregates of the values. Needs pyspark
(scripts/interop/requirements-spark.txt) and Java 17+.
Test-only: the product never runs Python or Spark.
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "..", "..", "runner", "testdata", "json-infer", "cases.json")


def rows(case):
    """The rows of a case: `rows` rows; row i (from 0) is `early` until
    `change_at`, `late` from there, with {i} in a string replaced by i and a
    value "i" or "i+0.5" by that number."""
    def fill(v, i):
        if isinstance(v, dict):
            return {k: fill(x, i) for k, x in v.items()}
        if v == "i":
            return i
        if v == "i+0.5":
            return i + 0.5
        if isinstance(v, str):
            return v.replace("{i}", str(i))
        return v
    for i in range(case["rows"]):
        yield fill(case["early"] if i < case["change_at"] else case["late"], i)


def main(out):
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[1]").appName("json-infer")
             .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.session.timeZone", "UTC")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    cases = json.load(open(CASES))
    res = {}
    with tempfile.TemporaryDirectory() as d:
        for name, case in cases.items():
            p = os.path.join(d, name + ".jsonl")
            with open(p, "w") as f:
                for r in rows(case):
                    f.write(json.dumps(r) + "\n")
            df = spark.read.json(p)
            df.createOrReplaceTempView("t")
            aggs = {k: spark.sql(q).collect()[0][0] for k, q in case["aggregates"].items()}
            res[name] = {"schema": df.schema.simpleString(),
                         "aggregates": {k: (str(v) if v is not None else None) for k, v in aggs.items()}}
    with open(out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
