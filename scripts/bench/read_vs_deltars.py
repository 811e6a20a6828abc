"""Side-by-side read benchmark: delta-rs versus laktory's delta package.

Used by scripts/bench/read_vs_deltars.sh; three modes:

  generate DIR          write the benchmark tables with delta-rs under DIR/tables
  time DIR              time delta-rs loading and reading them (JSON on stdout)
  report DELTARS OURS   print our time / delta-rs' time per table and operation

Operations, per table:
  load  open the table at its latest version and list its live files
        (delta-rs: DeltaTable(path).file_uris(); ours: delta.LoadSnapshot)
  scan  open the table and run one aggregate over every column of every row:
        SELECT count(*), sum(id), sum(price), max(name), max(ts), max(writer)
        (delta-rs: QueryBuilder, i.e. DataFusion; ours: ScanSQL in DuckDB)
"""
import datetime
import json
import os
import re
import statistics
import sys
import time

RUNS = int(os.environ.get("RUNS", "5"))
# Keep in sync with scanAggregate in delta/bench_test.go.
SCAN_SQL = "SELECT count(*), sum(id), sum(price), max(name), max(ts), max(writer) FROM "


def generate(root):
    import pyarrow as pa
    from deltalake import write_deltalake

    tables = os.path.join(root, "tables")
    os.makedirs(tables, exist_ok=True)
    utc = datetime.timezone.utc

    def small(v):
        return pa.table({
            "id": pa.array(range(v * 10, v * 10 + 10), pa.int64()),
            "writer": pa.array(["w%d" % (v % 4)] * 10),
            "value": pa.array([float(i) for i in range(10)]),
        })

    commits = int(os.environ.get("COMMITS", "1000"))
    for name, interval in (("log_%d_commits_checkpoint_every_10" % commits, "10"),
                           ("log_%d_commits_no_checkpoint" % commits, "100000000")):
        path = os.path.join(tables, name)
        for v in range(commits):
            write_deltalake(path, small(v), mode="append", partition_by=["writer"],
                            configuration={"delta.checkpointInterval": interval} if v == 0 else None)
        print("generated", name, file=sys.stderr)

    rows = int(os.environ.get("ROWS", "4000000"))
    files = 8
    for name, parts in (("data_%d_rows" % rows, None), ("data_%d_rows_partitioned" % rows, ["writer"])):
        path = os.path.join(tables, name)
        per = rows // files
        for f in range(files):
            n = range(f * per, (f + 1) * per)
            t = pa.table({
                "id": pa.array(n, pa.int64()),
                "writer": pa.array(["w%d" % (f % 4)] * per),
                "price": pa.array([i * 0.01 for i in n], pa.float64()),
                "name": pa.array(["name-%d" % (i % 1000) for i in n]),
                "ts": pa.array([datetime.datetime(2024, 1, 1, tzinfo=utc) + datetime.timedelta(seconds=i) for i in n],
                               pa.timestamp("us", tz="UTC")),
            })
            write_deltalake(path, t, mode="append", partition_by=parts)
        print("generated", name, file=sys.stderr)


def median_seconds(fn):
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def time_deltars(root):
    from deltalake import DeltaTable, QueryBuilder

    tables = os.path.join(root, "tables")
    out = {}
    for name in sorted(os.listdir(tables)):
        path = os.path.join(tables, name)
        out["load/" + name] = median_seconds(lambda: len(DeltaTable(path).file_uris()))
        if name.startswith("data_"):
            out["scan/" + name] = median_seconds(
                lambda: QueryBuilder().register("t", DeltaTable(path)).execute(SCAN_SQL + "t").read_all())
    json.dump(out, sys.stdout)


def report(deltars_file, ours_file):
    with open(deltars_file) as f:
        theirs = json.load(f)
    ours = {}
    pat = re.compile(r"^BenchmarkExternalTables/(\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op")
    with open(ours_file) as f:
        for line in f:
            m = pat.match(line.strip())
            if m:
                ours.setdefault(m.group(1), []).append(float(m.group(3)) / 1e9)
    print("%-58s %12s %12s %8s" % ("operation/table", "ours", "delta-rs", "ratio"))
    for key in sorted(theirs):
        if key not in ours:
            continue
        o = statistics.median(ours[key])
        t = theirs[key]
        print("%-58s %10.1fms %10.1fms %8.2f" % (key, o * 1000, t * 1000, o / t))
    print("ratio = our time / delta-rs time (below 1: we are faster)")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "generate":
        generate(sys.argv[2])
    elif mode == "time":
        time_deltars(sys.argv[2])
    elif mode == "report":
        report(sys.argv[2], sys.argv[3])
    else:
        sys.exit("unknown mode " + mode)
