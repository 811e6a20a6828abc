#!/usr/bin/env bash
# Sums a request trace of the S3 store (LAKTORY_S3_TRACE=FILE, see
# delta/store_s3_trace.go): requests, bytes sent and received, by
# operation and by kind of object (the log, checkpoints, data files,
# deletion vectors, the workbench's _laktory objects, the put-if-absent
# probe). A line "# NAME" (the benchmarks write one before their timed
# loop, see delta/store_bench_test.go) starts a section: each section is
# summed apart.
#
#   LAKTORY_S3_TRACE=/tmp/t.log go test ./delta -run '^$' -bench BenchmarkLakeFullRefresh/s3 -benchtime 20x
#   scripts/bench/s3trace.sh /tmp/t.log
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 TRACE..." >&2; exit 2; }
awk '
function kind(p) {
  sub(/\?.*/, "", p)
  if (p ~ /\/_delta_log\/[0-9]+\.checkpoint/ || p ~ /\/_delta_log\/_sidecars\//) return "checkpoint"
  if (p ~ /\/_delta_log\/_last_checkpoint$/) return "_last_checkpoint"
  if (p ~ /\/_delta_log\/[0-9]+\.json$/) return "commit"
  if (p ~ /\/_laktory\/lease\.json$/) return "lease"
  if (p ~ /\/_laktory\/commits\//) return "commit marker"
  if (p ~ /\/_laktory\//) return "_laktory"
  if (p ~ /\.laktory-put-if-absent-probe-/) return "probe"
  if (p ~ /deletion_vector_.*\.bin$/) return "deletion vector"
  if (p ~ /\.parquet$/) return "data file"
  return "listing/other"
}
/^# / { sec = substr($0, 3); if (!(sec in seen)) { seen[sec] = 1; order[++ns] = sec }; next }
{
  if (sec == "") { sec = "(before any section)"; if (!(sec in seen)) { seen[sec] = 1; order[++ns] = sec } }
  op = ""
  for (i = 1; i <= NF; i++) {
    if ($i ~ /^op=/) op = substr($i, 4)
    if ($i ~ /^sent=/) sent = substr($i, 6) + 0
    if ($i ~ /^got=/) { got = substr($i, 5) + 0; if (got < 0) got = 0 }
  }
  k = ($2 == "GET" && $3 ~ /list-type=2/) ? "listing" : kind($3)
  key = sec SUBSEP sprintf("%-18s %-16s", op, k)
  n[key]++; s[key] += sent; g[key] += got
  N[sec]++; S[sec] += sent; G[sec] += got
}
END {
  for (i = 1; i <= ns; i++) {
    sec = order[i]
    printf "== %s\n%-18s %-16s %8s %12s %12s\n", sec, "operation", "object", "requests", "sent", "received"
    for (key in n) {
      split(key, part, SUBSEP)
      if (part[1] == sec) printf "%s %8d %12d %12d\n", part[2], n[key], s[key], g[key] | "sort"
    }
    close("sort")
    printf "%-35s %8d %12d %12d\n", "total", N[sec], S[sec], G[sec]
  }
}' "$@"
