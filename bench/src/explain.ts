/**
 * EXPLAIN (ANALYZE, BUFFERS) of the PostgresEngine statements for the kinds
 * of request in the bench mix, on a loaded database. Used by `npm run bench
 * -- --explain` (written to bench/results/explain.txt) and on its own:
 *   node bench/dist/explain.js <database url>
 */
import { Client } from 'pg';
import { buildSearchStatement, type MatchMode, type SearchQuery } from '@skills/catalog-service';

const base: SearchQuery = { limit: 20, page: 1, sort: 'relevance' };

export const EXPLAINED: Array<{ label: string; query: SearchQuery; mode: MatchMode }> = [
  { label: 'browse, newest', query: { ...base, sort: 'newest' }, mode: 'all' },
  { label: 'browse, category=devops', query: { ...base, sort: 'newest', category: 'devops' }, mode: 'all' },
  { label: 'q=kafka (one subject word)', query: { ...base, q: 'kafka' }, mode: 'fts' },
  { label: 'q=validator (one broad role word)', query: { ...base, q: 'validator' }, mode: 'fts' },
  { label: 'q=kafka validator (two words)', query: { ...base, q: 'kafka validator' }, mode: 'fts' },
  { label: 'q=terra (prefix)', query: { ...base, q: 'terra' }, mode: 'fts' },
  { label: 'q=valid (broad prefix)', query: { ...base, q: 'valid' }, mode: 'fts' },
  { label: 'q=kubenretes (typo, fallback)', query: { ...base, q: 'kubenretes' }, mode: 'fts+typo' },
  { label: 'q=validator type=plugin', query: { ...base, q: 'validator', type: 'plugin' }, mode: 'fts' },
  { label: 'browse, page 200 x 50', query: { ...base, sort: 'newest', limit: 50, page: 200 }, mode: 'all' },
  { label: 'q=validator, page 100 x 50', query: { ...base, q: 'validator', limit: 50, page: 100 }, mode: 'fts' },
];

/** The plan text of each statement, with its execution time in the heading. */
export async function explainAll(databaseUrl: string): Promise<string> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const out: string[] = [];
  try {
    for (const { label, query, mode } of EXPLAINED) {
      const stmt = buildSearchStatement(query, mode);
      for (const [kind, sql, bind] of [['rows', stmt.rows, stmt.bind], ['count', stmt.count, stmt.countBind]] as const) {
        await db.query(sql, bind as unknown[]); // warm the cache: plans of a running service, not of a cold disk
        const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bind as unknown[]);
        const plan = rows.map((r) => r['QUERY PLAN']);
        const time = plan.find((l) => l.startsWith('Execution Time')) ?? '';
        out.push(`### ${label} — ${kind} (${time.replace('Execution Time: ', '')})`, '', ...plan.map((l) => `    ${l}`), '');
      }
    }
  } finally {
    await db.end();
  }
  return out.join('\n');
}

if (require.main === module) {
  explainAll(process.argv[2] ?? '').then(
    (text) => process.stdout.write(`${text}\n`),
    (err: unknown) => {
      process.stderr.write(`explain failed: ${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
