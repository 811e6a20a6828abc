"""Compares two Delta tables row for row with delta-rs (deltalake).

Usage: compare_tables.py TABLE_A TABLE_B
Prints one JSON object: whether the tables hold the same schema (column
names, order and types) and the same rows (as multisets), their row
counts, and up to 5 rows found in only one of them. Exit code 0 either
way; 2 when a table cannot be read.
"""
import collections
import json
import os
import sys

from deltalake import DeltaTable


def read(path):
    dt = DeltaTable(path)
    schema = [(f.name, str(f.type)) for f in dt.schema().fields]
    rows = collections.Counter(tuple(repr(v) for v in r.values()) for r in dt.to_pyarrow_table().to_pylist())
    return schema, rows


def main():
    try:
        (sa, ra), (sb, rb) = read(sys.argv[1]), read(sys.argv[2])
    except Exception as e:  # noqa: BLE001 - reported to the caller
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        return 2
    only_a, only_b = ra - rb, rb - ra
    print(json.dumps({
        "same_schema": sa == sb, "same_rows": not only_a and not only_b,
        "schema_a": sa, "schema_b": sb,
        "rows_a": sum(ra.values()), "rows_b": sum(rb.values()),
        "only_a": [list(r) for r in list(only_a.elements())[:5]],
        "only_b": [list(r) for r in list(only_b.elements())[:5]],
    }))
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)  # before delta-rs' runtime can abort the interpreter's teardown
