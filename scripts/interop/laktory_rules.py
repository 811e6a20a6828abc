#!/usr/bin/env python3
"""Load, and run where asked, the workspaces of validate/testdata/laktory/rules
with Laktory's own code, and print what it says.

    laktory_rules.py FILE...

Each FILE is a pipeline (or a stack) with header comments:
    # laktory: load           Laktory refuses it at load (model_validate_yaml)
    # laktory: run            Laktory loads it and refuses it when it runs it
    # run: refresh=FULL reset_mode=DROP selects=a,b params=x=1,y=2
                              the run's arguments (Pipeline.execute)
For a `run` file the pipeline is executed from a copy of the file's folder
(relative paths mean what they mean to us) with the POLARS or PYSPARK
backend as the file says; the run is expected to fail before it reads
anything (the checks of the rules here come first), so no Spark is needed.

Prints one JSON object per line: {"file", "load": "accept"|"reject",
"load_error", "run": ""|"ok"|"error", "run_error"}; errors in full (every
line, pydantic's URLs dropped). Test-only (TestLaktoryRulesParity): the
product never runs Python.
"""

import json
import os
import shutil
import sys
import tempfile

import laktory as lk


def header(path):
    out = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                continue
            key, _, value = line[1:].strip().partition(":")
            out.setdefault(key.strip(), value.strip())
    return out


def run_args(spec):
    kwargs = {}
    for part in spec.split():
        k, _, v = part.partition("=")
        if k == "params":
            kwargs["params"] = dict(p.split("=", 1) for p in v.split(",") if p)
        elif k == "selects":
            kwargs["selects"] = [s for s in v.split(",") if s]
        elif k in ("refresh", "reset_mode"):
            kwargs[k] = v
    return kwargs


def text(e):
    lines = [l for l in str(e).splitlines() if l.strip() and "errors.pydantic.dev" not in l]
    return f"{type(e).__name__}: " + "\n".join(lines)


def main():
    for path in sys.argv[1:]:
        h = header(path)
        is_stack = os.path.basename(path).lower().startswith("stack")
        model = lk.models.Stack if is_stack else lk.models.Pipeline
        res = {"file": path, "load": "accept", "load_error": "", "run": "", "run_error": ""}
        obj = None
        try:
            with open(path) as f:
                obj = model.model_validate_yaml(f)
        except Exception as e:
            res["load"], res["load_error"] = "reject", text(e)
        if obj is not None and h.get("laktory") == "run" and not is_stack:
            tmp = tempfile.mkdtemp(prefix="laktory-rule-")
            cwd = os.getcwd()
            try:
                work = os.path.join(tmp, "ws")
                shutil.copytree(os.path.dirname(os.path.abspath(path)), work)
                os.chdir(work)
                obj.execute(**run_args(h.get("run", "")))
                res["run"] = "ok"
            except BaseException as e:  # a run that fails is what we look for
                res["run"], res["run_error"] = "error", text(e)
            finally:
                os.chdir(cwd)
                shutil.rmtree(tmp, ignore_errors=True)
        print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
