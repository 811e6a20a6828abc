#!/usr/bin/env python3
"""Run the expectation parity corpus with Laktory 0.13.1 on Spark 4.2 with
Delta 4.4 (dataframe_backend PYSPARK), and record what each run leaves, for
TestExpectationsLaktoryParity.

    laktory_expect_spark.py OUT.json CORPUS.json...

Needs the Spark interop Python (scripts/interop/requirements-spark.txt:
pyspark, delta-spark, laktory) and Java 17+; fetches the Delta jars on first
use. A few minutes. Each corpus file (runner/testdata/expectations) holds
batches of rows (id, x, y bigint, s string, or the columns of its schema,
where a DOUBLE column's "NaN" is a float NaN) and scenarios: one node reading a
Delta table src (batches[0]; batches[1] appended before the second run), as
a batch (sinks OVERWRITE) or a stream (as_stream, sinks APPEND), with the
scenario's expectations, an output sink and, when quarantine_sink is set, a
quarantine sink. Recorded per run: the error (its class and first line), the
expectations' warnings (DataQualityExpectation.raise_or_warn) in order, and
the ids of the rows in the output and quarantine tables (null when the table
does not exist).
Test-only: the product never runs Python or Spark.
"""

import io
import json
import os
import shutil
import sys
import tempfile
import warnings

import yaml

import local_spark


def start(work):
    return local_spark.start(work, "laktory-expect")


SCHEMA = "id BIGINT, s STRING, x BIGINT, y BIGINT"


def rows(batch, schema):
    """The batch's rows, a DOUBLE column's "NaN" (JSON has no NaN) a float NaN."""
    doubles = {f.split()[0] for f in schema.split(",") if f.split()[1].upper() == "DOUBLE"}
    return [{k: float("nan") if k in doubles and v == "NaN" else v for k, v in r.items()} for r in batch]


def pipeline(sc, root):
    """The scenario's pipeline, as TestExpectationsLaktoryParity writes it."""
    stream = bool(sc.get("stream"))
    mode = "APPEND" if stream else "OVERWRITE"
    sinks = [{"path": os.path.join(root, "out"), "format": "DELTA", "mode": mode}]
    if sc.get("quarantine_sink"):
        sinks.append({"path": os.path.join(root, "quarantine"), "format": "DELTA", "mode": mode, "is_quarantine": True})
    return {
        "name": "pl-" + sc["name"].replace("_", "-"),
        "root_path": os.path.join(root, "root"),
        "dataframe_backend": "PYSPARK",
        "nodes": [{
            "name": "n",
            "sources": [{"path": os.path.join(root, "src"), "format": "DELTA", "as_stream": stream}],
            "expectations": sc["expectations"],
            "sinks": sinks,
        }],
    }


def main(out, corpora):
    work = tempfile.mkdtemp(prefix="laktory-expect-")
    os.chdir(work)
    spark = start(work)
    import laktory as lk
    lk._spark = spark

    def ids(path):
        if not os.path.isdir(os.path.join(path, "_delta_log")):
            return None
        return sorted(r[0] for r in spark.read.format("delta").load(path).select("id").collect())

    res = {"laktory": lk.__version__, "pyspark": spark.version, "scenarios": {}}
    for corpus in corpora:
        with open(corpus) as f:
            c = json.load(f)
        for sc in c["scenarios"]:
            root = os.path.join(work, sc["name"])
            src = os.path.join(root, "src")
            text = yaml.safe_dump(pipeline(sc, root), sort_keys=False)
            runs = []
            for k, batch in enumerate(c["batches"]):
                schema = c.get("schema", SCHEMA)
                spark.createDataFrame(rows(batch, schema), schema).write.format("delta").mode("append").save(src)
                error = ""
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    try:
                        lk.models.Pipeline.model_validate_yaml(io.StringIO(text)).execute()
                    except Exception as e:  # the failure is what is recorded
                        lines = [l for l in str(e).splitlines() if l.strip()]
                        error = f"{type(e).__name__}: " + (lines[0] if lines else "")
                runs.append({
                    "error": error,
                    "warnings": [str(w.message) for w in caught if str(w.message).startswith("Expectation '")],
                    "out": ids(os.path.join(root, "out")),
                    "quarantine": ids(os.path.join(root, "quarantine")),
                })
            res["scenarios"][sc["name"]] = runs
            print(sc["name"], json.dumps(runs), flush=True)
    spark.stop()
    with open(out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), [os.path.abspath(p) for p in sys.argv[2:]])
