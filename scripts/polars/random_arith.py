"""Random values through Laktory 0.13.1's SQL parser on polars 1.32.0:
float remainders (by a column and by a scalar, which polars multiplies by
the scalar's reciprocal), powers of Float32 and Float64 (polars' special
cases: 0.5, integral 2..9) and wrapping integer powers. Writes
runner/polarssql/testdata/random/arith.json, which TestRandomArith
compares with the local translation, bit for bit.

Dev-only:  $LAKTORY_PYTHON scripts/polars/random_arith.py [OUT.json]
"""
import json
import os
import random
import sys
import struct

import narwhals as nw
import polars as pl
from laktory.narwhals_ext.functions import sql_expr

N = 1000
EXPRS = [
    "f % g", "f % 0.3", "f % 7", "f % 0.1", "d % e", "d % 0.1", "d % 0.3",
    "POWER(f, 3)", "POWER(f, 9)", "POWER(f, 0.5)", "POWER(f, 2.0)", "POWER(f, 1)",
    "POWER(d, 3)", "POWER(d, 7)", "POWER(d, 0.5)", "POWER(d, 10)", "POWER(d, 1.5)", "POWER(e, f)",
    "POWER(i, 40)", "POWER(i, 3)", "POWER(big, 5)", "POWER(big, 200)", "POWER(b, 20)", "POWER(u, 33)",
]


def r32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def main():
    rnd = random.Random(26)
    scale = lambda: rnd.choice([1e-3, 0.1, 1, 10, 1000, 1e6])  # noqa: E731
    cols = {
        "f": [r32(rnd.gauss(0, 1) * scale()) for _ in range(N)],
        "g": [r32(rnd.gauss(0, 1) * scale()) for _ in range(N)],
        "d": [rnd.gauss(0, 1) * scale() for _ in range(N)],
        "e": [abs(rnd.gauss(0, 1)) * scale() for _ in range(N)],
        "i": [rnd.randint(-(2**31), 2**31 - 1) for _ in range(N)],
        "big": [rnd.randint(-(2**63), 2**63 - 1) for _ in range(N)],
        "b": [rnd.randint(-128, 127) for _ in range(N)],
        "u": [rnd.randint(0, 2**32 - 1) for _ in range(N)],
    }
    # multiples of 0.1 and 0.3, where a division and a reciprocal differ
    for k in range(0, N, 4):
        cols["d"][k] = round(rnd.uniform(-1000, 1000) * 10) / 10
        cols["f"][k] = r32(round(rnd.uniform(-1000, 1000) * 10) / 10)
    schema = {"f": pl.Float32, "g": pl.Float32, "d": pl.Float64, "e": pl.Float64, "i": pl.Int32, "big": pl.Int64, "b": pl.Int8, "u": pl.UInt32}
    df = pl.DataFrame(cols, schema=schema)
    out = {"schema": [[k, str(v)] for k, v in schema.items()], "columns": cols, "results": {}}
    for e in EXPRS:
        s = nw.from_native(df.lazy()).select(sql_expr(e)).collect().to_native().to_series()
        vals = [None if v is None else (repr(v) if isinstance(v, float) else v) for v in s.to_list()]
        out["results"][e] = {"name": s.name, "dtype": str(s.dtype), "values": vals}
    cols_json = {k: [repr(v) if isinstance(v, float) else v for v in vs] for k, vs in cols.items()}
    out["columns"] = cols_json
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "runner", "polarssql", "testdata", "random", "arith.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(path, len(EXPRS), "expressions over", N, "rows")


if __name__ == "__main__":
    main()
