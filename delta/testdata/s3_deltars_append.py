"""Appends to a Delta table with delta-rs (deltalake), N commits of 10 rows
(id from START, w = W: "rs" unless given), for the S3 tests of concurrent
writers: delta-rs and this package writing one table in the moto bucket at
once."""
import os
import sys

import pyarrow as pa
from deltalake import write_deltalake

uri, start, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w = sys.argv[4] if len(sys.argv) > 4 else "rs"
opts = {k: os.environ[k] for k in ("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_ALLOW_HTTP") if os.environ.get(k)}
for i in range(n):
    ids = list(range(start + 10 * i, start + 10 * i + 10))
    t = pa.table({"id": pa.array(ids, pa.int64()), "w": pa.array([w] * 10, pa.string())})
    write_deltalake(uri, t, mode="append", storage_options=opts)
sys.stdout.flush()
os._exit(0)
