#!/usr/bin/env bash
# Runs the same writes with delta-rs and with laktory's delta package, on
# the same data, in one run, and prints our time / delta-rs' time and the
# bytes each wrote: append 5M rows; delete one writer's rows (1 in 10) from
# a 5M-row table whose files interleave the writers' rows (a rewrite),
# partitioned by writer, whose files each hold one writer's rows, and with
# deletion vectors enabled (ours only: delta-rs' figure is its rewrite);
# 100 small appends in a row; optimize of 1,000 small files.
#
#   ./scripts/bench/write_vs_deltars.sh
#
# The two sides run in alternating rounds (delta-rs once, ours once, ...)
# so that a busy machine slows both alike; the report takes each side's
# median over the rounds.
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages of
# scripts/requirements-interop.txt), ROWS (default 5000000), ROUNDS
# (default 5), KEEP=1 keeps the generated data, BENCH_DIR=DIR uses (and
# keeps) DIR, generating the data only when DIR has none (to repeat a run).
# LAKTORY_BENCH_THREADS=N runs our side with DuckDB's threads set to N
# (1: without the calling thread's busy wait, docs/performance.md).
# Each of our operations has a floor beside it: one DuckDB COPY of the
# same rows with our Parquet options, and nothing else.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$DIR"
if [ "${KEEP:-}" != 1 ] && [ -z "${BENCH_DIR:-}" ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi

if [ ! -e "$DIR/source.parquet" ]; then
  echo "== generating ${ROWS:-5000000} rows and the tables (delta-rs) in $DIR"
  "$PY" scripts/bench/write_vs_deltars.py generate "$DIR"
fi
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
