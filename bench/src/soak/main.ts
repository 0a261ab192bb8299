/**
 * `npm run soak [-- --minutes N | --quick]`: mixed traffic through the
 * gateway of a standalone stack for N minutes (10 by default, 1 with
 * --quick), with concurrent writes. Prints errors (must be 0), p99 and RSS
 * per 10 s window, draws them to bench/results/soak-<N>min.svg, then checks
 * that every acknowledged write is there. Exit code 1 on any error or loss.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTable, percentile, soakChart, type Sample } from './report';
import { startSoakStack, treeRss } from './stack';
import { runWorker, verifyLedger, type Ledger } from './traffic';

const WORKERS = 8;
/** each key stays near 500 requests/min, under the team plan's 1,200 */
const PAUSE_MS = 100;
const WINDOW_MS = 10_000;

function minutesFrom(argv: readonly string[]): number {
  if (argv.includes('--quick')) return 1;
  const at = argv.indexOf('--minutes');
  const value = at >= 0 ? Number(argv[at + 1]) : 10;
  if (!Number.isFinite(value) || value <= 0) throw new Error('--minutes takes a positive number');
  return value;
}

async function admin<T>(url: string, token: string, method: string, path: string, body: unknown): Promise<T> {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

async function main(): Promise<void> {
  const minutes = minutesFrom(process.argv.slice(2));
  console.log(`soak: ${minutes} min, ${WORKERS} concurrent workers, samples every ${WINDOW_MS / 1000} s`);
  const stack = await startSoakStack();
  try {
    const keys: string[] = [];
    for (let i = 0; i < WORKERS; i++) {
      const a = await admin<{ data: { account: { id: string } } }>(
        stack.url,
        stack.adminToken,
        'POST',
        '/admin/v1/accounts',
        {
          email: `soak-${i}-${Date.now()}@example.com`,
          plan: 'team',
        },
      );
      const k = await admin<{ data: { apiKey: { key: string } } }>(
        stack.url,
        stack.adminToken,
        'POST',
        `/admin/v1/accounts/${a.data.account.id}/api-keys`,
        {},
      );
      keys.push(k.data.apiKey.key);
    }
    const listing = (await (
      await fetch(`${stack.url}/api/v1/skills?limit=50`, { headers: { authorization: `Bearer ${keys[0]}` } })
    ).json()) as {
      data: { skills: Array<{ slug: string }> };
    };
    const catalog = listing.data.skills.map((s) => s.slug);

    const ledger: Ledger = { collections: new Map(), skills: new Map() };
    let window: number[] = [];
    let windowErrors = 0;
    let totalRequests = 0;
    let totalErrors = 0;
    const errorKinds = new Map<string, number>();
    const recorder = {
      record(ms: number, ok: boolean, what: string) {
        window.push(ms);
        totalRequests += 1;
        if (!ok) {
          windowErrors += 1;
          totalErrors += 1;
          errorKinds.set(what, (errorKinds.get(what) ?? 0) + 1);
        }
      },
    };
    const samples: Sample[] = [];
    const started = Date.now();
    const until = started + minutes * 60_000;
    const takeSample = () => {
      const sorted = window.sort((a, b) => a - b);
      const sample = {
        atS: Math.round((Date.now() - started) / 1000),
        requests: sorted.length,
        errors: windowErrors,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        rssMb: treeRss(stack.pid) / 1024 / 1024,
      };
      samples.push(sample);
      console.log(formatTable([sample]).split('\n')[1]);
      window = [];
      windowErrors = 0;
    };
    const sampler = setInterval(takeSample, WINDOW_MS);
    console.log(formatTable([]));
    await Promise.all(
      keys.map((key, index) =>
        runWorker({
          url: stack.url,
          adminToken: stack.adminToken,
          key,
          index,
          catalog,
          ledger,
          recorder,
          pauseMs: PAUSE_MS,
          until,
        }),
      ),
    );
    clearInterval(sampler);
    if (window.length > 0) takeSample();

    const problems = await verifyLedger(stack.url, ledger, 60_000);
    const live = [...ledger.collections.values()].filter((c) => !c.deleted).length;
    const all = samples.map((s) => s.p99Ms);
    const rss = samples.map((s) => s.rssMb);
    const summary = [
      `soak ${minutes} min: ${totalRequests} requests, ${totalErrors} errors, ${(totalRequests / (minutes * 60)).toFixed(0)} req/s`,
      `p99 per window: min ${Math.min(...all).toFixed(1)} ms, max ${Math.max(...all).toFixed(1)} ms; RSS first ${rss[0]?.toFixed(0)} MB, last ${rss.at(-1)?.toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB`,
      `verified: ${live} live collections (${ledger.collections.size - live} deleted), ${ledger.skills.size} upserted skills; ${problems.length} problems`,
    ];
    const resultsDir = join(__dirname, '..', '..', 'results');
    mkdirSync(resultsDir, { recursive: true });
    const chart = join(resultsDir, `soak-${minutes}min.svg`);
    writeFileSync(chart, soakChart(samples, `Soak ${minutes} min — ${totalRequests} requests, ${totalErrors} errors`));
    writeFileSync(join(resultsDir, `soak-${minutes}min.txt`), [formatTable(samples), '', ...summary, ''].join('\n'));
    console.log(['', formatTable(samples), '', ...summary, `chart: ${chart}`].join('\n'));
    for (const [what, count] of errorKinds) console.log(`  error ${count}× ${what}`);
    for (const p of problems.slice(0, 20)) console.log(`  lost: ${p}`);
    process.exitCode = totalErrors === 0 && problems.length === 0 ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
