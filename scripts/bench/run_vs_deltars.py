"""Whole `laktory run` processes against delta-rs, on the same rows.

Used by scripts/bench/run_vs_deltars.sh; three modes:

  generate DIR          write, with delta-rs, DIR/base_interleaved (ROWS
                        rows, default 2M, of ten clients interleaved in
                        every file, as a backfill leaves them) and the
                        workspaces: DIR/ws_reset (two pipelines share the
                        table all_orders by `where` predicates, client_id = 3
                        and client_id <> 3) and DIR/ws_pipeline (one node
                        reading PIPELINE_ROWS, default 5M, JSON lines rows of
                        symbol, ts, price, qty, transformed with SQL and
                        appended to a shared table)
  time DIR LAKTORY      alternating rounds (ROUNDS, default 5): delta-rs'
                        DeltaTable.delete("client_id = 3") on a copy of
                        base_interleaved (the delete alone, in this process,
                        rewritten with snappy as we write), then the whole
                        process `LAKTORY run ws_reset --pipeline pl-c3
                        --refresh RESET --yes` on another copy (start, plan
                        with its row count, delete, history); prints each
                        side's median elapsed and CPU time (CPU: all
                        threads; ours: the child process) and the ratios
  size DIR LAKTORY      runs ws_pipeline once (`LAKTORY run`), then writes
                        the same rows with delta-rs' write_deltalake (its
                        defaults) and prints both tables' data bytes

Setup (copies, the sync that follows them) is not timed on either side.
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROWS = int(os.environ.get("ROWS", "2000000"))
PIPELINE_ROWS = int(os.environ.get("PIPELINE_ROWS", "5000000"))
ROUNDS = int(os.environ.get("ROUNDS", "5"))

RESET_PIPELINE = """name: {name}
nodes:
- name: orders
  sources:
  - path: ../../orders.parquet
    format: PARQUET
  transformer:
    nodes:
    - expr: SELECT * FROM {{df}} WHERE {pred}
  sinks:
  - table_name: all_orders
    mode: APPEND
    shared:
      where: {pred}
"""

FEED_PIPELINE = """name: pl
nodes:
- name: feed
  sources:
  - path: ../data/feed.jsonl
    format: JSONL
  transformer:
    nodes:
    - expr: |
        SELECT upper(symbol) AS symbol, CAST(ts AS TIMESTAMPTZ) AS ts,
               round(price * 1.1, 2) AS price, qty, price * qty AS notional
        FROM {df} WHERE qty > 0
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
"""


def table_file_bytes(path):
    """The sizes of a table's files outside its log."""
    n = 0
    for d, dirs, files in os.walk(path):
        dirs[:] = [x for x in dirs if x != "_delta_log"]
        n += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    return n


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def generate(root):
    import polars as pl
    from deltalake import write_deltalake

    df = pl.select(i=pl.int_range(0, ROWS, dtype=pl.Int64)).select(
        client_id=(pl.col("i") % 10).cast(pl.Int32),
        order_id=pl.col("i"),
        ordered_at=pl.datetime(2024, 1, 1, time_zone="UTC") + pl.duration(seconds=pl.col("i")),
        item=pl.format("item-{}", pl.col("i") % 100),
        quantity=(pl.col("i") % 7 + 1).cast(pl.Int32),
        amount=(pl.col("i") % 10000).cast(pl.Float64) * 0.01,
    )
    table = df.to_arrow()
    table = table.cast(table.schema)  # string_view -> string
    df.write_parquet(os.path.join(root, "orders.parquet"))
    write_deltalake(os.path.join(root, "base_interleaved"), table)
    ws = os.path.join(root, "ws_reset")
    write_file(os.path.join(ws, "pipelines", "pl-c3.yaml"), RESET_PIPELINE.format(name="pl-c3", pred="client_id = 3"))
    write_file(os.path.join(ws, "pipelines", "pl-rest.yaml"), RESET_PIPELINE.format(name="pl-rest", pred="client_id <> 3"))

    ws = os.path.join(root, "ws_pipeline")
    write_file(os.path.join(ws, "pipelines", "pl.yaml"), FEED_PIPELINE)
    feed = pl.select(i=pl.int_range(0, PIPELINE_ROWS, dtype=pl.Int64)).select(
        symbol=pl.format("sym{}", pl.col("i") % 500),
        ts=(pl.datetime(2026, 1, 1) + pl.duration(seconds=pl.col("i"))).dt.strftime("%Y-%m-%d %H:%M:%S"),
        price=(pl.col("i") % 1000) / 10.0,
        qty=1 + pl.col("i") % 7,
    )
    os.makedirs(os.path.join(ws, "data"), exist_ok=True)
    feed.write_ndjson(os.path.join(ws, "data", "feed.jsonl"))
    print("generated %d + %d rows in %s" % (ROWS, PIPELINE_ROWS, root), file=sys.stderr)


def run_laktory(laktory, args):
    """Runs laktory; returns (elapsed s, CPU s of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([laktory] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("laktory %s failed:\n%s" % (" ".join(args), p.stdout))
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def live_rows(path, where=None):
    import pyarrow.compute as pc
    from deltalake import DeltaTable

    ds = DeltaTable(path).to_pyarrow_dataset()
    return ds.count_rows(filter=where(pc) if where else None)


def time_reset(root, laktory):
    from deltalake import DeltaTable, WriterProperties

    snappy = WriterProperties(compression="SNAPPY")
    base = os.path.join(root, "base_interleaved")
    ws = os.path.join(root, "ws_reset")
    table = os.path.join(ws, ".laktory", "lake", "main", "default", "all_orders")
    scratch = tempfile.mkdtemp(dir=root)
    want = ROWS - ROWS // 10
    c3 = lambda pc: pc.field("client_id") == 3
    res = {"deltars": [], "deltars/cpu": [], "ours": [], "ours/cpu": []}
    for r in range(ROUNDS):
        p = os.path.join(scratch, "t%d" % r)
        shutil.copytree(base, p)
        os.sync()
        c0, t0 = time.process_time(), time.perf_counter()
        DeltaTable(p).delete("client_id = 3", writer_properties=snappy)
        res["deltars"].append(time.perf_counter() - t0)
        res["deltars/cpu"].append(time.process_time() - c0)
        if live_rows(p) != want or live_rows(p, c3):
            sys.exit("delta-rs left the wrong rows")
        shutil.rmtree(p)

        shutil.rmtree(table, ignore_errors=True)
        shutil.copytree(base, table)
        os.sync()
        wall, cpu = run_laktory(laktory, ["run", ws, "--pipeline", "pl-c3", "--refresh", "RESET", "--yes"])
        res["ours"].append(wall)
        res["ours/cpu"].append(cpu)
        if live_rows(table) != want or live_rows(table, c3):
            sys.exit("laktory left the wrong rows")
        print("round %d: delta-rs %.0f ms (cpu %.0f), laktory run %.0f ms (cpu %.0f)" % (
            r + 1, res["deltars"][-1] * 1000, res["deltars/cpu"][-1] * 1000, wall * 1000, cpu * 1000), flush=True)
    shutil.rmtree(scratch)
    med = {k: statistics.median(v) for k, v in res.items()}
    print("RESET of a where writer (1 in 10 of %d interleaved rows), medians over %d rounds:" % (ROWS, ROUNDS))
    print("  elapsed: laktory run %.0f ms, delta-rs delete %.0f ms, ratio %.2f" % (
        med["ours"] * 1000, med["deltars"] * 1000, med["ours"] / med["deltars"]))
    print("  cpu:     laktory run %.0f ms, delta-rs delete %.0f ms, ratio %.2f" % (
        med["ours/cpu"] * 1000, med["deltars/cpu"] * 1000, med["ours/cpu"] / med["deltars/cpu"]))
    print(json.dumps(med))


def size(root, laktory):
    from deltalake import DeltaTable, write_deltalake

    ws = os.path.join(root, "ws_pipeline")
    table = os.path.join(ws, ".laktory", "lake", "main", "default", "prices")
    shutil.rmtree(os.path.join(ws, ".laktory"), ignore_errors=True)
    wall, cpu = run_laktory(laktory, ["run", ws, "--yes"])
    rows = DeltaTable(table).to_pyarrow_table()
    theirs = tempfile.mkdtemp(dir=root)
    write_deltalake(os.path.join(theirs, "t"), rows)
    ours_b, theirs_b = table_file_bytes(table), table_file_bytes(os.path.join(theirs, "t"))
    shutil.rmtree(theirs)
    print("pipeline of %d JSON rows (laktory run %.0f ms, cpu %.0f ms): %d rows, %d columns" % (
        PIPELINE_ROWS, wall * 1000, cpu * 1000, rows.num_rows, rows.num_columns))
    print("  data bytes: ours %d, delta-rs write_deltalake of the same rows %d, ratio %.3f" % (
        ours_b, theirs_b, ours_b / theirs_b))


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "generate":
        generate(sys.argv[2])
    elif mode == "time":
        time_reset(sys.argv[2], sys.argv[3])
    elif mode == "size":
        size(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
    sys.stdout.flush()
    os._exit(0)  # delta-rs' runtime may abort the interpreter's teardown
