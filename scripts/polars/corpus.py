"""Computes the expected results of the Polars corpus with Laktory 0.13.1's
Polars backend (polars 1.32.0) and delta-rs.

The corpus (runner/polarssql/testdata/corpus) holds fixture tables
(tables.json: columns with Polars dtypes, rows in canonical JSON) and
steps in *.sql files, each introduced by a header:

    -- name: unique_name
    -- inputs: df=orders, nodes.customers=customers
    -- mode: query | filter | select                     (default query)
    SELECT ... FROM {df} ...

Each step runs through Laktory's own code path for it:
  query   an `expr` transformer step: laktory.models.DataFrameExpr(expr)
          .to_df(dfs), i.e. polars.SQLContext over the inputs as
          Laktory names them;
  filter  a source's `filter`: the narwhals frame filtered with Laktory's
          sql_expr (laktory/sqlparser.py), as BaseDataSource._post_read;
  select  a source's `selects` list of one item, the same way.
The result is collected and written as a Delta table with
DataFrame.write_delta(mode="overwrite"), as Laktory's Polars DELTA sink
writes it. For every *.sql file this script writes *.expected.json
beside it: per step, the Polars schema (names and dtypes), the rows in a
canonical JSON form and the Delta schema delta-rs wrote, or the error
(its Python class, first line, and the phase: "run" while Laktory
computes the frame, "write" while the sink writes it).

Dev-only: the Go tests read the checked-in results. Run it through
corpus.sh:

    corpus.py [--only NAME_PREFIX] CORPUS_DIR
"""
import argparse
import datetime as dt
import decimal
import glob
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import warnings

os.environ["TZ"] = "UTC"
warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

import deltalake  # noqa: E402
import narwhals as nw  # noqa: E402
import polars as pl  # noqa: E402

import laktory as lk  # noqa: E402
from laktory.narwhals_ext.functions import sql_expr  # noqa: E402

HEADER = re.compile(r"^--\s*(name|inputs|mode):\s*(.*)$")
# A top-level ORDER BY (none of its text in brackets), as the Go test reads it.
TOP_ORDER = re.compile(r"\border\s+by\b[^()]*$", re.I | re.S)


def read_cases(path):
    cases, cur = [], None
    for line in open(path, encoding="utf-8"):
        m = HEADER.match(line.rstrip("\n"))
        if m and m.group(1) == "name":
            cur = {"name": m.group(2).strip(), "inputs": {}, "mode": "query", "sql": []}
            cases.append(cur)
        elif m and cur is not None and not cur["sql"]:
            key, val = m.group(1), m.group(2).strip()
            if key == "inputs":
                for part in val.split(","):
                    ph, table = part.strip().split("=")
                    cur["inputs"][ph.strip()] = table.strip()
            else:
                cur["mode"] = val
        elif cur is not None:
            cur["sql"].append(line)
    for c in cases:
        c["sql"] = "".join(c["sql"]).strip()
    return cases


def parse_dtype(s):
    """A dtype as tables.json writes it (Polars' repr): Int64,
    Decimal(10,2), Datetime(us), Datetime(us,UTC), List(String),
    Struct(city:String,zip:String)."""
    s = s.strip()
    m = re.fullmatch(r"(\w+)(?:\((.*)\))?", s)
    name, arg = m.group(1), m.group(2)
    if name == "Decimal":
        p, sc = arg.split(",")
        return pl.Decimal(int(p), int(sc))
    if name == "Datetime":
        parts = [x.strip() for x in arg.split(",")] if arg else ["us"]
        return pl.Datetime(parts[0], parts[1] if len(parts) > 1 else None)
    if name == "Duration":
        return pl.Duration(arg or "us")
    if name == "List":
        return pl.List(parse_dtype(arg))
    if name == "Struct":
        fields, depth, cur = [], 0, ""
        for ch in arg:
            if ch == "," and depth == 0:
                fields.append(cur)
                cur = ""
                continue
            depth += ch == "("
            depth -= ch == ")"
            cur += ch
        fields.append(cur)
        return pl.Struct([pl.Field(f.split(":", 1)[0], parse_dtype(f.split(":", 1)[1])) for f in fields])
    return getattr(pl, name)


def dtype_name(t):
    """Polars' dtype as the corpus names it (the inverse of parse_dtype)."""
    if isinstance(t, pl.Decimal):
        return f"Decimal({t.precision},{t.scale})"
    if isinstance(t, pl.Datetime):
        return f"Datetime({t.time_unit},{t.time_zone})" if t.time_zone else f"Datetime({t.time_unit})"
    if isinstance(t, pl.Duration):
        return f"Duration({t.time_unit})"
    if isinstance(t, pl.List):
        return f"List({dtype_name(t.inner)})"
    if isinstance(t, pl.Array):
        return f"Array({dtype_name(t.inner)},{t.size})"
    if isinstance(t, pl.Struct):
        return "Struct(" + ",".join(f"{f.name}:{dtype_name(f.dtype)}" for f in t.fields) + ")"
    return str(t.base_type()) if hasattr(t, "base_type") else str(t)


def to_python(v, t):
    if v is None:
        return None
    if isinstance(t, pl.Datetime):
        return dt.datetime.strptime(v, "%Y-%m-%d %H:%M:%S.%f")
    if isinstance(t, pl.Date):
        return dt.date.fromisoformat(v)
    if isinstance(t, pl.Decimal):
        return decimal.Decimal(v)
    if isinstance(t, (pl.Float32, pl.Float64)):
        return float(v)
    if isinstance(t, pl.Duration):
        return dt.timedelta(microseconds=int(v))
    if isinstance(t, pl.List):
        return [to_python(x, t.inner) for x in v]
    if isinstance(t, pl.Struct):
        return {f.name: to_python(x, f.dtype) for x, f in zip(v, t.fields)}
    return v


def canon(v, t):
    """A Polars value of dtype t in the corpus's canonical JSON form."""
    if v is None:
        return None
    if isinstance(t, (pl.Float32, pl.Float64)):
        if v != v:
            return "NaN"
        if v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        return repr(float(v))
    if isinstance(t, pl.Decimal):
        return format(v, "f")
    if isinstance(t, pl.Datetime):
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(t, pl.Date):
        return v.isoformat()
    if isinstance(t, pl.Time):
        return v.isoformat()
    if isinstance(t, pl.Duration):
        return str((v.days * 86400 + v.seconds) * 1000000 + v.microseconds)
    if isinstance(t, pl.Binary):
        return bytes(v).hex().upper()
    if isinstance(t, (pl.List, pl.Array)):
        return [canon(x, t.inner) for x in v]
    if isinstance(t, pl.Struct):
        return [canon(v.get(f.name), f.dtype) for f in t.fields]
    return v


def delta_type(t):
    """A delta-rs schema type (JSON form) in Spark's notation."""
    if isinstance(t, str):
        return t
    k = t["type"]
    if k == "array":
        return "array<" + delta_type(t["elementType"]) + ">"
    if k == "map":
        return "map<" + delta_type(t["keyType"]) + "," + delta_type(t["valueType"]) + ">"
    if k == "struct":
        return "struct<" + ",".join(f["name"] + ":" + delta_type(f["type"]) for f in t["fields"]) + ">"
    return str(k)


def load_tables(path):
    raw = json.load(open(path))
    out = {}
    for name, tb in raw.items():
        schema = {c[0]: parse_dtype(c[1]) for c in tb["schema"]}
        cols = list(schema)
        data = {c: [to_python(r[i], schema[c]) for r in tb["rows"]] for i, c in enumerate(cols)}
        out[name] = pl.DataFrame(data, schema=schema)
    return out


def first_line(e):
    s = str(e).strip().split("\n")[0]
    return s[:300]


def run_case(c, tables, tmp):
    dfs = {ph: tables[t].lazy() for ph, t in c["inputs"].items()}
    try:
        if c["mode"] == "query":
            df = lk.models.DataFrameExpr(expr=c["sql"]).to_df(dfs=dfs)
        elif c["mode"] == "filter":
            df = nw.from_native(dfs["df"]).filter(sql_expr(c["sql"]))
        elif c["mode"] == "select":
            df = nw.from_native(dfs["df"]).select([sql_expr(c["sql"])])
        else:
            raise SystemExit(f"{c['name']}: unknown mode {c['mode']}")
        native = df.to_native()
        if isinstance(native, pl.LazyFrame):
            native = native.collect()
    except BaseException as e:  # noqa: BLE001  (pyo3 panics are BaseException)
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return {"error": type(e).__name__, "message": first_line(e), "phase": "run"}
    rows = [[canon(v, t) for v, t in zip(r, native.schema.values())] for r in native.rows()]
    if not (c["mode"] == "query" and TOP_ORDER.search(c["sql"])):
        # polars' group_by and set operations keep no order: rows of a
        # query without ORDER BY are a multiset, written sorted.
        rows.sort(key=lambda r: json.dumps(r, sort_keys=True))
    res = {"schema": [[n, dtype_name(t)] for n, t in native.schema.items()], "rows": rows}
    path = os.path.join(tmp, c["name"])
    try:
        native.write_delta(path, mode="overwrite")
        sch = json.loads(deltalake.DeltaTable(path).schema().to_json())
        res["delta"] = [[f["name"], delta_type(f["type"])] for f in sch["fields"]]
    except BaseException as e:  # noqa: BLE001
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        res["write_error"] = type(e).__name__
        res["write_message"] = first_line(e)
    finally:
        shutil.rmtree(path, ignore_errors=True)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    assert pl.__version__ == "1.32.0", f"polars {pl.__version__}: the reference is polars 1.32.0 (laktory[polars]==0.13.1)"
    tables = load_tables(os.path.join(a.corpus, "tables.json"))
    files = sorted(glob.glob(os.path.join(a.corpus, "*.sql")) + glob.glob(os.path.join(a.corpus, "heldout", "*.sql")))
    tmp = tempfile.mkdtemp(prefix="polars-corpus-")
    try:
        for f in files:
            out = f[: -len(".sql")] + ".expected.json"
            old = json.load(open(out))["cases"] if os.path.exists(out) else {}
            cases = {}
            for c in read_cases(f):
                if c["name"] in cases:
                    raise SystemExit(f"{f}: step {c['name']} twice")
                if a.only and not c["name"].startswith(a.only) and c["name"] in old:
                    cases[c["name"]] = old[c["name"]]
                    continue
                cases[c["name"]] = run_case(c, tables, tmp)
            with open(out, "w") as fh:
                json.dump({"reference": f"laktory {lk.__version__}, polars {pl.__version__}, deltalake {deltalake.__version__}", "cases": cases}, fh, indent=1, sort_keys=True)
                fh.write("\n")
            print(f"{os.path.relpath(out)}: {len(cases)} steps", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
