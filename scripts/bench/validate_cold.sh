#!/usr/bin/env bash
# Times `laktory validate` as a whole process on the benchmarks' workspace
# (200 pipelines x 10 nodes: a file schema each, Spark SQL, a join, a
# filter, an expectation; validate/bench_test.go): cold (an empty schema
# cache: 200 file schemas read, 2,000 nodes bound) and warm (the on-disk
# cache the cold run left), in alternating rounds, and prints the medians
# of wall and CPU time (user + system, all threads) with the load average
# before each run. Goal of issue 29: a cold validate under 3 s of wall.
#
#   ./scripts/bench/validate_cold.sh
#
# Environment: ROUNDS (default 5), BASE=PATH a second laktory binary (the
# one before a change) run in the same rounds, alternating with ours,
# BENCH_DIR=DIR keeps the workspace and results in DIR (generated when
# missing), LAKTORY_PYTHON is not needed (validate runs no Python).
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$DIR"
if [ -z "${BENCH_DIR:-}" ]; then trap 'rm -rf "$DIR"' EXIT; else echo "data kept in $DIR"; fi

if [ ! -d "$DIR/ws/pipelines" ]; then
  mkdir -p "$DIR/ws"
  LAKTORY_BENCH_WORKSPACE="$DIR/ws" go test -count=1 -run '^TestWriteBenchWorkspace$' ./validate/ >/dev/null
fi
go build -o "$DIR/laktory" ./cmd/laktory
sides=(ours)
[ -n "${BASE:-}" ] && sides=(base ours)
: > "$DIR/times.txt"
for round in $(seq "${ROUNDS:-5}"); do
  for side in "${sides[@]}"; do
    bin="$DIR/laktory"
    [ "$side" = base ] && bin=$BASE
    rm -rf "$DIR/cache-$side"
    for phase in cold warm; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      XDG_CACHE_HOME="$DIR/cache-$side" /usr/bin/time -f "%e %U %S" -o "$DIR/time.txt" \
        "$bin" validate "$DIR/ws" > "$DIR/out.txt" 2>&1 || { cat "$DIR/out.txt"; exit 1; }
      tail -1 "$DIR/out.txt" | grep -q '^0 errors' || { tail -5 "$DIR/out.txt"; exit 1; }
      read -r wall user sys < "$DIR/time.txt"
      echo "$side $phase $wall $user $sys $load" | tee -a "$DIR/times.txt"
    done
  done
done
echo "== medians over ${ROUNDS:-5} rounds (s; load = 1-minute load average before each run)"
awk '{k=$1" "$2; n[k]++; w[k,n[k]]=$3; c[k,n[k]]=$4+$5; l[k,n[k]]=$6}
function med(a, k, m,   i, j, t, v) { for (i = 1; i <= m; i++) v[i] = a[k, i]
  for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
  return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
function lo(a, k, m,   i, x) { x = a[k, 1]; for (i = 2; i <= m; i++) if (a[k, i] < x) x = a[k, i]; return x }
function hi(a, k, m,   i, x) { x = a[k, 1]; for (i = 2; i <= m; i++) if (a[k, i] > x) x = a[k, i]; return x }
END { for (k in n) printf "%-10s wall %6.2f  cpu %6.2f  load %s-%s\n", k, med(w, k, n[k]), med(c, k, n[k]), lo(l, k, n[k]), hi(l, k, n[k]) }' "$DIR/times.txt" | sort
