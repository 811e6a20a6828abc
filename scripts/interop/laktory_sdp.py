#!/usr/bin/env python3
"""Run a SPARK_DECLARATIVE_PIPELINE pipeline with Laktory 0.13.1 locally.

    laktory_sdp.py PLAN.json OUT.json

Laktory runs such a pipeline through `spark-pipelines run` (its
`SparkDeclarativePipelineOrchestrator`: `Pipeline.execute(use_orchestrator=
True)`, `--full-refresh-all` for a FULL refresh). Needs pyspark[pipelines],
delta-spark and laktory (scripts/interop/requirements-spark.txt) and Java 17+.

PLAN.json:
    {"workspace": DIR,
     "pipeline": "pipelines/pl/pl.yaml",   # in DIR/pipelines/<name>/: Laktory's root
                                          # path, the folder it runs spark-pipelines in
     "table": "pipelines/pl/spark-warehouse/events",
     "snapshots": DIR2,
     "steps": [{"name": ..., "refresh": "FULL" or "",
                "landing": {"landing/a": SRC}}]}   # copied over DIR/landing/a first
                                                  # (a later version of the same
                                                  # Delta table: new commits)
After each step the table is copied to DIR2/<step>.
OUT.json: [{"name", "error", "table": the copy or ""}].
Test-only (TestInteropSparkDeclarative): the product never runs Python.
"""

import json
import logging
import os
import re
import shutil
import sys


def main():
    plan_file, out_file = sys.argv[1], sys.argv[2]
    with open(plan_file) as f:
        plan = json.load(f)
    root = os.path.abspath(plan["workspace"])
    # The pipeline's root path is $LAKTORY_RUNTIME_ROOT/pipelines/<name>
    # (read when laktory is imported); spark-pipelines is beside python.
    os.environ["LAKTORY_RUNTIME_ROOT"] = root
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    logging.disable(logging.INFO)
    import laktory as lk

    file = os.path.join(root, plan["pipeline"])
    out = []
    for k, step in enumerate(plan["steps"]):
        for dst, src in (step.get("landing") or {}).items():
            shutil.copytree(src, os.path.join(root, dst), dirs_exist_ok=True)
        res = {"name": step["name"], "error": "", "table": ""}
        cwd = os.getcwd()
        # spark-pipelines writes its errors to the stdout and stderr it
        # inherits: the step's log, whose error classes join the error.
        log = os.path.join(plan["snapshots"], f"{k}.log")
        os.makedirs(plan["snapshots"], exist_ok=True)
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        try:
            with open(log, "wb") as out_log:
                os.dup2(out_log.fileno(), 1)
                os.dup2(out_log.fileno(), 2)
                os.chdir(os.path.dirname(file))
                with open(file) as f:
                    pipeline = lk.models.Pipeline.model_validate_yaml(f)
                pipeline.execute(use_orchestrator=True, refresh=step.get("refresh") or "INCREMENTAL")
        except Exception as e:  # the step's outcome, reported to the test
            with open(log, errors="replace") as f:
                classes = dict.fromkeys(re.findall(r"\[([A-Z][A-Z0-9_]{4,})\]", f.read()))
            res["error"] = f"{type(e).__name__}: {e}; spark-pipelines' errors: {', '.join(classes) or 'none'} (log: {log})"
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.chdir(cwd)
        table = os.path.join(root, plan["table"])
        if os.path.isdir(os.path.join(table, "_delta_log")):
            res["table"] = os.path.join(plan["snapshots"], str(k))
            shutil.copytree(table, res["table"])
        out.append(res)
        if res["error"]:
            break
    with open(out_file, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
