#!/usr/bin/env bash
# CI on a busy machine (issue 29.4): runs `.ci/run` while one core is kept busy by
# `stress-ng --cpu 1` (Debian's stress-ng, installed if missing), as a shared or slower machine
# would be. A journey that passes only on a quiet machine has a race; this is how to find it.
#
#   bash scripts/ci-under-load.sh          # one run
#   RUNS=2 bash scripts/ci-under-load.sh   # two runs in a row; stops at the first failure
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-1}"

if ! command -v stress-ng >/dev/null 2>&1; then
  echo "== installing Debian stress-ng"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq stress-ng >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq stress-ng >/dev/null; }
fi

stress-ng --cpu 1 --cpu-method matrixprod --timeout 0 --quiet &
load=$!
trap 'kill "$load" 2>/dev/null || true' EXIT
echo "== one core kept busy by stress-ng (pid $load)"

for run in $(seq 1 "$runs"); do
  started=$(date +%s)
  echo "== CI under load: run $run of $runs"
  CI=true bash .ci/run
  echo "== CI under load: run $run of $runs passed in $(( $(date +%s) - started )) s"
done
