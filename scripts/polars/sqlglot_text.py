"""What Laktory 0.13.1's SQL parser (laktory/sqlparser.py, on sqlglot)
says of expressions: sqlglot's print of each (str(parse_one(e))), the
class of its node, and Laktory's exception when its parse raises. Writes
runner/polarssql/testdata/sqlglot/text.json, which TestSqlglotText
compares with the local parse, its print and its refusal.

Dev-only:  $LAKTORY_PYTHON scripts/polars/sqlglot_text.py [OUT.json]
"""
import json
import os
import sys

import sqlglot
from laktory.sqlparser import SQLParser

EXPRS = [
    "a", "a.b", "a.b.c", '"a".b."c d"', "1", "1.50", ".5", "5.", "1e5", "1E-3", "'x'", "'it''s'", "TRUE", "false", "NULL",
    "-1", "- 1", "-a", "-(a)", "-(-1)", "+a", "~a", "NOT a", "NOT NOT a", "(a)", "((a + b)) * c", "a - (b - c)",
    "a + b * c", "(a + b) * c", "a % b", "a / b", "a DIV b", "a || b", "a & b", "a | b", "a ^ b", "a << 2",
    "a = b", "a == b", "a <> b", "a != b", "a < b", "a <= b", "a > b", "a >= b", "a <=> b",
    "a AND b OR c", "a OR b AND c", "NOT a AND b", "a = b IS NULL", "a IS NULL = b", "a = b > c", "a < b = c",
    "a IS NULL", "a IS NOT NULL", "a IS TRUE", "a IS NOT FALSE", "a IS UNKNOWN", "a IS 5", "a IS NOT b + 1",
    "a IS -1", "a IS (1)", "a IS 'x'", "a IS f(b)", "a IS DISTINCT FROM b", "a IS NOT DISTINCT FROM b",
    "a IN (1, 2)", "a NOT IN (1)", "a BETWEEN 1 AND 2", "a NOT BETWEEN 1 AND 2", "a LIKE 'x%'", "a NOT LIKE 'x'",
    "a ILIKE 'x'", "a RLIKE 'x'", "CASE WHEN a THEN 1 ELSE 2 END", "CASE a WHEN 1 THEN 2 END",
    "CAST(a AS INT)", "CAST(a AS TEXT)", "a::int", "INTERVAL '1' DAY", "INTERVAL 1 DAY",
    "abs(a)", "ABS(-a)", "lower(a)", "lcase(a)", "upper(a)", "round(a)", "round(a, 2)", "floor(a)", "ceil(a)", "ceiling(a)",
    "power(a, 2)", "pow(a, 2)", "cbrt(a)", "exp(a)", "ln(a)", "log(a)", "min(a)", "max(a)", "sum(a)", "avg(a)",
    "count(a)", "count(*)", "count(distinct a)", "pi()", "sqrt(a)", "coalesce(a, b)", "ifnull(a, b)", "nullif(a, 1)",
    "concat(a, b)", "substr(a, 1, 2)", "substring(a, 1)", "trim(a)", "length(a)", "len(a)", "myfn(a)", "MyFn(a, 1)",
    "date(a)", "year(a)", "current_date", "now()", "greatest(a, b)", "if(a, 1, 2)", "a.b + c.d", "f(a) + 1",
    "-abs(a)", "NOT (a IN (1))", "a AND (b IN (1))", "a IS NOT 5 AND b",
]


def main():
    out = []
    for e in EXPRS:
        node = sqlglot.parse_one(e)
        rec = {"expr": e, "text": str(node), "class": type(node).__module__ + "." + type(node).__name__}
        try:
            SQLParser().parse(e)
        except Exception as x:  # noqa: BLE001
            rec["error"] = type(x).__name__
            rec["message"] = str(x)
        out.append(rec)
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "runner", "polarssql", "testdata", "sqlglot", "text.json")
    with open(path, "w") as f:
        json.dump({"sqlglot": sqlglot.__version__, "cases": out}, f, indent=1)
        f.write("\n")
    print(path, len(out), "expressions")


if __name__ == "__main__":
    main()
