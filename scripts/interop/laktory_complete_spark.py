#!/usr/bin/env python3
"""Run the COMPLETE-mode corpus (runner/testdata/complete) with Laktory 0.13.1
on Spark 4.2 with Delta 4.4, and record Spark's verdict on each query, for
TestCompleteModeCorpus (LK168).

    laktory_complete_spark.py [--missing] CORPUS.json...

Needs the Spark interop Python (scripts/interop/requirements-spark.txt:
pyspark, delta-spark, laktory) and Java 17+; fetches the Delta jars on first
use. A few minutes. Each case is one pipeline of one node: it streams the
Delta table src (id bigint, k string, v bigint, ts timestamp) as {df}, with
{sources.dim} (the batch table dim: k string, label string, w bigint) and
{sources.s2} (a stream of table s2, src's columns) as named sources when the
SQL names them; its transformer is the case's SQL steps; its sink a Delta
table in the case's mode (COMPLETE unless it says; MERGE by k). Recorded per case: "" when the run wrote its table,
else the error's class and first line; and the names of Spark's aggregate
functions (the function registry's group agg_funcs). The verdicts of
DIR/X.json go to DIR/laktory_spark_X.json, rewritten after each case (a run
cut short keeps what it recorded); with --missing, only the cases without a
verdict there are run. All corpora share one Spark session.
Test-only: the product never runs Python or Spark.
"""

import io
import json
import os
import shutil
import sys
import tempfile
import warnings

import yaml

import local_spark

warnings.simplefilter("ignore")


def start(work):
    return local_spark.start(work, "laktory-complete")


def pipeline(case, work):
    """The case's pipeline, as TestCompleteModeCorpus writes it."""
    text = "\n".join(case["steps"])
    sources = [{"table_name": "src", "as_stream": True}]
    if "{sources.dim}" in text:
        sources.append({"name": "dim", "table_name": "dim"})
    if "{sources.s2}" in text:
        sources.append({"name": "s2", "table_name": "s2", "as_stream": True})
    sink = {"table_name": "out_" + case["name"], "mode": case.get("mode", "COMPLETE")}
    if sink["mode"] == "MERGE":
        sink["merge_cdc_options"] = {"primary_keys": ["k"]}
    node = {"name": "n", "sources": sources, "sinks": [sink]}
    if case["steps"]:
        node["transformer"] = {"nodes": [{"expr": s} for s in case["steps"]]}
    return {"name": "pl-" + case["name"].replace("_", "-"),
            "root_path": os.path.join(work, "root", case["name"]), "nodes": [node]}


def aggregates(spark):
    """The names of Spark's built-in aggregate functions (group agg_funcs of
    the function registry): a call of one makes an Aggregate."""
    reg = spark._jsparkSession.sessionState().functionRegistry()
    ids = reg.listFunction()
    names = []
    for i in range(ids.size()):
        fid = ids.apply(i)
        info = reg.lookupFunction(fid)
        if info.isDefined() and info.get().getGroup() == "agg_funcs":
            names.append(fid.funcName())
    return sorted(set(names))


def verdicts_path(corpus):
    d, base = os.path.split(corpus)
    return os.path.join(d, "laktory_spark_" + base)


def save(path, res):
    with open(path + ".tmp", "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)


def main(corpora, missing):
    work = tempfile.mkdtemp(prefix="laktory-complete-")
    os.chdir(work)
    spark = start(work)
    import laktory as lk
    lk._spark = spark
    spark.sql("CREATE TABLE src (id BIGINT, k STRING, v BIGINT, ts TIMESTAMP) USING DELTA")
    spark.sql("""INSERT INTO src VALUES (1, 'a', 1, TIMESTAMP '2024-01-01 00:10:00'),
        (2, 'a', 2, TIMESTAMP '2024-01-01 00:20:00'), (3, 'b', 3, TIMESTAMP '2024-01-01 01:10:00')""")
    spark.sql("CREATE TABLE s2 USING DELTA AS SELECT * FROM src")
    spark.sql("CREATE TABLE dim (k STRING, label STRING, w BIGINT) USING DELTA")
    spark.sql("INSERT INTO dim VALUES ('a', 'A', 1), ('b', 'B', 3)")
    aggs = aggregates(spark)
    for path in corpora:
        out = verdicts_path(path)
        res = {"cases": {}}
        if os.path.exists(out):
            with open(out) as f:
                res = json.load(f)
        res["laktory"], res["spark"], res["aggregates"] = lk.__version__, spark.version, aggs
        with open(path) as f:
            cases = json.load(f)["cases"]
        for case in cases:
            if missing and case["name"] in res["cases"]:
                continue
            doc = yaml.safe_dump(pipeline(case, work))
            try:
                lk.models.Pipeline.model_validate_yaml(io.StringIO(doc)).execute()
                got = ""
            except Exception as e:  # the failure is what is recorded
                got = f"{type(e).__name__}: " + (str(e).strip().splitlines() or [""])[0]
            res["cases"][case["name"]] = got
            print(case["name"], got or "ok", flush=True)
            save(out, res)
        save(out, res)
    spark.stop()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    missing = "--missing" in args
    main([os.path.abspath(p) for p in args if p != "--missing"], missing)
