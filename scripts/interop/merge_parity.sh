#!/usr/bin/env bash
# MERGE parity with Laktory 0.13.1 on Apache Spark 4.2 + Delta 4.4 (opt-in).
#
# 1. Runs every scenario of runner/testdata/merge (a pipeline with a MERGE
#    sink and a CDC feed of several batches: inserts, updates, deletes,
#    repeated keys in a batch, out-of-order and late changes, NULL keys and
#    values; SCD type 1 and 2, each option, batch and streaming) through
#    Laktory's PySpark backend and writes what it leaves after each run to
#    <scenario>/expected.json (scripts/interop/merge_parity.py).
# 2. Runs the same pipelines through laktory and compares row for row and
#    commit for commit (go test ./runner -run TestMergeParity): the default
#    suite runs the same comparison against the checked-in expectations.
# 3. Spark reads the tables laktory wrote and compares them with the
#    expectations.
# Then `git diff runner/testdata/merge` shows whether Laktory's results
# changed.
#
#   ./scripts/interop/merge_parity.sh              every scenario (about an hour: one Spark run per batch)
#   ./scripts/interop/merge_parity.sh --only scd2  scenarios whose name starts so
#
# Needs Java 17+. Uses .venv-spark (scripts/interop/requirements-spark.txt,
# Laktory included), as spark_check.sh does; LAKTORY_SPARK_PYTHON names
# another Python. SPARK_CHECK_WORK keeps the work folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CGO_ENABLED=1 TZ=UTC

PY=${LAKTORY_SPARK_PYTHON:-}
if [ -z "$PY" ]; then
  if ! .venv-spark/bin/python -c 'import pyspark, delta, laktory' 2>/dev/null; then
    echo "== setting up .venv-spark (pyspark, delta-spark, laktory)"
    python3 -m venv .venv-spark
    .venv-spark/bin/pip install --quiet --disable-pip-version-check -r scripts/interop/requirements-spark.txt
  fi
  PY="$PWD/.venv-spark/bin/python"
fi

WORK=${SPARK_CHECK_WORK:-}
if [ -z "$WORK" ]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK/ours"

ONLY=""
if [ "${1:-}" = "--only" ]; then
  ONLY=${2:-}
fi

echo "== Laktory 0.13.1 on Spark: the expectations"
"$PY" scripts/interop/merge_parity.py --work "$WORK" --only "$ONLY" 2> "$WORK/spark.log" || {
  echo "== last lines of Spark's log ($WORK/spark.log)" >&2
  grep -v -E '^\s+at |^\s*$' "$WORK/spark.log" | tail -n 30 >&2
  exit 1
}
echo "== laktory: the same pipelines"
LAKTORY_MERGE_PARITY_KEEP="$WORK/ours" go test ./runner -run "TestMergeParity/${ONLY}" -count=1
echo "== Spark reads laktory's tables"
"$PY" scripts/interop/merge_parity.py --work "$WORK/spark-read" --only "$ONLY" --check "$WORK/ours" 2>> "$WORK/spark.log"
git --no-pager diff --stat -- runner/testdata/merge
