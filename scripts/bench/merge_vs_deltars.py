"""Side-by-side MERGE benchmark: delta-rs' TableMerger versus laktory's
delta package (Transaction.Merge).

Used by scripts/bench/merge_vs_deltars.sh; three modes:

  generate DIR          write, with delta-rs, DIR/base: ROWS rows (default
                        10M) keyed by id, unpartitioned, sorted by id, in
                        files of about 128 MB (write_deltalake with
                        target_file_size); and the change batches of BATCH
                        rows (default 100k: 10% inserts of new ids, 85%
                        updates, 5% deletes of existing ids, flagged by
                        the op column): DIR/recent.parquet changes ids of
                        the last fifth of the table (a CDC feed touching
                        recent rows), DIR/spread.parquet ids anywhere
  time DIR              time delta-rs' merge of each batch into a copy of
                        base (median of RUNS; one JSON line on stdout)
  report DELTARS OURS   print ours / delta-rs' time per batch (medians over
                        the rounds) and the files each read, rewrote and
                        added

The merge, on both sides: ON target.id = source.id; WHEN MATCHED AND
source.op = 'D' THEN DELETE; WHEN MATCHED THEN UPDATE SET * (every column);
WHEN NOT MATCHED THEN INSERT * ; snappy data files. The copy of base (hard
links to its data files and a copy of its log) and reading the batch into
memory (Arrow / a DuckDB table) are setup, not timed; each merge starts
after a sync.
"""
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

RUNS = int(os.environ.get("RUNS", "1"))
ROWS = int(os.environ.get("ROWS", "10000000"))
BATCH = int(os.environ.get("BATCH", "100000"))
BATCHES = ("recent", "spread")


def rows(ids, op, seed):
    import polars as pl
    df = pl.DataFrame({"id": ids}).with_columns(pl.col("id").cast(pl.Int64))
    h = (pl.col("id") * 2654435761 + seed).hash(seed=seed)
    return df.with_columns(
        op=pl.lit(op),
        ts=pl.datetime(2024, 1, 1, time_zone="UTC") + pl.duration(seconds=pl.col("id") + seed),
        amount=(pl.col("id") % 100000).cast(pl.Float64) * 0.01 + seed,
        qty=((pl.col("id") + seed) % 1000).cast(pl.Int32),
        category=pl.format("c{}", (pl.col("id") + seed) % 20),
        payload=pl.format("{}-{}-{}", h, h.hash(seed=1), h.hash(seed=2)),
    )


def generate(root):
    import polars as pl
    from deltalake import WriterProperties, write_deltalake

    base = rows(pl.int_range(0, ROWS, eager=True), "I", 0).to_arrow()
    base = base.cast(base.schema)  # string_view -> string
    write_deltalake(os.path.join(root, "base"), base, target_file_size=128 << 20,
                    writer_properties=WriterProperties(compression="SNAPPY"))
    inserts = pl.int_range(ROWS, ROWS + BATCH // 10, eager=True)
    for name, lo in (("recent", ROWS - ROWS // 5), ("spread", 0)):
        changed = pl.int_range(lo, ROWS, eager=True).sample(n=BATCH - len(inserts), seed=7)
        n = BATCH * 85 // 100
        batch = pl.concat([rows(changed[:n], "U", 1), rows(changed[n:], "D", 1), rows(inserts, "I", 1)]).sample(fraction=1.0, shuffle=True, seed=3)
        batch.write_parquet(os.path.join(root, name + ".parquet"))
    print("generated %d rows and batches of %d in %s" % (ROWS, BATCH, root), file=sys.stderr)


def copy_table(src, dst):
    """A copy of a table whose data files are hard links (a merge never
    changes a data file, only the log)."""
    for d, dirs, files in os.walk(src):
        rel = os.path.relpath(d, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for f in files:
            if rel.startswith("_delta_log"):
                shutil.copy(os.path.join(d, f), os.path.join(dst, rel, f))
            else:
                os.link(os.path.join(d, f), os.path.join(dst, rel, f))


def time_deltars(root):
    import pyarrow.parquet as pq
    from deltalake import DeltaTable, WriterProperties

    snappy = WriterProperties(compression="SNAPPY")
    out = {}
    scratch = tempfile.mkdtemp(dir=root)
    for name in BATCHES:
        batch = pq.read_table(os.path.join(root, name + ".parquet"))
        times, cpu, metrics = [], [], None
        for k in range(RUNS):
            path = os.path.join(scratch, "%s%d" % (name, k))
            copy_table(os.path.join(root, "base"), path)
            dt = DeltaTable(path)
            os.sync()
            c0, t0 = time.process_time(), time.perf_counter()
            metrics = (dt.merge(batch, "t.id = s.id", source_alias="s", target_alias="t", writer_properties=snappy)
                       .when_matched_delete(predicate="s.op = 'D'")
                       .when_matched_update_all()
                       .when_not_matched_insert_all()
                       .execute())
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        out[name] = statistics.median(times)
        out[name + "/cpu"] = statistics.median(cpu)
        for k in ("num_target_files_scanned", "num_target_files_skipped_during_scan", "num_target_files_removed",
                  "num_target_files_added", "num_target_rows_updated", "num_target_rows_deleted", "num_target_rows_inserted"):
            out[name + "/" + k] = metrics.get(k)
    shutil.rmtree(scratch, ignore_errors=True)
    json.dump(out, sys.stdout)
    print()


def report(deltars_file, ours_file):
    theirs = {}
    with open(deltars_file) as f:
        for line in f:
            if line.strip():
                for k, v in json.loads(line).items():
                    theirs.setdefault(k, []).append(v)
    ours = {}
    pat = re.compile(r"^BenchmarkMergeVsDeltaRS/(\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)")
    with open(ours_file) as f:
        for line in f:
            m = pat.match(line.strip())
            if not m:
                continue
            o = ours.setdefault(m.group(1), {})
            o.setdefault("time", []).append(float(m.group(3)) / 1e9)
            for v, unit in re.findall(r"([\d.e+]+) ([\w/-]+)", m.group(4)):
                o.setdefault(unit, []).append(float(v))
    med = statistics.median
    print("%-9s %10s %10s %7s | %9s %9s %7s | %-30s %-28s" % ("batch", "ours", "delta-rs", "speedup", "ours cpu", "their cpu", "speedup",
                                                               "ours: files read/rewritten/added", "delta-rs: scanned/removed/added"))
    # delta-rs writes no deletion vectors: our DV merge is set against its
    # rewrite of the same batch.
    for name in BATCHES + ("recent_dv",):
        peer = name.replace("_dv", "")
        if name not in ours or peer not in theirs:
            continue
        o, t = med(ours[name]["time"]), med(theirs[peer])
        oc = med(ours[name].get("cpu-ms/op", [0])) / 1000
        tc = med(theirs[peer + "/cpu"])
        of = "%d/%d/%d" % (med(ours[name].get("files-read", [0])), med(ours[name].get("files-rewritten", [0])),
                           med(ours[name].get("files-added", [0])))
        if med(ours[name].get("dvs-added", [0])):
            of += " +%d DVs" % med(ours[name]["dvs-added"])
        tf = "%s/%s/%s" % (theirs[peer + "/num_target_files_scanned"][-1], theirs[peer + "/num_target_files_removed"][-1],
                           theirs[peer + "/num_target_files_added"][-1])
        print("%-9s %8.2fs %8.2fs %6.1fx | %8.2fs %8.2fs %6.1fx | %-30s %-28s" % (name, o, t, t / o, oc, tc, tc / oc if oc else 0, of, tf))
        print("%-9s rows: ours %d updated, %d deleted, %d inserted; delta-rs %s updated, %s deleted, %s inserted" % (
            "", med(ours[name].get("updated", [0])), med(ours[name].get("deleted", [0])), med(ours[name].get("inserted", [0])),
            theirs[peer + "/num_target_rows_updated"][-1], theirs[peer + "/num_target_rows_deleted"][-1],
            theirs[peer + "/num_target_rows_inserted"][-1]))
    print("speedup = delta-rs' time / ours (goal: at least 3x); medians over the rounds, which alternate the two sides;")
    print("cpu = process CPU time (all threads); recent_dv: ours into the same rows with deletion vectors, against delta-rs' rewrite")


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
    # polars and deltalake may abort while tearing their thread pools down
    # at interpreter exit: leave at once.
    sys.stdout.flush()
    os._exit(0)
