#!/usr/bin/env python3
"""Run pipelines with Laktory's own Polars backend and describe Delta tables.

    laktory_execute.py PLAN.json OUT.json

PLAN.json is a list of scenarios, run in one process (Laktory takes seconds
to import), each:
    {"workspace": DIR,                       # Laktory runs here
     "tables": {"prices": "lake/prices"},    # table label -> path (relative to DIR)
     "owners": {"prices": {"pl.a": SQL}},    # rows of each writer, a Polars SQL predicate
     "steps": [{"name": ..., "pipeline": "pipelines/pl.yaml",
                "refresh": "FULL", "selects": ["a"], "reset_mode": null,
                "params": {"x": "1"}, "files": {"data/a/2.jsonl": "..."},
                "ours": {"prices": SNAPSHOT_DIR}}]}   # our table after the same step

For each step, in order: write its files, load the pipeline file as a Laktory
0.13.1 job does (`Pipeline.model_validate_yaml`, from the file's folder, so
relative paths mean what they mean to us), `Pipeline.execute(selects, refresh,
reset_mode, params)`, then describe each table as Laktory left it and as our
snapshot of the same step has it, with deltalake (delta-rs): schema (names,
types, nullability, in order), partition columns, rows (sorted JSON), rows per
writer and the rows per writer after each commit. A PARQUET or CSV sink's
path (a file or a folder) is described by its files (describe_files).
OUT.json: [{"steps": [{"name", "error", "warnings", "tables": {label: {"laktory", "ours"}}}]}],
the warnings being the expectations' (DataQualityExpectation.raise_or_warn),
one per scenario.
Test-only (TestLaktoryExecution): the product never runs Python.
"""

import json
import logging
import os
import sys
import traceback
import warnings

import deltalake
import polars as pl


def owned(df, owners):
    """Rows per writer of a table (a DataFrame), by each writer's predicate."""
    return {w: df.filter(pl.sql_expr(pred)).height for w, pred in owners.items()}


def data_files(path):
    """The files of a file sink: the path itself, or every file under it."""
    if os.path.isfile(path):
        return [path]
    # A hidden file (.keep) holds a folder Laktory's writer needs to exist.
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs if not f.startswith("."))


def describe_files(path):
    """A PARQUET or CSV sink's files: their layout (the folders holding
    them, "" for the path itself, so a single file and a folder of parts
    differ, and so do hive partitions), and for Parquet the schema of each
    file (each leaf column's name, physical and logical type, nullability),
    the schema polars reads and the rows; for JSON (an array, or lines) the
    rows as JSON reads them; for CSV the text lines (sorted) and each
    file's first line (a header, or not)."""
    files = data_files(path)
    layout = sorted({os.path.relpath(os.path.dirname(f), path) if f != path else "" for f in files})
    out = {"exists": True, "kind": "", "layout": layout}
    if files and all(f.endswith(".parquet") or open(f, "rb").read(4) == b"PAR1" for f in files):
        import pyarrow.parquet as pq

        # A signed INT32/INT64 annotated as a signed integer of its own
        # width (DuckDB's writer) is the plain INT32/INT64 (polars'):
        # readers read both alike.
        plain = {("INT32", "Int(bitWidth=32, isSigned=true)"), ("INT64", "Int(bitWidth=64, isSigned=true)")}
        schemas = set()
        for f in files:
            pf = pq.ParquetFile(f)
            cols = (pf.schema.column(i) for i in range(pf.metadata.num_columns))
            schemas.add(json.dumps([[c.path, c.physical_type,
                                     "None" if (c.physical_type, str(c.logical_type)) in plain else str(c.logical_type),
                                     c.max_definition_level > 0] for c in cols]))
        df = pl.read_parquet(path if os.path.isfile(path) else path + "/**/*.parquet", hive_partitioning=True)
        out.update(kind="parquet", file_schemas=sorted(schemas),
                   schema=[{"name": n, "type": str(t), "nullable": True} for n, t in df.schema.items()],
                   rows=sorted(json.dumps(r, sort_keys=True, default=str) for r in df.to_dicts()))
        return out
    if len(files) == 1 and open(files[0], "rb").read(1) == b"[":
        # polars' write_json: one JSON array of the rows (its layout of
        # spaces and line breaks aside).
        with open(files[0]) as fh:
            rows = json.load(fh)
        out.update(kind="json-array", lines=sorted(json.dumps(r) for r in rows), first_lines=[])
        return out
    texts = [open(f, encoding="utf-8").read().splitlines() for f in files]
    if files and all(t and all(l.startswith("{") for l in t) for t in texts):
        # JSON lines: each row's values as JSON reads them (1e20 and
        # 100000000000000000000.0 are one number), the keys in order.
        out.update(kind="json-lines", lines=sorted(json.dumps(json.loads(l)) for t in texts for l in t), first_lines=[])
        return out
    lines, first = [], []
    for f in files:
        with open(f, newline="") as fh:
            text = fh.read().split("\n")
        if text and text[-1] == "":
            text.pop()
        first.append(text[0] if text else "")
        lines += text
    out.update(kind="text", lines=sorted(lines), first_lines=sorted(first))
    return out


def describe(path, owners):
    if not path or not os.path.exists(path):
        return {"exists": False}
    if not os.path.isdir(os.path.join(path, "_delta_log")):
        return describe_files(path)
    dt = deltalake.DeltaTable(path)
    schema = json.loads(dt.schema().to_json())
    arrow = dt.to_pyarrow_table()
    rows = sorted(json.dumps(r, sort_keys=True, default=str) for r in arrow.to_pylist())
    # The rows of each writer after each commit, an unchanged state (a commit
    # that adds or removes nothing, an empty CREATE) counted once, as the
    # sequence a streaming reader of the table goes through.
    history = []
    for v in range(dt.version() + 1):
        counts = owned(pl.read_delta(path, version=v), owners)
        if (history and history[-1] == counts) or (not history and not any(counts.values())):
            continue
        history.append(counts)
    return {
        "exists": True,
        "kind": "delta",
        "schema": [{"name": f["name"], "type": f["type"], "nullable": f["nullable"]} for f in schema["fields"]],
        "partition_columns": dt.metadata().partition_columns,
        "rows": rows,
        "writers": owned(pl.from_arrow(arrow), owners),
        "history": history,
    }


def run_scenario(lk, plan):
    root = os.path.abspath(plan["workspace"])
    out = {"steps": []}
    for step in plan["steps"]:
        for name, text in (step.get("files") or {}).items():
            p = os.path.join(root, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        res = {"name": step["name"], "error": "", "tables": {}}
        file = os.path.join(root, step["pipeline"])
        cwd = os.getcwd()
        caught = []
        try:
            os.chdir(os.path.dirname(file))
            with open(file) as f:
                pipeline = lk.models.Pipeline.model_validate_yaml(f)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                pipeline.execute(
                    selects=step.get("selects") or None,
                    refresh=step.get("refresh") or "INCREMENTAL",
                    reset_mode=step.get("reset_mode") or None,
                    params=step.get("params") or None,
                )
        except Exception as e:  # the step's outcome, compared with ours
            lines = [l for l in str(e).splitlines() if l.strip()]
            res["error"] = f"{type(e).__name__}: " + " | ".join(lines[:4])
            if os.environ.get("LAKTORY_EXECUTE_TRACE"):
                traceback.print_exc()
        finally:
            os.chdir(cwd)
        # The expectations' warnings (raise_or_warn), compared with ours.
        res["warnings"] = [str(w.message) for w in caught if str(w.message).startswith("Expectation '")]
        for label, rel in plan["tables"].items():
            owners = (plan.get("owners") or {}).get(label, {})
            res["tables"][label] = {
                "laktory": describe(os.path.join(root, rel), owners),
                "ours": describe((step.get("ours") or {}).get(label), owners),
            }
        out["steps"].append(res)
    return out


def main():
    plan_file, out_file = sys.argv[1], sys.argv[2]
    with open(plan_file) as f:
        plans = json.load(f)
    logging.disable(logging.WARNING)  # Laktory's INFO logs and warnings
    warnings.filterwarnings("ignore")
    import laktory as lk

    out = [run_scenario(lk, plan) for plan in plans]
    with open(out_file, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
