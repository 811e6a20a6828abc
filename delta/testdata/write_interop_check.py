"""Reads a Delta table with delta-rs and with polars and compares both
readings with the expected rows (a parquet file).

Usage: python write_interop_check.py [--datafusion] TABLE EXPECTED_PARQUET [VERSION]

Rows are compared as multisets of normalized values: timestamps with a
zone as ISO 8601 UTC, without a zone as ISO 8601, decimals as strings with
their scale, binary as hex, maps as sorted [key, value] pairs, structs as
objects. Column names and (normalized) Arrow types must match too. Prints
a JSON report ({"version", "rows", "columns", "partition_values",
"files", "deltars_reader", "polars"}) and exits 1 on any difference,
naming it. delta-rs reads through pyarrow, or through DataFusion
(QueryBuilder) for the reader features its pyarrow path refuses (column
mapping, deletion vectors), and with --datafusion through both (arrow-rs'
Parquet reader, which delta-rs' own operations use, besides pyarrow's);
polars refusing a reader feature it does not
support (column mapping) is reported in "polars", not as a difference.
"""
import datetime
import decimal
import json
import math
import os
import sys

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable, QueryBuilder

UTC = datetime.timezone.utc


def norm(v):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            return v.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return v.strftime("%Y-%m-%dT%H:%M:%S.%f")
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        return repr(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        items = [norm(x) for x in v]
        # A map: pyarrow gives (key, value) tuples, polars {key, value} structs.
        if items and all(isinstance(x, dict) and set(x) == {"key", "value"} for x in items):
            return sorted([[x["key"], x["value"]] for x in items], key=json.dumps)
        if isinstance(v, list) and v and all(isinstance(x, tuple) and len(x) == 2 for x in v):
            return sorted([list(x) for x in items], key=json.dumps)
        return items
    return v


def rows_of(table):
    return sorted(json.dumps({k: norm(x) for k, x in r.items()}, sort_keys=True) for r in table.to_pylist())


def type_name(t):
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return "binary"
    if pa.types.is_timestamp(t):
        return "timestamp[%s]" % ("utc" if t.tz else "ntz")
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        return "list<%s>" % type_name(t.value_type)
    if pa.types.is_map(t):
        return "map<%s,%s>" % (type_name(t.key_type), type_name(t.item_type))
    if pa.types.is_struct(t):
        return "struct<%s>" % ",".join("%s:%s" % (f.name, type_name(f.type)) for f in t)
    if pa.types.is_dictionary(t):
        return type_name(t.value_type)
    return str(t)


def schema_of(schema):
    return {f.name: type_name(f.type) for f in schema}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    both = "--datafusion" in sys.argv[1:]
    table, expected_path = args[0], args[1]
    version = int(args[2]) if len(args) > 2 else None
    expected = pq.read_table(expected_path)
    problems = []

    dt = DeltaTable(table, version=version)
    try:
        deltars = dt.to_pyarrow_table()
        deltars_reader = "pyarrow"
    except Exception as e:  # the pyarrow path refuses some reader features
        if "reader features" not in str(e):
            raise
        deltars = QueryBuilder().register("t", dt).execute("SELECT * FROM t").read_all()
        deltars = pa.table(deltars)
        deltars_reader = "datafusion"
    want_rows = rows_of(expected)
    want_schema = schema_of(expected.schema)

    got_schema = schema_of(deltars.schema)
    if got_schema != want_schema:
        problems.append("delta-rs schema %s, expected %s" % (got_schema, want_schema))
    got = rows_of(deltars.select(expected.column_names)) if set(expected.column_names) <= set(deltars.column_names) else []
    if got != want_rows:
        problems.append(diff("delta-rs", got, want_rows))
    if both and deltars_reader == "pyarrow":
        df = pa.table(QueryBuilder().register("t", dt).execute("SELECT * FROM t").read_all())
        if schema_of(df.schema) != want_schema:
            problems.append("delta-rs (datafusion) schema %s, expected %s" % (schema_of(df.schema), want_schema))
        got = rows_of(df.select(expected.column_names)) if set(expected.column_names) <= set(df.column_names) else []
        if got != want_rows:
            problems.append(diff("delta-rs (datafusion)", got, want_rows))
        deltars_reader = "pyarrow+datafusion"

    polars_status = "ok"
    try:
        polars_df = pl.read_delta(table, version=version)
    except Exception as e:
        # polars (1.32.0, the version laktory[polars] 0.13.1 installs) refuses
        # reader features it lacks (column mapping, deletion vectors) and
        # fails on some types (maps): reported in "polars", never a
        # difference of ours; the tests assert what they expect of it.
        polars_status = "unsupported: " + (str(e).splitlines() or [type(e).__name__])[0]
        polars_df = None
    if polars_df is not None:
        polars_tbl = polars_df.to_arrow()
        if sorted(polars_df.columns) != sorted(expected.column_names):
            problems.append("polars columns %s, expected %s" % (polars_df.columns, expected.column_names))
        else:
            got = rows_of(polars_tbl.select(expected.column_names))
            if got != want_rows:
                problems.append(diff("polars", got, want_rows))

    actions = pa.table(dt.get_add_actions(flatten=True)).to_pylist()
    parts = sorted(
        json.dumps({k[len("partition."):]: norm(v) for k, v in a.items() if k.startswith("partition.")}, sort_keys=True)
        for a in actions
    )
    report = {"version": dt.version(), "rows": len(want_rows), "columns": want_schema,
              "partition_values": sorted(set(parts)), "files": len(actions),
              "deltars_reader": deltars_reader, "polars": polars_status}
    print(json.dumps(report))
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


def diff(who, got, want):
    g, w = set(got), set(want)
    return "%s read %d rows, expected %d; unexpected: %s; missing: %s" % (
        who, len(got), len(want), sorted(g - w)[:5], sorted(w - g)[:5])


if __name__ == "__main__":
    main()
    # polars and deltalake may abort while tearing their thread pools down
    # at interpreter exit: leave at once.
    sys.stdout.flush()
    os._exit(0)
