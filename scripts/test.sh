#!/usr/bin/env bash
# Runs the whole test suite, interop with delta-rs/polars included.
#
#   ./scripts/test.sh            everything
#   ./scripts/test.sh -short     skips the slow concurrency and scale tests
#
# Interop tests need Python with the packages of scripts/requirements-interop.txt:
# this script creates .venv for them on first use (set LAKTORY_PYTHON to use
# another interpreter).
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1

if [ -z "${LAKTORY_PYTHON:-}" ]; then
  if ! .venv/bin/python -c 'import deltalake, polars, pyarrow, laktory, pandas' 2>/dev/null; then
    echo "== setting up .venv for the interop tests"
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-interop.txt
  fi
  export LAKTORY_PYTHON="$PWD/.venv/bin/python"
fi
# Interop tests fail (instead of skipping) when Python is missing, and the
# terminal smoke test fails when tmux is missing.
export LAKTORY_REQUIRE_INTEROP=1
export LAKTORY_REQUIRE_TMUX=1

# The Delta conformance tables live beside the repository (../shared) or in
# $LAKTORY_CONFORMANCE_DIR; without them the conformance tests skip: say so.
# In CI (CI=true) they are required: the suite fails without them.
if [ -z "${LAKTORY_CONFORMANCE_DIR:-}" ] && [ ! -d ../shared/conformance/golden ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "!! Delta conformance tables not found (../shared/conformance/golden, or set LAKTORY_CONFORMANCE_DIR): CI=true requires them"
    exit 1
  fi
  echo "!! Delta conformance tables not found (../shared/conformance/golden, or set LAKTORY_CONFORMANCE_DIR): conformance tests will be skipped"
fi

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.venv/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== go test -race"
go test -race -count=1 -timeout 20m "$@" ./...
