"""Checks that Apache Spark (with Delta Lake) and laktory read and write each
other's Delta tables and streaming checkpoints.

Run it through spark_check.sh, which builds the binaries and the venv:

    spark_check.py --laktory BIN --deltaop BIN --work DIR [--only a,b] [--list]

Every check prints one line, "PASS <name> (<seconds>s)" or "FAIL <name>:
<why>", and the script ends with "N passed, M failed" (exit 1 on a failure).

  ours_*    tables written by laktory (the CLI on the demo workspace, and the
            deltaop helper for the other tables), read by Spark: rows per
            writer, every row against `laktory table scan --format jsonl`,
            schema, partition columns, DESCRIBE HISTORY, time travel, and a
            read from our checkpoint alone;
  spark_*   tables written by Spark, read by laktory, then deleted from and
            appended to by laktory, and read back by Spark identically;
  stream_*  Spark Structured Streaming checkpoints imported by a declarative
            flow (import_checkpoint), and Spark resuming from ours;
  concurrent_* Spark appending while laktory refreshes another writer.
"""
import argparse
import base64
import collections
import datetime as dt
import decimal
import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
import traceback

os.environ["TZ"] = "UTC"  # PySpark renders timestamps in the process's zone
time.tzset()

ARGS = None
SPARK = None
CHECKS = []


def check(fn):
    """Registers a check, run in the order of definition."""
    CHECKS.append(fn)
    return fn


class CheckFailed(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise CheckFailed(msg)


# ---------------------------------------------------------------- helpers


def run(cmd, cwd=None, ok=(0,), env=None):
    """Runs a command; returns its stdout; fails the check with its output."""
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    if p.returncode not in ok:
        raise CheckFailed("%s exited %d:\n%s%s" % (" ".join(map(str, cmd)), p.returncode, p.stdout[-3000:], p.stderr[-3000:]))
    return p.stdout


def lk(*args, cwd=None, ok=(0,)):
    return run([ARGS.laktory, *map(str, args)], cwd=cwd, ok=ok)


def deltaop(*args):
    return json.loads(run([ARGS.deltaop, *map(str, args)]))


def work(*parts):
    return os.path.join(ARGS.work, *parts)


def our_rows(path, version=None):
    args = ["table", "scan", path, "--format", "jsonl", "--limit", "0"]
    if version is not None:
        args += ["--version", str(version)]
    return [json.loads(line) for line in lk(*args).splitlines() if line.strip()]


def our_describe(path, version=None):
    """`laktory table describe --json`, with the Delta schema parsed."""
    args = ["table", "describe", path, "--json"]
    if version is not None:
        args += ["--version", str(version)]
    d = json.loads(lk(*args))
    d["schema"] = json.loads(d["schema_string"])
    return d


def our_log(path):
    return json.loads(lk("table", "log", path, "--json"))


def spark_read(path, version=None):
    r = SPARK.read.format("delta")
    if version is not None:
        r = r.option("versionAsOf", version)
    return r.load(path)


def sql_path(path):
    return "delta.`%s`" % path.replace("`", "``")


# Canonical values: Spark's Python values and our JSON lines both become
# the same plain tuples/strings, driven by the Spark schema.


def canon(v, t):
    from pyspark.sql import types as T
    if v is None:
        return None
    if isinstance(t, T.StructType):
        get = (lambda n: v[n] if n in v.__fields__ else None) if hasattr(v, "__fields__") else v.get
        return tuple(canon(get(f.name), f.dataType) for f in t.fields)
    if isinstance(t, T.ArrayType):
        return tuple(canon(e, t.elementType) for e in v)
    if isinstance(t, T.MapType):
        items = v.items() if isinstance(v, dict) else [(e["key"], e["value"]) for e in v]
        return tuple(sorted((repr(canon(k, t.keyType)), repr(canon(x, t.valueType))) for k, x in items))
    if isinstance(t, T.DecimalType):
        return str(decimal.Decimal(str(v)).quantize(decimal.Decimal(1).scaleb(-t.scale)))
    if isinstance(t, T.TimestampNTZType):
        if isinstance(v, str):
            v = dt.datetime.fromisoformat(v)
        return v.isoformat()
    if isinstance(t, T.TimestampType):
        if isinstance(v, str):
            v = dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return v.isoformat()
    if isinstance(t, T.DateType):
        return v if isinstance(v, str) else v.isoformat()
    if isinstance(t, T.BinaryType):
        return v if isinstance(v, str) else base64.b64encode(bytes(v)).decode()
    if isinstance(t, (T.FloatType, T.DoubleType)):
        return repr(float(v))
    if isinstance(t, (T.LongType, T.IntegerType, T.ShortType, T.ByteType)):
        return int(v)
    if isinstance(t, T.BooleanType):
        return bool(v)
    return str(v)


def canon_rows(rows, schema):
    return collections.Counter(canon(r, schema) for r in rows)


def diff_rows(a, b, la, lb):
    """Says how two row multisets differ (empty when equal)."""
    if a == b:
        return ""
    extra, missing = a - b, b - a
    msg = "%s has %d rows, %s has %d; %d rows only in %s, %d only in %s" % (
        la, sum(a.values()), lb, sum(b.values()), sum(extra.values()), la, sum(missing.values()), lb)
    for label, c in ((la, extra), (lb, missing)):
        for row in list(c)[:3]:
            msg += "\n  only in %s: %s" % (label, row)
    return msg


def strip_metadata(t):
    """A schema JSON (Spark's or the log's) without field metadata."""
    if isinstance(t, dict):
        return {k: strip_metadata(v) for k, v in t.items() if k != "metadata"}
    if isinstance(t, list):
        return [strip_metadata(v) for v in t]
    return t


def compare_table(path, version=None, writer_col=None, expect_counts=None):
    """Spark reads the table (at version) exactly as we do: schema, rows,
    partition columns; returns (spark DataFrame, our describe)."""
    df = spark_read(path, version)
    ours = our_describe(path, version)
    # Spark's schema drops the column mapping metadata; compare the rest.
    expect(strip_metadata(json.loads(df.schema.json())) == strip_metadata(ours["schema"]),
           "schema differs at version %s:\n  spark %s\n  ours  %s" % (version, df.schema.json(), json.dumps(ours["schema"])))
    spark_rows = canon_rows(df.collect(), df.schema)
    our = canon_rows(our_rows(path, version), df.schema)
    d = diff_rows(spark_rows, our, "spark", "laktory")
    expect(not d, "rows differ at version %s: %s" % (version, d))
    if version is None:
        detail = SPARK.sql("DESCRIBE DETAIL " + sql_path(path)).collect()[0]
        expect(list(detail["partitionColumns"]) == ours["partition_columns"],
               "partition columns: spark %s, ours %s" % (detail["partitionColumns"], ours["partition_columns"]))
        expect(detail["numFiles"] == ours["files"], "files: spark %s, ours %s" % (detail["numFiles"], ours["files"]))
    if writer_col:
        counts = {str(r[0]): r[1] for r in df.groupBy(writer_col).count().collect()}
        mine = collections.Counter(str(r.get(writer_col)) for r in our_rows(path, version))
        expect(counts == dict(mine), "rows per %s: spark %s, ours %s" % (writer_col, counts, dict(mine)))
        if expect_counts is not None:
            expect(counts == expect_counts, "rows per %s: %s, expected %s" % (writer_col, counts, expect_counts))
    return df, ours


def compare_history(path):
    """DESCRIBE HISTORY lists our versions with our operations."""
    hist = SPARK.sql("DESCRIBE HISTORY " + sql_path(path)).select("version", "operation").collect()
    spark_h = sorted((r["version"], r["operation"]) for r in hist)
    ours = sorted((e["version"], e["operation"]) for e in our_log(path))
    expect(spark_h == ours, "history differs:\n  spark %s\n  ours  %s" % (spark_h, ours))
    expect([v for v, _ in spark_h] == list(range(len(spark_h))), "versions are not contiguous: %s" % [v for v, _ in spark_h])
    return spark_h


def compare_time_travel_by_timestamp(path, version):
    """Spark's timestampAsOf and our --timestamp at the commit time of
    version both read that version."""
    ts = next(e["timestamp"] for e in our_log(path) if e["version"] == version)
    spark_ts = SPARK.sql("DESCRIBE HISTORY " + sql_path(path)).where("version = %d" % version).collect()[0]["timestamp"]
    df = SPARK.read.format("delta").option("timestampAsOf", spark_ts.isoformat(sep=" ")).load(path)
    ours = [json.loads(l) for l in lk("table", "scan", path, "--format", "jsonl", "--limit", "0", "--timestamp", ts).splitlines() if l.strip()]
    d = diff_rows(canon_rows(df.collect(), df.schema), canon_rows(ours, df.schema), "spark (timestampAsOf %s)" % spark_ts, "laktory (--timestamp %s)" % ts)
    expect(not d, d)
    d = diff_rows(canon_rows(ours, df.schema), canon_rows(spark_read(path, version).collect(), df.schema), "laktory --timestamp", "spark versionAsOf %d" % version)
    expect(not d, d)


def log_files(path):
    return sorted(os.listdir(os.path.join(path, "_delta_log")))


def checkpoint_versions(path):
    return sorted(int(f.split(".")[0]) for f in log_files(path) if ".checkpoint." in f and f.endswith(".parquet"))


def compare_from_checkpoint(path):
    """A copy of the table without the commits before its newest
    checkpoint: Spark must build the snapshot from our checkpoint."""
    cps = checkpoint_versions(path)
    expect(cps, "no checkpoint in %s: %s" % (path, log_files(path)))
    cp = cps[-1]
    copy = path.rstrip("/") + "__from_checkpoint"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(path, copy)
    log = os.path.join(copy, "_delta_log")
    for f in os.listdir(log):
        head = f.split(".")[0]
        if head.isdigit() and int(head) < cp and f.endswith((".json", ".crc")):
            os.remove(os.path.join(log, f))
    df = spark_read(copy)
    d = diff_rows(canon_rows(df.collect(), df.schema), canon_rows(our_rows(path), df.schema), "spark (checkpoint only)", "laktory")
    expect(not d, d)
    first = SPARK.sql("DESCRIBE HISTORY " + sql_path(copy)).agg({"version": "min"}).collect()[0][0]
    expect(first >= cp, "history of the copy starts at %s although the commits before %s were removed" % (first, cp))
    return cp


def rng(q, a, b):
    """q with $A and $B replaced by a and b."""
    return q.replace("$A", str(a)).replace("$B", str(b))


def sql_string(s):
    return "'" + s.replace("'", "''") + "'"


# The columns interop covers: a partition string with special characters,
# the empty string and NULL; timestamps with and without zone; decimals;
# dates; booleans; doubles; a struct (sometimes NULL); a list; a map; binary.
TYPES_SQL = """SELECT i::BIGINT AS id,
  CASE i % 12 WHEN 0 THEN 'a/b' WHEN 1 THEN 'with space' WHEN 2 THEN '100%' WHEN 3 THEN 'k=v'
    WHEN 4 THEN 'ünïcødé ✓' WHEN 5 THEN 'q''uote"d' WHEN 6 THEN 'a:b#c?d*e[f]{g}^' WHEN 7 THEN 'back\\slash'
    WHEN 8 THEN '' WHEN 9 THEN NULL WHEN 10 THEN 'plain' ELSE 'x,y;z' END AS part,
  (i * 7)::INTEGER AS n,
  TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 1 SECOND + i * INTERVAL 1 MICROSECOND AS ts,
  TIMESTAMP '2024-06-01 12:00:00' + i * INTERVAL 1 MINUTE AS ntz,
  (i / 8)::DECIMAL(18,3) AS dec,
  (i * 1000003)::DECIMAL(38,6) AS bigdec,
  DATE '2024-01-01' + (i % 30)::INTEGER AS d,
  i % 3 = 0 AS flag,
  i / 3.0 AS f,
  CASE WHEN i % 5 = 0 THEN NULL ELSE {'a': i::INTEGER, 'b': 'b' || i, 't': TIMESTAMPTZ '2024-03-01 00:00:00+00' + i * INTERVAL 1 HOUR} END AS st,
  [i::INTEGER, (i + 1)::INTEGER] AS l,
  [{'x': i::INTEGER, 'y': ['p', 'q']}] AS ls,
  MAP {'k' || (i % 3): i::INTEGER} AS m,
  encode('bin' || i) AS bin
FROM range(%d, %d) t(i)"""


def types_sql(a, b):
    return TYPES_SQL.replace("%d, %d", "%d, %d" % (a, b))


# Rows as Spark writes them, with the same special partition values.
SPARK_TYPES_SQL = """SELECT CAST(id AS BIGINT) AS id,
  CASE id % 12 WHEN 0 THEN 'a/b' WHEN 1 THEN 'with space' WHEN 2 THEN '100%' WHEN 3 THEN 'k=v'
    WHEN 4 THEN 'ünïcødé ✓' WHEN 5 THEN 'q\\'uote"d' WHEN 6 THEN 'a:b#c?d*e[f]{g}^' WHEN 7 THEN 'back\\\\slash'
    WHEN 8 THEN '' WHEN 9 THEN NULL WHEN 10 THEN 'plain' ELSE 'x,y;z' END AS part,
  CAST(id * 7 AS INT) AS n,
  TIMESTAMP '2024-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id * 1.000001) AS ts,
  CAST(TIMESTAMP_NTZ '2024-06-01 12:00:00' + make_interval(0, 0, 0, 0, 0, CAST(id AS INT), 0) AS TIMESTAMP_NTZ) AS ntz,
  CAST(id / 8 AS DECIMAL(18,3)) AS dec,
  CAST(id * 1000003 AS DECIMAL(38,6)) AS bigdec,
  date_add(DATE '2024-01-01', CAST(id % 30 AS INT)) AS d,
  id % 3 = 0 AS flag,
  id / 3.0D AS f,
  CASE WHEN id % 5 = 0 THEN NULL ELSE named_struct('a', CAST(id AS INT), 'b', concat('b', id)) END AS st,
  array(CAST(id AS INT), CAST(id + 1 AS INT)) AS l,
  map(concat('k', id % 3), CAST(id AS INT)) AS m,
  encode(concat('bin', id), 'utf-8') AS bin
FROM range(%d, %d)"""


def spark_types(a, b):
    return SPARK.sql(SPARK_TYPES_SQL.replace("%d, %d", "%d, %d" % (a, b)))


# ------------------------------------------------- tables laktory writes


def demo_expected(ws):
    """Rows per writer of the demo's prices table: every landing file once."""
    def count(folder):
        n = 0
        for f in sorted(os.listdir(folder)):
            with open(os.path.join(folder, f)) as fh:
                lines = [l for l in fh if l.strip()]
            n += len(lines) - (1 if f.endswith(".csv") else 0)
        return n
    landing = os.path.join(ws, "data", "landing")
    return {"pl-prices.feed_a": count(os.path.join(landing, "feed_a")),
            "pl-prices.feed_b": count(os.path.join(landing, "feed_b"))}


@check
def ours_demo_workspace():
    """laktory init --demo, run, FULL refresh of feed_a, RESET+TRUNCATE of
    prices, new landing files, run: Spark reads every table as we do."""
    ws = work("demo")
    shutil.rmtree(ws, ignore_errors=True)
    lk("init", "--demo", ws)
    lk("run", ws, "--yes")
    lk("run", ws, "--pipeline", "pl-prices", "--select", "feed_a", "--refresh", "FULL", "--yes")
    lk("run", ws, "--pipeline", "pl-prices", "--select", "feed_a", "--refresh", "RESET", "--reset-mode", "TRUNCATE", "--yes")
    lk("run", ws, "--yes")
    for sub in ("feed_a", "feed_b", "events", os.path.join("orders", "acme"), os.path.join("orders", "globex")):
        src = os.path.join(ws, "data", "spare", sub)
        for f in os.listdir(src):
            shutil.copy(os.path.join(src, f), os.path.join(ws, "data", "landing", sub, f))
    lk("run", ws, "--yes")
    lk("run", ws, "--pipeline", "pl-prices", "--select", "feed_b", "--refresh", "FULL", "--yes")
    lake = os.path.join(ws, ".laktory", "lake", "main", "default")
    tables = sorted(os.listdir(lake))
    expect(tables == ["all_orders", "events", "gld_prices_a", "prices"], "demo tables: %s" % tables)
    compare_table(os.path.join(lake, "prices"), writer_col="_laktory_writer", expect_counts=demo_expected(ws))
    compare_table(os.path.join(lake, "all_orders"), writer_col="client_id")
    compare_table(os.path.join(lake, "events"))
    compare_table(os.path.join(lake, "gld_prices_a"))
    from_cp = []
    for t in tables:
        h = compare_history(os.path.join(lake, t))
        mid = h[len(h) // 2][0]
        compare_table(os.path.join(lake, t), version=mid)
        if checkpoint_versions(os.path.join(lake, t)):
            from_cp.append("%s@%d" % (t, compare_from_checkpoint(os.path.join(lake, t))))
    expect(from_cp, "no demo table reached a checkpoint")
    return "%d tables; read from our checkpoints: %s" % (len(tables), ", ".join(from_cp))


@check
def ours_types_partitions_checkpoint():
    """Special partition values and nulls, tz/ntz timestamps, decimals,
    nested types, deletes and a checkpoint (interval 10)."""
    root = work("ours", "types")
    shutil.rmtree(root, ignore_errors=True)
    deltaop("create", root, "--query", types_sql(0, 120), "--partition", "part")
    for k in range(1, 9):
        deltaop("append", root, "--query", types_sql(k * 120, (k + 1) * 120))
    deltaop("delete", root, "--where", "part = 'a/b'")  # partition-only: v9
    deltaop("delete", root, "--where", "(n % 3 = 0 AND part IS NULL) OR id BETWEEN 10 AND 20 OR st.b LIKE 'b3%'")  # v10
    deltaop("append", root, "--query", types_sql(2000, 2050))  # v11
    expect(checkpoint_versions(root) == [10], "checkpoints %s, want [10]" % checkpoint_versions(root))
    df, ours = compare_table(root)
    parts = {r[0] for r in df.select("part").distinct().collect()}
    want = {"a/b", "with space", "100%", "k=v", "ünïcødé ✓", "q'uote\"d", "a:b#c?d*e[f]{g}^", "back\\slash", None, "plain", "x,y;z"}
    expect(parts == want, "partition values %s, want %s" % (parts, want))
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    expect(types["ts"] == "timestamp" and types["ntz"] == "timestamp_ntz" and types["dec"] == "decimal(18,3)"
           and types["bigdec"] == "decimal(38,6)" and types["m"] == "map<string,int>", "types %s" % types)
    compare_history(root)
    compare_table(root, version=1)
    compare_table(root, version=9)
    compare_time_travel_by_timestamp(root, 5)
    cp = compare_from_checkpoint(root)
    # Spark filters by partition values and stats as we wrote them.
    n = df.where("part = 'with space' AND id < 500").count()
    expect(n == len(our_rows_where(root, "part = 'with space' AND id < 500")), "filtered count differs")
    return "version %d, checkpoint %d" % (ours["version"], cp)


ENCODING_QUERIES = {
    # no float column: PARQUET_VERSION V2 (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY)
    "v2": """SELECT i::BIGINT AS id, (hash(i) % 1000000)::BIGINT AS big, CASE WHEN i % 4 = 0 THEN NULL ELSE md5(i::VARCHAR) END AS h,
      'w' || (i % 2) AS writer, CASE WHEN i % 3 = 0 THEN NULL ELSE (hash(i) % 4)::INTEGER END AS four,
      TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 1 SECOND AS ts, DATE '2020-01-01' + (i % 100000)::INTEGER AS d,
      (i / 100)::DECIMAL(18,2) AS dec, (i / 7)::DECIMAL(38,6) AS wide, (i % 30000)::SMALLINT AS sm,
      {'a': i::INTEGER, 'b': 'x' || (i % 2)} AS st, ['k' || (i % 3), md5((i * 3)::VARCHAR)] AS l, i % 3 = 0 AS flag
      FROM range(150000) t(i)""",
    # doubles: V1, PLAIN past the dictionary (never BYTE_STREAM_SPLIT)
    "v1": """SELECT i::BIGINT AS id, hash(i) / 1e6 AS price, (i % 2)::DOUBLE AS half,
      CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 4)::FLOAT END AS f, [hash(i) / 1e9, i / 3.0] AS l, CAST(NULL AS DOUBLE) AS none
      FROM range(150000) t(i)""",
}


@check
def ours_encodings():
    """The encodings our writer chooses (dictionaries with re-packed
    indices, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, PLAIN past the
    dictionary in tables with doubles), nested columns and nulls, written
    by an append and by a delete's rewrite, read by Spark's vectorized
    reader as we read them."""
    encodings = set()
    for name, q in ENCODING_QUERIES.items():
        root = work("ours", "encodings_" + name)
        shutil.rmtree(root, ignore_errors=True)
        deltaop("create", root, "--query", q)
        compare_table(root)
        deltaop("delete", root, "--where", "id % 10 = 3")  # rewrites the file
        df, _ = compare_table(root)
        expect(df.count() == 135000, "%s: %d rows after the delete" % (name, df.count()))
        try:
            import pyarrow.parquet as pq
        except ImportError:
            continue
        for f in glob.glob(os.path.join(root, "*.parquet")):
            md = pq.ParquetFile(f).metadata
            for i in range(md.num_row_groups):
                for j in range(md.num_columns):
                    encodings.update(md.row_group(i).column(j).encodings)
    want = {"DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "RLE_DICTIONARY", "PLAIN"}
    expect(not encodings or want <= encodings and "BYTE_STREAM_SPLIT" not in encodings, "encodings %s" % sorted(encodings))
    return "encodings " + ", ".join(sorted(encodings)) if encodings else "pyarrow absent: encodings not listed"


def our_rows_where(path, where):
    return [json.loads(l) for l in lk("table", "scan", path, "--format", "jsonl", "--limit", "0", "--where", where).splitlines() if l.strip()]


@check
def ours_column_mapping_name():
    """A table with column mapping (name): columns with spaces, deletes."""
    root = work("ours", "colmap_name")
    shutil.rmtree(root, ignore_errors=True)
    q = "SELECT i::BIGINT AS \"my id\", 'w' || (i % 3) AS \"the writer\", i * 1.5 AS \"value (eur)\", {'in ner': i} AS \"nested col\" FROM range($A, $B) t(i)"
    deltaop("create", root, "--query", rng(q, 0, 100), "--partition", "the writer", "--prop", "delta.columnMapping.mode=name")
    deltaop("append", root, "--query", rng(q, 100, 200))
    deltaop("delete", root, "--where", "\"my id\" % 4 = 0")
    deltaop("delete", root, "--where", "\"the writer\" = 'w1'")
    for k in range(7):  # up to our checkpoint at version 10
        deltaop("append", root, "--query", rng(q, 1000 + k * 10, 1010 + k * 10))
    detail = SPARK.sql("DESCRIBE DETAIL " + sql_path(root)).collect()[0]
    expect(detail["minReaderVersion"] >= 2, "protocol %s/%s" % (detail["minReaderVersion"], detail["minWriterVersion"]))
    compare_table(root, writer_col="the writer")
    compare_history(root)
    compare_table(root, version=1)
    cp = compare_from_checkpoint(root)
    return "protocol %d/%d, read from our checkpoint %d" % (detail["minReaderVersion"], detail["minWriterVersion"], cp)


@check
def ours_column_mapping_id():
    root = work("ours", "colmap_id")
    shutil.rmtree(root, ignore_errors=True)
    q = "SELECT i::BIGINT AS id, 'p' || (i % 2) AS part, [i, i + 1] AS l FROM range($A, $B) t(i)"
    deltaop("create", root, "--query", rng(q, 0, 50), "--partition", "part", "--prop", "delta.columnMapping.mode=id")
    deltaop("append", root, "--query", rng(q, 50, 80))
    deltaop("delete", root, "--where", "id < 10")
    compare_table(root, writer_col="part")
    compare_history(root)


@check
def ours_deletion_vectors():
    """A table with deletion vectors enabled: our deletes write DVs (on disk
    and inline) that Spark reads, then Spark deletes (writing DVs), we
    extend them and Spark reads the result."""
    root = work("ours", "dv")
    shutil.rmtree(root, ignore_errors=True)
    q = "SELECT i::BIGINT AS id, 'w' || (i % 2) AS w, i * 2 AS v FROM range($A, $B) t(i)"
    deltaop("create", root, "--query", rng(q, 0, 300), "--prop", "delta.enableDeletionVectors=true")
    d = deltaop("delete", root, "--where", "id % 7 = 0")
    expect(d["metrics"]["deletionVectorsAdded"] == 1 and d["metrics"]["copiedRows"] == 0, "our delete wrote no DV: %s" % d)
    deltaop("append", root, "--query", rng(q, 300, 400))
    compare_table(root, writer_col="w")
    SPARK.sql("DELETE FROM %s WHERE id %% 5 = 0" % sql_path(root))
    with_dv = sum(1 for l in commit_actions(root, latest_version(root)) if "add" in l and l["add"].get("deletionVector"))
    expect(with_dv > 0, "Spark's delete wrote no deletion vector")
    compare_table(root, writer_col="w")
    d = deltaop("delete", root, "--where", "id % 11 = 0")  # extends Spark's DVs
    expect(d["metrics"]["deletionVectorsUpdated"] > 0 and d["metrics"]["copiedRows"] == 0, "our delete did not extend Spark's DVs: %s" % d)
    deltaop("append", root, "--query", rng(q, 400, 450))
    compare_table(root, writer_col="w")
    SPARK.sql("DELETE FROM %s WHERE id %% 13 = 0" % sql_path(root))  # DVs that stay live
    while latest_version(root) < 10:
        deltaop("append", root, "--query", rng(q, 1000 + latest_version(root) * 10, 1010 + latest_version(root) * 10))
    compare_table(root, writer_col="w")
    compare_history(root)
    cp = compare_from_checkpoint(root)
    cp_dvs = SPARK.read.parquet(os.path.join(root, "_delta_log", "%020d.checkpoint.parquet" % cp)) \
        .where("add.deletionVector IS NOT NULL").count()
    expect(cp_dvs > 0, "our checkpoint %d holds no deletion vector" % cp)
    return "%d files with a Spark DV; read from our checkpoint %d holding %d DVs" % (with_dv, cp, cp_dvs)


def latest_version(path):
    return max(int(f.split(".")[0]) for f in log_files(path) if f.endswith(".json") and f.split(".")[0].isdigit())


def commit_actions(path, v):
    with open(os.path.join(path, "_delta_log", "%020d.json" % v)) as fh:
        return [json.loads(l) for l in fh if l.strip()]


@check
def ours_truncate_overwrite():
    root = work("ours", "truncate")
    shutil.rmtree(root, ignore_errors=True)
    q = "SELECT i::BIGINT AS id, 'w' || (i % 2) AS w FROM range($A, $B) t(i)"
    deltaop("create", root, "--query", rng(q, 0, 100), "--partition", "w")
    deltaop("truncate", root)
    deltaop("append", root, "--query", rng(q, 100, 150))
    deltaop("overwrite", root, "--query", rng(q, 200, 260))
    compare_table(root, writer_col="w", expect_counts={"w0": 30, "w1": 30})
    compare_history(root)
    compare_table(root, version=2)


SKIP_DUCK = """SELECT i::BIGINT AS id,
  lpad(i::VARCHAR, 6, '0') || repeat('x', 40) AS long_s,
  'ü' || lpad(i::VARCHAR, 6, '0') || repeat('é', 35) AS uni_s,
  TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 1001 MICROSECOND AS ts,
  TIMESTAMP '2024-01-01 00:00:00' + i * INTERVAL 1001 MICROSECOND AS ntz,
  (i / 1000)::DECIMAL(10,3) AS dec,
  DATE '2024-01-01' + i::INTEGER AS d,
  {'a': i::INTEGER} AS st
FROM range($A, $B) t(i)"""

SKIP_SPARK = """SELECT id,
  concat(lpad(CAST(id AS STRING), 6, '0'), repeat('x', 40)) AS long_s,
  concat('ü', lpad(CAST(id AS STRING), 6, '0'), repeat('é', 35)) AS uni_s,
  timestamp_micros(1704067200000000 + id * 1001) AS ts,
  CAST(timestamp_micros(1704067200000000 + id * 1001) AS TIMESTAMP_NTZ) AS ntz,
  CAST(id / 1000 AS DECIMAL(10,3)) AS dec,
  date_add(DATE '2024-01-01', CAST(id AS INT)) AS d,
  named_struct('a', CAST(id AS INT)) AS st
FROM range($A, $B)"""


def skip_predicates(i):
    """Predicates that match row i only: each hits the maximum (or minimum)
    of a file's statistics, where a truncated or rounded statistic makes a
    reader skip the file. Returns (spark SQL, DuckDB SQL) pairs."""
    ts = (dt.datetime(2024, 1, 1) + dt.timedelta(microseconds=i * 1001)).isoformat(sep=" ")
    long_s = "%06d" % i + "x" * 40
    uni_s = "ü" + "%06d" % i + "é" * 35
    return [
        ("long_s = '%s'" % long_s,) * 2,
        ("uni_s = '%s'" % uni_s,) * 2,
        ("ts = TIMESTAMP '%s'" % ts, "ts = TIMESTAMPTZ '%s+00'" % ts),
        ("ntz = TIMESTAMP_NTZ '%s'" % ts, "ntz = TIMESTAMP '%s'" % ts),
        ("ts >= TIMESTAMP '%s' AND id = %d" % (ts, i), "ts >= TIMESTAMPTZ '%s+00' AND id = %d" % (ts, i)),
        ("dec = %d / 1000" % i, "dec = %d / 1000" % i),
        ("d = date_add(DATE '2024-01-01', %d)" % i, "d = DATE '2024-01-01' + %d" % i),
        ("st.a = %d" % i,) * 2,
    ]


@check
def stats_data_skipping():
    """Spark skips files by our statistics (strings truncated at 32
    characters, timestamps in milliseconds) without losing rows, and we
    skip files by Spark's."""
    ours, spark_t = work("ours", "skip"), work("spark", "skip")
    for p in (ours, spark_t):
        shutil.rmtree(p, ignore_errors=True)
    bounds = [(k * 50, k * 50 + 50) for k in range(3)]
    for k, (a, b) in enumerate(bounds):
        deltaop("create" if k == 0 else "append", ours, "--query", rng(SKIP_DUCK, a, b))
        SPARK.sql(rng(SKIP_SPARK, a, b)).coalesce(1).write.format("delta").mode("append").save(spark_t)
    compare_table(ours)
    compare_table(spark_t)
    wrong = []
    for a, b in bounds:
        for i in (a, b - 1):
            for sp, duck in skip_predicates(i):
                for label, path in (("our table", ours), ("Spark's table", spark_t)):
                    n_spark = spark_read(path).where(sp).count()
                    n_ours = len(our_rows_where(path, duck))
                    if (n_spark, n_ours) != (1, 1):
                        wrong.append("%s, row %d, %s: Spark finds %d, laktory %d" % (label, i, sp, n_spark, n_ours))
    expect(not wrong, "\n".join(wrong[:12]))
    return "%d predicates on file bounds" % (len(bounds) * 2 * len(skip_predicates(0)) * 2)


# --------------------------------------------------- tables Spark writes


# A DuckDB query with the columns of SPARK_TYPES_SQL, for our appends to
# Spark's tables.
def types_sql_spark_columns(a, b):
    return ("SELECT * EXCLUDE (ls) REPLACE (CASE WHEN st IS NULL THEN NULL ELSE {'a': st.a, 'b': st.b} END AS st) FROM ("
            + types_sql(a, b) + ")")


def spark_sql(q, *args):
    return SPARK.sql(q % args if args else q)


def ours_delete_append(root, where, query, writer_col=None):
    """We delete from and append to a table; Spark reads the result as we do."""
    before = len(our_rows(root))
    gone = len(our_rows_where(root, where))
    d = deltaop("delete", root, "--where", where)
    expect(d["committed"] and d["metrics"]["deletedRows"] == gone, "our delete: %s (expected %d rows)" % (d, gone))
    a = deltaop("append", root, "--query", query)
    added = len(our_rows(root)) - (before - gone)
    expect(a["committed"] and added == a["metrics"]["addedRows"] > 0, "our append: %s, %d rows more" % (a, added))
    compare_table(root, writer_col=writer_col)
    compare_history(root)
    return d["version"], a["version"]


@check
def spark_types_partitions_checkpoint():
    """Spark writes a partitioned table with special characters, nulls,
    deletes, updates, merges and a checkpoint; we read it, delete from it
    and append to it; Spark reads the result back."""
    root = work("spark", "types")
    shutil.rmtree(root, ignore_errors=True)
    spark_types(0, 100).write.format("delta").partitionBy("part").save(root)
    for k in range(1, 8):
        spark_types(k * 100, (k + 1) * 100).write.format("delta").mode("append").save(root)
    t = sql_path(root)
    spark_sql("DELETE FROM %s WHERE id %% 10 = 3", t)
    spark_sql("UPDATE %s SET n = n + 100000, st = named_struct('a', -1, 'b', 'updated') WHERE part = 'k=v' OR id %% 17 = 0", t)
    spark_sql("CREATE OR REPLACE TEMP VIEW src AS " + SPARK_TYPES_SQL.replace("%d, %d", "750, 900"))
    spark_sql("MERGE INTO %s AS t USING src AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *", t)
    spark_sql("DELETE FROM %s WHERE part IS NULL AND id < 300", t)
    expect(10 in checkpoint_versions(root), "Spark wrote no checkpoint at version 10: %s" % log_files(root))
    compare_table(root, writer_col="part")
    compare_history(root)
    compare_table(root, version=3)
    v1, v2 = ours_delete_append(root, "part IN ('with space', 'a/b') OR id % 7 = 0 OR part IS NULL", types_sql_spark_columns(5000, 5100), writer_col="part")
    spark_sql("UPDATE %s SET n = -1 WHERE id >= 5000 AND id < 5010", t)
    compare_table(root, writer_col="part")
    return "Spark's checkpoint %s; our commits %d, %d" % (checkpoint_versions(root), v1, v2)


@check
def spark_deletion_vectors():
    """Spark's deletion vectors (DELETE, UPDATE, MERGE) read by us; our
    delete of rows in files with DVs, our append; Spark reads it back."""
    root = work("spark", "dv")
    shutil.rmtree(root, ignore_errors=True)
    t = sql_path(root)
    spark_sql("CREATE TABLE %s (id BIGINT, w STRING, v DOUBLE, note STRING) USING delta PARTITIONED BY (w) "
              "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')", t)
    SPARK.range(0, 1000).selectExpr("id", "concat('w', id % 3) AS w", "CAST(id * 0.5 AS DOUBLE) AS v", "CAST(NULL AS STRING) AS note") \
        .repartition(2).write.format("delta").mode("append").save(root)
    spark_sql("DELETE FROM %s WHERE id %% 10 = 1", t)
    spark_sql("UPDATE %s SET note = 'updated' WHERE id %% 10 = 2", t)
    spark_sql("MERGE INTO %s AS t USING (SELECT id, concat('w', id %% 3) AS w FROM range(990, 1010)) AS s "
              "ON t.id = s.id AND t.w = s.w WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, w, v, note) VALUES (s.id, s.w, 0, 'merged')", t)
    dvs = sum(1 for v in range(latest_version(root) + 1) for a in commit_actions(root, v) if "add" in a and a["add"].get("deletionVector"))
    expect(dvs > 0, "Spark wrote no deletion vector")
    compare_table(root, writer_col="w")
    v1, v2 = ours_delete_append(root, "id % 10 IN (2, 3) OR id > 1000", "SELECT 5000 + i AS id, 'w' || (i % 3) AS w, i::DOUBLE AS v, 'ours' AS note FROM range(0, 30) t(i)", writer_col="w")
    ours = [a["add"]["deletionVector"] for a in commit_actions(root, v1) if "add" in a]
    expect(ours and all(ours), "our delete of rows in Spark's DV files rewrote them: %s" % ours)
    spark_sql("DELETE FROM %s WHERE id %% 10 = 4", t)  # Spark extends our DVs
    compare_table(root, writer_col="w")
    return "%d Spark files with DVs; our commits %d (%d DVs), %d" % (dvs, v1, len(ours), v2)


@check
def ours_optimize():
    """We compact a table of many small appends and purge the rows our DVs
    hide (OPTIMIZE): Spark reads the same rows, its history shows the
    OPTIMIZE, and Spark deletes from the result; a Spark-written DV table
    optimized by us reads the same too."""
    root = work("ours", "optimize")
    shutil.rmtree(root, ignore_errors=True)
    q = "SELECT i::BIGINT AS id, 'w' || (i % 3) AS w, i * 0.5 AS v FROM range($A, $B) t(i)"
    deltaop("create", root, "--query", rng(q, 0, 100), "--partition", "w", "--prop", "delta.enableDeletionVectors=true")
    for k in range(1, 12):
        deltaop("append", root, "--query", rng(q, k * 100, k * 100 + 100))
    deltaop("delete", root, "--where", "id % 9 = 0")
    before = len(our_rows(root))
    o = deltaop("optimize", root)
    expect(o["committed"] and o["operation"] == "OPTIMIZE", "optimize: %s" % o)
    expect(len(our_rows(root)) == before, "optimize changed the row count")
    compare_table(root, writer_col="w")
    compare_history(root)
    hist = SPARK.sql("DESCRIBE HISTORY %s" % sql_path(root)).orderBy("version", ascending=False).first()
    expect(hist["operation"] == "OPTIMIZE", "Spark's history: %s" % hist["operation"])
    SPARK.sql("DELETE FROM %s WHERE id %% 4 = 0" % sql_path(root))
    compare_table(root, writer_col="w")

    sroot = work("spark", "optimize")
    shutil.rmtree(sroot, ignore_errors=True)
    t = sql_path(sroot)
    spark_sql("CREATE TABLE %s (id BIGINT, w STRING) USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')", t)
    for k in range(4):
        SPARK.range(k * 100, k * 100 + 100).selectExpr("id", "concat('w', id % 2) AS w").write.format("delta").mode("append").save(sroot)
    spark_sql("DELETE FROM %s WHERE id %% 10 = 1", t)
    so = deltaop("optimize", sroot)
    expect(so["committed"], "optimize of Spark's table: %s" % so)
    compare_table(sroot, writer_col="w")
    return "%s; Spark's table: %s" % (o["metrics"], so["metrics"])


@check
def spark_column_mapping():
    """Spark's column mapping (name) with renamed, dropped and added
    columns: we read, delete and append by physical names; Spark reads."""
    root = work("spark", "colmap")
    shutil.rmtree(root, ignore_errors=True)
    t = sql_path(root)
    spark_sql("CREATE TABLE %s (id BIGINT, grp STRING, amount DECIMAL(12,2), info STRUCT<x: INT, y: STRING>, gone STRING) USING delta "
              "PARTITIONED BY (grp) TBLPROPERTIES ('delta.columnMapping.mode' = 'name')", t)
    spark_sql("INSERT INTO %s SELECT id, concat('g', id %% 4), id / 4, named_struct('x', CAST(id AS INT), 'y', 'y'), 'x' FROM range(0, 200)", t)
    spark_sql("ALTER TABLE %s RENAME COLUMN amount TO `amount (eur)`", t)
    spark_sql("ALTER TABLE %s RENAME COLUMN grp TO `group id`", t)
    spark_sql("ALTER TABLE %s DROP COLUMN gone", t)
    spark_sql("ALTER TABLE %s ADD COLUMN (added TIMESTAMP)", t)
    spark_sql("INSERT INTO %s SELECT id, concat('g', id %% 4), id / 4, named_struct('x', 1, 'y', 'z'), TIMESTAMP '2025-01-01 10:00:00' FROM range(200, 260)", t)
    spark_sql("DELETE FROM %s WHERE id %% 9 = 0", t)
    compare_table(root, writer_col="group id")
    v1, v2 = ours_delete_append(root, "\"group id\" = 'g1' OR \"amount (eur)\" > 60",
                                "SELECT i::BIGINT AS id, 'g' || (i % 4) AS \"group id\", (i / 4)::DECIMAL(12,2) AS \"amount (eur)\", "
                                "{'x': i::INTEGER, 'y': 'ours'} AS info, TIMESTAMPTZ '2025-02-01 00:00:00+00' AS added FROM range(1000, 1040) t(i)",
                                writer_col="group id")
    return "our commits %d, %d" % (v1, v2)


@check
def spark_type_widening():
    """Spark widens columns of a typeWidening table (int -> bigint, float ->
    double, date -> timestamp_ntz, decimal(5,2) -> decimal(10,2)) without
    rewriting the old files: we read old and new files in the wide types,
    filter them as Spark does (old stats are in the narrow types), delete
    and append; Spark reads the result."""
    root = work("spark", "widen")
    shutil.rmtree(root, ignore_errors=True)
    t = sql_path(root)
    spark_sql("CREATE TABLE %s (i INT, f FLOAT, d DATE, m DECIMAL(5,2), w STRING) USING delta "
              "TBLPROPERTIES ('delta.enableTypeWidening' = 'true', 'delta.feature.timestampNtz' = 'supported')", t)
    spark_sql("INSERT INTO %s SELECT CAST(id AS INT), CAST(0.7 + id AS FLOAT), date_add(DATE '2024-01-02', CAST(id AS INT)), "
              "CAST(id / 4 AS DECIMAL(5,2)), concat('w', id %% 2) FROM range(0, 50)", t)
    for col, typ in (("i", "BIGINT"), ("f", "DOUBLE"), ("d", "TIMESTAMP_NTZ"), ("m", "DECIMAL(10,2)")):
        spark_sql("ALTER TABLE %s ALTER COLUMN %s TYPE %s", t, col, typ)
    spark_sql("INSERT INTO %s SELECT 5000000000 + id, 0.2 + id, TIMESTAMP_NTZ '2024-03-04 05:06:07' + make_interval(0, 0, 0, 0, CAST(id AS INT)), "
              "12345678.5 + id, concat('w', id %% 2) FROM range(0, 50)", t)
    proto = SPARK.sql("DESCRIBE DETAIL " + t).collect()[0]
    features = set(proto["tableFeatures"] or [])
    expect(features & {"typeWidening", "typeWidening-preview"}, "Spark did not enable type widening: %s" % sorted(features))
    compare_table(root, writer_col="w")
    predicates = ["f < 0.6999999999", "f > 0.69 AND f < 1", "d < TIMESTAMP '2024-01-02 00:00:01'",
                  "d >= TIMESTAMP '2024-01-10 00:00:00' AND d < TIMESTAMP '2024-03-01'", "i > 4000000000 AND i < 5000000003",
                  "m = 1.25", "m > 12345680"]
    # Spark's own data skipping reads the old files' float stats ("0.7")
    # as doubles and drops the row holding the float 0.7 (the double
    # 0.699999988...) for f < 0.6999999999 (Delta 4.4). The truth is Spark
    # without stats skipping; where Spark with skipping differs is reported.
    spark_skips_wrong = []
    for where in predicates:
        SPARK.conf.set("spark.databricks.delta.stats.skipping", "false")
        try:
            want = SPARK.read.format("delta").load(root).where(where).count()
        finally:
            SPARK.conf.unset("spark.databricks.delta.stats.skipping")
        skipped = SPARK.read.format("delta").load(root).where(where).count()
        if skipped != want:
            spark_skips_wrong.append("%s (%d of %d rows)" % (where, skipped, want))
        got = len(our_rows_where(root, where))
        expect(got == want, "where %s: Spark %d rows, ours %d" % (where, want, got))
    v1, v2 = ours_delete_append(root, "f < 3 OR i >= 5000000040",
                                "SELECT i::INTEGER AS i, (i + 0.5)::FLOAT AS f, DATE '2025-01-01' AS d, (i / 8)::DECIMAL(5,2) AS m, "
                                "'w' || (i % 2) AS w FROM range(100, 120) t(i)", writer_col="w")
    note = "; Spark's data skipping drops rows for " + ", ".join(spark_skips_wrong) if spark_skips_wrong else ""
    return "%s; %d predicates; our commits %d, %d%s" % (sorted(features), len(predicates), v1, v2, note)


@check
def spark_v2_checkpoint():
    """Spark's V2 checkpoints (delta.checkpointPolicy=v2): we read them and
    append; Spark reads our commits on top."""
    root = work("spark", "v2cp")
    shutil.rmtree(root, ignore_errors=True)
    t = sql_path(root)
    spark_sql("CREATE TABLE %s (id BIGINT, w STRING) USING delta TBLPROPERTIES ('delta.checkpointPolicy' = 'v2', 'delta.checkpointInterval' = '5')", t)
    for k in range(7):
        spark_sql("INSERT INTO %s SELECT id, concat('w', id %% 2) FROM range(%d, %d)", t, k * 10, k * 10 + 10)
    expect(any(".checkpoint." in f for f in log_files(root)), "Spark wrote no checkpoint: %s" % log_files(root))
    compare_table(root, writer_col="w")
    v1, v2 = ours_delete_append(root, "id < 5", "SELECT 100 + i AS id, 'w' || (i % 2) AS w FROM range(0, 10) t(i)", writer_col="w")
    return "log %s" % [f for f in log_files(root) if "checkpoint" in f]


# -------------------------------------------- Structured Streaming checkpoints


def write_workspace(ws, name, body):
    """A workspace folder with one pipeline file, whose runs may write
    (and delete) anywhere in the check's work folder, where its sinks
    and Spark's tables live (laktory-workbench.yaml roots)."""
    shutil.rmtree(ws, ignore_errors=True)
    os.makedirs(ws)
    with open(os.path.join(ws, name + ".yaml"), "w") as fh:
        fh.write(textwrap.dedent(body))
    with open(os.path.join(ws, "laktory-workbench.yaml"), "w") as fh:
        fh.write("roots: [%s]\n" % json.dumps(os.path.abspath(ARGS.work)))


def ids(path):
    return sorted(r["id"] for r in our_rows(path))


def spark_stream(source_df, sink, cp, **opts):
    """Runs a Spark streaming query to the Delta table sink until the
    available data is processed (trigger availableNow)."""
    w = source_df.writeStream.format("delta").option("checkpointLocation", cp).trigger(availableNow=True)
    for k, v in opts.items():
        w = w.option(k, v)
    q = w.start(sink)
    q.awaitTermination()
    return q


def batches(cp, log):
    d = os.path.join(cp, log)
    return sorted(int(f) for f in os.listdir(d) if f.isdigit()) if os.path.isdir(d) else []


JSON_SCHEMA = "id BIGINT, name STRING, amount DOUBLE"


def write_json_file(folder, name, a, b):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path + ".tmp", "w") as fh:
        for i in range(a, b):
            fh.write(json.dumps({"id": i, "name": "n%d" % i, "amount": i * 1.25}) + "\n")
    os.rename(path + ".tmp", path)
    time.sleep(0.02)  # distinct modification times: files are read oldest first


def import_workspace(ws, source_path, fmt, spark_cp, table="resumed"):
    write_workspace(ws, "pl-import", """\
        name: pl-import
        orchestrator:
          type: SPARK_DECLARATIVE_PIPELINE
        nodes:
        - name: resume
          flow:
            import_checkpoint: %s
          sources:
          - path: %s
            format: %s
            as_stream: true
          sinks:
          - table_name: %s
            mode: APPEND
        """ % (spark_cp, source_path, fmt, table))
    return os.path.join(ws, ".laktory", "lake", "main", "default", table)


@check
def stream_import_spark_delta_checkpoint():
    """A Spark streaming query reads a Delta table (ours and Spark's
    commits) with a checkpoint; a declarative flow imports it
    (import_checkpoint) and processes only the rows added after."""
    base = work("stream", "import_delta")
    shutil.rmtree(base, ignore_errors=True)
    src, sink, cp = os.path.join(base, "src"), os.path.join(base, "spark_sink"), os.path.join(base, "spark_cp")
    q = "SELECT i::BIGINT AS id, 'n' || i AS name, (i * 1.25)::DOUBLE AS amount FROM range($A, $B) t(i)"
    deltaop("create", src, "--query", rng(q, 0, 100))
    deltaop("append", src, "--query", rng(q, 100, 150))
    spark_stream(SPARK.readStream.format("delta").option("maxFilesPerTrigger", 1).load(src), sink, cp)
    SPARK.sql("SELECT id, concat('n', id) AS name, id * 1.25D AS amount FROM range(150, 170)").write.format("delta").mode("append").save(src)
    spark_stream(SPARK.readStream.format("delta").option("maxFilesPerTrigger", 1).load(src), sink, cp)
    seen = ids(sink)
    expect(seen == list(range(170)), "Spark's stream wrote %d rows" % len(seen))
    deltaop("append", src, "--query", rng(q, 1000, 1050))
    SPARK.sql("SELECT id, concat('n', id) AS name, id * 1.25D AS amount FROM range(2000, 2020)").write.format("delta").mode("append").save(src)
    ws = work("stream", "ws_import_delta")
    resumed = import_workspace(ws, src, "DELTA", cp)
    out = lk("run", ws, "--yes")
    got = ids(resumed)
    want = list(range(1000, 1050)) + list(range(2000, 2020))
    expect(got == want, "the imported flow wrote ids %s..%s (%d rows), want only the %d rows added after Spark's query:\n%s" % (
        got[:3], got[-3:], len(got), len(want), out[-2000:]))
    lk("run", ws, "--yes")
    expect(ids(resumed) == want, "a second run wrote %d rows" % len(ids(resumed)))
    return "Spark batches %s; resumed with %d rows" % (batches(cp, "commits"), len(got))


@check
def stream_import_spark_files_checkpoint():
    """A Spark streaming query over JSON files; the imported flow reads only
    the files that landed after it."""
    base = work("stream", "import_files")
    shutil.rmtree(base, ignore_errors=True)
    landing, sink, cp = os.path.join(base, "landing"), os.path.join(base, "spark_sink"), os.path.join(base, "spark_cp")
    for k in range(3):
        write_json_file(landing, "part-%d.json" % k, k * 10, k * 10 + 10)
    spark_stream(SPARK.readStream.schema(JSON_SCHEMA).option("maxFilesPerTrigger", 1).json(landing), sink, cp)
    expect(ids(sink) == list(range(30)), "Spark's stream wrote %d rows" % len(ids(sink)))
    for k in range(3, 5):
        write_json_file(landing, "part-%d.json" % k, k * 10, k * 10 + 10)
    ws = work("stream", "ws_import_files")
    resumed = import_workspace(ws, landing, "JSONL", cp)
    out = lk("run", ws, "--yes")
    got = ids(resumed)
    expect(got == list(range(30, 50)), "the imported flow wrote ids %s (want 30..49):\n%s" % (got, out[-2000:]))
    return "Spark source log %s" % sorted(os.listdir(os.path.join(cp, "sources", "0")))


def spark_one_batch(source_df, sink, cp):
    """Runs one micro-batch of a Spark streaming query and stops it (a
    processing-time trigger an hour apart), so the query stops in the
    middle of the data, as a query stopped by its owner does."""
    before = len(batches(cp, "commits"))
    q = (source_df.writeStream.format("delta").option("checkpointLocation", cp)
         .trigger(processingTime="1 hour").start(sink))
    deadline = time.time() + 120
    while len(batches(cp, "commits")) == before and time.time() < deadline:
        time.sleep(0.2)
    q.stop()
    expect(len(batches(cp, "commits")) == before + 1, "Spark's query did not complete one batch")


@check
def stream_import_spark_mid_version():
    """Spark stops in the middle of a snapshot and in the middle of a
    commit's files (maxFilesPerTrigger): the imported flow goes on from
    Spark's (version, index) with Spark's file order, losing and repeating
    nothing, partitions with special characters included."""
    base = work("stream", "import_mid")
    shutil.rmtree(base, ignore_errors=True)
    src = os.path.join(base, "src")
    parts = ["a/b", "with space", "100%", "k=v", "ünï", "x,y", "plain", "q'd", "z", None]
    part_sql = "CASE i % 10 " + " ".join("WHEN %d THEN %s" % (k, "NULL" if p is None else sql_string(p)) for k, p in enumerate(parts)) + " END"
    q = "SELECT i::BIGINT AS id, %s AS part, (i * 1.25)::DOUBLE AS amount FROM range($A, $B) t(i)" % part_sql
    deltaop("create", src, "--query", rng(q, 0, 100), "--partition", "part")  # v0: 10 files in one commit
    deltaop("append", src, "--query", rng(q, 100, 200))  # v1: 10 more
    results = []
    for label, start_opts in (("snapshot", {}), ("version 1", {"startingVersion": "1"})):
        sink, cp = os.path.join(base, "sink_" + label[0]), os.path.join(base, "cp_" + label[0])
        reader = SPARK.readStream.format("delta").option("maxFilesPerTrigger", 3)
        for k, v in start_opts.items():
            reader = reader.option(k, v)
        spark_one_batch(reader.load(src), sink, cp)
        spark_one_batch(reader.load(src), sink, cp)
        spark_ids = ids(sink)
        expect(len(spark_ids) == 60, "Spark's two batches of 3 files read %d rows" % len(spark_ids))
        with open(os.path.join(cp, "offsets", "1")) as fh:
            offset = fh.read().splitlines()[-1]
        ws = work("stream", "ws_import_mid_" + label[0])
        resumed = import_workspace(ws, src, "DELTA", cp)
        lk("run", ws, "--yes")
        got = ids(resumed)
        everything = range(100, 200) if start_opts else range(200)
        want = sorted(set(everything) - set(spark_ids))
        expect(got == want, "from %s, Spark stopped at %s: the imported flow wrote %d rows (%d repeated, %d missing)" % (
            label, offset, len(got), len(set(got) & set(spark_ids)), len(set(want) - set(got))))
        results.append("%s: Spark stopped at %s" % (label, json.loads(offset)["index"]))
    return "; ".join(results)


def our_stream_workspace(ws, source_path, fmt, sink, cp):
    write_workspace(ws, "pl-stream", """\
        name: pl-stream
        nodes:
        - name: copy
          sources:
          - path: %s
            format: %s
            as_stream: true
          sinks:
          - path: %s
            format: DELTA
            mode: APPEND
            checkpoint_path: %s
        """ % (source_path, fmt, sink, cp))


@check
def stream_spark_resumes_our_delta_checkpoint():
    """Our runner streams a Delta table into a Delta sink; Spark resumes the
    same query from our checkpoint, writing the same sink, and we resume
    after Spark: every row exactly once."""
    base = work("stream", "resume_delta")
    shutil.rmtree(base, ignore_errors=True)
    src, sink, cp = os.path.join(base, "src"), os.path.join(base, "sink"), os.path.join(base, "cp")
    q = "SELECT i::BIGINT AS id, 'n' || i AS name, (i * 1.25)::DOUBLE AS amount FROM range($A, $B) t(i)"
    deltaop("create", src, "--query", rng(q, 0, 100))
    ws = work("stream", "ws_resume_delta")
    our_stream_workspace(ws, src, "DELTA", sink, cp)
    lk("run", ws, "--yes")
    deltaop("append", src, "--query", rng(q, 100, 130))
    lk("run", ws, "--yes")
    expect(ids(sink) == list(range(130)), "our stream wrote %d rows" % len(ids(sink)))
    ours_before = batches(cp, "commits")
    deltaop("append", src, "--query", rng(q, 200, 240))
    spark_stream(SPARK.readStream.format("delta").load(src), sink, cp)
    got = ids(sink)
    expect(got == list(range(130)) + list(range(200, 240)),
           "after Spark resumed our checkpoint the sink has %d rows (%d distinct), want 170" % (len(got), len(set(got))))
    spark_batches = batches(cp, "commits")
    deltaop("append", src, "--query", rng(q, 300, 310))
    lk("run", ws, "--yes")
    got = ids(sink)
    expect(got == list(range(130)) + list(range(200, 240)) + list(range(300, 310)),
           "after we resumed Spark's batches the sink has %d rows (%d distinct), want 180" % (len(got), len(set(got))))
    compare_table(sink)
    return "our batches %s, Spark's %s, ours again %s" % (ours_before, spark_batches[len(ours_before):], batches(cp, "commits")[len(spark_batches):])


@check
def stream_spark_resumes_our_files_checkpoint():
    """Our runner streams JSON files into a Delta sink; Spark resumes from
    our checkpoint (our file source log) and reads only the new files; we
    resume after Spark."""
    base = work("stream", "resume_files")
    shutil.rmtree(base, ignore_errors=True)
    landing, sink, cp = os.path.join(base, "landing"), os.path.join(base, "sink"), os.path.join(base, "cp")
    for k in range(2):
        write_json_file(landing, "part-%d.json" % k, k * 10, k * 10 + 10)
    ws = work("stream", "ws_resume_files")
    our_stream_workspace(ws, landing, "JSONL", sink, cp)
    lk("run", ws, "--yes")
    expect(ids(sink) == list(range(20)), "our stream wrote %d rows" % len(ids(sink)))
    for k in range(2, 4):
        write_json_file(landing, "part-%d.json" % k, k * 10, k * 10 + 10)
    schema = spark_read(sink).schema
    spark_stream(SPARK.readStream.schema(schema).json(landing), sink, cp)
    got = ids(sink)
    expect(got == list(range(40)), "after Spark resumed our checkpoint the sink has ids %s" % got)
    write_json_file(landing, "part-4.json", 40, 50)
    lk("run", ws, "--yes")
    got = ids(sink)
    expect(got == list(range(50)), "after we resumed Spark's batches the sink has %d rows (%d distinct)" % (len(got), len(set(got))))
    return "batches %s" % batches(cp, "commits")


@check
def stream_change_commits_like_spark():
    """Our streaming reader and Spark's, on the same table: both ignore
    Spark's OPTIMIZE (dataChange=false), both stop at a DELETE with
    DELTA_SOURCE_IGNORE_DELETE, both go on with skipChangeCommits."""
    base = work("stream", "changes")
    shutil.rmtree(base, ignore_errors=True)
    src = os.path.join(base, "src")
    ours_sink, ours_cp = os.path.join(base, "sink_ours"), os.path.join(base, "cp_ours")
    spark_sink, spark_cp = os.path.join(base, "sink_spark"), os.path.join(base, "cp_spark")
    q = "SELECT i::BIGINT AS id, 'n' || i AS name, (i * 1.25)::DOUBLE AS amount FROM range($A, $B) t(i)"
    deltaop("create", src, "--query", rng(q, 0, 50))
    for k in range(1, 4):
        deltaop("append", src, "--query", rng(q, k * 50, k * 50 + 50))
    ws = work("stream", "ws_changes")

    def both(skip=False, fail=None):
        our_stream_workspace(ws, src, "DELTA", ours_sink, ours_cp)
        if skip:
            with open(os.path.join(ws, "pl-stream.yaml")) as fh:
                y = fh.read()
            with open(os.path.join(ws, "pl-stream.yaml"), "w") as fh:
                fh.write(y.replace("as_stream: true", "as_stream: true\n    reader_kwargs:\n      skipChangeCommits: true"))
        out = lk("run", ws, "--yes", ok=(1,) if fail else (0,))
        reader = SPARK.readStream.format("delta")
        if skip:
            reader = reader.option("skipChangeCommits", "true")
        try:
            spark_stream(reader.load(src), spark_sink, spark_cp)
            spark_err = ""
        except Exception as e:
            spark_err = str(e)
        if fail:
            codes = [c for c in fail if c in spark_err]
            expect(codes, "Spark's reader did not fail with %s: %s" % (" or ".join(fail), spark_err[:1500]))
            expect(codes[0] in out, "Spark's reader failed with %s, ours did not:\n%s" % (codes[0], out[-1500:]))
            return codes[0]
        else:
            expect(not spark_err, "Spark's reader failed: %s" % spark_err[:1500])
        expect(ids(ours_sink) == ids(spark_sink), "our reader wrote %d rows, Spark's %d" % (len(ids(ours_sink)), len(ids(spark_sink))))

    both()
    SPARK.sql("OPTIMIZE %s" % sql_path(src))
    SPARK.sql("INSERT INTO %s SELECT id, concat('n', id), id * 1.25D FROM range(500, 520)" % sql_path(src))
    both()
    expect(ids(ours_sink) == list(range(200)) + list(range(500, 520)), "after OPTIMIZE: %d rows" % len(ids(ours_sink)))
    SPARK.sql("DELETE FROM %s WHERE id < 10" % sql_path(src))  # rewrites a file: a data update
    update = both(fail=("DELTA_SOURCE_TABLE_IGNORE_CHANGES", "DELTA_SOURCE_IGNORE_DELETE"))
    SPARK.sql("INSERT INTO %s SELECT id, concat('n', id), id * 1.25D FROM range(600, 610)" % sql_path(src))
    both(skip=True)
    # On restart Spark replays the last batch's range with the current
    # options: a batch without change commits before skipping is off.
    SPARK.sql("INSERT INTO %s SELECT id, concat('n', id), id * 1.25D FROM range(650, 655)" % sql_path(src))
    both(skip=True)
    want = list(range(200)) + list(range(500, 520)) + list(range(600, 610)) + list(range(650, 655))
    expect(ids(ours_sink) == want, "with skipChangeCommits: %d rows" % len(ids(ours_sink)))
    SPARK.sql("DELETE FROM %s WHERE id >= 600 AND id < 610" % sql_path(src))  # whole files: a delete only
    delete = both(fail=("DELTA_SOURCE_TABLE_IGNORE_CHANGES", "DELTA_SOURCE_IGNORE_DELETE"))
    SPARK.sql("INSERT INTO %s SELECT id, concat('n', id), id * 1.25D FROM range(700, 705)" % sql_path(src))
    both(skip=True)
    expect(ids(ours_sink) == want + list(range(700, 705)), "with skipChangeCommits: %d rows" % len(ids(ours_sink)))
    return "%d rows each; both stopped with %s, then %s" % (len(ids(ours_sink)), update, delete)


@check
def spark_table_runner_shared_writer():
    """A workspace writer owning `client_id = 2` of a table Spark created
    and fills (partitioned, deletion vectors): our FULL refresh replaces
    only its rows; Spark reads the result as we do."""
    base = work("spark", "shared")
    shutil.rmtree(base, ignore_errors=True)
    table = os.path.join(base, "orders")
    t = sql_path(table)
    spark_sql("CREATE TABLE %s (client_id INT, order_id BIGINT, amount DECIMAL(10,2), ordered_at TIMESTAMP, item STRING) USING delta "
              "PARTITIONED BY (client_id) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')", t)
    spark_sql("INSERT INTO %s SELECT CAST(id %% 3 AS INT), id, CAST(id * 1.5 AS DECIMAL(10,2)), TIMESTAMP '2026-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, CAST(id AS INT), 0), 'spark' FROM range(0, 300)", t)
    spark_sql("DELETE FROM %s WHERE order_id %% 7 = 0", t)
    ws = os.path.join(base, "ws")
    write_workspace(ws, "pl-globex", """\
        name: pl-globex
        nodes:
        - name: orders
          sources:
          - path: landing/
            format: JSONL
          transformer:
            nodes:
            - expr: |
                SELECT 2 AS client_id, id AS order_id, CAST(amount AS DECIMAL(10, 2)) AS amount,
                       TIMESTAMP '2026-02-01 00:00:00+00' AS ordered_at, name AS item
                FROM {df}
          sinks:
          - path: %s
            format: DELTA
            mode: APPEND
            shared:
              where: client_id = 2
        """ % table)
    write_json_file(os.path.join(ws, "landing"), "orders.json", 1000, 1040)
    before = {r[0]: r[1] for r in spark_read(table).groupBy("client_id").count().collect()}
    out = lk("run", ws, "--refresh", "FULL", "--yes")
    after = {r[0]: r[1] for r in spark_read(table).groupBy("client_id").count().collect()}
    expect(after == {0: before[0], 1: before[1], 2: 40}, "rows per client before %s, after our FULL refresh %s:\n%s" % (before, after, out[-1500:]))
    compare_table(table, writer_col="client_id")
    compare_history(table)
    spark_sql("UPDATE %s SET item = 'spark again' WHERE client_id = 2 AND order_id < 1010", t)
    compare_table(table, writer_col="client_id")
    return "rows per client %s" % after


# ----------------------------------------------------------- concurrency


@check
def concurrent_spark_append_our_full_refresh():
    """Spark appends a writer's rows while our runner FULL-refreshes
    another writer of the table, partitioned by writer: both succeed, no
    row is lost or doubled, versions are contiguous."""
    ws = work("concurrent", "ws")
    write_workspace(ws, "pl-conc", """\
        name: pl-conc
        nodes:
        - name: feed_a
          sources:
          - path: landing/
            format: JSONL
          sinks:
          - table_name: conc
            mode: APPEND
            shared: true
            writer_methods:
            - name: partitionBy
              args: [_laktory_writer]
        """)
    for k in range(4):
        write_json_file(os.path.join(ws, "landing"), "part-%d.json" % k, k * 100, k * 100 + 100)
    table = os.path.join(ws, ".laktory", "lake", "main", "default", "conc")
    lk("run", ws, "--yes")
    schema = spark_read(table).schema
    spark_appends, rows_per_append = 12, 10
    errors = []

    def spark_writer():
        try:
            for k in range(spark_appends):
                SPARK.sql("SELECT 'spark' AS _laktory_writer, id, concat('s', id) AS name, id * 1.0D AS amount FROM range(%d, %d)" % (
                    10000 + k * rows_per_append, 10000 + (k + 1) * rows_per_append)) \
                    .select([f.name for f in schema.fields]).write.format("delta").mode("append").save(table)
        except Exception as e:  # reported below
            errors.append("Spark: %s" % e)

    th = threading.Thread(target=spark_writer)
    th.start()
    summaries = []
    while th.is_alive() or len(summaries) < 3:  # refresh as long as Spark appends
        out = lk("run", ws, "--select", "feed_a", "--refresh", "FULL", "--yes", "--json")
        summaries.append(json.loads(out))
    th.join()
    expect(not errors, "; ".join(errors))
    counts = {r["_laktory_writer"]: r["count"] for r in spark_read(table).groupBy("_laktory_writer").count().collect()}
    want = {"pl-conc.feed_a": 400, "spark": spark_appends * rows_per_append}
    expect(counts == want, "rows per writer %s, want %s" % (counts, want))
    compare_table(table, writer_col="_laktory_writer", expect_counts=want)
    hist = compare_history(table)
    ops = collections.Counter(op for _, op in hist)
    # Every commit a run reported is in the log as ours: none was replaced
    # by a concurrent Spark commit.
    lost = []
    for s in summaries:
        for task in s["summary"]["tasks"]:
            for op in task["operations"]:
                info = next(a["commitInfo"] for a in commit_actions(table, op["version"]) if "commitInfo" in a)
                if info.get("engineInfo") != "laktory-workbench" or info.get("operation") != op["operation"]:
                    lost.append("run %s reported its %s at version %d, which holds %s by %s" % (
                        s["run_id"], op["operation"], op["version"], info.get("operation"), info.get("engineInfo")))
    expect(not lost, "%d commits of ours were replaced:\n%s" % (len(lost), "\n".join(lost[:5])))
    retries = sum(json_retries(s) for s in summaries)
    return "%d FULL refreshes during %d Spark appends: %d versions %s, %d checkpoints, our retries %d" % (
        len(summaries), spark_appends, len(hist), dict(ops), len(checkpoint_versions(table)), retries)


def json_retries(summary):
    """The retries a `laktory run --json` summary reports."""
    s = summary.get("summary", summary)
    return s.get("retries", 0) if isinstance(s, dict) else 0


def main():
    global ARGS, SPARK
    ap = argparse.ArgumentParser()
    ap.add_argument("--laktory", required=True)
    ap.add_argument("--deltaop", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", default="", help="comma-separated check names (prefixes)")
    ap.add_argument("--list", action="store_true")
    ARGS = ap.parse_args()
    selected = [c for c in CHECKS if not ARGS.only or any(c.__name__.startswith(p) for p in ARGS.only.split(","))]
    if ARGS.list:
        for c in selected:
            print(c.__name__)
        return 0
    os.makedirs(ARGS.work, exist_ok=True)
    t0 = time.time()
    SPARK = start_spark()
    import importlib.metadata as md
    print("spark %s, delta-spark %s, java %s (started in %.1fs)" % (
        SPARK.version, md.version("delta-spark"),
        SPARK.sparkContext._jvm.java.lang.System.getProperty("java.version"), time.time() - t0), flush=True)
    passed = failed = 0
    for c in selected:
        t = time.time()
        try:
            note = c()
            print("PASS %s (%.1fs)%s" % (c.__name__, time.time() - t, ": " + note if note else ""), flush=True)
            passed += 1
        except CheckFailed as e:
            print("FAIL %s (%.1fs): %s" % (c.__name__, time.time() - t, textwrap.indent(str(e), "  ").strip()), flush=True)
            failed += 1
        except Exception as e:  # a Spark error is a finding too
            msg = "%s: %s" % (type(e).__name__, str(e)[:4000])
            print("FAIL %s (%.1fs): %s" % (c.__name__, time.time() - t, msg), flush=True)
            if os.environ.get("SPARK_CHECK_TRACE"):
                traceback.print_exc()
            failed += 1
    SPARK.stop()
    print("spark check took %.0fs" % (time.time() - t0))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def start_spark():
    from delta import configure_spark_with_delta_pip
    from pyspark.sql import SparkSession
    b = (SparkSession.builder.master("local[2]").appName("laktory-spark-check")
         .config("spark.driver.memory", "2g")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.default.parallelism", "2")
         .config("spark.databricks.delta.snapshotPartitions", "2")
         .config("spark.sql.warehouse.dir", work("spark-warehouse"))
         .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + work("derby"))
         .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
         .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog"))
    spark = configure_spark_with_delta_pip(b).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


if __name__ == "__main__":
    sys.exit(main())
