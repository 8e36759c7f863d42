#!/bin/bash
# expect_sigint.sh KCSPEC OUT_DIR ARGS...
# Starts `KCSPEC explore ARGS... --json --out OUT_DIR` on a configuration that takes minutes,
# sends it SIGINT after 3 seconds, and fails unless it prints a partial JSON report
# ("complete":false, "stop":"cancelled"), says so on stderr, and exits with status 130.
set -u
kcspec=$1
out=$2
shift 2
rm -rf "$out"
mkdir -p "$out"
set -m  # job control: the background job must not start with SIGINT ignored
"$kcspec" explore "$@" --json --out "$out" >"$out/report.json" 2>"$out/stderr.txt" &
pid=$!
sleep 3
kill -INT "$pid"
# A watchdog, so the test never hangs: kills the run if it has not stopped 120 s after SIGINT
# (it polls once a second and leaves as soon as the run is gone).
(
  for _ in $(seq 120); do
    sleep 1
    kill -0 "$pid" 2>/dev/null || exit 0
  done
  kill -KILL "$pid" 2>/dev/null
) >/dev/null 2>&1 &
wait "$pid"
status=$?
fail() {
  echo "FAILED: $1 (exit status $status)"
  echo "--- stdout ---"; cat "$out/report.json"
  echo "--- stderr ---"; cat "$out/stderr.txt"
  exit 1
}
[ "$status" -eq 130 ] || fail "expected exit status 130"
grep -q '"complete":false' "$out/report.json" || fail 'no "complete":false in the report'
grep -q '"stop":"cancelled"' "$out/report.json" || fail 'no "stop":"cancelled" in the report'
grep -Eq '"states":[1-9][0-9]*' "$out/report.json" || fail "no states explored"
grep -q 'interrupted; partial report' "$out/stderr.txt" || fail "stderr does not say the report is partial"
echo "interrupted after 3 s: exit status $status, partial report:"
cat "$out/report.json"
