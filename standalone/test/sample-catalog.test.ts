/**
 * The bundled sample catalog: what `npm start` loads on a first start. It is
 * the generator's output byte for byte (so it can be regenerated, never
 * hand-edited), and every item carries the registry details a real catalog
 * would, in the forms the admin import accepts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSampleCatalog } from '../scripts/generate-sample-catalog';

const file = readFileSync(join(__dirname, '..', 'data', 'sample-catalog.ndjson'), 'utf8');
const items = file.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the sample catalog', () => {
  it('is what the generator writes', () => {
    expect(file).toBe(`${generateSampleCatalog().map((item) => JSON.stringify(item)).join('\n')}\n`);
  });

  it('gives every item a publisher, a release, a licence, an https repository and a download count', () => {
    for (const item of items) {
      expect(item).toMatchObject({
        publisher: expect.stringMatching(/\S/),
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        license: expect.stringMatching(/^[A-Za-z0-9.-]+( OR [A-Za-z0-9.-]+)?$/),
        repositoryUrl: expect.stringMatching(/^https:\/\/github\.com\/[a-z0-9-]+\/[a-z0-9-]+$/),
        downloads: expect.any(Number),
      });
      expect(item.homepageUrl === null || /^https:\/\//.test(String(item.homepageUrl))).toBe(true);
    }
  });

  it('spreads downloads like a registry: most items little used, a few famous, no two alike at the top', () => {
    const downloads = items.map((i) => i.downloads as number).sort((a, b) => a - b);
    const median = downloads[downloads.length >> 1]!;
    expect(downloads[0]).toBeGreaterThanOrEqual(10);
    expect(median).toBeLessThan(100_000);
    expect(downloads.at(-1)!).toBeGreaterThan(1_000_000);
    expect(new Set(downloads.slice(-10)).size).toBe(10);
  });
});
