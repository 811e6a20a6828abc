#!/usr/bin/env python3
"""Run the frame-expression corpus through Laktory's own code (dev only).

    corpus.py --backend POLARS|PYSPARK CORPUS_DIR [--only PREFIX]

CORPUS_DIR (runner/frame/corpus/testdata) holds tables.yaml (the fixture
tables) and one YAML file per family of func_name steps (heldout/ is the
held-out part, written before the implementation). Each case reads a
fixture as its DataFrame ({df}) and maybe others ({sources.x}, {nodes.x}),
and lists transformer steps as a pipeline's YAML writes them:

    - name: nw_round
      input: nums
      sources: {other: skus}         # optional: {sources.other}
      backends: [POLARS, PYSPARK]    # default: the file's `backends`
      api: NARWHALS                  # the transformer's dataframe_api
      steps:
      - func_name: with_columns
        func_kwargs: {r: nw.col("x").round(1)}

Each case runs as Laktory 0.13.1 runs a node's transformer: a
DataFrameTransformer of the steps with dataframe_api set, executed on the
fixture as a Polars LazyFrame (POLARS, polars 1.32.0) or a Spark DataFrame
(PYSPARK, pyspark 4.2, session time zone UTC), then collected. The outcome
goes to FAMILY.expected.json under "name@BACKEND": the column names and
types (Polars dtypes as str(dtype), Spark types as simpleString), the
types delta-rs writes for a POLARS result (its Delta schema), the rows as
JSON (dates and datetimes in ISO form, NaN and infinities as strings,
decimals as strings), or Laktory's error ("TypeName: message"). Entries
of the other backend are kept, so the file holds both.

The corpus test (runner/frame/corpus, TestCorpus) runs the same steps through
our front end on DuckDB and compares. The product never runs Python.
"""

import argparse
import datetime as dt
import decimal
import glob
import json
import logging
import math
import os
import re
import sys
import tempfile
import warnings

import yaml

os.environ.setdefault("TZ", "UTC")


# --------------------------------------------------------------------------- #
# Fixture types                                                               #
# --------------------------------------------------------------------------- #


def split_top(s, sep=","):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return [x.strip() for x in out]


def parse_type(t):
    """A fixture type as a tree: (kind, args)."""
    t = t.strip()
    if t.startswith("list<"):
        return ("list", parse_type(t[5:-1]))
    if t.startswith("struct<"):
        fields = []
        for f in split_top(t[7:-1]):
            n, ft = f.split(":", 1)
            fields.append((n.strip(), parse_type(ft)))
        return ("struct", fields)
    m = re.match(r"decimal\((\d+),(\d+)\)", t)
    if m:
        return ("decimal", (int(m.group(1)), int(m.group(2))))
    return (t, None)


def to_value(v, t):
    kind, arg = t
    if v is None:
        return None
    if kind == "list":
        return [to_value(x, arg) for x in v]
    if kind == "struct":
        return {n: to_value(v.get(n), ft) for n, ft in arg}
    if kind == "date":
        return v if isinstance(v, dt.date) else dt.date.fromisoformat(v)
    if kind == "datetime":
        return dt.datetime.fromisoformat(v)
    if kind == "datetime_utc":
        return dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
    if kind == "decimal":
        return decimal.Decimal(str(v))
    if kind in ("f32", "f64"):
        return float(v)
    return v


# --------------------------------------------------------------------------- #
# Values to JSON                                                              #
# --------------------------------------------------------------------------- #


def jsonable(v):
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc)
            return v.replace(tzinfo=None).isoformat() + "Z"
        return v.isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, dt.time):
        return v.isoformat()
    if isinstance(v, dt.timedelta):
        return {"micros": (v.days * 86400 + v.seconds) * 1_000_000 + v.microseconds}
    if isinstance(v, (bytes, bytearray)):
        return {"hex": bytes(v).hex()}
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    if hasattr(v, "asDict"):  # a Spark Row (struct): a tuple, so first
        return {k: jsonable(x) for k, x in v.asDict().items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return str(v)


def error_text(e):
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    # Spark's JVM stack traces and Polars' plan dumps say nothing more.
    keep = []
    for l in lines:
        if l.startswith(("JVM stacktrace", "Resolved plan", "Plan:", "Hint:")) or re.match(r"at [\w.$]+\(", l):
            break
        keep.append(l)
        if len(keep) == 3:
            break
    return f"{type(e).__name__}: " + " | ".join(keep)


# --------------------------------------------------------------------------- #
# Backends                                                                    #
# --------------------------------------------------------------------------- #


class Polars:
    name = "POLARS"

    def __init__(self):
        import polars as pl

        self.pl = pl

    def dtype(self, t):
        pl = self.pl
        kind, arg = t
        simple = {
            "i8": pl.Int8, "i16": pl.Int16, "i32": pl.Int32, "i64": pl.Int64, "u32": pl.UInt32,
            "f32": pl.Float32, "f64": pl.Float64, "str": pl.String, "bool": pl.Boolean, "date": pl.Date,
            "datetime": pl.Datetime("us"), "datetime_utc": pl.Datetime("us", "UTC"),
        }
        if kind in simple:
            return simple[kind]
        if kind == "decimal":
            return pl.Decimal(*arg)
        if kind == "list":
            return pl.List(self.dtype(arg))
        if kind == "struct":
            return pl.Struct({n: self.dtype(ft) for n, ft in arg})
        raise ValueError(kind)

    def frame(self, table):
        pl = self.pl
        cols = [(n, parse_type(t)) for n, t in table["columns"].items()]
        rows = [[to_value(v, t) for v, (_, t) in zip(r, cols)] for r in table["rows"]]
        schema = {n: self.dtype(t) for n, t in cols}
        return pl.DataFrame(rows, schema=schema, orient="row").lazy()

    def collect(self, df):
        import narwhals as nw

        native = nw.to_native(df) if isinstance(df, (nw.DataFrame, nw.LazyFrame)) else df
        if hasattr(native, "collect"):
            native = native.collect()
        cols = [[n, str(t)] for n, t in native.schema.items()]
        rows = [[jsonable(v) for v in r] for r in native.rows()]
        return {"columns": cols, "rows": rows, "delta": self.delta(native)}

    def delta(self, native):
        """The Delta schema delta-rs writes for the result (write_delta)."""
        with tempfile.TemporaryDirectory() as d:
            try:
                native.write_delta(d, mode="overwrite")
                import deltalake

                fields = json.loads(deltalake.DeltaTable(d).schema().to_json())["fields"]
                return [[f["name"], f["type"] if isinstance(f["type"], str) else json.dumps(f["type"], sort_keys=True)] for f in fields]
            except Exception as e:  # noqa: BLE001
                return [["<error>", error_text(e)]]


class Spark:
    name = "PYSPARK"

    def __init__(self):
        from pyspark.sql import SparkSession

        self.spark = (
            SparkSession.builder.master("local[1]")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.driver.memory", "1g")
            .getOrCreate()
        )
        self.spark.sparkContext.setLogLevel("ERROR")

    def dtype(self, t):
        import pyspark.sql.types as T

        kind, arg = t
        simple = {
            "i8": T.ByteType(), "i16": T.ShortType(), "i32": T.IntegerType(), "i64": T.LongType(),
            "u32": T.LongType(), "f32": T.FloatType(), "f64": T.DoubleType(), "str": T.StringType(),
            "bool": T.BooleanType(), "date": T.DateType(), "datetime": T.TimestampNTZType(),
            "datetime_utc": T.TimestampType(),
        }
        if kind in simple:
            return simple[kind]
        if kind == "decimal":
            return T.DecimalType(*arg)
        if kind == "list":
            return T.ArrayType(self.dtype(arg))
        if kind == "struct":
            return T.StructType([T.StructField(n, self.dtype(ft)) for n, ft in arg])
        raise ValueError(kind)

    def frame(self, table):
        import pyspark.sql.types as T

        cols = [(n, parse_type(t)) for n, t in table["columns"].items()]
        rows = [tuple(to_value(v, t) for v, (_, t) in zip(r, cols)) for r in table["rows"]]
        schema = T.StructType([T.StructField(n, self.dtype(t)) for n, t in cols])
        return self.spark.createDataFrame(rows, schema=schema)

    def collect(self, df):
        import narwhals as nw

        native = nw.to_native(df) if isinstance(df, (nw.DataFrame, nw.LazyFrame)) else df
        cols = [[f.name, f.dataType.simpleString()] for f in native.schema.fields]
        rows = [[jsonable(v) for v in r] for r in native.collect()]
        return {"columns": cols, "rows": rows}


# --------------------------------------------------------------------------- #
# Cases                                                                       #
# --------------------------------------------------------------------------- #


def run_case(lk, be, tables, case):
    df = be.frame(tables[case["input"]])
    named = {}
    for k, t in (case.get("sources") or {}).items():
        named["sources." + k] = be.frame(tables[t])
    for k, t in (case.get("nodes") or {}).items():
        named["nodes." + k] = be.frame(tables[t])
    try:
        tr = lk.models.DataFrameTransformer.model_validate(
            {"nodes": case["steps"], "dataframe_api": case.get("api", "NARWHALS")}
        )
        out = tr.execute(df, named_dfs=named)
        return be.collect(out)
    except Exception as e:  # noqa: BLE001  (Laktory's failure is the outcome)
        return {"error": error_text(e)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", required=True, choices=["POLARS", "PYSPARK"])
    ap.add_argument("--only", default="")
    ap.add_argument("corpus")
    args = ap.parse_args()

    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore")
    import laktory as lk

    be = Polars() if args.backend == "POLARS" else Spark()
    with open(os.path.join(args.corpus, "tables.yaml")) as f:
        tables = yaml.safe_load(f)
    files = sorted(glob.glob(os.path.join(args.corpus, "*.yaml")) + glob.glob(os.path.join(args.corpus, "heldout", "*.yaml")))
    total = 0
    for path in files:
        if os.path.basename(path) == "tables.yaml":
            continue
        with open(path) as f:
            doc = yaml.safe_load(f)
        exp_path = path[: -len(".yaml")] + ".expected.json"
        expected = {}
        if os.path.exists(exp_path):
            with open(exp_path) as f:
                expected = json.load(f)
        names = set()
        for case in doc["cases"]:
            if case["name"] in names:
                sys.exit(f"{path}: case {case['name']} twice")
            names.add(case["name"])
            backends = case.get("backends", doc.get("backends", ["POLARS"]))
            if be.name not in backends or not case["name"].startswith(args.only):
                continue
            expected[f"{case['name']}@{be.name}"] = run_case(lk, be, tables, case)
            total += 1
        # Drop the entries of cases that are gone.
        live = {f"{c['name']}@{b}" for c in doc["cases"] for b in c.get("backends", doc.get("backends", ["POLARS"]))}
        expected = {k: v for k, v in sorted(expected.items()) if k in live}
        with open(exp_path, "w") as f:
            f.write("{\n")
            items = [f" {json.dumps(k)}: {json.dumps(v, sort_keys=True, ensure_ascii=False)}" for k, v in expected.items()]
            f.write(",\n".join(items))
            f.write("\n}\n")
    print(f"{total} cases run on {be.name}")


if __name__ == "__main__":
    main()
