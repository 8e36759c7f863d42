#!/usr/bin/env bash
# Starts or stops a standalone ZooKeeper server (Debian's `zookeeper` package, run with java) for
# the zk tests: `zk_server.sh start DIR` picks a free loopback port, writes DIR/zoo.cfg and a data
# directory under DIR, starts the server in the background, waits until it answers, and writes
# its connect string to DIR/connect (its pid to DIR/pid). `zk_server.sh stop DIR` stops that
# server and removes DIR. Where no server can be started (package or java missing), `start`
# writes the reason to DIR/unavailable and exits 0, so the tests can report themselves skipped.
set -uo pipefail

action=${1:-}
dir=${2:-}
[[ -n $action && -n $dir ]] || { echo "usage: zk_server.sh start|stop DIR" >&2; exit 2; }

jar=/usr/share/java/zookeeper.jar
wait_limit_s=60

unavailable() {
  echo "$1" >"$dir/unavailable"
  echo "zk_server: ZooKeeper unavailable: $1" >&2
  exit 0
}

ruok() {  # the server's answer to the four-letter word `ruok` ("imok"), via bash's /dev/tcp
  local answer=""
  { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
  printf ruok >&3
  read -r -t 2 -n 4 answer <&3
  exec 3<&- 3>&-
  [[ $answer == imok ]]
}

start_on() {  # start_on PORT: 0 when the server answers on PORT, 1 when it exited (port taken?)
  local port=$1
  cat >"$dir/zoo.cfg" <<CFG
tickTime=100
dataDir=$dir/data
clientPort=$port
clientPortAddress=127.0.0.1
maxClientCnxns=200
admin.enableServer=false
4lw.commands.whitelist=ruok,srvr
CFG
  local classpath="$dir:$jar"
  for extra in /usr/share/java/{zookeeper-jute,slf4j-api,slf4j-log4j12,log4j-1.2,netty-all,netty,metrics-core,snappy-java,commons-cli,commons-io}.jar; do
    [[ -f $extra ]] && classpath+=":$extra"
  done
  setsid java -Xmx256m -Dzookeeper.log.file="$dir/server.log" -Dlog4j.configuration="file:$dir/log4j.properties" \
    -cp "$classpath" org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg" \
    >"$dir/stdout.log" 2>&1 </dev/null &
  echo $! >"$dir/pid"
  local waited=0
  until ruok "$port"; do
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || return 1
    if ((waited++ >= wait_limit_s * 5)); then
      kill "$(cat "$dir/pid")"
      unavailable "the server did not answer within ${wait_limit_s}s"
    fi
    sleep 0.2
  done
  echo "127.0.0.1:$port" >"$dir/connect"
  echo "zk_server: ZooKeeper 127.0.0.1:$port (pid $(cat "$dir/pid"), data in $dir)"
}

start() {
  rm -rf "$dir" && mkdir -p "$dir/data" || exit 1
  command -v java >/dev/null || unavailable "java is not installed (install Debian's zookeeper package)"
  [[ -f $jar ]] || unavailable "$jar is missing (install Debian's zookeeper package)"
  cat >"$dir/log4j.properties" <<'CFG'
log4j.rootLogger=WARN, FILE
log4j.appender.FILE=org.apache.log4j.FileAppender
log4j.appender.FILE.File=${zookeeper.log.file}
log4j.appender.FILE.layout=org.apache.log4j.PatternLayout
log4j.appender.FILE.layout.ConversionPattern=%d %p %c: %m%n
CFG
  # tickTime 100 ms: sessions may be as short as 200 ms, so the expiry tests stay quick. A port
  # in the ephemeral range, chosen at random and skipped when something answers on it already.
  local attempt port
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 20000))
    { exec 4<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null && { exec 4<&- 4>&-; continue; }
    start_on "$port" && return 0
  done
  unavailable "the server exited at start on 8 ports: $(tail -c 400 "$dir/stdout.log" | tr '\n' ' ')"
}

stop() {
  if [[ -f $dir/pid ]]; then
    local pid
    pid=$(cat "$dir/pid")
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  fi
  rm -rf "$dir"
}

case $action in
  start) start ;;
  stop) stop ;;
  *) echo "usage: zk_server.sh start|stop DIR" >&2; exit 2 ;;
esac
