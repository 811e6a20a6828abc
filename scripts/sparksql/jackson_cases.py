"""Computes runner/sparksql/jackson/testdata/cases.json with Apache Spark.

Random JSON texts (objects, arrays, nested arrays of objects, numbers in
every notation, escapes, single quotes, comments, unquoted names, broken
and cut-short texts) and random get_json_object paths over them (wildcards
[*], .*, ['*'], indexes, names, whitespace, malformed paths), with what
Spark 4.2 gives: get_json_object(json, path) for each pair, and
from_json(json, 'v STRING, _corrupt_record STRING') with the options
allowComments, allowUnquotedFieldNames and allowSingleQuotes for each text
(the text Spark's reader reads, or its corrupt record). TestSparkCases
(runner/sparksql/jackson) compares the package against them without a
JVM. Dev-only; run with the Python of the corpus (LAKTORY_SPARK_PYTHON,
see corpus.sh):

    python scripts/sparksql/jackson_cases.py runner/sparksql/jackson/testdata/cases.json
"""
import json
import os
import random
import sys

from pyspark.sql import SparkSession

rnd = random.Random(20261203)


def pick(*xs):
    return rnd.choice(xs)


def number():
    return pick("0", "1", "-1", "10", "1.5", "1.50", "-0.0", "-0", "2e3", "1E-2", "1e2", "0.001", "0.0001",
                "1234567", "12345678", "1.0E7", "123456789012345678901", "3.14159", "0.1", "1e400", "01", "1.",
                ".5", "-", "1e", "9223372036854775807", "9223372036854775808", "-12.25e-1", "5e-324")


def string(q='"'):
    s = pick("x", "", "a b", "é", "it's", 'q"t', "tab\\tx", "\\u00e9", "\\ud83d\\ude00", "\\/", "\\x", "line\\nbr",
             "\\'s", "日本", "\\u0041")
    if q == "'":
        s = s.replace("'", "\\'")
    else:
        s = s.replace('"', '\\"')
    return q + s + q


def name(unquoted=False):
    n = pick("a", "b", "k", "sku", "a b", "x.y", "*", "n1", "_c", "$d", "a-b")
    if unquoted and rnd.random() < 0.5 and all(c.isalnum() or c in "_$-" for c in n):
        return n
    if rnd.random() < 0.1:
        return "'" + n + "'"
    return '"' + n + '"'


def value(depth=0, odd=False):
    r = rnd.random()
    if depth > 2 or r < 0.35:
        return pick(number, lambda: string(pick('"', '"', '"', "'") if odd else '"'),
                    lambda: pick("true", "false", "null", "nul", "truex"))()
    if r < 0.65:
        n = rnd.randint(0, 4)
        return "[" + ", ".join(value(depth + 1, odd) for _ in range(n)) + "]"
    n = rnd.randint(0, 3)
    items = []
    for _ in range(n):
        sep = pick(":", ": ", " : ")
        items.append(name(odd) + sep + value(depth + 1, odd))
    return "{" + ", ".join(items) + "}"


def mutate(s):
    r = rnd.random()
    if r < 0.08 and len(s) > 2:
        return s[: rnd.randint(1, len(s) - 1)]
    if r < 0.14:
        return s + pick(" x", "}", ",", " {\"z\":1}")
    if r < 0.2:
        i = rnd.randint(0, len(s))
        return s[:i] + pick(" /* c */ ", " // c\n", ",", "\t", "\n") + s[i:]
    return s


def doc():
    odd = rnd.random() < 0.3
    d = value(0, odd)
    if rnd.random() < 0.5 and not d.startswith(("{", "[")):
        d = "{" + name() + ":" + d + "}"
    return mutate(d)


def path():
    parts = []
    for _ in range(rnd.randint(0, 4)):
        parts.append(pick(".a", ".b", ".k", ".sku", "[*]", "[*]", "[0]", "[1]", "[2]", ".*", "['*']", "['a']",
                          "['a b']", ".a b", ". a", "[ 0]", "[0 ]", "..a", ".", "[-1]", "[x]", "['k']"))
    p = "$" + "".join(parts)
    r = rnd.random()
    if r < 0.04:
        p = " " + p
    elif r < 0.08:
        p = p + " "
    elif r < 0.1:
        p = p.lstrip("$")
    return p


FIXED_DOCS = [
    '{"a":[1,2,3]}', '{"a":[1]}', '{"a":["x","y"]}', '{"a":["x"]}', '{"a":[[1,2],[3]]}', '{"a":[]}',
    '{"a":[{"b":1},{"c":2},{"b":3}]}', '[1.50,2e3,"q"]', '{"a":[1,null,2]}', '{"a":[null]}',
    '{"a":[{"b":null}]}', '[[[1,2],[3]],[[4]]]', '{"o":[{"l":[{"s":"a"}]},{"l":[]}]}', '', '  ', 'null', '5',
    '"s"', "{'a':'v'}", '{"a":1}{"a":2}', '{"a":1} x', '{"a":"x\ty"}', '{"a":[1,2], "b": }', '{"a":1,"a":2}',
    '{"a":{"a":[{"a":1}]}}', '[{"k":[1,2]},{"k":[]},{"k":[3]}]', '{"a":[true,false,null]}',
]
FIXED_PATHS = ["$", "$.a", "$.a[*]", "$[*]", "$[*][*]", "$.a[*][*]", "$.a[*].b", "$.a[0]", "$.a[1]", "$[0]",
               "$.*", "$.a.*", "$['a']", "$[*].k", "$[*].k[*]", "$.a[*][0]", "$.o[*].l[*].s", "$.a.a[*].a"]


def main(out):
    docs = list(FIXED_DOCS) + [doc() for _ in range(260)]
    docs = list(dict.fromkeys(docs))
    pairs = [(d, p) for d in FIXED_DOCS for p in FIXED_PATHS]
    for d in docs:
        for _ in range(4):
            pairs.append((d, pick(*FIXED_PATHS) if rnd.random() < 0.5 else path()))
    pairs = list(dict.fromkeys(pairs))
    spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false") \
        .config("spark.sql.ansi.enabled", "true").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame(pairs, "j STRING, p STRING")
    paths = []
    for r in df.selectExpr("j", "p", "get_json_object(j, p) AS v").collect():
        paths.append({"json": r["j"], "path": r["p"], "spark": r["v"]})
    reads = []
    opts = [("", {}), ("c", {"allowComments": "true"}), ("u", {"allowUnquotedFieldNames": "true"}),
            ("n", {"allowSingleQuotes": "false"}), ("cu", {"allowComments": "true", "allowUnquotedFieldNames": "true"})]
    ddf = spark.createDataFrame([(d,) for d in docs], "j STRING")
    for key, o in opts:
        m = ", map(" + ", ".join("'%s', '%s'" % kv for kv in o.items()) + ")" if o else ""
        rows = ddf.selectExpr("j", "to_json(from_json(j, 'ARRAY<STRING>'%s)) AS arr" % m,
                              "from_json(j, 'v STRING, _corrupt_record STRING'%s) AS s" % m).collect()
        for r in rows:
            s = r["s"]
            reads.append({"json": r["j"], "options": key, "array": r["arr"],
                          "corrupt": None if s is None else s["_corrupt_record"], "struct_null": s is None})
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"get_json_object": paths, "from_json": reads}, f, ensure_ascii=False, indent=0, sort_keys=True)
        f.write("\n")
    print(len(paths), "paths,", len(reads), "reads")


if __name__ == "__main__":
    os.environ.setdefault("TZ", "UTC")
    main(sys.argv[1])
