"""Reads Delta tables written by the runner with delta-rs and polars, to
check the rows per writer of the crash tests.

Usage: read_tables.py REQUESTS.json
REQUESTS.json is a list of {"path", "version", "column"}: the table, the
version to read (time travel with delta-rs) and the writer column ("" for
a table with one writer). Prints a JSON list, one object per request:
{"rows": {writer: count}, "distinct": {writer: distinct values of k}}.
"""
import json
import sys

import polars as pl
from deltalake import DeltaTable

out = []
for req in json.load(open(sys.argv[1])):
    dt = DeltaTable(req["path"], version=req["version"])
    df = pl.from_arrow(dt.to_pyarrow_table())
    col = req["column"]
    if not col:
        df = df.with_columns(pl.lit("").alias("__writer"))
        col = "__writer"
    g = df.group_by(col).agg(pl.len().alias("n"), pl.col("k").n_unique().alias("d"))
    out.append({
        "rows": {str(r[col]): r["n"] for r in g.iter_rows(named=True)},
        "distinct": {str(r[col]): r["d"] for r in g.iter_rows(named=True)},
    })
print(json.dumps(out))
