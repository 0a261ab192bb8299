/** Sends the judgment sets through the gateway, one query at a time, and scores them (quality.ts). */
import type { ImportLine } from './import-line';
import {
  buildJudgments,
  QUALITY_DEPTH,
  QUALITY_PER_SET,
  scoreQuality,
  type JudgedAnswer,
  type QualityResult,
} from './quality';
import { searchPath } from './query-mix';

export interface QualityReport {
  /** items each set sampled (fewer when the catalog has fewer suitable ones) */
  perSet: number;
  depth: number;
  sets: QualityResult[];
}

/** Slugs of one search page, or undefined when the API refused the query. */
async function search(gateway: string, apiKey: string, q: string): Promise<string[] | undefined> {
  const res = await fetch(
    `${gateway}${searchPath([
      ['q', q],
      ['limit', String(QUALITY_DEPTH)],
    ])}`,
    {
      headers: { authorization: `Bearer ${apiKey}` },
    },
  );
  const text = await res.text();
  if (!res.ok) return undefined;
  return (JSON.parse(text) as { data: { skills: Array<{ slug: string }> } }).data.skills.map((s) => s.slug);
}

/**
 * Sequential on purpose: quality is what one user sees, not what the
 * system does under load, and one query at a time keeps the run gentle on a
 * shared machine.
 */
export async function measureQuality(
  gateway: string,
  apiKey: string,
  catalog: readonly ImportLine[],
  progress: (text: string, done: boolean) => void,
  perSet = QUALITY_PER_SET,
): Promise<QualityReport> {
  const judgments = buildJudgments(catalog, perSet);
  const answers: JudgedAnswer[] = [];
  for (const judgment of judgments) {
    answers.push({ judgment, results: await search(gateway, apiKey, judgment.q) });
    if (answers.length % 50 === 0) progress(`quality: ${answers.length}/${judgments.length} queries`, false);
  }
  const sets = scoreQuality(answers);
  progress(`quality: ${sets.map((s) => `${s.set} MRR@10 ${s.mrr10.toFixed(3)}`).join(', ')}`, true);
  return { perSet, depth: QUALITY_DEPTH, sets };
}
