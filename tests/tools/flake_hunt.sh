#!/usr/bin/env bash
# The flake hunt (README: Tests): the e2e layer RUNS times on a quiet machine, then RUNS times with two `yes`
# processes keeping both cores busy. Any failure is a flaky test to fix. Each run's summary line goes to
# artifacts/flake-hunt.txt; the exit code is non-zero if any run failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
python=${PYTHON:-.venv/bin/python}
report=artifacts/flake-hunt.txt
mkdir -p artifacts
: > "$report"
failed=0
hogs=()
stop_hogs() { [ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null; hogs=(); }
trap stop_hogs EXIT

for load in quiet busy; do
  if [ "$load" = busy ]; then
    for _ in 1 2; do yes > /dev/null & hogs+=($!); done
  fi
  for run in $(seq "$runs"); do
    log="artifacts/flake-hunt-$load-$run.log"
    "$python" -m pytest tests/e2e -q -p no:cacheprovider > "$log" 2>&1
    code=$?
    echo "$load run $run: exit $code: $(tail -n 1 "$log")" | tee -a "$report"
    [ $code -eq 0 ] || failed=1
  done
  stop_hogs
done
exit $failed
