"""Writes a Delta table with delta-rs for TestInteropDeltaRSPartitions.

Usage: python interop_deltars_write.py OUT_DIR

OUT_DIR/table is the table: partitioned by a string column whose values hold
'/', spaces, '%', '=', quotes, glob characters, unicode, an empty string and
nulls, and by an integer column with nulls; written in three appends (the
third adds a column with schema merging), one delete, and a checkpoint.
delta-rs' own reading of it goes to OUT_DIR/expected_latest/*.parquet and,
for version 1, to OUT_DIR/expected_v1/*.parquet.
"""
import datetime
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable, write_deltalake

out = sys.argv[1]
table = os.path.join(out, "table")

PARTS = ["a/b", "with space", "100%", "k=v", "ünïcødé ✓", "q'uote\"d", "a:b#c?d*e[f]{g}^", "back\\slash", "", None]
UTC = datetime.timezone.utc


def batch(start, with_note=False):
    rows = []
    for i, p in enumerate(PARTS):
        for j in range(3):
            n = start + i * 10 + j
            rows.append({
                "id": n,
                "part": p,
                "bucket": None if j == 2 else j,
                "value": n / 4,
                "ts": datetime.datetime(2024, 1, 1, tzinfo=UTC) + datetime.timedelta(seconds=n, microseconds=n),
                "day": datetime.date(2024, 1, 1) + datetime.timedelta(days=n % 7),
            })
    fields = [
        pa.field("id", pa.int64()),
        pa.field("part", pa.string()),
        pa.field("bucket", pa.int32()),
        pa.field("value", pa.float64()),
        pa.field("ts", pa.timestamp("us", tz="UTC")),
        pa.field("day", pa.date32()),
    ]
    if with_note:
        for r in rows:
            r["note"] = "note %d" % r["id"]
        fields.append(pa.field("note", pa.string()))
    return pa.Table.from_pylist(rows, schema=pa.schema(fields))


write_deltalake(table, batch(0), partition_by=["part", "bucket"])
write_deltalake(table, batch(1000), mode="append", partition_by=["part", "bucket"])
DeltaTable(table).delete("id % 5 = 0")
write_deltalake(table, batch(2000, with_note=True), mode="append", partition_by=["part", "bucket"], schema_mode="merge")
DeltaTable(table).create_checkpoint()


def dump(dt, name):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    pq.write_table(dt.to_pyarrow_table(), os.path.join(d, "rows.parquet"))


dump(DeltaTable(table), "expected_latest")
dump(DeltaTable(table, version=1), "expected_v1")
print(DeltaTable(table).version())
