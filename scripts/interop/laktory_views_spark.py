#!/usr/bin/env python3
"""Run Laktory 0.13.1's VIEW sinks and streaming COMPLETE mode on Spark 4.2
with Delta 4.4, and record what they leave, for TestViewsLaktoryParity.

    laktory_views_spark.py OUT.json

Needs the Spark interop Python (scripts/interop/requirements-spark.txt:
pyspark, delta-spark, laktory) and Java 17+; fetches the Delta jars on first
use. About two minutes. Scenarios, over a Delta table src (k string, v
bigint) of rows a-0..a-3:
  - view: node t copies src to table orders; node v is a VIEW over it
    ({df} of a node source with a filter to_sql leaves out); node d reads v.
    Recorded: the view's text in Spark's catalog, its columns and rows, d's
    rows. Then a RESET with reset_mode DROP of v: whether the view and
    orders exist after it.
  - the run-time failures of view nodes: a VIEW and a TABLE sink on one node,
    a VIEW over a node source with a file sink, a VIEW over {nodes.x} of a
    node with a file sink (the error's first line).
  - complete: a streaming GROUP BY over src in COMPLETE mode, run, then
    rows a-4 and b-5 appended, run again: the table's rows after each run;
    and COMPLETE without an aggregation (the error's first line).
Test-only: the product never runs Python or Spark.
"""

import io
import json
import os
import shutil
import sys
import tempfile
import warnings

import local_spark

warnings.simplefilter("ignore")


def start(work):
    return local_spark.start(work, "laktory-views")


def main(out):
    work = tempfile.mkdtemp(prefix="laktory-views-")
    os.chdir(work)
    spark = start(work)
    import laktory as lk
    lk._spark = spark

    def run(yaml, **kw):
        try:
            lk.models.Pipeline.model_validate_yaml(io.StringIO(yaml)).execute(**kw)
            return ""
        except Exception as e:  # the failure is what is recorded
            return f"{type(e).__name__}: " + str(e).splitlines()[0]

    rows = lambda q: sorted([list(r) for r in spark.sql(q).collect()], key=json.dumps)
    res = {"laktory": lk.__version__, "errors": {}}
    spark.sql("CREATE OR REPLACE TABLE src (k STRING, v BIGINT) USING DELTA")
    spark.sql("INSERT INTO src VALUES ('a-0', 0), ('a-1', 1), ('a-2', 2), ('a-3', 3)")
    res["view_run"] = run("""
name: pl
root_path: %s/root
nodes:
- name: t
  sources: [{table_name: src}]
  sinks: [{table_name: orders, mode: OVERWRITE}]
- name: v
  sources: [{node_name: t, filter: "v > 100"}]
  transformer: {nodes: [{expr: "SELECT k, v * 2 AS v2 FROM {df} WHERE v > 0"}]}
  sinks: [{table_name: orders_v, table_type: VIEW}]
- name: d
  sources: [{node_name: v}]
  sinks: [{table_name: d, mode: OVERWRITE}]
""" % work)
    info = {r[0]: r[1] for r in spark.sql("DESCRIBE TABLE EXTENDED orders_v").collect()}
    res["view_text"] = info.get("View Text")
    res["view_columns"] = [list(c) for c in spark.table("orders_v").dtypes]
    res["view_rows"] = rows("SELECT * FROM orders_v")
    res["d_rows"] = rows("SELECT * FROM d")
    res["reset_run"] = run("""
name: pl
root_path: %s/root
nodes:
- name: v
  sources: [{table_name: orders}]
  transformer: {nodes: [{expr: "SELECT k FROM {df}"}]}
  sinks: [{table_name: orders_v, table_type: VIEW}]
""" % work, refresh="RESET", reset_mode="DROP")
    res["after_reset"] = {"view": spark.catalog.tableExists("orders_v"), "table": spark.catalog.tableExists("orders")}
    res["errors"]["view_and_table_sinks"] = run("""
name: pl
nodes:
- name: v
  sources: [{table_name: src}]
  transformer: {nodes: [{expr: "SELECT k FROM {df}"}]}
  sinks: [{table_name: v2, table_type: VIEW}, {table_name: t2}]
""")
    res["errors"]["view_over_file_sink_node"] = run("""
name: pl
nodes:
- name: a
  sources: [{table_name: src}]
  sinks: [{path: %s/out_a, format: PARQUET, mode: OVERWRITE}]
- name: v
  sources: [{node_name: a}]
  transformer: {nodes: [{expr: "SELECT k FROM {df}"}]}
  sinks: [{table_name: v3, table_type: VIEW}]
""" % work)
    res["errors"]["view_over_file_sink_ref"] = run("""
name: pl
nodes:
- name: a
  sources: [{table_name: src}]
  sinks: [{path: %s/out_b, format: PARQUET, mode: OVERWRITE}]
- name: v
  sources: [{table_name: src}]
  transformer: {nodes: [{expr: "SELECT k FROM {df} JOIN {nodes.a} USING (k)"}]}
  sinks: [{table_name: v4, table_type: VIEW}]
""" % work)
    complete = """
name: pl
root_path: %s/root
nodes:
- name: agg
  sources: [{table_name: src, as_stream: true}]
  transformer: {nodes: [{expr: "SELECT substr(k, 1, 1) AS g, count(*) AS n, sum(v) AS s FROM {df} GROUP BY 1"}]}
  sinks: [{table_name: totals, mode: COMPLETE}]
""" % work
    res["complete_runs"] = [run(complete)]
    res["complete_rows"] = [rows("SELECT * FROM totals")]
    spark.sql("INSERT INTO src VALUES ('a-4', 4), ('b-5', 5)")
    res["complete_runs"].append(run(complete))
    res["complete_rows"].append(rows("SELECT * FROM totals"))
    res["complete_modes"] = sorted(r.operationParameters.get("outputMode") or "" for r in spark.sql("DESCRIBE HISTORY totals").collect())
    res["errors"]["complete_without_aggregation"] = run("""
name: pl
root_path: %s/root
nodes:
- name: raw
  sources: [{table_name: src, as_stream: true}]
  sinks: [{table_name: raw, mode: COMPLETE}]
""" % work)
    spark.stop()
    with open(out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]))
