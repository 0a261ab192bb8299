# Sourced by the scripts of local-servers/: where servers live, who runs them,
# and how to wait for them. Nothing here starts anything by itself.

# Unpacked distributions, data and logs: outside the checkout (a fresh clone
# reuses them) and readable by the unprivileged user the servers run as.
LOCAL_SERVERS_DIR="${LOCAL_SERVERS_DIR:-/var/tmp/skills-local-servers}"
# A second set of servers beside the default one, for a suite that restarts
# its own (the distributed topology): the instance's name prefixes every
# state folder (data, logs, pids, passwords) and the offset shifts every port.
# The unpacked distributions are shared.
LOCAL_SERVERS_INSTANCE="${LOCAL_SERVERS_INSTANCE:-}"
LOCAL_SERVERS_PORT_OFFSET="${LOCAL_SERVERS_PORT_OFFSET:-0}"
state_dir() { printf '%s/%s%s' "$LOCAL_SERVERS_DIR" "${LOCAL_SERVERS_INSTANCE:+$LOCAL_SERVERS_INSTANCE-}" "$1"; }

# Elasticsearch refuses to run as root (CI runs as root): servers then run as
# this system user, made on first use.
LOCAL_SERVERS_USER="${LOCAL_SERVERS_USER:-skills-servers}"
JDK17="${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}"
JDK25="${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}"

log() { printf '[local-servers] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# Runs a command as the unprivileged user when we are root, else as ourselves.
# That user may not enter the checkout (a clone in a mktemp -d folder or in
# /root is its owner's only): whatever it runs lives under LOCAL_SERVERS_DIR,
# and it runs from there rather than from the caller's folder.
as_server_user() {
  if [ "$(id -u)" = 0 ]; then
    if ! id "$LOCAL_SERVERS_USER" >/dev/null 2>&1; then
      useradd --system --no-create-home --shell /usr/sbin/nologin "$LOCAL_SERVERS_USER"
    fi
    (cd "$LOCAL_SERVERS_DIR" && runuser -u "$LOCAL_SERVERS_USER" -- "$@")
  else
    "$@"
  fi
}

# Makes a folder the server user owns.
server_dir() {
  mkdir -p "$1"
  if [ "$(id -u)" = 0 ]; then
    as_server_user true # creates the user if needed
    chown -R "$LOCAL_SERVERS_USER" "$1"
  fi
}

# The artifact's path in the local Maven repository, fetched from Maven
# Central when it is not there yet (dependency:get, no build involved).
maven_artifact() { # maven_artifact group:artifact:version[:packaging] path-in-repo
  local coords="$1" path="$HOME/.m2/repository/$2"
  if [ ! -s "$path" ]; then
    log "fetching $coords with Maven"
    mvn -q -B dependency:get -Dartifact="$coords" -Dtransitive=false >&2 || die "Maven could not fetch $coords"
  fi
  printf '%s' "$path"
}

pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Stops the process in a pid file: SIGTERM, then SIGKILL after $2 seconds.
stop_pidfile() { # stop_pidfile PIDFILE [SECONDS]
  local pidfile="$1" wait="${2:-30}" pid
  if ! pid_alive "$pidfile"; then rm -f "$pidfile"; return 0; fi
  pid="$(cat "$pidfile")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((wait * 5))); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }
    sleep 0.2
  done
  log "pid $pid did not stop in ${wait}s: killing it"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}
