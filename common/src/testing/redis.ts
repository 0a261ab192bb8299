import { spawnSync } from 'node:child_process';

/** The Redis the tests use: REDIS_URL, else the machine's own. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether a Redis answers PING at `url`. Jest decides skips synchronously,
 * so the probe runs in a child process.
 */
export function redisAnswers(url: string = TEST_REDIS_URL): boolean {
  const { hostname, port } = new URL(url);
  const probe = `const s=require('net').connect(${Number(port || 6379)},${JSON.stringify(hostname)});
s.on('connect',()=>s.write('PING\\r\\n'));s.on('data',d=>process.exit(String(d).startsWith('+PONG')?0:1));
s.on('error',()=>process.exit(1));setTimeout(()=>process.exit(1),1500);`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 3_000 }).status === 0;
}
