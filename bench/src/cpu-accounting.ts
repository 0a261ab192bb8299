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
import { readFile } from 'node:fs/promises';
import { es } from './elasticsearch-node';

/** Milliseconds of CPU per process name. */
export type CpuTimes = Record<string, number>;

/** Where each measured process's CPU time is read. */
export interface CpuSources {
  /** child processes by the name reported */
  pids: Record<string, number | undefined>;
  /** an Elasticsearch node counted as "elasticsearch" */
  elasticsearchUrl?: string;
}

const TICK_MS = 10;

async function procCpuMs(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // the command name (field 2) may hold spaces: count fields after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function nodeCpuMs(url: string): Promise<number | undefined> {
  const stats = await es<{ nodes: Record<string, { process?: { cpu?: { total_in_millis?: number } } }> }>(url, 'GET', '/_nodes/_local/stats/process').catch(
    () => undefined,
  );
  const node = stats ? Object.values(stats.nodes)[0] : undefined;
  return node?.process?.cpu?.total_in_millis;
}

export async function cpuTimes(sources: CpuSources): Promise<CpuTimes> {
  const times: CpuTimes = {};
  for (const [name, pid] of Object.entries(sources.pids)) {
    const ms = pid === undefined ? undefined : await procCpuMs(pid);
    if (ms !== undefined) times[name] = ms;
  }
  if (sources.elasticsearchUrl) {
    const ms = await nodeCpuMs(sources.elasticsearchUrl);
    if (ms !== undefined) times.elasticsearch = ms;
  }
  const own = process.cpuUsage();
  times['load generator'] = (own.user + own.system) / 1000;
  return times;
}

/** CPU milliseconds per request of each process between two readings. */
export function perRequest(before: CpuTimes, after: CpuTimes, requests: number): CpuTimes {
  const out: CpuTimes = {};
  for (const [name, end] of Object.entries(after)) {
    const start = before[name];
    if (start !== undefined && requests > 0) out[name] = (end - start) / requests;
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
