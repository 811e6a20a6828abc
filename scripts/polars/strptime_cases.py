"""Texts parsed by Polars SQL's STRPTIME, DATE(x, format) and
TIMESTAMP(x, format) through Laktory 0.13.1's Polars SQL step on polars
1.32.0, one row at a time (strict parsing fails the whole query): chrono
formats with dates, times, %y, %F, %T, %.f and literal text, each over
valid texts and their mutations (unpadded, whitespace here and there,
signs, fields out of range, leap days and seconds, digits added or
removed, other separators or letter case). Writes
runner/polarssql/testdata/random/strptime.json (the parsed value, or
null where polars fails, with the error where the query fails otherwise
than converting the value), and its held-out part strptime_heldout.json
(other formats and seed), which TestStrptimeCases compares with the
local translation.

Dev-only:  $LAKTORY_PYTHON scripts/polars/strptime_cases.py [OUT.json]
"""
import json
import logging
import os
import random
import sys
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

import polars as pl  # noqa: E402

import laktory as lk  # noqa: E402

FORMATS = [
    ("STRPTIME", "%Y-%m-%d %H:%M:%S", ["2024-01-14 08:30:00", "1999-12-31 23:59:59", "2024-02-29 00:00:00", "0001-01-01 00:00:00"]),
    ("STRPTIME", "%Y-%m-%dT%H:%M:%S%.f", ["2024-01-14T08:30:00.123456", "2024-01-14T08:30:00", "2000-02-29T23:59:59.5"]),
    ("STRPTIME", "%d/%m/%Y %H:%M", ["14/01/2024 08:30", "29/02/2000 23:59"]),
    ("STRPTIME", "%F %T", ["2024-01-14 08:30:00", "2023-06-30 12:00:00"]),
    ("STRPTIME", "%Y%m%d%H%M%S", ["20240114083000", "19991231235959"]),
    ("TIMESTAMP", "%m/%d/%y %H:%M:%S", ["01/14/24 08:30:00", "12/31/99 23:59:59"]),
    ("DATE", "%Y-%m-%d", ["2024-01-14", "1999-12-31", "2024-02-29", "9999-12-31"]),
    ("DATE", "%d/%m/%Y", ["14/01/2024", "29/02/2024", "31/12/1999"]),
    ("DATE", "%d.%m.%y", ["14.01.24", "31.12.70", "01.01.69"]),
    ("DATE", "%Y%m%d", ["20240114", "19991231"]),
    ("DATE", "%Y %m %d", ["2024 01 14"]),
    ("DATE", "%Y-%m-%d %H:%M:%S", ["2024-01-14 08:30:00"]),
    ("DATE", "day %d of %m, %Y%%", ["day 14 of 01, 2024%"]),
    # month and weekday names, 12-hour clocks, offsets, nanoseconds, days
    # of the year (appended: the cases above stay as they were)
    ("DATE", "%d %b %Y", ["14 Jan 2024", "01 Sep 2024", "29 Feb 2024", "14 January 2024", "14 jAN 2024", "14 Sept 2024", "14Jan 2024"]),
    ("DATE", "%B %d, %Y", ["January 14, 2024", "Sep 1, 2024", "MAY 5, 2000", "Septem 1, 2024", "june 30, 2024", "Febuary 2, 2024"]),
    ("STRPTIME", "%Y-%m-%d %I:%M %p", ["2024-01-14 08:30 PM", "2024-01-14 12:05 am", "1999-12-31 12:59 pm", "2024-01-14 00:30 AM",
                                       "2024-01-14 8:30 P.M.", "2024-01-14 08:30PM", "2024-01-14 13:30 PM"]),
    ("STRPTIME", "%Y-%m-%dT%H:%M:%S%z", ["2024-01-14T08:30:00+0100", "2024-01-14T08:30:00-05:30", "1999-12-31T23:59:59+0000",
                                         "2024-01-14T08:30:00 +01 00", "2024-01-14T08:30:00\u22120100", "2024-01-14T08:30:00Z",
                                         "2024-01-14T08:30:00+01", "2024-01-14T08:30:00+2359", "2024-01-14T08:30:00+0160",
                                         "2024-01-14T08:30:00+01::30", "2000-01-01T00:30:00+0100"]),
    ("STRPTIME", "%Y-%m-%dT%H:%M:%S%:z", ["2024-01-14T08:30:00+01:00", "2000-02-29T00:00:00-11:45", "2024-01-14T08:30:00+0100"]),
    ("STRPTIME", "%Y-%m-%d %H:%M:%S.%f", ["2024-01-14 08:30:00.123", "2024-01-14 08:30:00.123456789", "2024-01-14 08:30:00.000001500",
                                          "2024-01-14 08:30:00.1234567890"]),
    ("DATE", "%Y-%j", ["2024-014", "2024-366", "1999-365", "2023-366", "2024-000", "2024-1", "2024-0366"]),
    ("DATE", "%a, %d %b %Y", ["Sun, 14 Jan 2024", "Fri, 31 Dec 1999", "Mon, 14 Jan 2024", "sunday, 14 Jan 2024"]),
    ("DATE", "%A %d %B %Y", ["Sunday 14 January 2024", "Thu 29 Feb 2024", "THURSDAY 29 FEBRUARY 2024", "Thurs 29 Feb 2024"]),
    ("STRPTIME", "%d%b%Y %H%M", ["14Jan2024 0830", "1Feb2024 0830"]),
    ("STRPTIME", "%b %d %Y %I:%M:%S %p", ["Jan 14 2024 08:30:00 PM", "Dec 31 1999 11:59:59 pm"]),
    # polars' format checks (a meridiem with a 24-hour clock, a 12-hour
    # clock without one, an hour without minutes) and offsets before other
    # items (appended: the cases above stay as they were)
    ("STRPTIME", "%Y-%m-%d %H:%M %p", ["2024-01-14 20:30 PM", "2024-01-14 08:30 AM"]),
    ("STRPTIME", "%Y-%m-%d %I:%M", ["2024-01-14 08:30"]),
    ("DATE", "%d/%m/%Y %H", ["14/01/2024 08"]),
    ("STRPTIME", "%z %Y-%m-%d %H:%M", ["+0100 2024-01-14 08:30", "-05:30 2024-01-14 08:30", "+01002024-01-14 08:30"]),
    ("STRPTIME", "%Y-%m-%d %H:%M%z:%S", ["2024-01-14 08:30+0100:05", "2024-01-14 08:30+01:00:05"]),
    ("TIMESTAMP", "%Y%m%d%H%M%z%S", ["202401140830+010005", "199912312359-115959"]),
    ("STRPTIME", "%d %H:%M %z %m %Y", ["14 08:30 +0100 01 2024", "14 08:30 +01 00 01 2024"]),
]

# The held-out part (strptime_heldout.json), written and computed before
# the code it tests: polars' format checks and offsets before other items.
HELDOUT = [
    ("TIMESTAMP", "%d.%m.%Y %H:%M:%S %p", ["14.01.2024 20:30:00 PM"]),
    ("STRPTIME", "%m/%d/%Y %I:%M:%S", ["01/14/2024 08:30:00"]),
    ("DATE", "%Y-%m-%d %S", ["2024-01-14 05"]),
    ("STRPTIME", "%Y-%m-%d %M:%S", ["2024-01-14 30:05"]),
    ("STRPTIME", "%H:%M %z %d/%m/%Y", ["08:30 +0100 14/01/2024", "23:59 -1200 31/12/1999", "00:00 +13:45 29/02/2000"]),
    ("STRPTIME", "%Y-%m-%dT%H:%M%:z %S", ["2024-01-14T08:30+01:00 05", "2024-01-14T08:30-0000 59"]),
    ("TIMESTAMP", "%d %b %Y %H:%M %z (local)", ["14 Jan 2024 08:30 +0100 (local)", "31 Dec 1999 23:59 -0530 (local)"]),
    ("STRPTIME", "%z|%Y%m%d %H%M", ["+0100|20240114 0830", "-1159|20000229 2359"]),
]

WS = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u2009"]


def mutations(rnd, s):
    out = {s, "", " " + s, s + " ", s.upper(), s.lower(), s.replace("-", "/"), s.replace(":", "."),
           s.replace(" ", ""), s.replace(" ", "T"), s.replace("T", " "), "+" + s, "-" + s, "0" + s, s + "0", s[:-1]}
    for _ in range(25):
        cs = list(s)
        op = rnd.randrange(6)
        i = rnd.randrange(len(cs) + 1)
        if op == 0:  # whitespace somewhere
            cs.insert(i, rnd.choice(WS))
        elif op == 1 and i < len(cs) and cs[i].isdigit():  # another digit
            cs[i] = str(rnd.randrange(10))
        elif op == 2 and i < len(cs) and cs[i].isdigit():  # a digit removed (unpadded)
            del cs[i]
        elif op == 3:  # a digit added
            cs.insert(i, str(rnd.randrange(10)))
        elif op == 4 and i < len(cs) and cs[i] == "0" and (i == 0 or not cs[i - 1].isdigit()):  # unpadded field
            del cs[i]
        elif op == 5:  # a field out of range
            cs = list(rnd.choice([s.replace("01", "13"), s.replace("14", "32"), s.replace("08", "24"), s.replace("30", "60"),
                                  s.replace(":00", ":60"), s.replace("29", "30"), s.replace("2024", "2023"), s.replace("31", "00")]))
        out.add("".join(cs))
    return sorted(out)


def parse(func, fmt, text):
    return parse_error(func, fmt, text)[0]


def parse_error(func, fmt, text):
    """The parsed value (or None) and, where polars fails otherwise than
    converting the value (InvalidOperationError), the query's error: its
    class and first line."""
    df = pl.DataFrame({"v": [text]}, schema={"v": pl.String})
    sql = f"SELECT {func}(v, '{fmt}') AS t FROM {{df}}"
    try:
        res = lk.models.DataFrameExpr(expr=sql).to_df(dfs={"df": df.lazy()})
        res = res.to_native() if hasattr(res, "to_native") else res
        if isinstance(res, pl.LazyFrame):
            res = res.collect()
    except BaseException as e:  # noqa: BLE001  (pyo3 panics are BaseException)
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        if type(e).__name__ == "InvalidOperationError":
            return None, None
        return None, type(e).__name__ + ": " + (str(e).strip().splitlines() or [""])[0]
    # polars' own text of the value: Python's datetime has no year 0 or
    # negative years, which chrono parses.
    t = res["t"]
    if t.dtype == pl.Date:
        return t.dt.strftime("%Y-%m-%d")[0], None
    return t.dt.strftime("%Y-%m-%d %H:%M:%S%.6f")[0], None


def cases(formats, seed):
    rnd = random.Random(seed)
    out = []
    for func, fmt, goods in formats:
        for g in goods:
            for text in mutations(rnd, g):
                value, err = parse_error(func, fmt, text)
                c = {"func": func, "format": fmt, "text": text, "polars": value}
                if err:
                    c["error"] = err
                out.append(c)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    dest = os.path.join(here, "..", "..", "runner", "polarssql", "testdata", "random")
    parts = [(FORMATS, 2626, "strptime.json"), (HELDOUT, 2627, "strptime_heldout.json")]
    if len(sys.argv) > 1:
        parts = [(FORMATS, 2626, sys.argv[1])]
    for formats, seed, name in parts:
        cs = cases(formats, seed)
        path = os.path.join(dest, name)
        with open(path, "w") as fh:
            json.dump({"cases": cs}, fh, indent=0, ensure_ascii=False)
            fh.write("\n")
        print(path, len(cs), "texts,", sum(c["polars"] is not None for c in cs), "parsed,", sum("error" in c for c in cs), "failing the query")


if __name__ == "__main__":
    main()
