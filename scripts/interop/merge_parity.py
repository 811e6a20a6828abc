"""MERGE parity: Laktory 0.13.1 on Spark is the reference of laktory's MERGE sinks.

For every scenario of runner/testdata/merge (a pipeline with one MERGE sink
and a CDC feed of several batches), this runs the pipeline through
Laktory's PySpark backend (Pipeline.execute on Spark 4.2 + Delta 4.4), one
run per batch (a streaming scenario appends two batches to its Delta
landing table per run), and writes what the target table holds after each
run, with the operations of the commits the run added, to
<scenario>/expected.json. The Go test TestMergeParity runs the same
pipelines through laktory and compares row for row.

With --check DIR, it instead reads with Spark the tables laktory wrote
(DIR/<scenario>, kept by TestMergeParity with LAKTORY_MERGE_PARITY_KEEP)
and compares them with the expected rows.

Values are compared as text: integers, decimals (with their scale) and
strings as they are, doubles as Python's repr (DuckDB prints the same
shortest form), booleans true/false, dates YYYY-MM-DD, timestamps
YYYY-MM-DD HH:MM:SS[.ffffff] in UTC without trailing zeros, lists
[a, NULL, b], NULL as null.
"""

import argparse
import datetime
import decimal
import io
import json
import os
import shutil
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "runner", "testdata", "merge")

# --- the feeds: batches of CDC rows -------------------------------------

MAIN_SCHEMA = "id BIGINT, v STRING, seq BIGINT, op STRING, note STRING"
MAIN = [
    # Inserts; key 1 twice in the batch; a NULL key; a NULL value; a NULL
    # order_by (key 6).
    [(1, "a", 1, "I", "n1"), (2, "b", 1, "I", None), (3, "c", 1, "I", "n3"), (1, "a2", 2, "U", "n1b"),
     (4, "d", 1, "I", "n4"), (None, "nk", 1, "I", None), (5, None, 1, "I", "n5"), (6, "f", None, "I", "n6")],
    # Updates; out of order (key 1, seq 1 < 2); a delete (3) and the delete
    # of an absent key (99); an insert (7); an update bringing NULL (5); two
    # updates of key 4; the NULL key again.
    [(2, "b2", 3, "U", None), (3, None, 2, "D", None), (99, None, 5, "D", None), (7, "g", 1, "I", "n7"),
     (1, "a_old", 1, "U", "old"), (5, None, 2, "U", "n5b"), (None, "nk2", 2, "U", None),
     (4, "d2", 2, "U", "n4b"), (4, "d3", 3, "U", "n4c")],
    # A deleted key comes back (3); a late change (2: seq 2 < 3); key 6,
    # whose order_by is NULL in the table; a change already in the history
    # (4, as in the first batch); a delete (7).
    [(3, "c2", 3, "I", "n3b"), (2, "b_late", 2, "U", None), (6, "f2", 1, "U", "n6b"), (4, "d", 1, "I", "n4"),
     (7, None, 2, "D", None)],
]
MAIN.append(MAIN[1])  # the second batch replayed

# No key twice in a batch (without order_by, Spark keeps any one of them).
DISTINCT = [
    [(1, "a", 1, "I", None), (2, "b", 1, "I", None), (3, "c", 1, "I", None), (None, "nk", 1, "I", None)],
    [(1, "a2", 2, "U", None), (3, None, 2, "D", None), (4, "d", 1, "I", None), (2, None, 2, "U", None)],
    [(1, "a3", 0, "U", None), (3, "c2", 3, "I", None)],
]
DISTINCT.append(DISTINCT[1])

COMPOSITE_SCHEMA = "id BIGINT, region STRING, v STRING, seq BIGINT"
COMPOSITE = [
    [(1, "eu", "a", 1), (1, "us", "b", 1), (2, "eu", "c", 1), (None, "eu", "n", 1), (1, None, "m", 1)],
    [(1, "eu", "a2", 2), (1, "us", "b0", 0), (2, "eu", "c2", 2), (None, "eu", "n2", 2), (1, None, "m2", 2)],
    [(2, "us", "d", 1), (1, "eu", "a2", 2)],
]

TYPED_SCHEMA = ("id BIGINT, ts TIMESTAMP, amount DOUBLE, price DECIMAL(10,2), day DATE, flag BOOLEAN, "
                "tags ARRAY<STRING>, n INT, label STRING")


def _ts(s):
    return datetime.datetime.fromisoformat(s).replace(tzinfo=datetime.timezone.utc)


D = decimal.Decimal
TYPED = [
    [(1, _ts("2024-01-01 00:00:00"), 1.0, D("1.50"), datetime.date(2024, 1, 1), True, ["a", None], 5, "x"),
     (2, _ts("2024-01-01 00:00:00.5"), 1e7, D("0.00"), datetime.date(2024, 1, 2), False, [], None, None),
     (1, _ts("2024-01-02 10:00:00.120"), 0.1 + 0.2, D("-0.50"), None, None, None, 7, "y")],
    [(1, _ts("2024-01-03 00:00:00"), 123456789.123, None, datetime.date(1999, 12, 31), True, ["b"], 1, "z"),
     (2, _ts("2024-01-01 00:00:00.123456"), 1e-4, D("12345678.90"), None, True, ["c", "d"], 2, None),
     (3, _ts("2024-01-05 00:00:00"), float("nan"), D("1.00"), datetime.date(2024, 1, 5), False, None, 3, "w")],
    [(2, _ts("2024-01-01 00:00:00.5"), 1e7, D("0.00"), datetime.date(2024, 1, 2), False, [], None, None),
     (3, _ts("2024-01-04 00:00:00"), 1e20, D("2.00"), None, None, ["e"], 4, "late")],
]

FEEDS = {
    "main": (MAIN_SCHEMA, MAIN),
    "distinct": (MAIN_SCHEMA, DISTINCT),
    "composite": (COMPOSITE_SCHEMA, COMPOSITE),
    "typed": (TYPED_SCHEMA, TYPED),
}

# --- the scenarios ------------------------------------------------------

DEL = "op = 'D'"
SCENARIOS = {
    "scd1": ("main", {"primary_keys": ["id"], "order_by": "seq", "delete_where": DEL}),
    "scd1_ignore_null_updates": ("main", {"primary_keys": ["id"], "order_by": "seq", "delete_where": DEL, "ignore_null_updates": True}),
    "scd1_null_equals_null": ("main", {"primary_keys": ["id"], "order_by": "seq", "delete_where": DEL, "null_equals_null": True}),
    "scd1_include_columns": ("main", {"primary_keys": ["id"], "order_by": "seq", "delete_where": DEL, "include_columns": ["v", "seq", "op"]}),
    "scd1_exclude_columns": ("main", {"primary_keys": ["id"], "order_by": "seq", "delete_where": DEL, "exclude_columns": ["note"]}),
    "scd1_no_order_by": ("distinct", {"primary_keys": ["id"], "delete_where": DEL}),
    "scd1_composite_keys": ("composite", {"primary_keys": ["id", "region"], "order_by": "seq"}),
    "scd1_typed": ("typed", {"primary_keys": ["id"], "order_by": "ts"}),
    "scd1_stream": ("main", {"primary_keys": ["id"], "order_by": "seq", "delete_where": DEL}),
    "scd2": ("main", {"primary_keys": ["id"], "order_by": "seq", "scd_type": 2, "delete_where": DEL}),
    "scd2_null_equals_null": ("main", {"primary_keys": ["id"], "order_by": "seq", "scd_type": 2, "delete_where": DEL, "null_equals_null": True}),
    "scd2_columns": ("main", {"primary_keys": ["id"], "order_by": "seq", "scd_type": 2, "delete_where": DEL, "exclude_columns": ["note"],
                              "ignore_null_updates": True, "start_at_column_name": "valid_from", "end_at_column_name": "valid_to"}),
    "scd2_composite_keys": ("composite", {"primary_keys": ["id", "region"], "order_by": "seq", "scd_type": 2}),
    "scd2_typed": ("typed", {"primary_keys": ["id"], "order_by": "ts", "scd_type": 2}),
    "scd2_stream": ("main", {"primary_keys": ["id"], "order_by": "seq", "scd_type": 2, "delete_where": DEL}),
}


def is_stream(name):
    return name.endswith("_stream")


def pipeline_yaml(name, options):
    """The pipeline of a scenario: its node reads the landing folder (a
    parquet file per batch run; a Delta table, streamed, for _stream
    scenarios) and MERGEs into ../lake/target."""
    src = "  - path: ../landing/changes.parquet\n    format: PARQUET\n"
    sink = "  - path: ../lake/target\n    format: DELTA\n    mode: MERGE\n"
    if is_stream(name):
        src = "  - path: ../landing/changes\n    format: DELTA\n    as_stream: true\n    reader_kwargs: {maxFilesPerTrigger: 1}\n"
        sink += "    checkpoint_path: ../checkpoints/target\n"
    opts = "".join("      %s: %s\n" % (k, json.dumps(v)) for k, v in options.items())
    return ("name: %s\ndataframe_backend: PYSPARK\nnodes:\n- name: target\n  sources:\n%s  sinks:\n%s    merge_cdc_options:\n%s"
            % (name.replace("_", "-"), src, sink, opts))


def runs(name, feed):
    """The batches each run sees: one per run, or two per run for a
    streaming scenario."""
    n = len(FEEDS[feed][1])
    if is_stream(name):
        return [list(range(i, min(i + 2, n))) for i in range(0, n, 2)]
    return [[i] for i in range(n)]


# --- Spark --------------------------------------------------------------

def spark_session(work):
    from delta import configure_spark_with_delta_pip
    from pyspark.sql import SparkSession
    b = (SparkSession.builder.master("local[2]").appName("laktory-merge-parity")
         .config("spark.driver.memory", "2g")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.default.parallelism", "2")
         .config("spark.databricks.delta.snapshotPartitions", "2")
         .config("spark.sql.warehouse.dir", os.path.join(work, "spark-warehouse"))
         .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + os.path.join(work, "derby") + " -Duser.timezone=UTC")
         .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
         .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog"))
    spark = configure_spark_with_delta_pip(b).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def write_feeds(spark):
    """Writes each batch of each feed as one parquet file (kept: the Go test
    reads the same files)."""
    for feed, (schema, batches) in FEEDS.items():
        d = os.path.join(DATA, "feeds", feed)
        os.makedirs(d, exist_ok=True)
        for i, rows in enumerate(batches):
            dst = os.path.join(d, "batch_%d.parquet" % i)
            if os.path.exists(dst):
                continue
            tmp = tempfile.mkdtemp()
            spark.createDataFrame(rows, schema).coalesce(1).write.mode("overwrite").parquet(os.path.join(tmp, "p"))
            part = [f for f in os.listdir(os.path.join(tmp, "p")) if f.endswith(".parquet")][0]
            shutil.copy(os.path.join(tmp, "p", part), dst)
            shutil.rmtree(tmp)


def canon(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc)
        s = v.strftime("%Y-%m-%d %H:%M:%S")
        if v.microsecond:
            s += ("." + "%06d" % v.microsecond).rstrip("0")
        return s
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join("NULL" if x is None else canon(x) for x in v) + "]"
    return str(v)


def table_rows(spark, path):
    df = spark.read.format("delta").load(path)
    rows = sorted(([canon(x) for x in r] for r in df.collect()), key=json.dumps)
    return df.columns, rows


def operations(path, since):
    """The operations of the commits after version since."""
    log = os.path.join(path, "_delta_log")
    ops = []
    for f in sorted(os.listdir(log)):
        if not f.endswith(".json") or int(f.split(".")[0]) <= since:
            continue
        for line in open(os.path.join(log, f)):
            a = json.loads(line)
            if "commitInfo" in a:
                ops.append(a["commitInfo"]["operation"])
    return ops


def latest_version(path):
    log = os.path.join(path, "_delta_log")
    if not os.path.isdir(log):
        return -1
    return max([int(f.split(".")[0]) for f in os.listdir(log) if f.endswith(".json")] or [-1])


def land(spark, ws, name, feed, batch):
    src = os.path.join(DATA, "feeds", feed, "batch_%d.parquet" % batch)
    landing = os.path.join(ws, "landing")
    os.makedirs(landing, exist_ok=True)
    if is_stream(name):
        # One commit, one file, per batch: one micro-batch each.
        spark.read.parquet(src).coalesce(1).write.format("delta").mode("append").save(os.path.join(landing, "changes"))
    else:
        shutil.copy(src, os.path.join(landing, "changes.parquet"))


def run_scenario(spark, name, work):
    from laktory import models
    feed, options = SCENARIOS[name]
    ws = os.path.join(work, name)
    shutil.rmtree(ws, ignore_errors=True)
    os.makedirs(os.path.join(ws, "pipelines"))
    yaml = pipeline_yaml(name, options)
    with open(os.path.join(ws, "pipelines", "pl.yaml"), "w") as f:
        f.write(yaml)
    target = os.path.join(ws, "lake", "target")
    out = {"pipeline": "pl.yaml", "feed": feed, "runs": []}
    for batches in runs(name, feed):
        for b in batches:
            land(spark, ws, name, feed, b)
        before = latest_version(target)
        run = {"batches": batches}
        try:
            # Spark resolves relative paths against the JVM's working
            # folder, not the pipeline's: the same pipeline with the
            # paths made absolute.
            pl = models.Pipeline.model_validate_yaml(io.StringIO(yaml.replace("../", ws + "/")))
            pl.execute()
        except Exception as e:  # noqa: BLE001 - the error is the expected outcome
            run["error"] = str(e).splitlines()[0][:300]
        run["operations"] = operations(target, before) if os.path.isdir(target) else []
        if os.path.isdir(target):
            run["columns"], run["rows"] = table_rows(spark, target)
        out["runs"].append(run)
    return yaml, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--check", default="", help="compare laktory's tables kept in this folder with the expectations")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    spark = spark_session(args.work)
    names = [n for n in SCENARIOS if n.startswith(args.only)]
    failed = 0
    if args.check:
        for name in names:
            exp = json.load(open(os.path.join(DATA, name, "expected.json")))
            last = exp["runs"][-1]
            try:
                cols, rows = table_rows(spark, os.path.join(args.check, name, "lake", "target"))
                ok = cols == last["columns"] and rows == last["rows"]
            except Exception as e:  # noqa: BLE001
                ok, cols, rows = False, str(e).splitlines()[0], []
            print("%s spark reads %s" % ("PASS" if ok else "FAIL", name), flush=True)
            if not ok:
                failed += 1
                print("  got  %s %s\n  want %s %s" % (cols, rows, last["columns"], last["rows"]), flush=True)
        print("%d passed, %d failed" % (len(names) - failed, failed))
        return 1 if failed else 0
    write_feeds(spark)
    for name in names:
        try:
            yaml, out = run_scenario(spark, name, args.work)
        except Exception:  # noqa: BLE001
            failed += 1
            print("FAIL %s\n%s" % (name, traceback.format_exc()), flush=True)
            continue
        d = os.path.join(DATA, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "pl.yaml"), "w") as f:
            f.write(yaml)
        with open(os.path.join(d, "expected.json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        print("DONE %s: %s" % (name, ", ".join("%s" % (r.get("error") or r["operations"]) for r in out["runs"])), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
