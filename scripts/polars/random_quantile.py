"""Random groups through Laktory 0.13.1's Polars SQL step on polars
1.32.0: MEDIAN, QUANTILE_CONT and QUANTILE_DISC of Float64, Int64 and Float32
per group (1 to 30 values, NULLs and NaN among them) at quantiles whose
index n * q or (n - 1) * q rounds near an integer. Writes
runner/polarssql/testdata/random/quantile.json (the format of
variance.json), which TestRandomQueries compares with the local
translation, bit for bit.

Dev-only:  $LAKTORY_PYTHON scripts/polars/random_quantile.py [OUT.json]
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

QS = ["0.1", "0.7", "0.33", "0.9", "0.15", "0.45", "0.55", "0.85", "0.95", "0.01", "0.99", "0.3", "0.6", "0.2", "0.8"]


def r32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def main():
    rnd = random.Random(2650)
    g, x, i = [], [], []
    for k in range(300):
        for _ in range(rnd.randint(1, 30)):
            g.append(k)
            u = rnd.random()
            x.append(None if u < 0.05 else float("nan") if u < 0.08 else round(rnd.gauss(0, 1) * 10 ** rnd.randint(0, 4), rnd.randint(0, 3)))
            i.append(None if rnd.random() < 0.05 else rnd.randint(-1000, 1000))
    order = list(range(len(g)))
    rnd.shuffle(order)
    g, x, i = [g[j] for j in order], [x[j] for j in order], [i[j] for j in order]
    f = [None if v is None else r32(v) for v in x]
    df = pl.DataFrame({"g": g, "x": x, "i": i, "f": f}, schema={"g": pl.Int64, "x": pl.Float64, "i": pl.Int64, "f": pl.Float32})
    text = lambda v: None if v is None else repr(v)  # noqa: E731
    out = {"schema": [["g", "Int64"], ["x", "Float64"], ["i", "Int64"], ["f", "Float32"]],
           "columns": {"g": g, "x": [text(v) for v in x], "i": i, "f": [text(v) for v in f]}, "results": {}}
    queries = ["SELECT g, MEDIAN(x) AS m, MEDIAN(f) AS mf, MEDIAN(i) AS mi FROM {df} GROUP BY g"]
    for k in range(0, len(QS), 3):
        sel = []
        for n, q in enumerate(QS[k:k + 3]):
            sel += [f"QUANTILE_CONT(x, {q}) AS c{n}", f"QUANTILE_DISC(x, {q}) AS d{n}", f"QUANTILE_DISC(i, {q}) AS i{n}", f"QUANTILE_CONT(f, {q}) AS f{n}"]
        queries.append("SELECT g, " + ", ".join(sel) + " FROM {df} GROUP BY g")
    for q in queries:
        res = lk.models.DataFrameExpr(expr=q).to_df(dfs={"df": df.lazy()})
        res = res.to_native() if hasattr(res, "to_native") else res
        if isinstance(res, pl.LazyFrame):
            res = res.collect()
        res = res.sort("g")
        out["results"][q] = {"schema": [[n, str(t)] for n, t in res.schema.items()],
                             "rows": [[text(v) if isinstance(v, float) else v for v in r] for r in res.rows()]}
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "runner", "polarssql", "testdata", "random", "quantile.json")
    with open(path, "w") as fh:
        json.dump(out, fh, separators=(",", ":"))
        fh.write("\n")
    print(path, len(out["results"]), "queries over", len(g), "rows")


if __name__ == "__main__":
    main()
