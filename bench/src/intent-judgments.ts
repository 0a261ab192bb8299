/**
 * The intent judgment set (bench/data/intent-judgments.json): sentences a
 * person or an agent would type to find a package by what it does, written
 * by reading real summaries of the intent catalog
 * (bench/data/intent-catalog-20k.ndjson.gz, the first 20,000 items of a
 * 100,000-item npm sample) and saying the need in other words than the
 * summary's. Each names the items judged to answer it: the one it was
 * written from, and any other of the catalog found to do the same job.
 * `dev` is for tuning, `test` is held out: a figure to report comes from
 * `test`, measured after the tuning stopped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type IntentSplit = 'dev' | 'test';

export interface IntentJudgment {
  id: string;
  split: IntentSplit;
  q: string;
  /** the item the sentence was written from */
  target: string;
  /** every slug judged to answer it, the target first */
  relevant: string[];
}

/** Where the set and its catalog are, in the repository (bench/dist/.. or bench/src/..). */
export const INTENT_DATA_DIR = join(__dirname, '..', 'data');
export const INTENT_CATALOG_FILE = join(INTENT_DATA_DIR, 'intent-catalog-20k.ndjson.gz');
export const INTENT_JUDGMENTS_FILE = join(INTENT_DATA_DIR, 'intent-judgments.json');

export function loadIntentJudgments(file = INTENT_JUDGMENTS_FILE): IntentJudgment[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { judgments: IntentJudgment[] };
  return parsed.judgments;
}
