"""Computes the expected results of the Spark SQL corpus with Apache Spark.

The corpus (runner/sparksql/testdata/corpus) holds fixture tables
(tables.json) and steps in *.sql files, each introduced by a header:

    -- name: unique_name
    -- inputs: df=orders, nodes.customers=customers
    -- conf: spark.sql.session.timeZone=America/New_York    (optional)
    -- mode: query | filter | expr                          (default query)
    SELECT ... FROM {df} ...

For every *.sql file this script writes *.expected.json beside it: per
step, the result schema (Spark's column names and simple type strings) and
rows in a canonical JSON form, or Spark's error class and whether Spark
raised it while analysing the query or while running it. The Go tests
compare the local translation against these files without a JVM.

Run it through corpus.sh (which sets up the venv):

    corpus.py [--only NAME_PREFIX[,NAME_PREFIX...]] CORPUS_DIR
"""
import argparse
import datetime as dt
import logging
import decimal
import glob
import json
import os
import re
import sys
import time

os.environ["TZ"] = "UTC"  # PySpark converts timestamps with the process's zone
time.tzset()

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import types as T  # noqa: E402
from pyspark.errors import PySparkException  # noqa: E402

HEADER = re.compile(r"^--\s*(name|inputs|conf|mode):\s*(.*)$")


def read_cases(path):
    cases, cur = [], None
    for line in open(path, encoding="utf-8"):
        m = HEADER.match(line.rstrip("\n"))
        if m and m.group(1) == "name":
            cur = {"name": m.group(2).strip(), "inputs": {}, "conf": {}, "mode": "query", "sql": []}
            cases.append(cur)
        elif m and cur is not None and not cur["sql"]:
            key, val = m.group(1), m.group(2).strip()
            if key == "inputs":
                for part in val.split(","):
                    ph, table = part.strip().split("=")
                    cur["inputs"][ph.strip()] = table.strip()
            elif key == "conf":
                k, v = val.split("=", 1)
                cur["conf"][k.strip()] = v.strip()
            else:
                cur["mode"] = val
        elif cur is not None:
            cur["sql"].append(line)
    for c in cases:
        c["sql"] = "".join(c["sql"]).strip()
    return cases


def entries_type(t):
    """The type a fixture column is loaded as: maps as arrays of entries."""
    if isinstance(t, T.MapType):
        return T.ArrayType(T.StructType([T.StructField("key", t.keyType), T.StructField("value", t.valueType)]))
    return t


def to_python(v, t):
    """A canonical JSON value of type t as the Python value Spark takes."""
    if v is None:
        return None
    if isinstance(t, T.TimestampType) or isinstance(t, T.TimestampNTZType):
        return dt.datetime.strptime(v, "%Y-%m-%d %H:%M:%S.%f")
    if isinstance(t, T.DateType):
        return dt.date.fromisoformat(v)
    if isinstance(t, T.DecimalType):
        return decimal.Decimal(v)
    if isinstance(t, (T.FloatType, T.DoubleType)):
        return float(v)
    if isinstance(t, T.BinaryType):
        return bytearray.fromhex(v)
    if isinstance(t, T.ArrayType):
        return [to_python(x, t.elementType) for x in v]
    if isinstance(t, T.MapType):
        return {to_python(k, t.keyType): to_python(x, t.valueType) for k, x in v}
    if isinstance(t, T.StructType):
        return tuple(to_python(x, f.dataType) for x, f in zip(v, t.fields))
    return v


def canon(v, t):
    """A Spark value of type t in the corpus's canonical JSON form."""
    if v is None:
        return None
    if isinstance(t, (T.FloatType, T.DoubleType)):
        return repr(float(v)) if v == v else "NaN"
    if isinstance(t, T.DecimalType):
        return format(v, "f")
    if isinstance(t, (T.TimestampType, T.TimestampNTZType)):
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(t, T.DateType):
        return v.isoformat()
    if isinstance(t, T.BinaryType):
        return bytes(v).hex().upper()
    if isinstance(t, T.DayTimeIntervalType):
        return str((v.days * 86400 + v.seconds) * 1000000 + v.microseconds)
    if isinstance(t, T.ArrayType):
        return [canon(x, t.elementType) for x in v]
    if isinstance(t, T.MapType):
        return [[canon(k, t.keyType), canon(x, t.valueType)] for k, x in v.items()]
    if isinstance(t, T.StructType):
        return [canon(x, f.dataType) for x, f in zip(v, t.fields)]
    if isinstance(t, (T.LongType, T.IntegerType, T.ShortType, T.ByteType)):
        return int(v)
    return v


def error_class(e):
    """Spark's error class, or the Java exception's class for errors
    without one."""
    cond = None
    if isinstance(e, PySparkException):
        cond = e.getCondition()
    text = str(e)
    java = getattr(e, "java_exception", None)
    if java is not None:
        text = str(java)
    if not cond:
        m = re.search(r"\[([A-Z][A-Z0-9_.]+)\]", text)
        if m:
            cond = m.group(1)
        elif java is not None:
            cause = java
            while cause.getCause() is not None:
                cause = cause.getCause()
            cond = cause.getClass().getName()
        else:
            cond = type(e).__name__
    return cond


def error_message(e):
    java = getattr(e, "java_exception", None)
    return (str(java) if java is not None else str(e)).split("\n")[0][:300]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--only", default="", help="comma-separated prefixes of the step names to run")
    args = ap.parse_args()

    spark = (SparkSession.builder.master("local[1]").appName("sparksql-corpus")
             .config("spark.ui.enabled", "false").config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "1")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", "1g").getOrCreate())
    spark.sparkContext.setLogLevel("OFF")
    logging.getLogger("SQLQueryContextLogger").disabled = True  # Spark logs every query error
    assert spark.conf.get("spark.sql.ansi.enabled") == "true"

    tables = json.load(open(os.path.join(args.corpus, "tables.json"), encoding="utf-8"))
    for name, tb in tables.items():
        schema = T._parse_datatype_string(", ".join("%s %s" % (c, t) for c, t in tb["schema"]))
        # Maps are built from their entries in order (a Python dict would
        # reach Spark through a Java HashMap, in hash order).
        load = T.StructType([T.StructField(f.name, entries_type(f.dataType)) for f in schema.fields])
        rows = [tuple(to_python(v, f.dataType) for v, f in zip(r, load.fields)) for r in tb["rows"]]
        df = spark.createDataFrame(rows, load)
        df = df.selectExpr(*[("map_from_entries(`%s`) AS `%s`" % (f.name, f.name)) if isinstance(f.dataType, T.MapType) else "`%s`" % f.name for f in schema.fields])
        df.createOrReplaceTempView("t_" + name)

    files = sorted(glob.glob(os.path.join(args.corpus, "**", "*.sql"), recursive=True))
    for path in files:
        out = {}
        for c in read_cases(path):
            if args.only and not c["name"].startswith(tuple(args.only.split(","))):
                continue
            sql = c["sql"]
            for ph, table in c["inputs"].items():
                sql = sql.replace("{" + ph + "}", "t_" + table)
            if c["mode"] == "filter":
                # The alias keeps Spark from reading WHERE (x) as the
                # table's alias with a column list when x is one name.
                sql = "SELECT * FROM t_%s AS filter_input WHERE (%s)" % (c["inputs"]["df"], sql)
            elif c["mode"] == "expr":
                sql = "SELECT (%s) AS v FROM t_%s" % (sql, c["inputs"]["df"])
            for k, v in c["conf"].items():
                spark.conf.set(k, v)
            res = {}
            try:
                df = spark.sql(sql)
                fields = df.schema.fields
                res["schema"] = [[f.name, f.dataType.simpleString()] for f in fields]
                try:
                    rows = df.collect()
                    res["rows"] = [[canon(v, f.dataType) for v, f in zip(r, fields)] for r in rows]
                except Exception as e:  # noqa: BLE001
                    res = {"error": error_class(e), "phase": "runtime", "message": error_message(e)}
            except Exception as e:  # noqa: BLE001
                res = {"error": error_class(e), "phase": "analysis", "message": error_message(e)}
            finally:
                for k in c["conf"]:
                    spark.conf.set(k, "UTC" if k == "spark.sql.session.timeZone" else spark.conf.get(k))
            out[c["name"]] = res
            status = res.get("error", "%d rows" % len(res.get("rows", [])))
            print("%-40s %s" % (c["name"], status), flush=True)
        if not out:
            continue
        dest = path[:-4] + ".expected.json"
        if args.only and os.path.exists(dest):
            old = json.load(open(dest, encoding="utf-8"))["cases"]
            old.update(out)
            out = old
        with open(dest, "w", encoding="utf-8") as f:
            f.write(dump(spark.version, out))


def dump(version, cases):
    """The expected file: one line per case field and per row, for diffs."""
    def j(v):
        return json.dumps(v, ensure_ascii=False)
    lines = ['{"spark": %s, "cases": {' % j(version)]
    names = sorted(cases)
    for i, name in enumerate(names):
        c = cases[name]
        fields = []
        for k in sorted(c):
            if k == "rows":
                rows = ",\n".join("   " + j(r) for r in c[k])
                fields.append('  "rows": [' + ("\n" + rows + "\n  " if rows else "") + "]")
            else:
                fields.append("  %s: %s" % (j(k), j(c[k])))
        lines.append(" %s: {\n%s\n }%s" % (j(name), ",\n".join(fields), "," if i < len(names) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
