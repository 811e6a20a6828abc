#!/usr/bin/env bash
# Regenerates the expected results of the Spark SQL corpus
# (runner/sparksql/testdata/corpus/**/*.expected.json) with Apache Spark 4.2
# in local mode. Dev-only: the test suite reads the checked-in results and
# needs no JVM. Needs Java 17+; uses the venv of the Spark interop check
# (.venv-spark, scripts/interop/requirements-spark.txt), or the Python of
# LAKTORY_SPARK_PYTHON.
#
#   ./scripts/sparksql/corpus.sh                 every step
#   ./scripts/sparksql/corpus.sh --only h_cast   steps whose name starts so
#   ./scripts/sparksql/corpus.sh --only r2_,h2_  several prefixes
set -euo pipefail
cd "$(dirname "$0")/../.."

PY=${LAKTORY_SPARK_PYTHON:-}
if [ -z "$PY" ]; then
  if ! .venv-spark/bin/python -c 'import pyspark' 2>/dev/null; then
    echo "== setting up .venv-spark (pyspark, delta-spark)"
    python3 -m venv .venv-spark
    .venv-spark/bin/pip install --quiet --disable-pip-version-check -r scripts/interop/requirements-spark.txt
  fi
  PY="$PWD/.venv-spark/bin/python"
fi
exec "$PY" scripts/sparksql/corpus.py runner/sparksql/testdata/corpus "$@" 2> >(grep -v -E '^(WARNING|Setting default log level|To adjust logging|Using Spark)' >&2)
