"""Writes Delta tables with delta-rs and with polars, for the write-path
interop tests (the Go side reads them, deletes from and appends to them).

Usage: python write_interop_write.py OUT_DIR

OUT_DIR/deltars: delta-rs, partitioned by a string column holding '/',
  spaces, '%', '=', quotes, unicode and nulls; columns of
  type timestamp (UTC), timestamp_ntz, decimal, date, struct, list, map;
  two appends, a delete and a checkpoint.
OUT_DIR/polars: polars.DataFrame.write_delta, unpartitioned, two writes.
OUT_DIR/<name>_expected.parquet: each table as its writer reads it back.
"""
import datetime
import decimal
import os
import sys

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable, write_deltalake

out = sys.argv[1]
UTC = datetime.timezone.utc
# No empty string: delta-rs writes it as the partition value "" (null per
# the protocol, and delta-rs reads it so) but polars reads it as "".
PARTS = ["a/b", "with space", "100%", "k=v", "ünïcødé ✓", "q'uote\"d", "x,y;z", None]

SCHEMA = pa.schema([
    pa.field("id", pa.int64()),
    pa.field("part", pa.string()),
    pa.field("ts", pa.timestamp("us", tz="UTC")),
    pa.field("ntz", pa.timestamp("us")),
    pa.field("amount", pa.decimal128(12, 2)),
    pa.field("day", pa.date32()),
    pa.field("info", pa.struct([pa.field("a", pa.int32()), pa.field("b", pa.string())])),
    pa.field("tags", pa.list_(pa.string())),
    pa.field("attrs", pa.map_(pa.string(), pa.int64())),
])


def batch(start, n):
    rows = []
    for i in range(start, start + n):
        rows.append({
            "id": i,
            "part": PARTS[i % len(PARTS)],
            "ts": datetime.datetime(2024, 1, 1, tzinfo=UTC) + datetime.timedelta(seconds=i, microseconds=i),
            "ntz": datetime.datetime(2024, 6, 1, 12) + datetime.timedelta(minutes=i),
            "amount": decimal.Decimal(i) / decimal.Decimal(4),
            "day": datetime.date(2024, 1, 1) + datetime.timedelta(days=i % 30),
            "info": None if i % 7 == 0 else {"a": i, "b": "b%d" % i},
            "tags": ["t%d" % (i % 3), "u"],
            "attrs": [("k%d" % (i % 2), i)],
        })
    return pa.Table.from_pylist(rows, schema=SCHEMA)


table = os.path.join(out, "deltars")
write_deltalake(table, batch(0, 60), partition_by=["part"])
write_deltalake(table, batch(60, 60), mode="append", partition_by=["part"])
DeltaTable(table).delete("id % 10 = 3")
DeltaTable(table).create_checkpoint()
pq.write_table(DeltaTable(table).to_pyarrow_table(), os.path.join(out, "deltars_expected.parquet"))

table = os.path.join(out, "polars")
df = pl.DataFrame({
    "id": list(range(50)),
    "name": ["n%d" % i if i % 6 else None for i in range(50)],
    "ts": [datetime.datetime(2024, 3, 1, tzinfo=UTC) + datetime.timedelta(hours=i) for i in range(50)],
    "value": [i * 1.5 for i in range(50)],
})
df.write_delta(table)
df.with_columns(pl.col("id") + 1000).write_delta(table, mode="append")
pq.write_table(DeltaTable(table).to_pyarrow_table(), os.path.join(out, "polars_expected.parquet"))

# polars and deltalake may abort while tearing their thread pools down at
# interpreter exit; everything is written by now.
sys.stdout.flush()
os._exit(0)
