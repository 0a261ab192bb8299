// The image's HEALTHCHECK: GET /healthz on the port of the service this
// container runs. Node has fetch built in, so the slim image needs no curl.
// A health check does not inherit what the entrypoint exported, so the
// process and its port are read from PID 1's environment (the service itself,
// exec'd by the entrypoint). One-shot commands have no server: healthy.
'use strict';
const { readFileSync } = require('node:fs');

function pid1Env() {
  try {
    const pairs = readFileSync('/proc/1/environ', 'utf8').split('\0').filter(Boolean);
    return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  } catch {
    return {};
  }
}

const env = { ...process.env, ...pid1Env() };
const servers = ['gateway', 'catalog-service', 'collections-service'];
if (!servers.includes(env.SKILLS_PROCESS || 'gateway')) process.exit(0);
fetch(`http://127.0.0.1:${env.PORT || '8080'}/healthz`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.ok ? 0 : 1))
  .catch(() => process.exit(1));
