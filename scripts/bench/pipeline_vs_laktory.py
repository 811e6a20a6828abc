"""Whole pipelines side by side with Laktory 0.13.1's Polars backend.

Used by scripts/bench/pipeline_vs_laktory.sh; modes:

  generate DIR          write ROWS rows (default 4M: id, symbol of 500
                        values, ts as ISO text (2026-01-01T00:00:00: Polars'
                        CAST to TIMESTAMP refuses a space), a price of 50,000 values, qty),
                        half per writer, as JSON lines, CSV and Parquet, and
                        one workspace per source format and backend:
                        DIR/ws_<format>_<backend>, two pipelines (pl-a,
                        pl-b) each reading its half, casting, filtering
                        (qty > 0: 1 row in 50 goes) and computing a column
                        in one SQL step, and appending to one shared Delta
                        table (shared: true, the writer column) at
                        lake/trades; backend POLARS (Polars SQL) and PYSPARK
                        (Spark SQL) for ours, POLARS for Laktory
  time DIR LAKTORY FLOOR
                        alternating rounds (ROUNDS, default 3), per format
                        (FORMATS, default jsonl csv parquet): Laktory's
                        Pipeline.execute() of pl-a then pl-b in a fresh
                        Python process (the import of laktory is not timed:
                        the child times execute() alone), then the whole
                        process `LAKTORY run ws --yes` (both pipelines) on
                        the POLARS and on the PYSPARK workspace, then
                        FLOOR (scripts/bench/floor: DuckDB's own COPY
                        (SELECT ...) TO parquet of the same query, and the
                        read alone). Per side: wall, CPU (all threads of
                        the process; Laktory's: execute() only) and peak
                        resident memory (the process's, Laktory's import
                        included), medians; the data bytes of each table;
                        and after the first round, the rows of each writer
                        compared (the same rows, values and column types in
                        every table)

Setup (removing the previous round's table) is not timed.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROWS = int(os.environ.get("ROWS", "4000000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
FORMATS = os.environ.get("FORMATS", "jsonl csv parquet").split()
EXT = {"jsonl": "jsonl", "csv": "csv", "parquet": "parquet"}

# The SQL step: valid Polars SQL and Spark SQL, computing the same rows.
# Laktory's Polars CSV reader reads every column as text: the casts make
# the rows of every format the same.
STEP = ("SELECT CAST(id AS BIGINT) AS id, upper(symbol) AS symbol, CAST(ts AS TIMESTAMP) AS ts, "
        "CAST(price AS DOUBLE) AS price, CAST(qty AS BIGINT) AS qty, "
        "round(CAST(price AS DOUBLE) * CAST(qty AS BIGINT), 2) AS notional FROM {df} WHERE CAST(qty AS BIGINT) > 0")

PIPELINE = """name: pl-{w}
dataframe_backend: {backend}
nodes:
- name: trades
  sources:
  - path: ../data/{w}.{ext}
    format: {fmt}
  transformer:
    nodes:
    - expr: {step}
  sinks:
  - path: ../lake/trades
    format: DELTA
    mode: APPEND
    shared: true
"""

# The child that runs Laktory: imports it, then times Pipeline.execute() of
# each pipeline file given, and prints {"wall": s, "cpu": s}.
LAKTORY_CHILD = r"""
import json, logging, os, sys, time, warnings
logging.disable(logging.WARNING)
warnings.filterwarnings("ignore")
import laktory as lk
pipes = []
for f in sys.argv[1:]:
    os.chdir(os.path.dirname(f))
    with open(f) as fh:
        pipes.append((os.path.dirname(f), lk.models.Pipeline.model_validate_yaml(fh)))
c0, t0 = time.process_time(), time.perf_counter()
for d, p in pipes:
    os.chdir(d)
    p.execute()
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}))
sys.stdout.flush()
os._exit(0)
"""


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def link_data(root, ws):
    """Hard links of the data files in ws/data (the runs read only inside
    their workspace: a symbolic link out of it is refused)."""
    os.makedirs(os.path.join(ws, "data"), exist_ok=True)
    for f in os.listdir(os.path.join(root, "data")):
        dst = os.path.join(ws, "data", f)
        if os.path.exists(dst):
            os.remove(dst)
        os.link(os.path.join(root, "data", f), dst)


def workspace(root, fmt, backend):
    return os.path.join(root, "ws_%s_%s" % (fmt, backend.lower()))


def generate(root):
    import polars as pl

    half = ROWS // 2
    for k, w in enumerate(["a", "b"]):
        df = pl.select(i=pl.int_range(k * half, (k + 1) * half, dtype=pl.Int64)).select(
            id=pl.col("i"),
            symbol=pl.format("sym{}", (pl.col("i") * 31) % 500),
            ts=(pl.datetime(2026, 1, 1) + pl.duration(seconds=pl.col("i"))).dt.strftime("%Y-%m-%dT%H:%M:%S"),
            price=((pl.col("i") * 7919) % 50_000 + 10_000) / 100.0,
            qty=(pl.col("i") * 13) % 50,  # 0 in 1 row of 50: the filter's
        )
        data = os.path.join(root, "data")
        os.makedirs(data, exist_ok=True)
        df.write_ndjson(os.path.join(data, w + ".jsonl"))
        df.write_csv(os.path.join(data, w + ".csv"))
        df.write_parquet(os.path.join(data, w + ".parquet"))
    for fmt in FORMATS:
        for backend in ["POLARS", "PYSPARK"]:
            ws = workspace(root, fmt, backend)
            for w in ["a", "b"]:
                write_file(os.path.join(ws, "pipelines", "pl-%s.yaml" % w), PIPELINE.format(
                    w=w, backend=backend, ext=EXT[fmt], fmt=fmt.upper(), step=STEP))
            link_data(root, ws)
    with open(os.path.join(root, "rows.json"), "w") as f:
        json.dump({"rows": ROWS}, f)
    print("generated %d rows (2 writers) as %s in %s" % (ROWS, ", ".join(FORMATS), root), file=sys.stderr)


def run(args, cwd=None):
    """Runs a process; returns (wall s, CPU s, peak RSS MB, stdout)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(args), out))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, out


def table_bytes(path):
    n = 0
    for d, dirs, files in os.walk(path):
        dirs[:] = [x for x in dirs if x != "_delta_log"]
        n += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    return n


def snapshot(path):
    """The rows of a table, sorted by writer and id, and its schema."""
    import polars as pl

    df = pl.read_delta(path)
    return df.sort(["_laktory_writer", "id"]), {c: str(t) for c, t in df.schema.items()}


def compare(tables):
    """Checks every table holds the same rows per writer as the first, with
    the same column types; a PYSPARK table's TIMESTAMP is Spark's (Delta's
    timestamp, with a time zone) where Polars writes timestamp_ntz: its
    values are compared as UTC wall times."""
    import polars as pl

    ref_name, ref_path = tables[0]
    ref, ref_schema = snapshot(ref_path)
    per_writer = ref.group_by("_laktory_writer").len().sort("_laktory_writer").rows()
    lines = ["rows per writer (%s): %s" % (ref_name, per_writer)]
    ok = True
    for name, path in tables[1:]:
        df, schema = snapshot(path)
        note = ""
        if schema != ref_schema and "PYSPARK" in name:
            tz = [c for c, t in schema.items() if "time_zone='UTC'" in t and ref_schema.get(c, "").endswith("time_zone=None)")]
            df = df.with_columns([pl.col(c).dt.replace_time_zone(None) for c in tz])
            schema = {c: str(t) for c, t in df.schema.items()}
            note = " (%s: Spark's TIMESTAMP, with a time zone)" % ", ".join(tz)
        if schema != ref_schema:
            ok = False
            lines.append("  %s: schema %s, %s has %s" % (name, schema, ref_name, ref_schema))
            continue
        same = df.select(ref.columns).equals(ref)
        ok = ok and same
        lines.append("  %s: %s%s" % (name, "identical rows" if same else "DIFFERENT rows", note))
    return ok, lines


def floor_queries(root, fmt):
    """DuckDB's read of both writers' files as our runs read them, and the
    step over it."""
    files = "[%s]" % ", ".join("'%s'" % os.path.join(root, "data", w + "." + EXT[fmt]) for w in ["a", "b"])
    read = {
        "jsonl": "read_json(%s, format = 'newline_delimited', dateformat = 'no date inference', "
                 "timestampformat = 'no timestamp inference')" % files,
        "csv": "read_csv(%s, header = true)" % files,
        "parquet": "read_parquet(%s)" % files,
    }[fmt]
    step = STEP.replace("{df}", read)
    return read, step


def time_all(root, laktory, floor):
    res = {}
    for r in range(ROUNDS):
        for fmt in FORMATS:
            load0 = open("/proc/loadavg").read().split()[:3]
            row = {}
            # Laktory's Polars backend
            ws = workspace(root, fmt, "POLARS")
            lk_lake = os.path.join(root, "laktory_" + fmt, "lake")
            lk_ws = os.path.join(root, "laktory_" + fmt)
            if not os.path.isdir(os.path.join(lk_ws, "pipelines")):
                shutil.copytree(os.path.join(ws, "pipelines"), os.path.join(lk_ws, "pipelines"))
                link_data(root, lk_ws)
            shutil.rmtree(lk_lake, ignore_errors=True)
            os.sync()
            files = [os.path.join(lk_ws, "pipelines", "pl-%s.yaml" % w) for w in ["a", "b"]]
            wall, cpu, rss, out = run([sys.executable, "-c", LAKTORY_CHILD] + files)
            t = json.loads(out.strip().splitlines()[-1])
            row["laktory"] = [t["wall"], t["cpu"], rss, table_bytes(os.path.join(lk_lake, "trades"))]
            for backend in ["POLARS", "PYSPARK"]:
                ws = workspace(root, fmt, backend)
                shutil.rmtree(os.path.join(ws, "lake"), ignore_errors=True)
                shutil.rmtree(os.path.join(ws, ".laktory"), ignore_errors=True)
                os.sync()
                wall, cpu, rss, _ = run([laktory, "run", ws, "--yes"])
                row["ours " + backend] = [wall, cpu, rss, table_bytes(os.path.join(ws, "lake", "trades"))]
            read, step = floor_queries(root, fmt)
            out_dir = os.path.join(root, "floor_out")
            shutil.rmtree(out_dir, ignore_errors=True)
            os.sync()
            wall, cpu, rss, out = run([floor, "-out", out_dir, "-read", read, "-query", step])
            t = json.loads(out.strip().splitlines()[-1])
            row["floor COPY"] = [t["copy_wall"], t["copy_cpu"], rss, t["copy_bytes"]]
            row["floor read"] = [t["read_wall"], t["read_cpu"], rss, 0]
            load1 = open("/proc/loadavg").read().split()[:3]
            print("round %d %s (load %s -> %s): %s" % (r + 1, fmt, " ".join(load0), " ".join(load1), "; ".join(
                "%s %.2fs wall %.2fs cpu %.0f MB" % (k, v[0], v[1], v[2]) for k, v in row.items())), flush=True)
            for k, v in row.items():
                res.setdefault(fmt, {}).setdefault(k, []).append(v)
            if r == 0:
                # In a child: the parent stays small, and the peak memory of
                # the processes it starts is theirs (a child's maximum
                # resident size counts what it had before exec).
                p = subprocess.run([sys.executable, os.path.abspath(__file__), "compare", os.path.join(lk_lake, "trades")] + [
                    os.path.join(workspace(root, fmt, b), "lake", "trades") for b in ["POLARS", "PYSPARK"]],
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                print(p.stdout.rstrip(), flush=True)
                if p.returncode != 0:
                    print("  ROWS DIFFER for %s" % fmt, flush=True)
    print()
    rows = json.load(open(os.path.join(root, "rows.json")))["rows"]
    print("medians over %d rounds, %d rows (2 writers); wall and CPU in s (Laktory: execute() alone), "
          "peak RSS in MB, data bytes in MB" % (ROUNDS, rows))
    print("%-8s %-14s %7s %7s %7s %8s | %7s %7s %7s %7s" % (
        "format", "side", "wall", "cpu", "rss", "bytes", "lk/wall", "lk/cpu", "lk/rss", "bytes/lk"))
    for fmt, sides in res.items():
        med = {k: [statistics.median(x[i] for x in v) for i in range(4)] for k, v in sides.items()}
        lk = med["laktory"]
        for k, m in med.items():
            print("%-8s %-14s %7.2f %7.2f %7.0f %8.1f | %7.2f %7.2f %7.2f %7.3f" % (
                fmt, k, m[0], m[1], m[2], m[3] / 1e6, lk[0] / m[0] if m[0] else 0, lk[1] / m[1] if m[1] else 0,
                lk[2] / m[2] if m[2] else 0, m[3] / lk[3] if lk[3] else 0))
    print("lk/x = Laktory's figure over this side's (goal: >= 3 for wall and CPU, >= 2 for memory); "
          "bytes/lk = this side's data bytes over Laktory's (Polars' write_delta)")


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "generate":
        generate(sys.argv[2])
    elif mode == "compare":
        ok, lines = compare(list(zip(["laktory", "ours POLARS", "ours PYSPARK"], sys.argv[2:])))
        print("\n".join("  " + l for l in lines))
        sys.stdout.flush()
        os._exit(0 if ok else 1)
    elif mode == "time":
        time_all(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
    sys.stdout.flush()
    os._exit(0)
