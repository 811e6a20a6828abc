#!/usr/bin/env python3
"""Load YAML files with Laktory's own loader and print its verdicts.

    laktory_load.py FILE...

For each file: a stack (a top-level `resources` key, or a file named
stack.yaml/stack.yml) loads as `Stack`, anything else as `Pipeline`, with
`model_validate_yaml` (PyYAML + Laktory's !use/!extend/!update loader, then
pydantic). Prints one JSON object per line:
{"file": ..., "verdict": "accept"|"reject", "error": first lines of the error}.
Test-only: the product never runs Python.
"""

import json
import os
import sys

import yaml

import laktory as lk


class _TagBlindLoader(yaml.SafeLoader):
    """Reads Laktory's !use/!extend/!update as nothing: enough to see the
    top-level keys of a stack that includes its pipelines."""


_TagBlindLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def kind(path):
    base = os.path.basename(path).lower()
    if base in ("stack.yaml", "stack.yml"):
        return "stack"
    try:
        with open(path) as f:
            doc = yaml.load(f, Loader=_TagBlindLoader)
    except Exception:
        return "pipeline"
    if isinstance(doc, dict) and "resources" in doc:
        return "stack"
    return "pipeline"


def main():
    for path in sys.argv[1:]:
        model = lk.models.Stack if kind(path) == "stack" else lk.models.Pipeline
        res = {"file": path, "verdict": "accept", "error": ""}
        try:
            with open(path) as f:
                model.model_validate_yaml(f)
        except Exception as e:  # any failure is a rejection
            res["verdict"] = "reject"
            lines = [l for l in str(e).splitlines() if l.strip() and "errors.pydantic.dev" not in l]
            res["error"] = f"{type(e).__name__}: " + " | ".join(lines[:6])
        print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
