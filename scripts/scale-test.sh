#!/usr/bin/env bash
# The scale test of issue 44 §4 (docs/reliability.md "Three instances behind HAProxy"): three API
# instances on one fresh PostgreSQL database behind Debian's HAProxy (deploy/haproxy/alda.cfg),
# scraped by Debian's Prometheus, under a bounded mixed load of virtual customers (sign-in, home,
# polls, purchases with the test card, payment-hub clients); then kill -9 of one instance
# mid-load and a rolling restart (SIGTERM to each in turn). Prints one table (requests, failures,
# p50/p95/p99 per phase; payments made / fulfilled / lost) and exits non-zero when a promise is
# broken. The driver is apps/api/test/scale/ (TypeScript, run with tsx).
#
#   bash scripts/scale-test.sh                 # full: a few minutes
#   bash scripts/scale-test.sh --short         # CI's version (also SCALE_SHORT=1): under 2 minutes
#   bash scripts/scale-test.sh --json out.json # the figures as JSON too
#
# PostgreSQL: the server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
# the test creates a database of its own there and drops it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then missing+=(haproxy); fi
if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
  missing+=(prometheus)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing Debian ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -d node_modules ]; then
  echo "== npm ci"
  npm ci --no-audit --no-fund
fi

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
cd apps/api
exec npx tsx test/scale/run.ts "$@"
