#!/usr/bin/env bash
# Regenerates the expected results of the Polars corpus
# (runner/polarssql/testdata/corpus/**/*.expected.json) with Laktory 0.13.1's
# Polars backend (polars 1.32.0) and delta-rs. Dev-only: the test suite reads
# the checked-in results. Uses the Python of LAKTORY_PYTHON, or the interop
# venv (scripts/requirements-interop.txt: laktory[polars]==0.13.1, deltalake).
#
#   ./scripts/polars/corpus.sh                 every step
#   ./scripts/polars/corpus.sh --only h_cast   steps whose name starts so
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-python3}
exec "$PY" scripts/polars/corpus.py runner/polarssql/testdata/corpus "$@"
