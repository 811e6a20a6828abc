#!/usr/bin/env bash
# Runs the same writes with delta-rs and with laktory's delta package, on
# the same data, in one run, and prints our time / delta-rs' time:
# append 5M rows; delete one writer's rows (1 in 10) from a 5M-row table,
# unpartitioned and partitioned by writer; 100 small appends in a row.
#
#   ./scripts/bench/write_vs_deltars.sh
#
# The two sides run in alternating rounds (delta-rs once, ours once, ...)
# so that a busy machine slows both alike; the report takes each side's
# median over the rounds.
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages of
# scripts/requirements-interop.txt), ROWS (default 5000000), ROUNDS
# (default 5), KEEP=1 keeps the generated data.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=$(mktemp -d)
if [ "${KEEP:-}" != 1 ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi

echo "== generating ${ROWS:-5000000} rows and the delete tables (delta-rs) in $DIR"
"$PY" scripts/bench/write_vs_deltars.py generate "$DIR"
CGO_ENABLED=1 go test -c -o "$DIR/delta.test" ./delta/
: > "$DIR/deltars.jsonl"
: > "$DIR/ours.txt"
for round in $(seq "${ROUNDS:-5}"); do
  echo "== round $round: delta-rs"
  RUNS=1 "$PY" scripts/bench/write_vs_deltars.py time "$DIR" | tee -a "$DIR/deltars.jsonl"
  echo
  echo "== round $round: laktory (BenchmarkWriteVsDeltaRS)"
  (cd delta && LAKTORY_BENCH_WRITE_DIR="$DIR" "$DIR/delta.test" -test.run '^$' \
    -test.bench BenchmarkWriteVsDeltaRS -test.benchtime 1x -test.timeout 30m) | grep '^Benchmark' | tee -a "$DIR/ours.txt"
done
echo "== result (medians over ${ROUNDS:-5} rounds)"
"$PY" scripts/bench/write_vs_deltars.py report "$DIR/deltars.jsonl" "$DIR/ours.txt"
