"""Reads a Delta table written by the runner with delta-rs and polars.

Usage: read_table.py TABLE_PATH
Prints one JSON object: the columns (in order, as delta-rs reads the
schema), the row count per value of the first column as polars reads the
table, and the table version.
"""
import json
import sys

import polars as pl
from deltalake import DeltaTable

path = sys.argv[1]
dt = DeltaTable(path)
columns = [f.name for f in dt.schema().fields]
df = pl.read_delta(path)
first = columns[0]
counts = df.group_by(first).len().sort(first)
print(json.dumps({
    "version": dt.version(),
    "columns": columns,
    "rows": {str(r[first]): r["len"] for r in counts.iter_rows(named=True)},
    "polars_columns": df.columns,
}))
