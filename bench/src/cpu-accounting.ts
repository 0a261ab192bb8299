/**
 * CPU time each process of a run spends, read before and after it, so a
 * report can say what one request costs where (the node, the gateway,
 * catalog-service, the load generator) instead of guessing it from req/s.
 * CPU time, unlike req/s, hardly moves when other work shares the cores.
 *
 * - a child process: utime + stime of /proc/<pid>/stat (fields 14 and 15, in
 *   clock ticks of 10 ms: proc(5)); Linux only, absent elsewhere;
 * - the Elasticsearch node: `process.cpu.total_in_millis` of the nodes stats
 *   API, `GET /_nodes/_local/stats/process`
 *   (https://www.elastic.co/docs/api/doc/elasticsearch/v9/operation/operation-nodes-stats-1);
 * - this process (autocannon): process.cpuUsage().
 */
import { readdir, readFile } from 'node:fs/promises';
import { es } from './elasticsearch-node';
import { runLoad, type LoadOptions, type Phase, type RunPart } from './load';
import type { LoadResult } from './stats';

/** Milliseconds of CPU per process name. */
export type CpuTimes = Record<string, number>;

/** Where each measured process's CPU time is read. */
export interface CpuSources {
  /** processes by the name reported; a list is summed (a database server's processes) */
  pids: Record<string, number | readonly number[] | undefined>;
  /** an Elasticsearch node counted as "elasticsearch" */
  elasticsearchUrl?: string;
}

const TICK_MS = 10;
/** joins a list's name and a member's pid in a reading's key */
const LIST_MEMBER = '#';

async function procCpuMs(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // the command name (field 2) may hold spaces: count fields after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function nodeCpuMs(url: string): Promise<number | undefined> {
  const stats = await es<{ nodes: Record<string, { process?: { cpu?: { total_in_millis?: number } } }> }>(
    url,
    'GET',
    '/_nodes/_local/stats/process',
  ).catch(() => undefined);
  const node = stats ? Object.values(stats.nodes)[0] : undefined;
  return node?.process?.cpu?.total_in_millis;
}

export async function cpuTimes(sources: CpuSources): Promise<CpuTimes> {
  const times: CpuTimes = {};
  for (const [name, pids] of Object.entries(sources.pids)) {
    if (pids === undefined || typeof pids === 'number') {
      const ms = pids === undefined ? undefined : await procCpuMs(pids);
      if (ms !== undefined) times[name] = ms;
      continue;
    }
    // one reading per process of a list (`name#pid`): perRequest sums those read at both ends
    for (const pid of pids) {
      const ms = await procCpuMs(pid);
      if (ms !== undefined) times[`${name}${LIST_MEMBER}${pid}`] = ms;
    }
  }
  if (sources.elasticsearchUrl) {
    const ms = await nodeCpuMs(sources.elasticsearchUrl);
    if (ms !== undefined) times.elasticsearch = ms;
  }
  const own = process.cpuUsage();
  times['load generator'] = (own.user + own.system) / 1000;
  return times;
}

/**
 * The ids of the processes named `command` (proc(5) `comm`): a PostgreSQL
 * server's postmaster and backends, whichever database they serve, so the
 * figure is this run's only on a machine where nothing else uses the server.
 */
export async function processesNamed(command: string): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === command) pids.push(Number(entry));
  }
  return pids;
}

/** runLoad, with each process's CPU milliseconds per request of the measured run (not the warm-up) in `cpuMsPerRequest`. */
export async function runMeasuredLoad(
  make: (part: RunPart) => Phase,
  options: LoadOptions,
  sources: () => Promise<CpuSources>,
): Promise<LoadResult> {
  let before: CpuTimes = {};
  let measured: CpuSources = { pids: {} };
  const beforeRun = async () => {
    await options.beforeRun?.();
    // read once, before the run: the same processes are read after it
    measured = await sources();
    before = await cpuTimes(measured);
  };
  const result = await runLoad(make, { ...options, beforeRun });
  result.cpuMsPerRequest = perRequest(before, await cpuTimes(measured), result.requests);
  return result;
}

/**
 * CPU milliseconds per request of each process between two readings. A
 * list's processes are summed over those read at both ends: a database
 * backend that exited during the run took its CPU time with it, and
 * subtracting its first reading alone would make the figure negative.
 */
export function perRequest(before: CpuTimes, after: CpuTimes, requests: number): CpuTimes {
  const out: CpuTimes = {};
  for (const [key, end] of Object.entries(after)) {
    const start = before[key];
    if (start === undefined || requests <= 0) continue;
    const name = key.split(LIST_MEMBER)[0] ?? key;
    out[name] = (out[name] ?? 0) + (end - start) / requests;
  }
  return out;
}

/** A table of CPU ms per request, one row per run. */
export function formatCpuTable(rows: ReadonlyArray<{ label: string; cpu: CpuTimes }>): string {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row.cpu)))];
  const header = `${'run'.padEnd(40)} ${names.map((n) => n.padStart(15)).join(' ')} ${'total'.padStart(8)}`;
  const lines = rows.map(({ label, cpu }) => {
    const total = Object.values(cpu).reduce((a, b) => a + b, 0);
    return `${label.padEnd(40)} ${names.map((n) => (cpu[n] === undefined ? '' : cpu[n].toFixed(2)).padStart(15)).join(' ')} ${total.toFixed(2).padStart(8)}`;
  });
  return [header, ...lines].join('\n');
}
