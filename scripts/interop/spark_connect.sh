#!/usr/bin/env bash
# Starts and stops a Spark Connect server with Delta Lake on 127.0.0.1, for
# the Spark engine (laktory run --engine spark) and its opt-in checks.
#
#   ./scripts/interop/spark_connect.sh start [local|cluster]   prints the remote (sc://127.0.0.1:PORT)
#   ./scripts/interop/spark_connect.sh stop
#   ./scripts/interop/spark_connect.sh status
#
# local runs Spark in the server's JVM (local[2]); cluster starts a
# standalone master and two workers (1 core, 1 GB each), all bound to
# 127.0.0.1, and points the server at them: a real multi-process cluster.
# Memory stays modest (1 GB driver). Spark 4.2.0 with Delta 4.4.0 from
# .venv-spark (see spark_check.sh); Java 17+.
#
# Environment: SPARK_CONNECT_S3=1 adds hadoop-aws (s3a, for a lake in a
# bucket; docs/object-storage.md), LAKTORY_SPARK_PYTHON (a Python with pyspark and delta-spark),
# SPARK_CONNECT_DIR (state: pids and logs; default .spark-connect),
# SPARK_CONNECT_PORT (default 15102), SPARK_MASTER_PORT (default 17077),
# SPARK_UI_PORT (default 14040: the driver's web UI and its REST API,
# http://127.0.0.1:PORT/api/v1/applications, which the checks ask whether
# jobs still run).
set -euo pipefail
cd "$(dirname "$0")/../.."

STATE=${SPARK_CONNECT_DIR:-$PWD/.spark-connect}
PORT=${SPARK_CONNECT_PORT:-15102}
MPORT=${SPARK_MASTER_PORT:-17077}
UIPORT=${SPARK_UI_PORT:-14040}
DELTA_PKG=io.delta:delta-spark_4.2_2.13:4.4.0
S3_PKG=org.apache.hadoop:hadoop-aws:3.5.0

python_with_spark() {
  local py=${LAKTORY_SPARK_PYTHON:-}
  if [ -z "$py" ]; then
    if ! .venv-spark/bin/python -c 'import pyspark, delta' 2>/dev/null; then
      echo "== setting up .venv-spark (pyspark, delta-spark)" >&2
      python3 -m venv .venv-spark
      .venv-spark/bin/pip install --quiet --disable-pip-version-check -r scripts/interop/requirements-spark.txt
    fi
    py="$PWD/.venv-spark/bin/python"
  fi
  echo "$py"
}

spark_home() { "$(python_with_spark)" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))'; }

# wait_port waits until 127.0.0.1:$1 accepts connections (or the process
# $2 died).
wait_port() {
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    if ! kill -0 "$2" 2>/dev/null; then return 1; fi
    sleep 0.5
  done
  return 1
}

# packages are the server's Maven packages: Delta, and with SPARK_CONNECT_S3=1
# hadoop-aws (s3a) at the Hadoop version pyspark ships, which brings the AWS
# SDK v2 bundle it is built with; s3a then creates a file that must not
# exist (a Delta commit) with If-None-Match: * (create performance).
packages() {
  if [ "${SPARK_CONNECT_S3:-}" = 1 ]; then echo "$DELTA_PKG,$S3_PKG"; else echo "$DELTA_PKG"; fi
}
s3_conf() {
  if [ "${SPARK_CONNECT_S3:-}" = 1 ]; then echo "spark.hadoop.fs.s3a.create.performance=true"; else echo "spark.hadoop.fs.s3a.create.performance=false"; fi
}

start_bg() { # name, then the command
  local name=$1; shift
  nohup "$@" > "$STATE/$name.log" 2>&1 &
  echo $! > "$STATE/$name.pid"
}

start() {
  local mode=${1:-local}
  mkdir -p "$STATE"
  if [ -f "$STATE/connect.pid" ] && kill -0 "$(cat "$STATE/connect.pid")" 2>/dev/null; then
    echo "sc://127.0.0.1:$PORT"; return 0
  fi
  local home; home=$(spark_home)
  export SPARK_HOME=$home SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR=$STATE SPARK_PID_DIR=$STATE
  local master="local[2]"
  if [ "$mode" = cluster ]; then
    start_bg master "$home/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$MPORT" --webui-port 0
    wait_port "$MPORT" "$(cat "$STATE/master.pid")" || { echo "the master did not start: $STATE/master.log" >&2; exit 1; }
    for i in 1 2; do
      start_bg "worker$i" "$home/bin/spark-class" org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores 1 --memory 1g \
        --webui-port 0 --work-dir "$STATE/work$i" "spark://127.0.0.1:$MPORT"
    done
    master="spark://127.0.0.1:$MPORT"
  fi
  start_bg connect "$home/bin/spark-submit" --class org.apache.spark.sql.connect.service.SparkConnectServer \
    --master "$master" --driver-memory 1g --executor-memory 768m --total-executor-cores 2 \
    --packages "$(packages)" --conf "$(s3_conf)" \
    --conf spark.ui.enabled=true --conf spark.ui.port="$UIPORT" --conf spark.port.maxRetries=0 \
    --conf spark.driver.host=127.0.0.1 --conf spark.driver.bindAddress=127.0.0.1 \
    --conf spark.connect.grpc.binding.address=127.0.0.1 --conf spark.connect.grpc.binding.port="$PORT" \
    --conf spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension \
    --conf spark.sql.catalog.spark_catalog=org.apache.spark.sql.delta.catalog.DeltaCatalog \
    --conf spark.sql.shuffle.partitions=2 --conf spark.databricks.delta.snapshotPartitions=2 \
    --conf spark.sql.warehouse.dir="$STATE/warehouse" \
    --conf "spark.driver.extraJavaOptions=-Dderby.system.home=$STATE" \
    spark-internal
  if ! wait_port "$PORT" "$(cat "$STATE/connect.pid")"; then
    echo "the Spark Connect server did not start: $STATE/connect.log" >&2
    stop; exit 1
  fi
  echo "$mode" > "$STATE/mode"
  echo "sc://127.0.0.1:$PORT"
}

# stop ends the processes this script started (by their pid files only).
stop() {
  for name in connect worker1 worker2 master; do
    local f="$STATE/$name.pid"
    [ -f "$f" ] || continue
    local pid; pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
  rm -f "$STATE/mode"
}

status() {
  for name in connect master worker1 worker2; do
    local f="$STATE/$name.pid"
    if [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null; then echo "$name running (pid $(cat "$f"))"; fi
  done
  if [ -f "$STATE/mode" ]; then echo "ui http://127.0.0.1:$UIPORT"; fi
}

case "${1:-}" in
  start) start "${2:-local}" ;;
  stop) stop ;;
  status) status ;;
  *) sed -n '2,23p' "$0" >&2; exit 2 ;;
esac
