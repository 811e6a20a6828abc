"""Reads, with delta-rs, versions of the tables MERGE sinks wrote
(TestMergeParity), as merge_parity.py writes Laktory's results.

Usage: read_merge_tables.py REQUESTS.json
REQUESTS.json is a list of {"path", "version"}. Prints a JSON list, one
{"columns": [...], "rows": [[text or null, ...], ...]} per request, the
values as text (scripts/interop/merge_parity.py, canon), the rows sorted.
"""
import json
import os
import sys

from deltalake import DeltaTable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "interop"))
from merge_parity import canon  # noqa: E402

out = []
for req in json.load(open(sys.argv[1])):
    t = DeltaTable(req["path"], version=req["version"]).to_pyarrow_table()
    rows = sorted(([canon(v) for v in r.values()] for r in t.to_pylist()), key=json.dumps)
    out.append({"columns": t.column_names, "rows": rows})
print(json.dumps(out), flush=True)
# delta-rs' runtime threads may abort the interpreter's teardown
# ("terminate called without an active exception"): the output is out.
os._exit(0)
