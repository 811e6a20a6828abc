#!/usr/bin/env bash
# Whole `laktory run` processes side by side with delta-rs, on the same rows
# (see run_vs_deltars.py): the RESET of a `where` writer owning 1 in 10 rows
# of a 2M-row table whose files interleave the writers' rows (laktory run,
# process start to exit, against delta-rs' delete alone; alternating rounds,
# medians), and the bytes of the 5M-row pipeline's table against delta-rs'
# write_deltalake of the same rows.
#
#   ./scripts/bench/run_vs_deltars.sh
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages
# of scripts/requirements-interop.txt), ROWS (default 2000000),
# PIPELINE_ROWS (default 5000000), ROUNDS (default 5), BENCH_DIR=DIR uses
# (and keeps) DIR, generating the data only when DIR has none.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$DIR"
if [ -z "${BENCH_DIR:-}" ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi
if [ ! -e "$DIR/base_interleaved" ]; then
  echo "== generating the tables and workspaces in $DIR"
  "$PY" scripts/bench/run_vs_deltars.py generate "$DIR"
fi
go build -o "$DIR/laktory" ./cmd/laktory
echo "== RESET of a where writer: laktory run vs delta-rs delete"
"$PY" scripts/bench/run_vs_deltars.py time "$DIR" "$DIR/laktory"
echo "== 5M-row pipeline: bytes of our table vs delta-rs'"
"$PY" scripts/bench/run_vs_deltars.py size "$DIR" "$DIR/laktory"
