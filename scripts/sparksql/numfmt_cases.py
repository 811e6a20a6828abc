"""Computes runner/sparksql/numfmt/testdata/cases.json with Apache Spark.

Random formats of Spark's number format language (valid ones from its
grammar, and mutations Spark may reject), each with random texts for
try_to_number (renderings of the format, with mutations) and random
decimals for to_char; Spark's answer for every one: the error class of the
format, try_to_number's decimal (NULL where the text does not match) and
to_char's text. TestSparkCases (runner/sparksql/numfmt) compares the
package against them without a JVM. Dev-only; run with the Python of the
corpus (LAKTORY_SPARK_PYTHON, see corpus.sh):

    python scripts/sparksql/numfmt_cases.py runner/sparksql/numfmt/testdata/cases.json
"""
import json
import os
import random
import sys
import time

os.environ["TZ"] = "UTC"
time.tzset()

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.errors import PySparkException  # noqa: E402

rnd = random.Random(20261203)


def digits_run(n, zero_first):
    s = ("0" if zero_first else "9") + "".join(rnd.choice("09") for _ in range(n - 1))
    return s


def valid_format():
    parts = []
    pr = rnd.random() < 0.15
    lead = rnd.choice(["", "", "", "S", "MI"]) if not pr else ""
    parts.append(lead)
    if rnd.random() < 0.2:
        parts.append("$")
    groups = [digits_run(rnd.randint(1, 4), rnd.random() < 0.3) for _ in range(rnd.choice([1, 1, 2, 3]))]
    sep = rnd.choice([",", "G"])
    parts.append(sep.join(groups) if rnd.random() < 0.7 else "".join(groups))
    if rnd.random() < 0.6:
        parts.append(rnd.choice([".", ".", "D"]))
        if rnd.random() < 0.9:
            parts.append(digits_run(rnd.randint(1, 4), rnd.random() < 0.5))
    if pr:
        parts.append("PR")
    elif not lead and rnd.random() < 0.3:
        parts.append(rnd.choice(["S", "MI"]))
    f = "".join(parts)
    if rnd.random() < 0.1:
        f = f.lower()
    return f


def mutate_format(f):
    ops = [
        lambda s: s + rnd.choice(["$", "S", "MI", ".", ",", "X", "9", "PR"]),
        lambda s: rnd.choice(["$", "S", "MI", ".", ",", "PR", "G"]) + s,
        lambda s: s.replace(",", ",,", 1),
        lambda s: s.replace(".", ".9,", 1),
        lambda s: "".join(c for c in s if c not in "09"),
        lambda s: s[: len(s) // 2] + rnd.choice(["$", ".", "S", "D"]) + s[len(s) // 2:],
    ]
    return rnd.choice(ops)(f)


def render(f):
    """A text for format f: digits where the format has digits."""
    out = []
    up = f.upper()
    neg = rnd.random() < 0.4
    i = 0
    while i < len(up):
        c = up[i]
        if c in "09":
            out.append(str(rnd.randint(0, 9)))
        elif c in ".D":
            out.append(".")
        elif c in ",G":
            out.append(",")
        elif c == "$":
            out.append("$")
        elif c == "S":
            out.append("-" if neg else rnd.choice(["+", ""]))
        elif up.startswith("MI", i):
            out.append("-" if neg else "")
            i += 1
        elif up.startswith("PR", i):
            if neg:
                out.insert(0, "<")
                out.append(">")
            i += 1
        i += 1
    return "".join(out)


def mutate_text(s):
    ops = [
        lambda t: t[1:],
        lambda t: t[:-1],
        lambda t: t.lstrip("0123456789")[:1] + t,
        lambda t: t + rnd.choice(["0", "5", " ", "-", "$", ".", ","]),
        lambda t: rnd.choice(["0", " ", "-", "+", "<", "$", "\t"]) + t,
        lambda t: t.replace(",", "", 1),
        lambda t: t.replace(".", "", 1),
        lambda t: t.replace("1", "\u0661"),
        lambda t: t[: len(t) // 2] + rnd.choice([" ", ",", "\u00a0", "x"]) + t[len(t) // 2:],
        lambda t: "",
    ]
    return rnd.choice(ops)(s)


def decimal_text():
    ip = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(0, 7))).lstrip("0") or "0"
    sc = rnd.randint(0, 4)
    fp = "".join(rnd.choice("0123456789") for _ in range(sc))
    s = ip + ("." + fp if sc else "")
    if rnd.random() < 0.4:
        s = "-" + s
    return s, len(ip) + sc, sc


def q(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def main():
    out_path = sys.argv[1]
    spark = (SparkSession.builder.master("local[1]").config("spark.sql.ansi.enabled", "true")
             .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    formats = []
    seen = set()
    while len(formats) < 120:
        f = valid_format()
        if rnd.random() < 0.3:
            f = mutate_format(f)
        if f in seen:
            continue
        seen.add(f)
        formats.append(f)
    cases = []
    for f in formats:
        case = {"format": f}
        try:
            t = spark.sql("SELECT typeof(try_to_number('1', %s)) AS t" % q(f)).collect()[0][0]
            case["type"] = t
        except PySparkException as e:
            case["error"] = e.getCondition()
            cases.append(case)
            continue
        texts = set()
        for _ in range(14):
            s = render(f)
            if rnd.random() < 0.5:
                s = mutate_text(s)
            texts.add(s)
        texts = sorted(texts)
        sel = ", ".join("try_to_number(%s, %s)" % (q(s), q(f)) for s in texts)
        row = spark.sql("SELECT " + sel).collect()[0]
        case["parse"] = [[s, None if v is None else format(v, "f")] for s, v in zip(texts, row)]
        decs = []
        for _ in range(10):
            d, p, s = decimal_text()
            decs.append((d, max(p, 1), s))
        sel = ", ".join("to_char(CAST(%s AS DECIMAL(20,%d)), %s)" % (q(d), s, q(f)) for d, _, s in decs)
        row = spark.sql("SELECT " + sel).collect()[0]
        case["format_values"] = [[d, v] for (d, _, _), v in zip(decs, row)]
        cases.append(case)
    spark.stop()
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump({"spark": "4.2.0", "cases": cases}, fh, ensure_ascii=False, indent=0)
        fh.write("\n")
    print("%d formats, %d rejected" % (len(cases), sum(1 for c in cases if "error" in c)))


if __name__ == "__main__":
    main()
