#!/usr/bin/env bash
# The flake hunt (README: Tests). Default: the e2e layer RUNS times on a quiet machine, then RUNS times with two `yes`
# processes keeping both cores busy. SLOW=1: the e2e and load layers RUNS times pinned to one core that a `yes` shares
# (taskset -c 0: about half speed), so a test tuned to a fast machine fails here rather than on a newcomer's.
# Any failure is a flaky test to fix. Each run's summary line goes to artifacts/flake-hunt.txt; the exit code is
# non-zero if any run failed.
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

hunt() { # hunt LOAD LAYERS COMMAND-PREFIX...
  local load=$1 layers=$2
  shift 2
  for run in $(seq "$runs"); do
    log="artifacts/flake-hunt-$load-$run.log"
    # shellcheck disable=SC2086 # the layers are several paths
    "$@" "$python" -m pytest $layers -q -p no:cacheprovider > "$log" 2>&1
    code=$?
    echo "$load run $run: exit $code: $(tail -n 1 "$log")" | tee -a "$report"
    [ $code -eq 0 ] || failed=1
  done
}

if [ "${SLOW:-0}" = 1 ]; then
  command -v taskset > /dev/null || { echo "SLOW=1 needs taskset (util-linux)"; exit 2; }
  taskset -c 0 yes > /dev/null & hogs+=($!)
  hunt slow "tests/e2e tests/load" taskset -c 0
  stop_hogs
  exit $failed
fi

hunt quiet tests/e2e
for _ in 1 2; do yes > /dev/null & hogs+=($!); done
hunt busy tests/e2e
stop_hogs
exit $failed
