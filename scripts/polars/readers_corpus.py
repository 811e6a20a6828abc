#!/usr/bin/env python3
"""Computes the expected results of the Polars reader corpus with Laktory
0.13.1's Polars backend (polars 1.32.0).

The corpus (runner/polarsread/testdata/corpus, and its heldout/ part) is
*.json files, each a list of cases:

    {"name": "...", "format": "CSV",
     "has_header": false, "infer_schema": true,     (FileDataSource options; omitted: Laktory's defaults)
     "reader_kwargs": {...},
     "schema": {"columns": [...]},                  (the source's `schema`, Laktory's spelling)
     "content": "a,b\\n1,2\\n"                        (one file: data.<format>)
     | "files": {"part-1.csv": "...", ...}           (a folder of files)
     | "parquet": {"col": [values], ...}             (one Parquet file written by polars)
     | "ipc": "NAME"}                                (ipc/NAME.arrow, one of IPC_FRAMES written by polars' write_ipc)

Each case is read through Laktory's own code path: a FileDataSource with
dataframe_backend POLARS, .read() (FileDataSource._read_polars:
pl.scan_csv(path, **kwargs), ...), collected. For every *.json file this
script writes *.expected.json beside it: per case, the Polars schema
(names and dtypes) and the rows in a canonical JSON form (dates
YYYY-MM-DD, datetimes YYYY-MM-DDTHH:MM:SS.ffffff with a Z when in UTC,
non-finite floats "inf", "-inf", "nan"), or the error (its Python class and
first line).

Dev-only: the Go tests read the checked-in results.

    .venv/bin/python scripts/polars/readers_corpus.py runner/polarsread/testdata/corpus [FILE_SUFFIX]

With FILE_SUFFIX (e.g. heldout/schema.json) only the files whose path ends
so are computed again.
"""
import datetime as dt
import decimal
import glob
import json
import logging
import math
import os
import shutil
import sys
import tempfile
import warnings

os.environ["TZ"] = "UTC"
warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

import polars as pl  # noqa: E402

from laktory.models import FileDataSource  # noqa: E402

IPC_DIR = ""
EXT = {"CSV": "csv", "JSON": "json", "JSONL": "jsonl", "NDJSON": "ndjson", "PARQUET": "parquet", "IPC": "arrow"}


def ipc_frames():
    """The Arrow IPC files of the corpus (ipc/NAME.arrow), written by polars'
    write_ipc (string_view and large_list columns, as polars writes them)."""
    return {
        "types": pl.DataFrame({
            "i": [1, None, -3], "s": ["a", None, "c"], "f": [1.5, 2.0, None], "b": [True, False, None],
            "d": [dt.date(2024, 1, 2), None, dt.date(1999, 12, 31)],
            "ts": [dt.datetime(2024, 1, 2, 3, 4, 5, 6), None, dt.datetime(2000, 1, 1)],
            "i32": pl.Series([1, 2, None], dtype=pl.Int32), "u32": pl.Series([1, None, 3], dtype=pl.UInt32),
        }),
        "nested": pl.DataFrame({
            "l": [[1, 2], [], None], "st": [{"x": 1, "y": "p"}, {"x": 2, "y": None}, None],
            "dec": pl.Series(["1.25", "2.50", None]).cast(pl.Decimal(10, 2)),
            "tz": pl.Series([dt.datetime(2024, 1, 2, 3, 4, 5), None, None]).dt.replace_time_zone("UTC"),
        }),
        "rows": pl.DataFrame({"a": list(range(10)), "s": [f"r{i}" for i in range(10)]}),
        "time": pl.DataFrame({"t": [dt.time(10, 0)]}),
    }


def canon(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, dt.datetime):
        s = v.strftime("%Y-%m-%dT%H:%M:%S.%f")
        return s + "Z" if v.tzinfo is not None else s
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, dt.time):
        return v.isoformat()
    if isinstance(v, list):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {k: canon(x) for k, x in v.items()}
    return repr(v)


def run_case(case, tmp):
    fmt = case["format"]
    d = os.path.join(tmp, case["name"])
    os.makedirs(d)
    if "files" in case:
        for name, text in case["files"].items():
            with open(os.path.join(d, name), "w", encoding="utf-8", newline="") as f:
                f.write(text)
        path = d
    elif "ipc" in case:
        path = os.path.join(IPC_DIR, case["ipc"] + ".arrow")
    elif "parquet" in case:
        path = os.path.join(d, "data.parquet")
        pl.DataFrame(case["parquet"]).write_parquet(path)
    else:
        path = os.path.join(d, "data." + EXT[fmt])
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(case["content"])
    opts = {"path": path, "format": fmt, "dataframe_backend": "POLARS"}
    for k in ("has_header", "infer_schema"):
        if k in case:
            opts[k] = case[k]
    if "reader_kwargs" in case:
        opts["reader_kwargs"] = case["reader_kwargs"]
    if "schema" in case:
        opts["schema"] = case["schema"]
    try:
        df = FileDataSource(**opts).read().to_native()
        if isinstance(df, pl.LazyFrame):
            df = df.collect()
    except BaseException as e:  # noqa: BLE001  (polars' PanicException is a BaseException)
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        msg = (str(e).strip().splitlines() or [""])[0].replace(d, "<dir>").replace(IPC_DIR, "<ipc>")
        return {"error": type(e).__name__, "message": msg}
    rows = [[canon(v) for v in r] for r in df.rows()]
    rows = json.loads(json.dumps(rows).replace(d, "<dir>"))
    rows = json.loads(json.dumps(rows).replace(IPC_DIR, "<ipc>"))
    return {"schema": [[n, str(t)] for n, t in df.schema.items()], "rows": rows}


def main():
    global IPC_DIR
    root = sys.argv[1]
    IPC_DIR = os.path.join(root, "ipc")
    os.makedirs(IPC_DIR, exist_ok=True)
    for name, df in ipc_frames().items():
        df.write_ipc(os.path.join(IPC_DIR, name + ".arrow"))
    files = sorted(glob.glob(os.path.join(root, "*.json")) + glob.glob(os.path.join(root, "heldout", "*.json")))
    tmp = tempfile.mkdtemp()
    try:
        for path in files:
            if path.endswith(".expected.json") or (len(sys.argv) > 2 and not path.endswith(sys.argv[2])):
                continue
            cases = json.load(open(path, encoding="utf-8"))
            out = {c["name"]: run_case(c, tmp) for c in cases}
            with open(path[: -len(".json")] + ".expected.json", "w", encoding="utf-8") as f:
                json.dump(out, f, indent=1, ensure_ascii=False)
                f.write("\n")
            print(path, len(out), "cases", sum(1 for r in out.values() if "error" in r), "errors")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
