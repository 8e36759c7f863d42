#!/usr/bin/env bash
# Failover between two `kcspec run-controller` processes on one real ZooKeeper (label zk):
# process A wins /controller (epoch 1) and is stopped (SIGSTOP) before its next step; ZooKeeper
# expires its sessions (check-zk sees /controller go); process B takes over with epoch 2; A
# resumes and its late writes are rejected by the /controller_epoch version check. Then
# `check-zk` sees /controller_epoch 2 and t-0 written by epoch 2 only.
# Usage: failover.sh KCSPEC ZK_DIR SOURCE_DIR. Exit 77 (skipped) when no server is available.
set -uo pipefail
kcspec=$1 zk_dir=$2 here=$3/tests/zk
if [[ -s $zk_dir/unavailable ]]; then echo "SKIPPED: no ZooKeeper server: $(cat "$zk_dir/unavailable")"; exit 77; fi
[[ -s $zk_dir/connect ]] || { echo "SKIPPED: no ZooKeeper server ($zk_dir/connect is missing)"; exit 77; }
zk="$(cat "$zk_dir/connect")/failover-$$-$RANDOM"
tmp=$(mktemp -d)
a_pid=""
cleanup() { [[ -n $a_pid ]] && kill -CONT "$a_pid" 2>/dev/null && kill "$a_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.out; do echo "--- $f"; cat "$f"; done; exit 1; }

mkfifo "$tmp/a_in"
"$kcspec" run-controller --zookeeper "$zk" --scenario "$here/failover_a.scenario" --pause-before-step 4 \
  --session-timeout-ms 1000 --fake-clock <"$tmp/a_in" >"$tmp/a.out" 2>&1 &
a_pid=$!
exec 3>"$tmp/a_in"
for _ in $(seq 1 300); do grep -q "paused before step 4" "$tmp/a.out" && break; sleep 0.1; done
grep -q "paused before step 4" "$tmp/a.out" || fail "process A did not reach step 4"
kill -STOP "$a_pid"
# ZooKeeper expires A's sessions (1 s timeout): /controller goes with them. check-zk watches it go.
for _ in $(seq 1 300); do
  "$kcspec" check-zk --zookeeper "$zk" --json >"$tmp/during.out" 2>&1
  grep -q '"controller":null' "$tmp/during.out" && break
  sleep 0.1
done
grep -q '"controller":null' "$tmp/during.out" || fail "ZooKeeper did not expire A's session"

"$kcspec" run-controller --zookeeper "$zk" --scenario "$here/failover_b.scenario" --serve-until-elected 60 \
  --session-timeout-ms 4000 --fake-clock >"$tmp/b.out" 2>&1
rc_b=$?
kill -CONT "$a_pid"
echo >&3
exec 3>&-
wait "$a_pid"
rc_a=$?
a_pid=""
"$kcspec" check-zk --zookeeper "$zk" --json >"$tmp/check.out" 2>&1
rc_check=$?

((rc_b == 0)) || fail "process B exited $rc_b"
((rc_a == 0)) || fail "process A exited $rc_a"
grep -q "Controller id=1 epoch=1" "$tmp/a.out" || fail "A did not act as controller with epoch 1"
grep -q "broker 3 is the active controller with epoch 2" "$tmp/b.out" || fail "B did not take over with epoch 2"
grep -q "ZooKeeper rejected a fenced write to /brokers/topics/t/partitions" "$tmp/a.out" ||
  fail "A's late write was not rejected by the epoch check"
grep -q "ZooKeeper expired the controller session of broker 1" "$tmp/a.out" || fail "A did not learn its session expired"
grep -q '"controller_epoch":2,"controller_epoch_zk_version":2' "$tmp/check.out" || fail "check-zk does not show /controller_epoch 2"
grep -qF '"state":{"controller_epoch":2,"isr":[3],"leader":3,' "$tmp/check.out" || fail "check-zk does not show t-0 led by 3 at controller epoch 2"
if grep -q '"controller_epoch":1,' "$tmp/check.out"; then fail "a partition state still carries epoch 1"; fi
echo "failover: A (epoch 1) fenced after B took over (epoch 2); check-zk exit $rc_check"
for f in "$tmp"/a.out "$tmp"/b.out; do echo "--- $(basename "$f")"; cat "$f"; done
