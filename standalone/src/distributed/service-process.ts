/**
 * One service of the topology as an OS process: the built entry point the
 * image's entrypoint execs, with exactly the environment given (nothing of
 * the launcher's own, so no variable leaks in that the deployment lacks),
 * its output forwarded line by line under its name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Writable } from 'node:stream';

export interface ServiceProcessOptions {
  name: string;
  /** repository root: entry points are relative to it */
  root: string;
  entryPoint: string;
  args?: readonly string[];
  env: Readonly<Record<string, string>>;
  /** where the process's output goes, each line prefixed with its name */
  output: Writable;
}

export interface ServiceProcess {
  name: string;
  pid: number;
  /** resolves with the exit code (null after a signal) */
  exited: Promise<number | null>;
  /** true until the process exited */
  running(): boolean;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `graceMs` (compose's stop_grace_period) */
  stop(graceMs?: number): Promise<void>;
}

function forward(child: ChildProcess, name: string, output: Writable): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) output.write(`[${name}] ${line}\n`);
    });
  }
}

export function startServiceProcess(options: ServiceProcessOptions): ServiceProcess {
  // PATH only from outside: node and the tools it may spawn; everything else is the deployment's.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production', ...options.env };
  const child = spawn(process.execPath, [join(options.root, options.entryPoint), ...(options.args ?? [])], {
    cwd: options.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  forward(child, options.name, options.output);
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  let done = false;
  void exited.then(() => (done = true));
  return {
    name: options.name,
    pid: child.pid as number,
    exited,
    running: () => !done,
    kill: (signal) => {
      if (!done) child.kill(signal);
    },
    async stop(graceMs = 45_000) {
      if (done) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a one-shot command (principal-keys, migrate) to its end; rejects on a non-zero exit. */
export async function runOnce(options: ServiceProcessOptions): Promise<void> {
  const code = await startServiceProcess(options).exited;
  if (code !== 0) throw new Error(`${options.name} exited with ${code}`);
}

/** Polls GET /healthz (the image's HEALTHCHECK) until it answers 200, or fails when the process exits first. */
export async function waitHealthy(service: ServiceProcess, port: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!service.running()) throw new Error(`${service.name} exited before it was healthy`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_500) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${service.name} not healthy within ${timeoutMs} ms`);
}
