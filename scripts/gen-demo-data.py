#!/usr/bin/env python3
"""Regenerates the demo workspace's sample data (assets/demo/data).

Deterministic: the same seed gives the same files. Run from the repository root:
    python3 scripts/gen-demo-data.py
"""
import csv
import datetime as dt
import json
import os
import random

ROOT = os.path.join(os.path.dirname(__file__), "..", "assets", "demo", "data")
rnd = random.Random(42)
SYMBOLS = ["AAPL", "MSFT", "NVDA", "AMZN", "GOOG"]
ITEMS = ["widget", "gadget", "gizmo", "sprocket", "doohickey"]
STATUS = ["new", "paid", "shipped"]
KINDS = ["login", "logout", "payment", "error"]


def ts(day, i):
    t = dt.datetime(2026, 1, day, 9, 0, tzinfo=dt.timezone.utc) + dt.timedelta(minutes=7 * i)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_jsonl(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def write_csv(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def prices(day, n):
    return [{"symbol": rnd.choice(SYMBOLS), "ts": ts(day, i), "price": round(rnd.uniform(50, 900), 2)} for i in range(n)]


def orders(day, n, start):
    return [
        {
            "order_id": start + i,
            "ordered_at": ts(day, i),
            "item": rnd.choice(ITEMS),
            "quantity": rnd.randint(1, 9),
            "amount": round(rnd.uniform(5, 500), 2),
            "status": rnd.choice(STATUS),
        }
        for i in range(n)
    ]


def events(day, n, start):
    out = []
    for i in range(n):
        kind = rnd.choice(KINDS)
        sev = "high" if kind == "error" and rnd.random() < 0.6 else rnd.choice(["low", "medium"])
        out.append({"event_id": start + i, "ts": ts(day, i), "kind": kind, "severity": sev, "user_id": rnd.randint(1, 40)})
    return out


for day in (1, 2):
    write_jsonl(f"{ROOT}/landing/feed_a/prices_2026-01-0{day}.json", prices(day, 50))
    write_csv(f"{ROOT}/landing/feed_b/prices_2026-01-0{day}.csv", prices(day, 50))
    write_jsonl(f"{ROOT}/landing/orders/acme/orders_2026-01-0{day}.json", orders(day, 40, 1000 + 100 * day))
    write_csv(f"{ROOT}/landing/orders/globex/orders_2026-01-0{day}.csv", orders(day, 40, 5000 + 100 * day))
    write_jsonl(f"{ROOT}/landing/events/events_2026-01-0{day}.json", events(day, 30, 10000 + 100 * day))

# The archive read once by the backfill flow: a JSON array.
os.makedirs(f"{ROOT}/archive/events", exist_ok=True)
with open(f"{ROOT}/archive/events/events_2025.json", "w") as f:
    json.dump(events(3, 100, 1), f, indent=1)

# Spare files: copy one into landing/ to watch an incremental run pick it up.
write_jsonl(f"{ROOT}/spare/feed_a/prices_2026-01-03.json", prices(3, 50))
write_csv(f"{ROOT}/spare/feed_b/prices_2026-01-03.csv", prices(3, 50))
write_jsonl(f"{ROOT}/spare/orders/acme/orders_2026-01-03.json", orders(3, 40, 1300))
write_csv(f"{ROOT}/spare/orders/globex/orders_2026-01-03.csv", orders(3, 40, 5300))
write_jsonl(f"{ROOT}/spare/events/events_2026-01-03.json", events(3, 30, 10300))
