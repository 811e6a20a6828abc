"""Random groups through Laktory 0.13.1's Polars SQL step on polars
1.32.0: MIN and MAX of Float64 and Float32 per group and over a window,
where polars skips NaN unless a group holds nothing else (NULLs skipped
too), with groups of only NaN, of NaN and NULLs, of infinities and NaN.
Writes runner/polarssql/testdata/random/minmax.json (the format of
variance.json), which TestRandomMinMax compares with the local
translation, bit for bit.

Dev-only:  $LAKTORY_PYTHON scripts/polars/random_minmax.py [OUT.json]
"""
import json
import logging
import os
import random
import struct
import sys

logging.disable(logging.CRITICAL)

import polars as pl  # noqa: E402

import laktory as lk  # noqa: E402


def r32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def main():
    rnd = random.Random(2727)
    nan, inf = float("nan"), float("inf")
    g, x = [], []
    for k in range(200):
        # The group's mix: mostly numbers, or mostly NaN, or NaN and
        # NULLs only, with infinities now and then.
        kind = rnd.random()
        for _ in range(rnd.randint(1, 8)):
            u = rnd.random()
            if kind < 0.15:
                v = nan if u < 0.6 else None
            elif kind < 0.3:
                v = nan if u < 0.8 else round(rnd.gauss(0, 100), 2)
            else:
                v = None if u < 0.1 else nan if u < 0.25 else rnd.choice([inf, -inf]) if u < 0.3 else round(rnd.gauss(0, 100), 2)
            g.append(k)
            x.append(v)
    order = list(range(len(g)))
    rnd.shuffle(order)
    g, x = [g[j] for j in order], [x[j] for j in order]
    f = [None if v is None else r32(v) for v in x]
    df = pl.DataFrame({"g": g, "x": x, "f": f}, schema={"g": pl.Int64, "x": pl.Float64, "f": pl.Float32})
    text = lambda v: None if v is None else repr(v)  # noqa: E731
    out = {"schema": [["g", "Int64"], ["x", "Float64"], ["f", "Float32"]],
           "columns": {"g": g, "x": [text(v) for v in x], "f": [text(v) for v in f]}, "results": {}}
    queries = [
        "SELECT g, MIN(x) AS mn, MAX(x) AS mx, MIN(f) AS mnf, MAX(f) AS mxf FROM {df} GROUP BY g",
        "SELECT g, MIN(x) OVER (PARTITION BY g) AS mn, MAX(x) OVER (PARTITION BY g) AS mx, MAX(f) OVER (PARTITION BY g) AS mxf FROM {df}",
        "SELECT g, MAX(x + 1) AS mx1, MIN(x * 2) AS mn2 FROM {df} GROUP BY g",
    ]
    for q in queries:
        res = lk.models.DataFrameExpr(expr=q).to_df(dfs={"df": df.lazy()})
        res = res.to_native() if hasattr(res, "to_native") else res
        if isinstance(res, pl.LazyFrame):
            res = res.collect()
        res = res.sort("g")
        out["results"][q] = {"schema": [[n, str(t)] for n, t in res.schema.items()],
                             "rows": [[text(v) if isinstance(v, float) else v for v in r] for r in res.rows()]}
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "runner", "polarssql", "testdata", "random", "minmax.json")
    with open(path, "w") as fh:
        json.dump(out, fh, separators=(",", ":"))
        fh.write("\n")
    print(path, len(out["results"]), "queries over", len(g), "rows")


if __name__ == "__main__":
    main()
