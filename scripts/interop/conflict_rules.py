#!/usr/bin/env python3
"""Race Spark 4.2 + Delta 4.4 transactions as the conflict corpus says, and
record which conflict Delta's ConflictChecker reports, for
TestConflictCorpus (delta/conflict_corpus_test.go).

    conflict_rules.py OUT.json CORPUS.json...

Each corpus file (delta/testdata/conflicts) holds scenarios. Every scenario
starts from the same table (columns id BIGINT, writer STRING, v INT;
version 1 appends writer a's ids 0..9, version 2 writer b's ids 10..19, one
file each; partitioned by writer when "partitioned"), with
delta.isolationLevel set as "isolation" says (written straight into the
table's metaData by a commit of its own: OSS Delta refuses to SET any value
but Serializable, see "probes" below, but honours the one it finds). Then:

1. the loser starts a transaction on that snapshot (DeltaLog.startTransaction)
   and stages its operations the way Delta's commands do: a delete reads
   with filterFiles([predicate]) (as DeleteCommand does), removes the files
   it returns and writes the rows of those files that the predicate keeps
   (txn.writeFiles); an append writes with txn.writeFiles; a txn reads
   txnVersion(appId) and adds SetTransaction; a truncate reads every file
   (filterFiles()) and removes it;
2. the winner runs as a user would (DataFrame append, with txnAppId and
   txnVersion for a txn; DELETE FROM; an append with mergeSchema adding a
   column, merge_column; OPTIMIZE, which compacts a's and b's files into
   one) and commits;
3. the loser commits (txn.commit, as a Truncate or else a ManualUpdate,
   without operation metrics): recorded is the error class of the
   conflict it fails with ("" when it commits).

Also recorded ("probes"): the isolationLevel in the commitInfo of a plain
append, and what SET TBLPROPERTIES ('delta.isolationLevel' = ...) does.
Needs pyspark 4.2 and delta-spark 4.4 (requirements-spark.txt) and Java 17+.
Test-only: the product never runs Python or Spark.
"""

import json
import os
import shutil
import sys
import tempfile

import local_spark


def start(work):
    return local_spark.start(work, "laktory-conflicts", shuffle_partitions=1)


def rows(spark, writer, lo, hi):
    return spark.range(lo, hi).selectExpr("id", f"'{writer}' AS writer", "CAST(id % 5 AS INT) AS v").coalesce(1)


def error_class(e):
    """The error class of a Spark or Delta error, without its subclass
    (DELTA_CONCURRENT_APPEND.WITHOUT_HINT is DELTA_CONCURRENT_APPEND)."""
    import re
    for m in ("getCondition", "getErrorClass"):
        if hasattr(e, m) and getattr(e, m)():
            return getattr(e, m)().split(".")[0]  # pyspark's CapturedException
    # delta.exceptions.captured.* (ConcurrentAppendException, ...) carry
    # the class only in their message: "[DELTA_CONCURRENT_APPEND.WITHOUT_HINT] ...".
    match = re.match(r"\[([A-Z0-9_]+)(\.[A-Z0-9_]+)*\]", str(e).strip())
    if match:
        return match.group(1)
    je = getattr(e, "java_exception", None)
    if je is None:
        raise e
    try:
        c = je.getErrorClass()
        if c:
            return c.split(".")[0]
    except Exception:
        pass
    return je.getClass().getName() + ": " + str(je.getMessage()).splitlines()[0]


class Env:
    def __init__(self, spark, work):
        self.spark, self.work, self.jvm = spark, work, spark._jvm
        self.pkg = self.jvm.org.apache.spark.sql.delta
        self.n = 0

    def seq(self, items):
        lst = self.jvm.java.util.ArrayList()
        for i in items:
            lst.add(i)
        return self.jvm.scala.jdk.javaapi.CollectionConverters.asScala(lst).toSeq()

    def table(self, partitioned, isolation):
        self.n += 1
        path = os.path.join(self.work, f"t{self.n}")
        w = rows(self.spark, "a", 0, 0).write.format("delta")
        if partitioned:
            w = w.partitionBy("writer")
        w.save(path)
        rows(self.spark, "a", 0, 10).write.format("delta").mode("append").save(path)
        rows(self.spark, "b", 10, 20).write.format("delta").mode("append").save(path)
        if isolation:
            self.set_isolation(path, isolation)
        return path

    def set_isolation(self, path, level):
        log = os.path.join(path, "_delta_log")
        meta = None
        for name in sorted(os.listdir(log)):
            if name.endswith(".json"):
                for line in open(os.path.join(log, name)):
                    a = json.loads(line)
                    if "metaData" in a:
                        meta = a["metaData"]
        meta["configuration"]["delta.isolationLevel"] = level
        version = max(int(n[:20]) for n in os.listdir(log) if n.endswith(".json")) + 1
        info = {"commitInfo": {"timestamp": 0, "operation": "SET TBLPROPERTIES",
                               "operationParameters": {"properties": json.dumps({"delta.isolationLevel": level})},
                               "isBlindAppend": True}}
        with open(os.path.join(log, f"{version:020d}.json"), "x") as f:
            f.write(json.dumps(info) + "\n" + json.dumps({"metaData": meta}) + "\n")

    def condition(self, path, pred):
        plan = self.spark.read.format("delta").load(path).where(pred)._jdf.queryExecution().analyzed()
        return plan.condition()

    def loser(self, path, ops):
        spark, jvm = self.spark, self.jvm
        log = self.pkg.DeltaLog.forTable(spark._jsparkSession, path)
        log.update(False, self.jvm.scala.Option.empty(), self.jvm.scala.Option.empty())
        txn = log.startTransaction()
        read_version = txn.readVersion()
        actions, op = [], None
        for o in ops:
            if "delete" in o:
                pred = o["delete"]
                cond = self.condition(path, pred)
                files = txn.filterFiles(self.seq([cond]), False)
                writers = set()
                for i in range(files.size()):
                    f = files.apply(i)
                    actions.append(f.remove())
                    if f.partitionValues().isEmpty():
                        data = spark.read.parquet(os.path.join(path, f.path()))
                        writers.update(r[0] for r in data.select("writer").distinct().collect())
                    else:
                        writers.add(f.partitionValues().apply("writer"))
                if writers:
                    inlist = ", ".join(f"'{w}'" for w in sorted(writers))
                    kept = (spark.read.format("delta").option("versionAsOf", read_version).load(path)
                            .where(f"writer IN ({inlist}) AND NOT ({pred})").coalesce(1))
                    if kept.count() > 0:
                        written = txn.writeFiles(kept._jdf)
                        for i in range(written.size()):
                            actions.append(written.apply(i))
                # Not DeltaOperations.Delete: its transformMetrics needs
                # DeleteCommand's SQL metrics (numDeletedRows), which a
                # staged delete has not. The operation plays no part in the
                # checks of a commit that changes data.
                op = None
            elif "append" in o:
                w, lo = o["append"]
                written = txn.writeFiles(rows(spark, w, lo, lo + 5)._jdf)
                for i in range(written.size()):
                    actions.append(written.apply(i))
            elif "txn" in o:
                app, version = o["txn"]
                txn.txnVersion(app)
                actions.append(getattr(self.pkg.actions, "SetTransaction")(app, version, jvm.scala.Option.empty()))
            elif "truncate" in o:
                files = txn.filterFiles()
                for i in range(files.size()):
                    actions.append(files.apply(i).remove())
                op = getattr(self.pkg, "DeltaOperations$Truncate")()
            else:
                raise ValueError(f"unknown loser operation {o}")
        if op is None:
            op = getattr(getattr(self.pkg, "DeltaOperations$ManualUpdate$"), "MODULE$")
        return txn, actions, op

    def winner(self, path, ops):
        spark = self.spark
        txn = None
        for o in ops:
            if "txn" in o:
                txn = o["txn"]
        for o in ops:
            if "append" in o:
                w, lo = o["append"]
                wr = rows(spark, w, lo, lo + 5).write.format("delta").mode("append")
                if txn:
                    wr = wr.option("txnAppId", txn[0]).option("txnVersion", txn[1])
                wr.save(path)
            elif "delete" in o:
                spark.sql(f"DELETE FROM delta.`{path}` WHERE {o['delete']}")
            elif "merge_column" in o:
                name, typ = o["merge_column"]
                df = spark.range(100, 101).selectExpr("id", "'c' AS writer", f"CAST(NULL AS {typ}) AS {name}")
                wr = df.coalesce(1).write.format("delta").mode("append").option("mergeSchema", "true")
                if txn:
                    wr = wr.option("txnAppId", txn[0]).option("txnVersion", txn[1])
                wr.save(path)
            elif "optimize" in o:
                spark.sql(f"OPTIMIZE delta.`{path}`")
            elif "txn" in o:
                pass
            else:
                raise ValueError(f"unknown winner operation {o}")

    def run(self, sc):
        path = self.table(sc.get("partitioned", False), sc.get("isolation"))
        txn, actions, op = self.loser(path, sc["loser"])
        try:
            self.winner(path, sc["winner"])
        except Exception as e:
            return "winner failed: " + error_class(e)
        # The loser registers no SQL metrics: its commitInfo records none.
        conf = "spark.databricks.delta.history.metricsEnabled"
        self.spark.conf.set(conf, "false")
        try:
            txn.commit(self.seq(actions), op)
            return ""
        except Exception as e:  # py4j.protocol.Py4JJavaError
            return error_class(e)
        finally:
            self.spark.conf.unset(conf)


def probes(env):
    spark = env.spark
    out = {}
    path = env.table(False, None)
    last = sorted(n for n in os.listdir(os.path.join(path, "_delta_log")) if n.endswith(".json"))[-1]
    for line in open(os.path.join(path, "_delta_log", last)):
        a = json.loads(line)
        if "commitInfo" in a:
            out["append commitInfo.isolationLevel"] = a["commitInfo"].get("isolationLevel")
    for level in ["Serializable", "WriteSerializable", "SnapshotIsolation", "bogus"]:
        try:
            spark.sql(f"ALTER TABLE delta.`{path}` SET TBLPROPERTIES ('delta.isolationLevel' = '{level}')")
            out[f"SET delta.isolationLevel = {level}"] = ""
        except Exception as e:
            out[f"SET delta.isolationLevel = {level}"] = error_class(e)
    # A table whose metaData holds another value: what a write does.
    for level in ["WriteSerializable", "bogus"]:
        p = env.table(False, level)
        try:
            rows(spark, "c", 300, 301).write.format("delta").mode("append").save(p)
            last = sorted(n for n in os.listdir(os.path.join(p, "_delta_log")) if n.endswith(".json"))[-1]
            info = [json.loads(l) for l in open(os.path.join(p, "_delta_log", last))]
            out[f"append to a table with delta.isolationLevel = {level}"] = \
                "committed, commitInfo.isolationLevel " + str(info[0]["commitInfo"].get("isolationLevel"))
        except Exception as e:
            out[f"append to a table with delta.isolationLevel = {level}"] = error_class(e)
    return out


def main():
    out_path, corpora = sys.argv[1], sys.argv[2:]
    work = tempfile.mkdtemp(prefix="conflicts-")
    try:
        spark = start(work)
        env = Env(spark, work)
        result = {"engine": f"Spark {spark.version}, delta-spark 4.4.0", "probes": probes(env), "scenarios": {}}
        for c in corpora:
            for sc in json.load(open(c))["scenarios"]:
                result["scenarios"][sc["name"]] = env.run(sc)
                print(f"{sc['name']}: {result['scenarios'][sc['name']] or 'committed'}", flush=True)
        with open(out_path, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write("\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
