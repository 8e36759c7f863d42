#!/usr/bin/env bash
# check-log throughput next to `grep -c .` on the same file in the same run
# (docs/performance.md "check-log throughput").
#
#   bench/check_log_vs_grep.sh BUILD_DIR [LOG] [RUNS] [OTHER_KCSPEC]
#
# Writes LOG (default /tmp/kcspec-big.log) with BUILD_DIR/bench/kcspec_log_gen (1100 MiB, seed 1)
# if it does not exist, then runs, RUNS times (default 5) and interleaved: `grep -c . LOG`,
# `kcspec check-log --json LOG` (and OTHER_KCSPEC's, e.g. an older build, when given). Prints
# each run's wall, user and system seconds, then the minimum of each per command and lines/s.
# Output goes to files, not /dev/null: GNU grep stops at the first match when it sees /dev/null.
# CHECK_LOG_FLAGS (e.g. "--threads 1") is added to this build's check-log command line.
set -euo pipefail
build=${1:?usage: check_log_vs_grep.sh BUILD_DIR [LOG] [RUNS] [OTHER_KCSPEC]}
log=${2:-/tmp/kcspec-big.log}
runs=${3:-5}
other=${4:-}
if [[ ! -f $log ]]; then
  "$build/bench/kcspec_log_gen" "$log" --mb 1100 --seed 1
fi
lines=$(wc -l < "$log")
bytes=$(stat -c %s "$log")
echo "file: $log, $bytes bytes, $lines lines"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A cmds=([grep]="grep -c . $log" [check-log]="$build/kcspec check-log --json ${CHECK_LOG_FLAGS:-} $log")
order=(grep check-log)
if [[ -n $other ]]; then
  cmds[other]="$other check-log --json $log"
  order+=(other)
fi
for ((i = 1; i <= runs; i++)); do
  for name in "${order[@]}"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S" -o "$out/time" ${cmds[$name]} > "$out/stdout" || [[ $? -le 1 ]]
    read -r wall user sys < "$out/time"
    echo "$name run $i: wall ${wall}s user ${user}s sys ${sys}s"
    echo "$wall $user $sys" >> "$out/$name.runs"
  done
done
for name in "${order[@]}"; do
  awk -v name="$name" -v lines="$lines" -v bytes="$bytes" '
    NR == 1 || $1 < w { w = $1 } NR == 1 || $2 + $3 < c { c = $2 + $3 }
    END { printf "%-9s min wall %.2fs (%.1f M lines/s, %.2f GB/s), min CPU user+sys %.2fs (%.1f M lines/s)\n",
                 name, w, lines / w / 1e6, bytes / w / 1e9, c, lines / c / 1e6 }' "$out/$name.runs"
done
