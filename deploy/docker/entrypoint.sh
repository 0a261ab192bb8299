#!/bin/sh
# Picks the process of the image from the first argument. `exec` makes node
# PID 1, so SIGTERM from Docker or Kubernetes reaches the service's own
# graceful shutdown. Each service gets its default port when PORT is unset,
# which is also what the HEALTHCHECK probes.
set -eu
cd /app
command="${1:-gateway}"
[ "$#" -gt 0 ] && shift
export SKILLS_PROCESS="$command"
case "$command" in
  gateway)
    export PORT="${PORT:-8080}"
    exec node gateway/dist/main.js "$@" ;;
  catalog-service)
    export PORT="${PORT:-8081}"
    exec node catalog-service/dist/main.js "$@" ;;
  collections-service)
    export PORT="${PORT:-8082}"
    exec node collections-service/dist/main.js "$@" ;;
  migrate)
    exec node standalone/dist/migrate.js "$@" ;;
  load-sample)
    # Loads the bundled sample catalog through the gateway's admin API
    # (GATEWAY_URL, ADMIN_TOKEN). Importing upserts by slug, so a rerun is
    # harmless; SAMPLE_MARKER (a file on a volume) makes it run only once.
    marker="${SAMPLE_MARKER:-}"
    if [ -n "$marker" ] && [ -f "$marker" ]; then
      echo "sample catalog already loaded ($marker)"
      exit 0
    fi
    node standalone/dist/cli/admin.js skills import standalone/data/sample-catalog.ndjson
    if [ -n "$marker" ]; then touch "$marker"; fi
    exit 0 ;;
  admin)
    exec node standalone/dist/cli/admin.js "$@" ;;
  principal-keys)
    # The principal key pair in PRINCIPAL_SIGNING_KEY_FILE / PRINCIPAL_PUBLIC_KEYS_FILE:
    # init, status, rotate-start, rotate-sign, rotate-finish (docs/security.md).
    exec node standalone/dist/cli/principal-keys-command.js "$@" ;;
  *)
    echo "unknown command '$command': use gateway, catalog-service, collections-service, migrate, load-sample, admin or principal-keys" >&2
    exit 64 ;;
esac
