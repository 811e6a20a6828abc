#!/usr/bin/env python3
"""Records what Laktory 0.13.1's Polars backend (polars 1.32.0) does with a
POLARS JSON lines source whose `schema` declares each dtype: a
FileDataSource(format=JSONL|NDJSON|JSON, dataframe_backend=POLARS,
schema=...) read and collected, one process per case (polars panics
"unexpected dtype when deserializing ndjson" on some dtypes, and a panic
can leave its threads behind). Writes, for every case of the input file,
"ok" or the exception's class and its panic reason or first line.

Dev-only: validate's tests read the checked-in results.

    .venv/bin/python scripts/polars/ndjson_schema_cases.py validate/testdata/polars_ndjson_schema.json
"""
import json
import os
import subprocess
import sys
import tempfile

CHILD = r'''
import json, sys, warnings, logging
warnings.filterwarnings("ignore"); logging.disable(logging.CRITICAL)
from laktory.models import FileDataSource
case = json.loads(sys.argv[1]); path = sys.argv[2]
try:
    df = FileDataSource(path=path, format=case["format"], dataframe_backend="POLARS", schema=case["schema"]).read().to_native()
    if hasattr(df, "collect"):
        df = df.collect()
    print(json.dumps({"result": "ok"}))
except BaseException as e:  # polars' PanicException is a BaseException
    msg = (str(e).strip().splitlines() or [""])[0]
    if "unexpected dtype when deserializing ndjson" in str(e):
        msg = "unexpected dtype when deserializing ndjson"
    print(json.dumps({"result": type(e).__name__, "message": msg[:200]}))
'''

EXT = {"JSON": "json", "JSONL": "jsonl", "NDJSON": "ndjson"}


def main():
    path = sys.argv[1]
    spec = json.load(open(path, encoding="utf-8"))
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for case in spec["cases"]:
            f = os.path.join(tmp, case["name"] + "." + EXT[case["format"]])
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(case["content"])
            p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(case), f], capture_output=True, text=True, timeout=300)
            lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
            out[case["name"]] = json.loads(lines[-1]) if lines else {"result": "crash", "message": p.stderr.strip().splitlines()[-1:]}
            print(case["name"], out[case["name"]], file=sys.stderr)
    with open(path.replace(".json", ".expected.json"), "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
