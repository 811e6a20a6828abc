#!/usr/bin/env bash
# Loads and reads the same Delta tables with delta-rs and with laktory's
# delta package, in one run, and prints our time / delta-rs' time.
#
#   ./scripts/bench/read_vs_deltars.sh
#
# Environment: LAKTORY_PYTHON (default .venv/bin/python, with the packages of
# scripts/requirements-interop.txt), COMMITS (log tables, default 1000),
# ROWS (data tables, default 4000000), RUNS (delta-rs repetitions, default 5),
# BENCHTIME / COUNT (go test -benchtime / -count, default 5x / 3),
# KEEP=1 keeps the generated tables.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_PYTHON:-.venv/bin/python}
DIR=$(mktemp -d)
if [ "${KEEP:-}" != 1 ]; then trap 'rm -rf "$DIR"' EXIT; else echo "tables kept in $DIR"; fi

echo "== generating tables with delta-rs in $DIR"
"$PY" scripts/bench/read_vs_deltars.py generate "$DIR"
echo "== delta-rs"
"$PY" scripts/bench/read_vs_deltars.py time "$DIR" > "$DIR/deltars.json"
cat "$DIR/deltars.json"; echo
echo "== laktory (go test -bench BenchmarkExternalTables)"
LAKTORY_BENCH_TABLES="$DIR/tables" CGO_ENABLED=1 go test -run '^$' -bench BenchmarkExternalTables \
  -benchtime "${BENCHTIME:-5x}" -count "${COUNT:-3}" ./delta/ | tee "$DIR/ours.txt"
echo "== result"
"$PY" scripts/bench/read_vs_deltars.py report "$DIR/deltars.json" "$DIR/ours.txt"
