#!/usr/bin/env bash
# Regenerates runner/sparksql/testdata/spark_case.tsv: Spark 4.2's case
# mappings of every code point (CaseMap.java), from which the translation's
# upper, lower and initcap tables are made (go test ./runner/sparksql -run
# TestCaseMapTables -update-case). Dev-only: needs Java 17+ and the venv of
# the Spark checks (.venv-spark, made by corpus.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LAKTORY_SPARK_PYTHON:-$PWD/.venv-spark/bin/python}
JARS=$("$PY" -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -cp "$JARS/*" -d "$tmp" scripts/sparksql/CaseMap.java
{
  echo "# Spark $("$PY" -c 'import pyspark; print(pyspark.__version__)') case mappings (scripts/sparksql/casemap.sh): code point, upper, lower, initcap"
  java -cp "$tmp:$JARS/*" CaseMap
} > runner/sparksql/testdata/spark_case.tsv
wc -l runner/sparksql/testdata/spark_case.tsv
