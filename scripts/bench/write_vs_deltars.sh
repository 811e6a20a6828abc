#!/usr/bin/env bash
# Runs the same writes with delta-rs and with laktory's delta package, on
# the same data, in one run, and prints our time / delta-rs' time:
# append 5M rows; delete one writer's rows (1 in 10) from a 5M-row table,
# unpartitioned and partitioned by writer; 100 small appends in a row.
#
#   ./scripts/bench/write_vs_deltars.sh
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages of
# scripts/requirements-interop.txt), ROWS (default 5000000), RUNS (delta-rs
# repetitions, default 3), COUNT (go test -count, default 3), KEEP=1 keeps
# the generated data.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=$(mktemp -d)
if [ "${KEEP:-}" != 1 ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi

echo "== generating ${ROWS:-5000000} rows and the delete tables (delta-rs) in $DIR"
"$PY" scripts/bench/write_vs_deltars.py generate "$DIR"
echo "== delta-rs"
"$PY" scripts/bench/write_vs_deltars.py time "$DIR" > "$DIR/deltars.json"
cat "$DIR/deltars.json"; echo
echo "== laktory (go test -bench BenchmarkWriteVsDeltaRS)"
LAKTORY_BENCH_WRITE_DIR="$DIR" CGO_ENABLED=1 go test -run '^$' -bench BenchmarkWriteVsDeltaRS \
  -benchtime 1x -count "${COUNT:-3}" -timeout 30m ./delta/ | tee "$DIR/ours.txt"
echo "== result"
"$PY" scripts/bench/write_vs_deltars.py report "$DIR/deltars.json" "$DIR/ours.txt"
