/**
 * What the repository itself must keep out: secrets files in git, and
 * install-time telemetry (swagger-ui-dist pulls in @scarf/scarf, whose
 * postinstall script reports installs unless the root package opts out).
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

describe('repository hygiene', () => {
  it('keeps every .env file out of git', () => {
    const names = ['.env', '.env.local', '.env.production', 'deploy/.env'];
    const ignored = execFileSync('git', ['check-ignore', '--no-index', ...names], { cwd: ROOT, encoding: 'utf8' });
    expect(ignored.trim().split('\n')).toEqual(names);
  });

  it("stops @scarf/scarf's install script from reporting, through the root package.json", async () => {
    // A local stand-in for scarf.sh: the script posts here when it reports.
    const reports: string[] = [];
    const server = createServer((req, res) => {
      reports.push(`${req.method} ${req.url}`);
      res.end();
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const script = require.resolve('@scarf/scarf/report.js', { paths: [join(ROOT, 'gateway')] });
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        INIT_CWD: ROOT,
        SCARF_LOCAL_PORT: String((server.address() as AddressInfo).port),
        SCARF_VERBOSE: 'true',
      };
      const child = spawn(process.execPath, [script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await once(child, 'exit');
      expect(reports).toEqual([]);
      expect(output).toContain('User has opted out');
    } finally {
      server.close();
    }
  }, 60_000);
});
