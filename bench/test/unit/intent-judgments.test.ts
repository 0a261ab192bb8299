/**
 * The intent judgment set as data: what every figure measured on it relies
 * on, checked against the catalog it was written over.
 */
import { readCorpus } from '../../src/corpus';
import type { ImportLine } from '../../src/import-line';
import { INTENT_CATALOG_FILE, loadIntentJudgments, type IntentJudgment } from '../../src/intent-judgments';
import { intentJudgments } from '../../src/quality';

describe('the intent judgment set', () => {
  const judgments = loadIntentJudgments();
  let catalog: ImportLine[];
  beforeAll(async () => {
    catalog = (await readCorpus(INTENT_CATALOG_FILE, undefined, () => undefined)).lines;
  });

  it('holds at least 200 distinct sentences, split into a tuning half and a larger held-out one', () => {
    expect(judgments.length).toBeGreaterThanOrEqual(200);
    expect(new Set(judgments.map((j) => j.id)).size).toBe(judgments.length);
    expect(new Set(judgments.map((j) => j.q.toLowerCase())).size).toBe(judgments.length);
    const test = judgments.filter((j) => j.split === 'test').length;
    const dev = judgments.filter((j) => j.split === 'dev').length;
    expect(dev + test).toBe(judgments.length);
    expect(dev).toBeGreaterThanOrEqual(80);
    expect(test).toBeGreaterThan(dev);
  });

  it('judges only items of its catalog, each sentence answered first by the item it was written from', () => {
    expect(catalog).toHaveLength(20_000);
    const slugs = new Set(catalog.map((item) => item.slug));
    expect(judgments.flatMap((j) => j.relevant).filter((slug) => !slugs.has(slug))).toEqual([]);
    expect(
      judgments.filter((j) => j.relevant[0] !== j.target || new Set(j.relevant).size !== j.relevant.length),
    ).toEqual([]);
  });

  it('becomes the intent classes of the quality harness only over a catalog holding every judged item', () => {
    const classes = intentJudgments(catalog, judgments);
    expect(classes).toHaveLength(judgments.length);
    expect(classes.filter((j) => j.set === 'intent')).toHaveLength(judgments.filter((j) => j.split === 'test').length);
    const first = judgments[0] as IntentJudgment;
    expect(classes[0]).toEqual({
      set: first.split === 'test' ? 'intent' : 'intent-dev',
      q: first.q,
      target: first.target,
      relevant: first.relevant,
    });
    // without one judged item, that judgment cannot be scored fairly: it is left out, the others stay
    const without = catalog.filter((item) => item.slug !== first.target);
    expect(intentJudgments(without, judgments).map((j) => j.q)).toEqual(judgments.slice(1).map((j) => j.q));
  });
});
