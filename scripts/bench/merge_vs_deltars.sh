#!/usr/bin/env bash
# Runs the same MERGE with delta-rs' TableMerger and with laktory's delta
# package (Transaction.Merge), on the same data, in one run, and prints
# ours / delta-rs' time and the files each read, rewrote and added: a
# 100k-row change batch (10% inserts, 85% updates, 5% deletes) into a
# 10M-row table keyed by id, unpartitioned, in files of about 128 MB sorted
# by id; one batch changes ids of the last fifth of the table ("recent"),
# the other ids anywhere ("spread"). See merge_vs_deltars.py.
#
#   ./scripts/bench/merge_vs_deltars.sh
#
# The two sides run in alternating rounds (delta-rs once, ours once, ...)
# so that a busy machine slows both alike; the report takes each side's
# median over the rounds.
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages of
# scripts/requirements-interop.txt), ROWS (default 10000000), BATCH
# (default 100000), ROUNDS (default 3), KEEP=1 keeps the generated data,
# BENCH_DIR=DIR uses (and keeps) DIR, generating the data only when DIR has
# none (to repeat a run).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=${BENCH_DIR:-$(mktemp -d)}
if [ "${KEEP:-}" != 1 ] && [ -z "${BENCH_DIR:-}" ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi

if [ ! -e "$DIR/recent.parquet" ]; then
  echo "== generating ${ROWS:-10000000} rows and the change batches (delta-rs) in $DIR"
  "$PY" scripts/bench/merge_vs_deltars.py generate "$DIR"
fi
CGO_ENABLED=1 go test -c -o "$DIR/delta.test" ./delta/
: > "$DIR/deltars.jsonl"
: > "$DIR/ours.txt"
for round in $(seq "${ROUNDS:-3}"); do
  echo "== round $round: delta-rs"
  "$PY" scripts/bench/merge_vs_deltars.py time "$DIR" | tee -a "$DIR/deltars.jsonl"
  echo "== round $round: laktory (BenchmarkMergeVsDeltaRS)"
  (cd delta && LAKTORY_BENCH_MERGE_DIR="$DIR" "$DIR/delta.test" -test.run '^$' \
    -test.bench BenchmarkMergeVsDeltaRS -test.benchtime 1x -test.timeout 30m) | grep '^Benchmark' | tee -a "$DIR/ours.txt"
done
echo "== result (medians over ${ROUNDS:-3} rounds)"
"$PY" scripts/bench/merge_vs_deltars.py report "$DIR/deltars.jsonl" "$DIR/ours.txt"
