#!/usr/bin/env bash
# Checks interop with real Apache Spark and Delta Lake: Spark reads the
# tables laktory writes (the demo workspace run end to end, special
# partition values, every type, deletes, checkpoints, column mapping,
# deletion vectors) and laktory reads, deletes from and appends to Spark's;
# Structured Streaming checkpoints go both ways (import_checkpoint, and
# Spark resuming ours); Spark appends while laktory refreshes another
# writer. One line per check, PASS or FAIL, then "N passed, M failed".
#
#   ./scripts/interop/spark_check.sh                 every check
#   ./scripts/interop/spark_check.sh --only stream_  checks whose name starts so
#   ./scripts/interop/spark_check.sh --list          the checks
#
# Needs Java 17+. Creates .venv-spark (pyspark and delta-spark, see
# requirements-spark.txt) on first use; the Delta jars come from Maven
# Central on the first Spark start (cached in ~/.ivy2*). Spark runs locally
# (local[2], 2 GB driver, UI off, bound to 127.0.0.1).
#
# Environment: LAKTORY_SPARK_PYTHON (a Python with pyspark and delta-spark:
# skips the venv), SPARK_CHECK_WORK (keep the tables there instead of a
# temporary folder; Spark's log is spark.log there), SPARK_CHECK_TRACE=1
# (Python tracebacks on failures).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CGO_ENABLED=1

PY=${LAKTORY_SPARK_PYTHON:-}
if [ -z "$PY" ]; then
  if ! .venv-spark/bin/python -c 'import pyspark, delta' 2>/dev/null; then
    echo "== setting up .venv-spark (pyspark, delta-spark)"
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
mkdir -p "$WORK/bin"
echo "== building laktory and deltaop"
go build -o "$WORK/bin/laktory" ./cmd/laktory
go build -o "$WORK/bin/deltaop" ./scripts/interop/deltaop

# Spark's own logging goes to spark.log; its tail is shown on a failure.
rc=0
"$PY" scripts/interop/spark_check.py --laktory "$WORK/bin/laktory" --deltaop "$WORK/bin/deltaop" --work "$WORK" "$@" \
  2> "$WORK/spark.log" || rc=$?
if [ "$rc" != 0 ]; then
  echo "== last lines of Spark's log ($WORK/spark.log)" >&2
  grep -v -E '^\s+at |^\s*$' "$WORK/spark.log" | tail -n 30 >&2 || true
fi
exit "$rc"
