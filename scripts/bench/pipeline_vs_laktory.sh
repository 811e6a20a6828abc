#!/usr/bin/env bash
# Whole pipelines side by side with Laktory 0.13.1's Polars backend (see
# pipeline_vs_laktory.py): 4M rows from JSON lines, CSV and Parquet files,
# two pipelines casting, filtering and computing a column in one SQL step
# and appending to one shared Delta table; Laktory's Pipeline.execute()
# against the whole `laktory run` process on POLARS and on PYSPARK
# workspaces of the same data, and DuckDB's own COPY of the same query and
# the read alone (the floors); wall, CPU and peak memory, medians over
# alternating rounds, the load average, data bytes, and the rows of each
# writer compared.
#
#   ./scripts/bench/pipeline_vs_laktory.sh
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages
# of scripts/requirements-interop.txt), ROWS (default 4000000), ROUNDS
# (default 3), FORMATS (default "jsonl csv parquet"), BENCH_DIR=DIR uses
# (and keeps) DIR, generating the data only when DIR has none.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$DIR"
if [ -z "${BENCH_DIR:-}" ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi
if [ ! -e "$DIR/data" ]; then
  echo "== generating ${ROWS:-4000000} rows in $DIR"
  "$PY" scripts/bench/pipeline_vs_laktory.py generate "$DIR"
fi
go build -o "$DIR/laktory" ./cmd/laktory
go build -o "$DIR/floor" ./scripts/bench/floor
"$PY" scripts/bench/pipeline_vs_laktory.py time "$DIR" "$DIR/laktory" "$DIR/floor"
