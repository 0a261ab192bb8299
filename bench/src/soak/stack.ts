/**
 * The system under soak: the built standalone launcher as one child process
 * (embedded Postgres unless DATABASE_URL is set), started on a free port in
 * a temp DATA_DIR, up once it prints its READY line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@skills/common/testing';

const ROOT = join(__dirname, '..', '..', '..');

export interface SoakStack {
  url: string;
  adminToken: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startSoakStack(): Promise<SoakStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'skills-soak-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'standalone', 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-4000)));
  const ready = await new Promise<{ url: string; adminToken: string }>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no READY line within 180 s\n${err}`)), 180_000);
    const onData = () => {
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (!line) return;
      clearTimeout(timer);
      ok(JSON.parse(line.slice('READY '.length)) as { url: string; adminToken: string });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`standalone exited with ${code} before READY\n${err}`));
    });
  });
  return {
    ...ready,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process and all its descendants (the embedded Postgres runs as a child), in bytes. */
export function treeRss(pid: number): number {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.pop() as number;
    try {
      const status = readFileSync(`/proc/${current}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      total += Number(kb ?? 0) * 1024;
      const children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').trim();
      if (children) pending.push(...children.split(/\s+/).map(Number));
    } catch {
      // the process ended between two reads
    }
  }
  return total;
}
