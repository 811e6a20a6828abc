#!/usr/bin/env bash
# Writes each column shape (type x cardinality x order x nulls, see
# shapes_vs_deltars.py) as a one-column Delta table with delta-rs, with
# Polars (DataFrame.write_delta, as Laktory's Polars sink writes) and with
# laktory's delta package, in one run, and prints per shape the bytes of
# the data files (ours / the smaller of theirs) and the write CPU (ours /
# delta-rs'), with DuckDB's own COPY of the same column ("floor") beside
# ours.
#
#   ./scripts/bench/shapes_vs_deltars.sh
#
# The sides run in alternating rounds (peers once, ours once, ...) so that
# a busy machine slows both alike; the report takes each side's median
# over the rounds and prints the load average at each round.
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages
# of scripts/requirements-interop.txt), ROWS (default 2000000), ROUNDS
# (default 3), TYPES (a regular expression of types, e.g. 'int|string';
# default all), KEEP=1 keeps the generated data, BENCH_DIR=DIR uses (and
# keeps) DIR, generating the data only when DIR has none.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$DIR"
if [ "${KEEP:-}" != 1 ] && [ -z "${BENCH_DIR:-}" ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi
TYPES=${TYPES:-.*}

if [ ! -e "$DIR/shapes.json" ]; then
  echo "== generating ${ROWS:-2000000} rows per shape in $DIR"
  "$PY" scripts/bench/shapes_vs_deltars.py generate "$DIR"
fi
CGO_ENABLED=1 go test -c -o "$DIR/delta.test" ./delta/
: > "$DIR/peers.jsonl"
: > "$DIR/ours.txt"
: > "$DIR/load.txt"
for round in $(seq "${ROUNDS:-3}"); do
  echo "round $round start: $(cat /proc/loadavg)" | tee -a "$DIR/load.txt"
  echo "== round $round: delta-rs and Polars"
  ONLY="^($TYPES)/" "$PY" scripts/bench/shapes_vs_deltars.py time "$DIR" >> "$DIR/peers.jsonl"
  echo "== round $round: laktory (BenchmarkShapes)"
  (cd delta && LAKTORY_BENCH_SHAPES_DIR="$DIR" "$DIR/delta.test" -test.run '^$' \
    -test.bench "BenchmarkShapes/^($TYPES)\$" -test.benchtime 1x -test.timeout 60m) | grep '^Benchmark' >> "$DIR/ours.txt"
  echo "round $round end: $(cat /proc/loadavg)" | tee -a "$DIR/load.txt"
done
echo "== result (medians over ${ROUNDS:-3} rounds)"
"$PY" scripts/bench/shapes_vs_deltars.py report "$DIR"
