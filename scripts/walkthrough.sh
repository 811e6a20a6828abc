#!/usr/bin/env bash
# Walks the demo in a real terminal (tmux) as a new user would, asserting
# on the captured screen at each step: open the workbench, run every
# pipeline, turn watch mode on and drop a spare file into a landing folder
# (a run picks it up, its rows show in the Table tab), FULL refresh of
# feed_a, search, quit.
#
#   scripts/walkthrough.sh [LAKTORY_BINARY]   (default: builds ./cmd/laktory)
#
# WALKTHROUGH_SIZE (default 120x40) is the terminal's size;
# WALKTHROUGH_CAPTURES=DIR saves the screen of each step there as text.
# The test suite runs it (go test ./cmd/laktory -run TestWalkthroughTmux).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
sock="$work/tmux.sock"
cleanup() {
  tmux -S "$sock" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

bin=${1:-}
if [ -z "$bin" ]; then
  echo "== building laktory"
  go build -o "$work/laktory" ./cmd/laktory
  bin="$work/laktory"
fi
size=${WALKTHROUGH_SIZE:-120x40}
mkdir -p "$work/tmp"

t() { tmux -S "$sock" "$@"; }
screen() { t capture-pane -p -t walk; }
keys() { t send-keys -t walk "$@"; }
step() { echo "== $*"; }
save() {
  if [ -n "${WALKTHROUGH_CAPTURES:-}" ]; then
    mkdir -p "$WALKTHROUGH_CAPTURES"
    screen > "$WALKTHROUGH_CAPTURES/$1.txt"
  fi
}
# see TEXT...: waits (20 s at most) until the screen shows every TEXT.
see() {
  local deadline=$((SECONDS + 20)) s
  while :; do
    s=$(screen)
    local all=1
    for want in "$@"; do
      grep -qF -- "$want" <<<"$s" || all=0
    done
    [ $all = 1 ] && return 0
    if [ $SECONDS -ge $deadline ]; then
      echo "FAIL: the screen never showed: $*"
      echo "$s"
      exit 1
    fi
    sleep 0.05
  done
}
# unseen TEXT: fails when the screen shows TEXT.
unseen() {
  if screen | grep -qF -- "$1"; then
    echo "FAIL: the screen shows $1"
    screen
    exit 1
  fi
}

step "open the workbench on the demo"
t new-session -d -x "${size%x*}" -y "${size#*x}" -s walk \
  "env TMPDIR='$work/tmp' TERM=xterm-256color NO_COLOR=1 '$bin' tui --demo; echo laktory-exit=\$?; sleep 600"
see "all_orders" "pl-prices.feed_a" "[1 Graph]"
demo=$(ls -d "$work"/tmp/laktory-demo-*)
save 01-open

step "run every pipeline (a)"
keys a
see "incremental run of every pipeline" "Summary: succeeded"
save 02-run-all

step "the prices table (its lane in the graph, then 4 Table)"
keys 1 l l 4
see "prices  main.default.prices" "200 rows" "Rows per writer"
save 03-table

step "watch mode on (w), a spare file dropped into landing/feed_a"
keys w
see "watch: waiting for changes"
cp "$demo/data/spare/feed_a/prices_2026-01-03.json" "$demo/data/landing/feed_a/"
see "watch run of pl-prices [feed_a, gld_prices_a]"
see "250 rows" "watch: waiting for changes"
save 04-watch

step "FULL refresh of feed_a (f, y)"
keys 1 g j j j j
see "▸-pl-prices.feed_a"
keys f
see "FULL refresh of writer pl-prices.feed_a" "delete"
save 05-full-confirm
keys y
see "FULL refresh of writer pl-prices.feed_a of prices  succeeded" "deleted 150 rows of pl-prices.feed_a from prices"
save 06-full-done

step "search the graph (/feed, enter, n, esc)"
keys 1 /
keys f e e d
see "/feed▏" "2 matches"
unseen "pl-client-acme.orders"
keys Enter n
see "/feed n/N next/prev"
save 07-search
keys Escape
see "pl-client-acme.orders"

step "quit (q)"
keys q
see "laktory-exit="
if ! screen | grep -qF "laktory-exit=0"; then
  echo "FAIL: laktory did not exit with 0"
  screen
  exit 1
fi
see "The demo workspace is in"
restored=$(t display -p -t walk '#{alternate_on} #{cursor_flag}')
if [ "$restored" != "0 1" ]; then
  echo "FAIL: the terminal is not restored (alternate_on cursor_flag = $restored)"
  exit 1
fi
echo "ok: the walkthrough passed"
