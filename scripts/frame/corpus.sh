#!/usr/bin/env bash
# Regenerates the expectations of the frame-expression corpus
# (runner/frame/corpus/testdata/*.expected.json) with Laktory 0.13.1's own
# code: POLARS cases with laktory[polars] (polars 1.32.0, narwhals 2.29.0;
# $LAKTORY_PYTHON, as the tests use it), PYSPARK cases with pyspark 4.2
# (.venv-spark, made as scripts/interop/spark_check.sh makes it; Java 17+).
#
#   ./scripts/frame/corpus.sh                  both backends
#   ./scripts/frame/corpus.sh POLARS           one
#   ./scripts/frame/corpus.sh PYSPARK --only sp_
#
# Dev only: the corpus test (go test ./runner/frame/corpus) reads
# the checked-in expectations and needs no Python.
set -euo pipefail
cd "$(dirname "$0")/../.."
CORPUS=runner/frame/corpus/testdata
backends=(POLARS PYSPARK)
if [ $# -gt 0 ] && [[ "$1" == POLARS || "$1" == PYSPARK ]]; then
  backends=("$1"); shift
fi
for b in "${backends[@]}"; do
  if [ "$b" = POLARS ]; then
    PY=${LAKTORY_PYTHON:?set LAKTORY_PYTHON to a Python with laktory[polars]==0.13.1}
  else
    PY=${LAKTORY_SPARK_PYTHON:-}
    if [ -z "$PY" ]; then
      if ! .venv-spark/bin/python -c 'import pyspark, laktory' 2>/dev/null; then
        echo "== setting up .venv-spark (pyspark, delta-spark, laktory)"
        python3 -m venv .venv-spark
        .venv-spark/bin/pip install --quiet --disable-pip-version-check -r scripts/interop/requirements-spark.txt
      fi
      PY="$PWD/.venv-spark/bin/python"
    fi
  fi
  echo "== $b"
  # Spark's JVM logging goes to a file; its tail is shown on a failure.
  log=$(mktemp)
  if ! TZ=UTC "$PY" scripts/frame/corpus.py --backend "$b" "$CORPUS" "$@" 2> "$log"; then
    tail -n 30 "$log" >&2; rm -f "$log"; exit 1
  fi
  rm -f "$log"
done
