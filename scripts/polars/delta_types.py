#!/usr/bin/env python3
"""The Delta type delta-rs writes for each Polars dtype (dev-only).

    python scripts/polars/delta_types.py runner/testdata/polars-delta-types

For each dtype a one-column polars 1.32.0 DataFrame is written with
DataFrame.write_delta (what Laktory 0.13.1's Polars sink calls, with
deltalake's writer), and the column's type in the table's schema is
recorded in Spark's notation (long, timestamp_ntz, array<long>,
struct<a:long>), with polars' dtype read back; or the error delta-rs (or
polars) fails with. dev.json and heldout.json are the two parts of the
table; runner's TestPolarsDeltaTypes checks the workbench's mapping (the
type a POLARS pipeline's column is written as, or its refusal at
validate) against them. heldout.json was written before the mapping's
code. Test data only: the product never runs Python.
"""

import datetime as dt
import json
import os
import re
import sys
import tempfile
import warnings

import deltalake
import polars as pl

D = dt.datetime(2024, 1, 2, 3, 4, 5)


def series(name):
    """The one-row Series of the dtype named name (as the corpus writes it)."""
    return DEV.get(name) or HELDOUT[name]


DEV = {}
for n, t in [("Int8", pl.Int8), ("Int16", pl.Int16), ("Int32", pl.Int32), ("Int64", pl.Int64), ("UInt8", pl.UInt8),
             ("UInt16", pl.UInt16), ("UInt32", pl.UInt32), ("UInt64", pl.UInt64)]:
    DEV[n] = lambda t=t: pl.Series([1], dtype=t)
DEV.update({
    "Int128": lambda: pl.Series([1], dtype=pl.Int128),
    "Float32": lambda: pl.Series([1.5], dtype=pl.Float32),
    "Float64": lambda: pl.Series([1.5]),
    "Decimal(10,2)": lambda: pl.Series(["1.25"]).cast(pl.Decimal(10, 2)),
    "Decimal(38,0)": lambda: pl.Series(["1"]).cast(pl.Decimal(38, 0)),
    "Boolean": lambda: pl.Series([True]),
    "String": lambda: pl.Series(["a"]),
    "Binary": lambda: pl.Series([b"a"]),
    "Date": lambda: pl.Series([dt.date(2024, 1, 2)]),
    "Time": lambda: pl.Series([dt.time(1, 2)]),
    "Null": lambda: pl.Series([None]),
    "Categorical": lambda: pl.Series(["a"], dtype=pl.Categorical),
    "Enum": lambda: pl.Series(["a"], dtype=pl.Enum(["a", "b"])),
    "List(Int64)": lambda: pl.Series([[1]]),
    "Array(Int64,2)": lambda: pl.Series([[1, 2]], dtype=pl.Array(pl.Int64, 2)),
    "Struct(a:Int64,b:String)": lambda: pl.Series([{"a": 1, "b": "x"}]),
})
for u in ["ns", "us", "ms"]:
    DEV[f"Datetime({u})"] = lambda u=u: pl.Series([D]).cast(pl.Datetime(u))
    DEV[f"Datetime({u},UTC)"] = lambda u=u: pl.Series([D]).cast(pl.Datetime(u)).dt.replace_time_zone("UTC")
    DEV[f"Duration({u})"] = lambda u=u: pl.Series([dt.timedelta(seconds=1)]).cast(pl.Duration(u))

HELDOUT = {
    "Decimal(None,4)": lambda: pl.Series(["1.2500"]).cast(pl.Decimal(None, 4)),
    "Decimal(5,5)": lambda: pl.Series(["0.12345"]).cast(pl.Decimal(5, 5)),
    "Datetime(us,Europe/Paris)": lambda: pl.Series([D]).dt.replace_time_zone("Europe/Paris"),
    "Datetime(ms,Asia/Tokyo)": lambda: pl.Series([D]).cast(pl.Datetime("ms")).dt.replace_time_zone("Asia/Tokyo"),
    "List(Datetime(ns,UTC))": lambda: pl.Series([[D]]).cast(pl.List(pl.Datetime("ns", "UTC"))),
    "List(List(Float32))": lambda: pl.Series([[[1.5]]], dtype=pl.List(pl.List(pl.Float32))),
    "List(UInt16)": lambda: pl.Series([[1]], dtype=pl.List(pl.UInt16)),
    "List(Struct(x:UInt32))": lambda: pl.Series([[{"x": 1}]], dtype=pl.List(pl.Struct({"x": pl.UInt32}))),
    "Struct(a:UInt8,b:List(Decimal(5,1)))": lambda: pl.Series([{"a": 1, "b": ["1.5"]}]).cast(
        pl.Struct({"a": pl.UInt8, "b": pl.List(pl.Decimal(5, 1))})),
    "Struct(t:Time)": lambda: pl.Series([{"t": dt.time(1, 2)}]),
    "Struct(d:Duration(us))": lambda: pl.Series([{"d": dt.timedelta(seconds=1)}]),
    "List(Null)": lambda: pl.Series([[None]], dtype=pl.List(pl.Null)),
    "List(Binary)": lambda: pl.Series([[b"a"]]),
    "Struct(n:Struct(s:String,i:Int16))": lambda: pl.Series([{"n": {"s": "a", "i": 1}}]).cast(
        pl.Struct({"n": pl.Struct({"s": pl.String, "i": pl.Int16})})),
}


def spark(t):
    """A Delta schema type in Spark's notation."""
    if isinstance(t, str):
        return t
    if t["type"] == "array":
        return "array<" + spark(t["elementType"]) + ">"
    if t["type"] == "struct":
        return "struct<" + ",".join(f["name"] + ":" + spark(f["type"]) for f in t["fields"]) + ">"
    if t["type"] == "map":
        return "map<" + spark(t["keyType"]) + "," + spark(t["valueType"]) + ">"
    return json.dumps(t)


def run(cases):
    out = {}
    for name, make in cases.items():
        d = tempfile.mkdtemp()
        try:
            s = make()
            pl.DataFrame({"c": s}).write_delta(d, mode="overwrite")
            f = json.loads(deltalake.DeltaTable(d).schema().to_json())["fields"][0]
            out[name] = {"polars": str(s.dtype), "delta": spark(f["type"]), "read_back": str(pl.read_delta(d).schema["c"])}
        except BaseException as e:  # delta-rs panics are PanicException (a BaseException)
            msg = (str(e).strip().splitlines() or [""])[0]
            out[name] = {"error": type(e).__name__ + ": " + re.sub(r"task \d+", "task N", msg)}
    return out


def main():
    outdir = sys.argv[1]
    warnings.filterwarnings("ignore")
    os.environ.setdefault("RUST_BACKTRACE", "0")
    for part, cases in (("dev", DEV), ("heldout", HELDOUT)):
        with open(os.path.join(outdir, part + ".json"), "w") as f:
            json.dump(run(cases), f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
