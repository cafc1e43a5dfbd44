#!/usr/bin/env bash
# The browser journeys on other days (issue 29.5): the e2e suite with the clock of the server,
# the browser and the journeys set to a given instant by libfaketime (Debian's faketime,
# installed if missing) — the 1st, the 15th and the last day of a month, 31 December and
# 29 February. The clock runs on from that instant; timers (the monotonic clock) are untouched.
#
#   bash scripts/e2e-dates.sh                           # all five days
#   bash scripts/e2e-dates.sh "2028-02-29 09:00:00"     # the days given (UTC)
#
# The app is built once (`npm run build`); each day then runs `playwright test` on it, with its
# failures' traces and error contexts under test-results/dates/<day>.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -gt 0 ]; then
  days=("$@")
else
  days=(
    "2026-12-01 09:00:00" # the 1st of a month
    "2027-03-15 09:00:00" # the 15th
    "2027-04-30 21:30:00" # the last day of a 30-day month, in the evening
    "2026-12-31 21:30:00" # 31 December: year end
    "2028-02-29 09:00:00" # 29 February
  )
fi

if ! command -v faketime >/dev/null 2>&1; then
  echo "== installing Debian faketime"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq faketime >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq faketime >/dev/null; }
fi
lib=$(dpkg -L libfaketime 2>/dev/null | grep -m1 'libfaketimeMT.so.1$' || true)
lib="${lib:-/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1}"

npm run build
failed=()
for day in "${days[@]}"; do
  started=$(date +%s)
  echo "== e2e on $day UTC"
  # An offset from the real clock, not a start instant: every process (the runner, its workers,
  # the API server) starts at its own moment and must still read the same time.
  offset=$(( $(date -u -d "$day" +%s) - $(date -u +%s) ))
  [ "$offset" -ge 0 ] && offset="+$offset"
  if LD_PRELOAD="$lib" FAKETIME="$offset" FAKETIME_DONT_FAKE_MONOTONIC=1 TZ=UTC \
    npx playwright test -c apps/web/playwright.config.ts --output "test-results/dates/${day//[ :]/-}"; then
    echo "== e2e on $day: passed in $(( $(date +%s) - started )) s"
  else
    echo "== e2e on $day: FAILED after $(( $(date +%s) - started )) s"
    failed+=("$day")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "== failed on: ${failed[*]}"
  exit 1
fi
echo "== e2e passed on all ${#days[@]} days"
