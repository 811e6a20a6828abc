"""Computes runner/sparksql/javauri/testdata/cases.json with Apache Spark.

Random URL strings (landing-file, API and odd ones from a grammar, with
mutations: illegal characters, escapes, registry-based authorities, IPv4
lookalikes, ports, opaque URIs, non-ASCII text) and what Spark's
try_parse_url gives for each part (PROTOCOL, HOST, PATH, QUERY, REF, FILE,
AUTHORITY, USERINFO). TestSparkCases (runner/sparksql/javauri) compares
the package against them without a JVM. Dev-only; run with the Python of
the corpus (LAKTORY_SPARK_PYTHON, see corpus.sh):

    python scripts/sparksql/url_cases.py runner/sparksql/javauri/testdata/cases.json
"""
import json
import os
import random
import sys

from pyspark.sql import SparkSession

PARTS = ["PROTOCOL", "HOST", "PATH", "QUERY", "REF", "FILE", "AUTHORITY", "USERINFO"]
rnd = random.Random(20261203)


def pick(*xs):
    return rnd.choice(xs)


def host():
    return pick("example.com", "api.example.com", "h", "my_bucket.s3.amazonaws.com", "10.0.0.1", "256.0.0.1",
                "1.2.3", "a-b.org", "-ab.org", "ab-.org", "x.1com", "example.com.", "bücher.de", "h%41.com",
                "[::1]", "[2001:db8::7]", "[::1", "", "local_host", "a..b", "1a.b2")


def path():
    segs = [pick("a", "landing", "2024", "x.csv", "a%20b", "ü", "a b", "[1]", "%zz", "p;v=1", "~u", "a:b", "@", "")
            for _ in range(rnd.randint(0, 3))]
    return "/" + "/".join(segs) if segs or rnd.random() < 0.5 else ""


def query():
    kv = ["%s=%s" % (pick("a", "k", "token", "a.b", "x"), pick("1", "", "abc", "%41", "[2]", "a b", "é"))
          for _ in range(rnd.randint(1, 3))]
    return "&".join(kv)


def url():
    scheme = pick("http", "https", "s3", "file", "abfss", "svn+ssh", "HTTP", "1x", "", "mailto", "urn")
    if scheme in ("mailto", "urn"):
        s = scheme + ":" + pick("a@b.com", "isbn:123", "", " x", "a%zz")
    else:
        auth = host()
        if rnd.random() < 0.2:
            auth = pick("user", "user:pw", "u@v", "u%20x", "u ser") + "@" + auth
        if rnd.random() < 0.25:
            auth += ":" + pick("80", "", "8o", "65536", "99999999999")
        s = (scheme + ":" if scheme else "") + pick("//", "//", "//", "/", "") + auth + path()
    if rnd.random() < 0.4:
        s += "?" + query()
    if rnd.random() < 0.2:
        s += "#" + pick("top", "", "a#b", "x y", "k=2")
    if rnd.random() < 0.1:
        i = rnd.randint(0, len(s))
        s = s[:i] + pick(" ", "\t", "\"", "<", "|", "^", "`", "{", "\u00a0", "\u2028", "\u0085", "%") + s[i:]
    return s


# IPv6 literals with a scope id (RFC 4007's %zone, as java.net.URI reads
# it: an address, '%', then letters, digits, '_' or '.'), drawn apart so
# that the URLs above stay the same.
zrnd = random.Random(20261204)


def zone_url():
    addr = zrnd.choice(["fe80::1", "::1", "2001:db8::7", "", "::ffff:1.2.3.4", "fe80::1:2", "fe80:1", "1.2.3.4"])
    zone = zrnd.choice(["eth0", "25eth0", "", "en_0", "a.b", "e-x", "%41", "é", "x y", "0", "%", "eth0]"])
    s = zrnd.choice(["http://", "https://", "//", "s3://u@"]) + "[" + addr + "%" + zone + "]"
    if zrnd.random() < 0.4:
        s += ":" + zrnd.choice(["80", "", "x"])
    return s + zrnd.choice(["", "/", "/x", "/a?k=1", "#f"])


def q(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def main():
    spark = (SparkSession.builder.master("local[1]").config("spark.sql.ansi.enabled", "true")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    urls = sorted({url() for _ in range(700)} | {zone_url() for _ in range(120)})
    cases = []
    for i in range(0, len(urls), 40):
        chunk = urls[i:i + 40]
        sel = ", ".join("try_parse_url(%s, '%s')" % (q(u), p) for u in chunk for p in PARTS)
        row = spark.sql("SELECT " + sel).collect()[0]
        for j, u in enumerate(chunk):
            cases.append({"url": u, "parts": list(row[j * len(PARTS):(j + 1) * len(PARTS)])})
    spark.stop()
    with open(sys.argv[1], "w", encoding="utf-8") as fh:
        json.dump({"spark": "4.2.0", "parts": PARTS, "cases": cases}, fh, ensure_ascii=False, indent=0)
        fh.write("\n")
    print("%d URLs, %d invalid or without any part" % (len(cases), sum(1 for c in cases if all(v is None for v in c["parts"]))))


if __name__ == "__main__":
    main()
