#!/usr/bin/env bash
# An adversarial trial of `laktory run` on copies of the demo workspace:
#
#  kill        N times: a run with a random refresh mode on random pipelines,
#              SIGKILLed after a random delay (0-3 s), then a normal run; the
#              rows per writer of every table (read with deltalake) must equal
#              those of a clean run, and nothing outside the workspace (nor
#              its pipelines and landing data) may change.
#  concurrent  M rounds of 2-4 runs at once with mixed refresh modes (a run
#              may be refused by a writer's lock: it must then exit non-zero
#              with a message), then a normal run and the same checks.
#  hostile     hostile YAML and Delta logs: each run must be refused or
#              bounded (non-zero exit with a message, within a few seconds)
#              and touch nothing outside the workspace.
#  landing     links pointing outside or flipped mid-run, glob characters in
#              landing names, files still being written, FIFOs and damaged
#              checkpoints (issue 24 items 8-12, a ForEach checkpoint among
#              them, the whole checkpoints folder removed), a planned
#              landing file removed (item 15), a shared writer's FULL
#              refresh on a source it cannot parse (item 6), a batch file
#              append killed mid-move (item 12): read exactly, skipped with
#              a warning, or refused naming what to do, each within 20 s.
#
#   scripts/adversarial.sh [LAKTORY_BINARY]   (default: builds ./cmd/laktory)
#
# ADV_KILLS (default 30), ADV_ROUNDS (default 20), ADV_SEED (default: random)
# and ADV_KEEP=1 (keep the work folder) tune it; $LAKTORY_PYTHON must have
# deltalake (see scripts/requirements-interop.txt). Opt-in, not part of the
# test suite: it takes a few minutes. Exits 1 when a trial failed.
set -Eeuo pipefail
cd "$(dirname "$0")/.."

py=${LAKTORY_PYTHON:?set LAKTORY_PYTHON to a Python with deltalake}
kills=${ADV_KILLS:-30}
rounds=${ADV_ROUNDS:-20}
seed=${ADV_SEED:-$RANDOM}
RANDOM=$seed

work=$(mktemp -d)
cleanup() { [ -n "${ADV_KEEP:-}" ] && echo "work folder: $work" || rm -rf "$work"; }
trap cleanup EXIT
trap 'echo "adversarial.sh: line $LINENO failed (exit $?)" >&2' ERR

bin=${1:-}
if [ -z "$bin" ]; then
  go build -o "$work/laktory" ./cmd/laktory
  bin="$work/laktory"
fi
bin=$(realpath "$bin")
echo "== seed $seed, $kills kills, $rounds concurrent rounds; load:$(uptime | sed 's/.*load average//')"

declare -A trials passed
failures=()
record() { # record CATEGORY OK DETAIL
  trials[$1]=$((${trials[$1]:-0} + 1))
  if [ "$2" = ok ]; then
    passed[$1]=$((${passed[$1]:-0} + 1))
  else
    failures+=("$1: $3")
    echo "FAIL $1: $3"
  fi
}

# rows WS: one line per table and writer (the _laktory_writer column, else
# client_id, else the whole table): rows and distinct rows.
rows() {
  "$py" - "$1/.laktory/lake" <<'EOF'
import os, sys, deltalake
lake = sys.argv[1]
for root, dirs, files in sorted(os.walk(lake)):
    if "_delta_log" not in dirs:
        continue
    dirs.clear()
    t = deltalake.DeltaTable(root).to_pyarrow_table().to_pylist()
    key = next((k for k in ("_laktory_writer", "client_id") if t and k in t[0]), None)
    groups = {}
    for r in t:
        groups.setdefault(r[key] if key else "*", []).append(tuple(sorted(map(str, r.items()))))
    for g, rs in sorted(groups.items(), key=str):
        print(f"{os.path.relpath(root, lake)} {key or 'table'}={g} rows={len(rs)} distinct={len(set(rs))}")
sys.stdout.flush()
os._exit(0)  # deltalake's threads may abort the interpreter's exit on a busy machine
EOF
}
# digest DIR: the names (relative to DIR) and contents of its files.
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16); }

# A sentinel folder beside the workspace: nothing may ever touch it.
mkdir -p "$work/sentinel/sub"
echo keep >"$work/sentinel/file.txt"
echo keep >"$work/sentinel/sub/other.txt"
sentinel=$(digest "$work/sentinel")
outside() { # outside WS: what a run may not change, outside the lake and state
  echo "$(digest "$work/sentinel") $(digest "$1/pipelines") $(digest "$1/data")"
}

base="$work/base/ws"
mkdir -p "$work/base"
"$bin" init --demo "$base" >/dev/null
"$bin" run "$base" >"$work/base.log" 2>&1 || { cat "$work/base.log"; exit 1; }
expected=$(rows "$base")
untouched=$(outside "$base")
echo "== a clean run writes:"
echo "$expected" | sed 's/^/   /'

pipelines=(pl-client-acme pl-client-globex pl-events pl-prices)
# args: a random refresh mode on random pipelines. A RESET with a reset
# mode resets a whole shared table, so it takes all the table's writers
# (both client pipelines) or its other writers would rightly miss rows.
args() {
  local sel=() p
  for p in "${pipelines[@]}"; do ((RANDOM % 2)) && sel+=("$p"); done
  [ ${#sel[@]} = 0 ] && sel=("${pipelines[RANDOM % 4]}")
  local mode=$((RANDOM % 4)) out=()
  if [ $mode -ge 2 ] && [[ " ${sel[*]} " == *" pl-client-"* ]]; then
    sel=($(printf '%s\n' "${sel[@]}" pl-client-acme pl-client-globex | sort -u))
  fi
  for p in "${sel[@]}"; do out+=(-p "$p"); done
  case $mode in
  0) ;;
  1) out+=(--refresh FULL --yes) ;;
  2) out+=(--refresh RESET --reset-mode TRUNCATE --yes) ;;
  3) out+=(--refresh RESET --reset-mode DROP --yes) ;;
  esac
  echo "${out[@]}"
}
# check CATEGORY WS WHAT: a normal run, then the rows and the files outside.
# The normal run takes --yes: after an interrupted FULL or RESET it redoes
# it, a destructive step that it lists and must have confirmed. After a
# failure WS starts again from the clean run, so that trials stay apart.
check() {
  local cat=$1 ws=$2 what=$3 got bad=""
  if ! timeout 120 "$bin" run "$ws" --yes >"$ws.rerun.log" 2>&1; then
    bad="the normal run after it failed: $(tail -3 "$ws.rerun.log" | tr '\n' ' ')"
  elif ! got=$(rows "$ws" 2>&1) || [ "$got" != "$expected" ]; then
    bad="rows differ: $(diff <(echo "$expected") <(echo "$got") | grep '^[<>]' | tr "\n" " " || true)"
  elif [ "$(outside "$ws")" != "$untouched" ]; then
    bad="files outside the lake changed"
  fi
  if [ -z "$bad" ]; then
    record "$cat" ok ""
    return
  fi
  record "$cat" fail "$what: $bad"
  rm -rf "$ws"
  cp -a "$base" "$ws"
}

echo "== kill: $kills runs SIGKILLed at a random time, each followed by a normal run"
ws="$work/kill/ws"
mkdir -p "$work/kill"
cp -a "$base" "$ws"
for i in $(seq "$kills"); do
  a=$(args)
  delay=$((RANDOM % 3)).$((RANDOM % 10))
  "$bin" run "$ws" $a >"$ws.kill.log" 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  check kill "$ws" "kill #$i after ${delay}s of run $a"
done

echo "== concurrent: $rounds rounds of 2-4 runs at once"
ws="$work/concurrent/ws"
mkdir -p "$work/concurrent"
cp -a "$base" "$ws"
runs=0 refused=0
for i in $(seq "$rounds"); do
  n=$((2 + RANDOM % 3)) pids=() all=()
  for j in $(seq "$n"); do
    a=$(args)
    all+=("[$a]")
    timeout 120 "$bin" run "$ws" $a >"$ws.$j.log" 2>&1 &
    pids+=($!)
  done
  bad=""
  for j in $(seq "$n"); do
    runs=$((runs + 1)) rc=0
    wait "${pids[j - 1]}" || rc=$?
    [ $rc = 0 ] && continue
    refused=$((refused + 1))
    # A refused run exits 1 with a message; 124 is the timeout, more a crash.
    if [ $rc != 1 ] || ! grep -q . "$ws.$j.log"; then bad="run $j exited $rc; "; fi
  done
  if [ -n "$bad" ]; then
    record concurrent fail "round $i (${all[*]}): $bad"
  else
    check concurrent "$ws" "round $i (${all[*]})"
  fi
done
echo "   $runs runs, $refused exited 1 (refused or failed on a lock or conflict)"

echo "== hostile: bad YAML and Delta logs are refused or bounded"
# hostile NAME FILE CONTENT [ARGS...]: CONTENT goes to pipelines/FILE of a
# copy of the demo (after a clean run), $setup (if set) runs in the copy,
# then laktory ARGS (default: a FULL run of every pipeline; @WS@ is the
# copy) must exit non-zero within 20 s with a message, and leave the
# sentinel and the demo's own pipelines and data as they were.
setup=""
hostiles=0
hostile() {
  local name=$1 file=$2 content=$3 ws="$work/hostile/ws" rc=0 start=$SECONDS
  shift 3
  rm -rf "$work/hostile"
  mkdir -p "$work/hostile"
  cp -a "$base" "$ws"
  [ -n "$file" ] && printf '%s\n' "$content" >"$ws/pipelines/$file"
  [ -n "$setup" ] && (cd "$ws" && eval "$setup")
  [ $# = 0 ] && set -- run "$ws" --refresh FULL --yes
  (cd "$ws/pipelines" && timeout 20 "$bin" "${@//@WS@/$ws}") >"$work/hostile.log" 2>&1 || rc=$?
  local took=$((SECONDS - start)) msg
  hostiles=$((hostiles + 1))
  cp "$work/hostile.log" "$work/hostile-$hostiles.log"
  msg=$(grep -m1 -E ' error LK[0-9]' "$work/hostile.log" || grep -m1 -iE 'error|refus|reject|not |invalid|outside|cannot' "$work/hostile.log" || true)
  msg=$(echo "$msg" | sed 's/^ *//' | cut -c1-100)
  if [ -f "$base/pipelines/$file" ]; then
    cp "$base/pipelines/$file" "$ws/pipelines/$file"
  elif [ -n "$file" ]; then
    rm -f "$ws/pipelines/$file"
  fi
  if [ $rc = 0 ]; then
    record hostile fail "$name: exit 0 ($(tail -1 "$work/hostile.log"))"
  elif [ $rc = 124 ]; then
    record hostile fail "$name: still running after 20 s"
  elif [ -z "$msg" ]; then
    record hostile fail "$name: exit $rc without a message"
  elif [ "$(digest "$work/sentinel")" != "$sentinel" ] || [ ! -f /etc/passwd ]; then
    record hostile fail "$name: the sentinel outside the workspace changed"
  elif [ "$(outside "$ws" 2>/dev/null)" != "$untouched" ]; then
    record hostile fail "$name: the workspace's pipelines or data changed"
  else
    record hostile ok ""
    printf '   %2d %-34s exit %s in %ss: %s\n' $hostiles "$name" "$rc" "$took" "$msg"
  fi
}
node() { # node SINK-YAML [EXPR]: a pipeline of one node over the feed_a landing
  printf 'name: pl-hostile\nnodes:\n- name: h\n  sources:\n  - path: ../data/landing/feed_a/\n    format: JSONL\n'
  case ${2:-} in
  "") ;;
  !use*) printf '  transformer:\n    nodes:\n    - expr: %s\n' "$2" ;;
  *) printf '  transformer:\n    nodes:\n    - expr: |\n        %s\n' "$2" ;;
  esac
  printf '  sinks:\n  - %s\n' "$1"
}
S=$work/sentinel
hostile "file sink OVERWRITE path: .." pl-hostile.yaml "$(node 'path: ..
    format: PARQUET
    mode: OVERWRITE')" run @WS@
hostile "file sink OVERWRITE the sentinel" pl-hostile.yaml "$(node "path: $S
    format: PARQUET
    mode: OVERWRITE")" run @WS@
hostile "checkpoint_path: .." pl-hostile.yaml "$(node 'table_name: h
    mode: APPEND
    checkpoint_path: ..')"
hostile "checkpoint_path: the sentinel" pl-hostile.yaml "$(node "table_name: h
    mode: APPEND
    checkpoint_path: $S")"
hostile "catalog_name: ../../x" pl-hostile.yaml "$(node 'table_name: h
    catalog_name: ../../x
    mode: APPEND')"
hostile "schema_name: ." pl-hostile.yaml "$(node 'table_name: h
    schema_name: "."
    mode: APPEND')"
hostile "table_name: ../../../sentinel" pl-hostile.yaml "$(node 'table_name: ../../../sentinel
    mode: APPEND')"
hostile "where: client_id = 1) OR (true" pl-client-acme.yaml "$(sed 's/where: client_id = 1/where: client_id = 1) OR (true/' "$base/pipelines/pl-client-acme.yaml")"
hostile "where: read_text('/etc/passwd')" pl-client-acme.yaml "$(sed "s|where: client_id = 1|where: client_id = 1 AND length(read_text('/etc/passwd')) > 0|" "$base/pipelines/pl-client-acme.yaml")"
hostile "where: a subquery" pl-client-acme.yaml "$(sed "s|where: client_id = 1|where: client_id IN (SELECT 1)|" "$base/pipelines/pl-client-acme.yaml")"
# Parameters and overlapping rows (issue 24): acme's predicate from a
# parameter. A --param value the prover cannot decide that also matches
# globex's rows is refused with --yes alone (the rows are counted before
# the delete); an empty --param, a parameter naming itself (which used to
# exhaust memory), a misspelt ${vars.x} in a source path, and an OVERWRITE
# of the shared table without `shared` from a run without a terminal are
# refused before anything runs.
acme=$base/pipelines/pl-client-acme.yaml
acme_param=$(sed 's/where: client_id = 1/where: ${params.own}/; s/^nodes:$/parameters:\n  own: {default: client_id = 1}\nnodes:/' "$acme")
hostile "--param where overlapping globex" pl-client-acme.yaml "$acme_param" \
  run @WS@ -p pl-client-acme --refresh FULL --yes --param "own=client_id = 1 OR item LIKE '%'"
hostile "--param own= (empty)" pl-client-acme.yaml "$acme_param" run @WS@ -p pl-client-acme --refresh FULL --yes --param "own="
hostile "a parameter naming itself x10" pl-client-acme.yaml "$(sed 's/where: client_id = 1/where: ${params.own}/; s/^nodes:$/parameters:\n  own: {default: "${params.own}${params.own}${params.own}${params.own}${params.own}${params.own}${params.own}${params.own}${params.own}${params.own}"}\nnodes:/' "$acme")"
hostile "misspelt \${vars.x} in a source path" pl-client-acme.yaml "$(sed 's|landing/orders/acme/|landing/orders/${vars.clinet}/|' "$acme")"
hostile "OVERWRITE the shared table, no terminal" pl-client-acme.yaml "$(sed '/^    as_stream: true$/d; /^    shared:$/d; /^      where:/d; s/mode: APPEND/mode: OVERWRITE/' "$acme")" run @WS@
hostile "expr: COPY ... TO the sentinel" pl-hostile.yaml "$(node 'table_name: h
    mode: APPEND' "COPY (SELECT 1 AS x) TO '$S/x.csv'; SELECT * FROM {df}")" run @WS@
hostile "expr: ATTACH outside" pl-hostile.yaml "$(node 'table_name: h
    mode: APPEND' "ATTACH '$S/x.db' AS x; SELECT * FROM {df}")" run @WS@
hostile "expr: write_csv via COPY only" pl-hostile.yaml "$(node 'table_name: h
    mode: APPEND' "COPY (SELECT 1 AS x) TO '$S/y.csv'")" run @WS@
hostile "expr: read_text('/etc/passwd')" pl-hostile.yaml "$(node 'table_name: h
    mode: APPEND' "SELECT *, (SELECT content FROM read_text('/etc/passwd')) AS p FROM {df}")" run @WS@
hostile "!use /dev/zero" pl-hostile.yaml "$(node 'table_name: h
    mode: APPEND' '!use /dev/zero')" run @WS@
setup='mkfifo pipelines/fifo.sql'
hostile "!use a named pipe" pl-hostile.yaml "$(node 'table_name: h
    mode: APPEND' '!use fifo.sql')" run @WS@
setup=""
bomb="name: pl-hostile
variables:"
for i in 0 1 2 3 4 5 6 7; do
  bomb+="
  v$i: \"$(printf '${vars.v%d}%.0s' $(for _ in $(seq 16); do echo $((i + 1)); done))\""
done
bomb+="
  v8: xxxxxxxxxxxxxxxx
nodes:
- name: \${vars.v0}"
hostile "a \${vars} expansion bomb" pl-hostile.yaml "$bomb" run @WS@
# A commit file at the largest version in the prices table's log.
setup='echo "{\"commitInfo\":{}}" >.laktory/lake/main/default/prices/_delta_log/09223372036854775807.json'
hostile "commit 09223372036854775807: run" "" "" run @WS@
hostile "commit 09223372036854775807: table" "" "" table describe main.default.prices --dir @WS@
hostile "commit 09223372036854775807: FULL" "" "" run @WS@ -p pl-prices --refresh FULL --yes
setup=""
hostile "pipeline that does not parse" pl-hostile.yaml "name: [unclosed" run @WS@

echo "== landing: links, glob names, files being written, FIFOs, damaged checkpoints (issue 24 items 8-12)"
# trial NAME CHECK SETUP [ARGS...]: in a copy of the demo after a clean run,
# SETUP runs in the copy (it may start a background writer, whose pid it
# writes to bg.pid), then laktory ARGS (default: run @WS@) within 20 s;
# then CHECK runs in the copy, with $rc (the exit code) and $log (the
# output), and must succeed (it prints why not). The sentinel outside the
# workspace must be unchanged, and a non-zero exit must say why.
trials_landing=0
trial() {
  local name=$1 want=$2 setup=$3 ws="$work/trial/ws" start=$SECONDS why
  shift 3
  rm -rf "$work/trial"
  mkdir -p "$work/trial"
  cp -a "$base" "$ws"
  [ -n "$setup" ] && (cd "$ws" && eval "$setup")
  [ $# = 0 ] && set -- run @WS@
  rc=0
  (cd "$ws" && timeout 20 "$bin" "${@//@WS@/$ws}") >"$work/trial.log" 2>&1 || rc=$?
  local took=$((SECONDS - start))
  [ -f "$ws/bg.pid" ] && { wait_pid "$(cat "$ws/bg.pid")"; rm -f "$ws/bg.pid"; }
  log=$(cat "$work/trial.log")
  trials_landing=$((trials_landing + 1))
  cp "$work/trial.log" "$work/trial-$trials_landing.log"
  if [ $rc = 124 ]; then
    record landing fail "$name: still running after 20 s"
  elif [ "$(digest "$work/sentinel")" != "$sentinel" ]; then
    record landing fail "$name: the sentinel outside the workspace changed"
  elif [ $rc != 0 ] && ! grep -qiE 'error|refus|cannot|not ' "$work/trial.log"; then
    record landing fail "$name: exit $rc without a message"
  elif ! why=$(cd "$ws" && eval "$want" 2>&1); then
    record landing fail "$name: exit $rc: $(echo "$why" | tail -1 | cut -c1-200)"
  else
    record landing ok ""
    printf '   %2d %-40s exit %s in %ss: %s\n' $trials_landing "$name" "$rc" "$took" "$(echo "$why" | tail -1 | sed 's/^ *//' | cut -c1-90)"
  fi
}
wait_pid() { while kill -0 "$1" 2>/dev/null; do sleep 0.2; done; }
# symbols WS SYMBOL...: how many rows of prices hold each symbol ("S=N ...").
symbols() {
  "$py" - "$@" <<'EOF'
import os, sys, deltalake
ws, want = sys.argv[1], sys.argv[2:]
t = deltalake.DeltaTable(os.path.join(ws, ".laktory/lake/main/default/prices")).to_pyarrow_table().to_pylist()
print(" ".join(f"{s}={sum(1 for r in t if r['symbol'] == s)}" for s in want))
sys.stdout.flush()
os._exit(0)
EOF
}
# exactly_once SYMBOL...: each symbol is in prices once (else the counts).
exactly_once() {
  local got want=""
  got=$(symbols "$PWD" "$@")
  for s in "$@"; do want+="$s=1 "; done
  if [ "$got" = "${want% }" ]; then echo "each of $* read once"; else echo "rows per symbol: $got"; return 1; fi
}
refused() { # refused PATTERN: the run exited non-zero saying PATTERN
  if [ "$rc" != 0 ] && grep -qiE "$1" <<<"$log"; then grep -m1 -iE "$1" <<<"$log"; else
    echo "exit $rc, no /$1/ in: $(tail -2 <<<"$log" | tr '\n' ' ')"
    return 1
  fi
}
unchanged_rows() { # the demo's rows, as the clean run wrote them
  if [ "$(rows "$PWD")" = "$expected" ]; then echo "rows as the clean run wrote them"; else echo "rows differ"; return 1; fi
}
row() { printf '{"symbol": "%s", "ts": "2026-01-03T09:00:00Z", "price": 1.5}\n' "$1"; }
A=data/landing/feed_a
T=.laktory/lake/main/default

# 8: links. A lake that is a link to a folder outside (a user's files) is
# not adopted; a state database linked outside is refused; a table whose
# link another process flips between its folder and an outside Delta table
# during a FULL refresh never gets a commit outside.
trial "8 .laktory/lake -> an outside folder" 'refused "lake|link|outside"' \
  "rm -rf .laktory/lake && ln -s '$S' .laktory/lake" run @WS@ --refresh FULL --yes
trial "8 .laktory/state.db -> an outside file" 'refused "state|history|outside|link"' \
  "rm -f .laktory/state.db* && ln -s '$S/file.txt' .laktory/state.db"
mkdir -p "$work/outside"
rm -rf "$work/outside/prices"
cp -a "$base/$T/prices" "$work/outside/prices"
outside_prices=$(digest "$work/outside/prices")
untouched_outside() {
  if [ "$(digest "$work/outside/prices")" = "$outside_prices" ]; then echo "the outside table is untouched"; else
    echo "the outside Delta table changed"
    return 1
  fi
}
trial "8 a table link flipped during the run" untouched_outside \
  "mv $T/prices $T/prices.real && ln -s prices.real $T/prices &&
   (for _ in \$(seq 500); do ln -sfn '$work/outside/prices' $T/prices.tmp && mv -T $T/prices.tmp $T/prices;
     ln -sfn prices.real $T/prices.tmp && mv -T $T/prices.tmp $T/prices; sleep 0.01; done) >/dev/null 2>&1 &
   echo \$! >bg.pid" run @WS@ -p pl-prices --refresh FULL --yes
# 9: glob characters in landing names: each file is read, once, alone.
trial "9 f?.json [f]1.json **.json f1.json" 'exactly_once GQ GB GS G1' \
  "row GQ >'$A/f?.json'; row GB >'$A/[f]1.json'; row GS >'$A/**.json'; row G1 >'$A/f1.json'; touch -d '-1 min' $A/*"
# 10: a file still being written during the run is not read half-way; a
# second run once it is complete reads every row once, none cut.
trial "10 a file written during the run" \
  'timeout 60 "$bin" run "$PWD" >run2.log 2>&1 && exactly_once W1 W2 W3 W4 W5 W6' \
  "(for i in 1 2 3 4 5 6; do r=\$(row W\$i); printf '%s' \"\${r:0:20}\" >>$A/late.json; sleep 0.3; printf '%s\n' \"\${r:20}\" >>$A/late.json; sleep 0.3; done) & echo \$! >bg.pid"
# 11: a FIFO in a landing folder is skipped with a warning by validate,
# plan and run (it used to hang them).
for cmd in validate plan run; do
  trial "11 a FIFO in the landing folder: $cmd" \
    'if [ $rc = 0 ] && grep -qiE "fifo|named pipe|not a regular" <<<"$log"; then grep -m1 -iE "fifo|named pipe|not a regular" <<<"$log"; else echo "exit $rc, no warning"; false; fi' \
    "mkfifo $A/pipe.json" $cmd @WS@
done
# 12: a checkpoint that lost offsets/ and commits/, or whose
# laktory-workspace map is garbled, stops the run naming it and the FULL
# refresh that recovers; no row is duplicated or skipped.
cp_a=.laktory/checkpoints/pl-prices/feed_a/table-main.default.prices
trial "12 checkpoint without offsets/, commits/" 'refused "checkpoint" && grep -q -- "--refresh FULL" <<<"$log" && unchanged_rows' \
  "rm -rf $cp_a/offsets $cp_a/commits; row N1 >$A/new.json; touch -d '-1 min' $A/new.json"
trial "12 garbled laktory-workspace map" 'refused "checkpoint" && grep -q -- "--refresh FULL" <<<"$log" && unchanged_rows' \
  "printf 'garbled{' >$cp_a/laktory-workspace"
# 12 without a txn: the ForEach sink's checkpoint (alerts) loses offsets/
# and commits/; its laktory-sinks/ record tells it from a first run that
# crashed, so the run stops instead of sending every alert again.
trial "12 ForEach checkpoint without offsets/, commits/" 'refused "checkpoint" && grep -q -- "--refresh FULL" <<<"$log" && cmp -s outbox/alerts.jsonl outbox.before && echo "no alert sent again"' \
  "cp outbox/alerts.jsonl outbox.before; d=.laktory/checkpoints/pl-events/_flows/foreach-alerts_outbox/alerts_outbox__alerts; test -d \$d/laktory-sinks && rm -rf \$d/offsets \$d/commits"
# 15: a landing file a batch planned (a crash right after offsets/N) and
# that is removed before the rerun: the batch fails naming the file and the
# FULL refresh; after it, runs succeed.
trial "15 a planned landing file removed" \
  'refused "planned.json.*no longer exists" && grep -q -- "--refresh FULL" <<<"$log" && timeout 60 "$bin" run "$PWD" -p pl-prices --select feed_a --refresh FULL --yes >full.log 2>&1 && timeout 60 "$bin" run "$PWD" >again.log 2>&1 && echo "the FULL refresh, then a run: both succeed"' \
  "row P1 >$A/planned.json; touch -d '-1 min' $A/planned.json; LAKTORY_FAILPOINT=batch.offsets '$bin' run . -p pl-prices >/dev/null 2>&1 || true; rm $A/planned.json" run @WS@ -p pl-prices

# Issue 24 round 3. pl-extra: a batch shared writer (shared_in) and a
# batch append to a partitioned PARQUET folder (files_out), each reading
# data/extra/in.json (k = e-0..e-5, c = 1..3).
mkdir -p "$work/extra/pipelines" "$work/extra/data/extra"
cat >"$work/extra/pipelines/pl-extra.yaml" <<'EOF'
name: pl-extra
nodes:
- name: shared_in
  source:
    path: ../data/extra/in.json
    format: JSONL
  sinks:
  - table_name: extra
    mode: APPEND
    shared: true
- name: files_out
  source:
    path: ../data/extra/in.json
    format: JSONL
  sinks:
  - path: ../out/extra/
    format: PARQUET
    mode: APPEND
    writer_methods:
    - name: partitionBy
      args: [c]
EOF
for i in 0 1 2 3 4 5; do printf '{"k": "e-%d", "c": %d}\n' $i $((i % 3 + 1)); done >"$work/extra/data/extra/in.json"
extra="cp -a '$work/extra/.' . && touch -d '-1 min' data/extra/in.json"
no_intent() { # no refresh record is left for the next run to redo
  if find .laktory/checkpoints -name '*.refresh.json' | grep -q .; then
    echo "a refresh record is left: $(find .laktory/checkpoints -name '*.refresh.json')"
    return 1
  fi
  if ! timeout 60 "$bin" plan "$PWD" -p pl-extra --json | grep -qE '"effects": ?\[\]'; then
    echo "the next plan is destructive"
    return 1
  fi
  echo "no refresh left to redo, the next plan deletes nothing"
}
twice() { # twice DIR: each key of the PARQUET folder DIR is there twice
  "$py" - "$1" <<'EOF'
import collections, os, sys, pyarrow.dataset as ds
t = ds.dataset(sys.argv[1], format="parquet", partitioning="hive").to_table().to_pylist()
c = collections.Counter(r["k"] for r in t)
ok = len(c) == 6 and set(c.values()) == {2}
print("each key twice" if ok else f"copies per key: {dict(sorted(c.items()))}")
sys.stdout.flush()
os._exit(0 if ok else 1)
EOF
}
# 6 (round 3): a shared writer's FULL refresh failing on a source it
# cannot parse leaves no refresh for the next run to redo (it was announced
# as interrupted and refused as destructive).
trial "6 shared FULL, a source it cannot parse" 'refused "cannot be parsed" && no_intent' \
  "$extra && '$bin' run . -p pl-extra --select shared_in >/dev/null 2>&1 && echo '{\"k\": x}' >data/extra/in.json && touch -d '-1 min' data/extra/in.json" \
  run @WS@ -p pl-extra --select shared_in --refresh FULL --yes
# 12 (round 3): a batch append to a PARQUET folder killed after its first
# file is moved into place: the next run removes that file and appends once.
trial "12 a batch file append killed mid-move" 'twice out/extra' \
  "$extra && '$bin' run . -p pl-extra --select files_out >/dev/null 2>&1 && { LAKTORY_FAILPOINT=sink.files.moved:1 '$bin' run . -p pl-extra --select files_out >/dev/null 2>&1 || true; }" \
  run @WS@ -p pl-extra --select files_out
# 12 (round 3): the whole checkpoints folder removed: every run is refused
# naming the folder and the FULL refresh, none reads the files again.
trial "12 the checkpoints folder removed" \
  'refused "was removed" && grep -q -- "--refresh FULL" <<<"$log" && ! timeout 60 "$bin" run "$PWD" >again.log 2>&1 && grep -q "was removed" again.log && unchanged_rows' \
  "rm -rf .laktory/checkpoints; row N3 >$A/new.json; touch -d '-1 min' $A/new.json"

echo
echo "== summary (seed $seed; load:$(uptime | sed 's/.*load average//'))"
printf '   %-12s %7s %7s %7s\n' CATEGORY TRIALS PASSED FAILED
total_failed=0
for c in kill concurrent hostile landing; do
  t=${trials[$c]:-0} p=${passed[$c]:-0}
  printf '   %-12s %7s %7s %7s\n' "$c" "$t" "$p" $((t - p))
  total_failed=$((total_failed + t - p))
done
for f in "${failures[@]}"; do echo "   FAILED $f"; done
[ $total_failed = 0 ] || exit 1
