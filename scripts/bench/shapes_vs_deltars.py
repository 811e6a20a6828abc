"""Column-shape benchmark: the bytes and the write CPU of one column written
as a Delta table by delta-rs, by Polars and by laktory's delta package.

Used by scripts/bench/shapes_vs_deltars.sh; three modes:

  generate DIR          write DIR/src_<type>_<nulls>.parquet: ROWS rows
                        (default 2M), one column per cardinality and order
                        (c<card>_<order>), uncompressed so that reading it is
                        cheap; and DIR/shapes.json, the list of shapes
  time DIR              write each shape as a new Delta table with delta-rs
                        (write_deltalake of a pyarrow table, as a Python user
                        writes) and with Polars (DataFrame.write_delta, as
                        Laktory's Polars sink writes); one JSON line per run
                        on stdout: {shape: [bytes, cpu_s, wall_s], ...} per
                        writer
  report DIR            print ours/theirs per shape (bytes: the table's data
                        files, the log aside; CPU: process CPU time of the
                        write, all threads), each the median over the rounds
                        in DIR/peers.jsonl and DIR/ours.txt (BenchmarkShapes:
                        "ours", the write, and "floor", DuckDB's bare COPY of
                        the column with the same options), then totals per
                        type

Shapes: types int (BIGINT), double, decimal (DECIMAL(18,2)), decimal38
(DECIMAL(38,6)), string, timestamp (TIMESTAMP WITH TIME ZONE, microseconds),
boolean; cardinality 2, 100, 10k, 50k, 1M (boolean: 2); order sorted
(ascending by value), clustered (the sorted rows cut into blocks of 4,096,
the blocks shuffled: rows of one value lie together but the column is not
sorted; the order of data landing in time-ordered batches from several
sources) and random (each row's value drawn uniformly); nulls 0% and 30%
(each row null with probability 0.3, independently of its value).

Values from the value index v in [0, card): int 1e9 + 3v, double
100 + v/100 (a price), decimal the same as an exact decimal, decimal38
v * 1.000001, string 'item-' followed by v, timestamp 2024-01-01 UTC plus v
seconds, boolean v = 1.
"""
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

from write_vs_deltars import table_file_bytes  # scripts/bench is the script's folder

ROWS = int(os.environ.get("ROWS", "2000000"))
CARDS = [2, 100, 10_000, 50_000, 1_000_000]
ORDERS = ["sorted", "clustered", "random"]
TYPES = ["int", "double", "decimal", "decimal38", "string", "timestamp", "boolean"]
NULLS = [0, 30]
BLOCK = 4096


def card_name(c):
    return {2: "2", 100: "100", 10_000: "10k", 50_000: "50k", 1_000_000: "1M"}[c]


def shapes():
    out = []
    for t in TYPES:
        for n in NULLS:
            for c in ([2] if t == "boolean" else CARDS):
                for o in ORDERS:
                    out.append({"shape": "%s/c%s/%s/n%d" % (t, card_name(c), o, n), "type": t, "nulls": n,
                                "source": "src_%s_n%d.parquet" % (t, n), "column": "c%s_%s" % (card_name(c), o)})
    return out


def value_indexes(card, order, seed):
    """The value index of each row, a polars expression."""
    import polars as pl

    i = pl.col("i")
    if order == "random":
        return (i.hash(seed) % card).cast(pl.Int64)
    v = (i * card) // ROWS
    if order == "clustered":
        # the sorted rows in blocks of BLOCK, the blocks in a shuffled order
        return v.gather(pl.arg_sort_by([(i // BLOCK).hash(seed), i]))
    return v


def column(t, v, null):
    """The column of type t for value indexes v (polars expressions),
    null where null is true."""
    import polars as pl

    if t == "int":
        e = 1_000_000_000 + 3 * v
    elif t == "double":
        e = 100 + v.cast(pl.Float64) / 100.0
    elif t == "decimal":
        e = (10_000 + v).cast(pl.Decimal(18, 0)).cast(pl.Decimal(18, 2)) / 100
    elif t == "decimal38":
        e = (v * 1_000_001).cast(pl.Decimal(38, 0)).cast(pl.Decimal(38, 6)) / 1_000_000
    elif t == "string":
        e = pl.format("item-{}", v)
    elif t == "timestamp":
        e = pl.datetime(2024, 1, 1, time_zone="UTC") + pl.duration(seconds=v)
    elif t == "boolean":
        e = v == 1
    else:
        raise ValueError(t)
    return pl.when(null).then(None).otherwise(e)


def generate(root):
    import polars as pl
    import pyarrow.parquet as pq

    seed = 29
    for t in TYPES:
        for n in NULLS:
            cols = []
            for c in ([2] if t == "boolean" else CARDS):
                for o in ORDERS:
                    seed += 1
                    null = (pl.col("i").hash(seed + 1000) % 1000) < n * 10
                    cols.append(column(t, value_indexes(c, o, seed), null).alias("c%s_%s" % (card_name(c), o)))
            df = pl.DataFrame({"i": pl.int_range(0, ROWS, dtype=pl.Int64, eager=True)}).select(cols)
            if t == "decimal":
                df = df.with_columns(pl.all().cast(pl.Decimal(18, 2)))
            elif t == "decimal38":
                df = df.with_columns(pl.all().cast(pl.Decimal(38, 6)))
            table = df.to_arrow()
            table = table.cast(table.schema)  # string_view -> string for every reader
            pq.write_table(table, os.path.join(root, "src_%s_n%d.parquet" % (t, n)), compression="none")
    with open(os.path.join(root, "shapes.json"), "w") as f:
        json.dump({"rows": ROWS, "shapes": shapes()}, f, indent=1)
    print("generated %d shapes of %d rows in %s" % (len(shapes()), ROWS, root), file=sys.stderr)


def measure(fn, path):
    os.sync()
    c0, t0 = time.process_time(), time.perf_counter()
    fn(path)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return [table_file_bytes(path), cpu, wall]


def time_peers(root):
    import polars as pl
    import pyarrow.parquet as pq
    from deltalake import write_deltalake

    meta = json.load(open(os.path.join(root, "shapes.json")))
    only = os.environ.get("ONLY", "")
    scratch = tempfile.mkdtemp(dir=root)
    tables = {}
    out = {"delta-rs": {}, "polars": {}}
    try:
        for k, s in enumerate(meta["shapes"]):
            if only and not re.search(only, s["shape"]):
                continue
            if s["source"] not in tables:
                tables.clear()  # one source in memory at a time
                tables[s["source"]] = pq.read_table(os.path.join(root, s["source"]))
            tab = tables[s["source"]].select([s["column"]])
            df = pl.from_arrow(tab)
            p = os.path.join(scratch, "d%d" % k)
            out["delta-rs"][s["shape"]] = measure(lambda p: write_deltalake(p, tab), p)
            shutil.rmtree(p)
            out["polars"][s["shape"]] = measure(lambda p: df.write_delta(p), p)
            shutil.rmtree(p)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    json.dump(out, sys.stdout)
    print()


def medians(samples):
    return {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in samples.items()}


def report(root):
    peers = {"delta-rs": {}, "polars": {}}
    with open(os.path.join(root, "peers.jsonl")) as f:
        for line in f:
            if line.strip():
                for w, m in json.loads(line).items():
                    for shape, v in m.items():
                        peers[w].setdefault(shape, []).append(v)
    sides = {"ours": {}, "floor": {}}
    pat = re.compile(r"^BenchmarkShapes/(\S+)/(ours|floor)(-\d+)?\s+\d+\s+([\d.]+) ns/op")
    with open(os.path.join(root, "ours.txt")) as f:
        for line in f:
            m = pat.match(line.strip())
            if not m:
                continue
            cpu = re.search(r"([\d.]+) cpu-ms/op", line)
            by = re.search(r"([\d.e+]+) written-bytes", line)
            sides[m.group(2)].setdefault(m.group(1), []).append(
                [float(by.group(1)), float(cpu.group(1)) / 1e3, float(m.group(4)) / 1e9])
    ours, floor = medians(sides["ours"]), medians(sides["floor"])
    dr, pl = medians(peers["delta-rs"]), medians(peers["polars"])
    print("%-26s %9s %9s %9s %6s | %7s %7s %7s %7s %6s %6s" % (
        "shape", "ours KB", "drs KB", "pl KB", "bytes", "ours ms", "floor", "drs ms", "pl ms", "cpu", "/floor"))
    rows = []
    for s in json.load(open(os.path.join(root, "shapes.json")))["shapes"]:
        k = s["shape"]
        if k not in ours or k not in dr or k not in pl:
            continue
        o, d, p = ours[k], dr[k], pl[k]
        fl = floor.get(k, [0, 0, 0])
        ratio = o[0] / min(d[0], p[0])
        cpu = o[1] / d[1] if d[1] else 0
        rows.append((k, s["type"], ratio, cpu, o, d, p, fl))
        print("%-26s %9.1f %9.1f %9.1f %6.3f | %7.1f %7.1f %7.1f %7.1f %6.2f %6.2f%s" % (
            k, o[0] / 1e3, d[0] / 1e3, p[0] / 1e3, ratio, o[1] * 1e3, fl[1] * 1e3, d[1] * 1e3, p[1] * 1e3, cpu,
            o[1] / fl[1] if fl[1] else 0, "  <- bytes" if ratio > 1.0 else ""))
    if not rows:
        print("no shapes measured")
        return
    print()
    print("%-10s %6s %8s %8s %8s %8s %8s" % ("type", "shapes", "bytes>1", "worst", "bytes", "cpu", "cpu>1"))
    for t in TYPES + ["all"]:
        sel = [r for r in rows if t == "all" or r[1] == t]
        if not sel:
            continue
        ob, tb = sum(r[4][0] for r in sel), sum(min(r[5][0], r[6][0]) for r in sel)
        oc, tc = sum(r[4][1] for r in sel), sum(r[5][1] for r in sel)
        print("%-10s %6d %8d %8.3f %8.3f %8.2f %8d" % (t, len(sel), sum(1 for r in sel if r[2] > 1.0),
                                                  max(r[2] for r in sel), ob / tb, oc / tc, sum(1 for r in sel if r[3] > 1.0)))
    with open(os.path.join(root, "load.txt")) as f:
        print("load averages (1, 5, 15 min):", "; ".join(l.split(": ")[1].rsplit(" ", 2)[0] for l in f if ": " in l))
    print("bytes = our data files / the smaller of delta-rs' and Polars' (goal <= 1.0; per type: totals);")
    print("cpu = our write CPU / delta-rs' (process CPU, all threads); /floor = ours / DuckDB's bare COPY of the column")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "generate":
        generate(sys.argv[2])
    elif mode == "time":
        time_peers(sys.argv[2])
    elif mode == "report":
        report(sys.argv[2])
    else:
        sys.exit("usage: shapes_vs_deltars.py generate|time|report DIR")
