"""Random groups through Laktory 0.13.1's Polars SQL step on polars
1.32.0: VARIANCE and STDDEV of Float64 and Float32 per group and over a
window, with values of every magnitude (cancellation around a large
mean, values from 1e100 to 1e300 beside small ones, subnormals, NaN,
infinities, NULLs, one-row groups). Writes
runner/polarssql/testdata/random/variance.json, which TestRandomVariance
compares with the local translation, bit for bit.

Dev-only:  $LAKTORY_PYTHON scripts/polars/random_variance.py [OUT.json]
"""
import json
import os
import random
import struct
import sys

import polars as pl

import laktory as lk

QUERIES = [
    "SELECT g, VARIANCE(x) AS v, STDDEV(x) AS s, VARIANCE(f) AS vf, STDDEV(f) AS sf FROM {df} GROUP BY g",
    "SELECT row_id, VAR_SAMP(x) OVER (PARTITION BY g) AS v, STDEV(f) OVER (PARTITION BY g) AS sf FROM {df}",
]


def r32(x):
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def value(rnd, kind):
    u = rnd.random()
    if u < 0.05:
        return None
    if kind == "plain":
        return rnd.gauss(0, 1) * 10 ** rnd.randint(-6, 12)
    if kind == "offset":  # a small spread around a large mean
        return 1e6 + rnd.gauss(0, 1) * 10 ** rnd.randint(-6, 2)
    if kind == "huge":
        return rnd.choice([rnd.gauss(0, 1) * 10 ** rnd.randint(100, 160), rnd.gauss(0, 1), rnd.gauss(0, 1) * 1e-200])
    if kind == "extreme":
        return rnd.gauss(0, 1) * 10 ** rnd.randint(150, 307)
    if kind == "tiny":
        return rnd.gauss(0, 1) * 10 ** rnd.randint(-320, -290)
    if kind == "special":
        return rnd.choice([float("nan"), float("inf"), float("-inf"), rnd.gauss(0, 1)])
    raise ValueError(kind)


def main():
    rnd = random.Random(2637)
    g, x = [], []
    kinds = ["plain", "offset", "huge", "extreme", "tiny", "special"]
    for k in range(240):
        kind = kinds[k % len(kinds)]
        size = rnd.choice([1, 2, 3, 5, 17, 40])
        for _ in range(size):
            g.append(k)
            x.append(value(rnd, kind))
    order = list(range(len(g)))
    rnd.shuffle(order)  # groups interleaved: each group's rows in frame order
    g = [g[i] for i in order]
    x = [x[i] for i in order]
    f = [None if v is None else r32(v) for v in x]
    df = pl.DataFrame({"row_id": list(range(len(g))), "g": g, "x": x, "f": f},
                      schema={"row_id": pl.Int64, "g": pl.Int64, "x": pl.Float64, "f": pl.Float32})
    text = lambda v: None if v is None else repr(v)  # noqa: E731
    out = {"schema": [["row_id", "Int64"], ["g", "Int64"], ["x", "Float64"], ["f", "Float32"]],
           "columns": {"row_id": df["row_id"].to_list(), "g": g, "x": [text(v) for v in x], "f": [text(v) for v in f]},
           "results": {}}
    for q in QUERIES:
        res = lk.models.DataFrameExpr(expr=q).to_df(dfs={"df": df.lazy()})
        res = res.to_native() if hasattr(res, "to_native") else res
        if isinstance(res, pl.LazyFrame):
            res = res.collect()
        res = res.sort(res.columns[0])
        out["results"][q] = {
            "schema": [[n, str(t)] for n, t in res.schema.items()],
            "rows": [[text(v) if isinstance(v, float) else v for v in r] for r in res.rows()],
        }
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "runner", "polarssql", "testdata", "random", "variance.json")
    with open(path, "w") as fh:
        json.dump(out, fh, separators=(",", ":"))
        fh.write("\n")
    print(path, len(QUERIES), "queries over", len(g), "rows")


if __name__ == "__main__":
    main()
