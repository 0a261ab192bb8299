/**
 * The stack the search suites share the setup of: the sample catalog loaded on
 * first start and its verdicts recorded, waited for until search shows them,
 * and the counts a default search and `trust=any` find in it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@skills/common/testing';
import { startStack, type Stack } from './helpers';

export const sample = readFileSync(join(__dirname, '..', '..', '..', 'data', 'sample-catalog.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map(
    (line) =>
      JSON.parse(line) as {
        slug: string;
        name: string;
        status: string;
        type: string;
        category: string;
        downloads: number;
      },
  );
const ACTIVE = sample.filter((i) => i.status === 'active').length;
/** What a first start records through the scanner API (standalone/data/sample-trust.json): the worst verdict per slug. */
const verdicts = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'data', 'sample-trust.json'), 'utf8')) as {
    verdicts: Array<{ slug: string; verdict: string }>;
  }
).verdicts;
const slugsJudged = (verdict: string) => new Set(verdicts.filter((v) => v.verdict === verdict).map((v) => v.slug));
export const BLOCKED = slugsJudged('malicious');
export const SUSPICIOUS = new Set([...slugsJudged('suspicious')].filter((slug) => !BLOCKED.has(slug)));
/** what a default search finds (clean and unscanned), and what `trust=any` finds (all but the blocked) */
export const SHOWN = ACTIVE - BLOCKED.size - SUSPICIOUS.size;
export const FINDABLE = ACTIVE - BLOCKED.size;

/** GET /api/v1/skills with the API key of the stack. */
export const searchSkills = (stack: Stack, query: string, headers: Record<string, string> = {}) =>
  stack.client.call('GET', `/api/v1/skills${query}`, { token: stack.info.apiKey, headers });

/** A stack whose sample catalog and verdicts are indexed: the import is written at once, the search side catches up through the event log. */
export async function startSampleStack(): Promise<Stack> {
  const stack = await startStack();
  await eventually(
    async () => {
      const [shown, findable] = await Promise.all([
        searchSkills(stack, '?limit=1'),
        searchSkills(stack, '?limit=1&trust=any'),
      ]);
      return shown.body.data?.pagination.total === SHOWN && findable.body.data?.pagination.total === FINDABLE
        ? true
        : undefined;
    },
    'sample catalog and its verdicts indexed',
    60_000,
  );
  return stack;
}
