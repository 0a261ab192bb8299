/**
 * The Elasticsearch engine's own guarantees on fake 8.x and 9.x nodes, and
 * the media types those majors accept: one build talks to both.
 */
import { startFakeElasticsearch } from './fake-elasticsearch/http-server';
import { describeElasticsearchSpecifics } from './elasticsearch-specifics';

for (const major of [8, 9] as const) {
  describeElasticsearchSpecifics(`a fake ${major}.x node`, async () => {
    const node = await startFakeElasticsearch(major);
    return { url: node.url, alias: 'skills', cleanup: () => node.close() };
  });
}

describe('the media types of the two majors', () => {
  it('an 8.x node refuses compatible-with=9 (what the 9.x client sends) and takes compatible-with=8 (what this engine sends)', async () => {
    const node = await startFakeElasticsearch(8);
    try {
      const ask = (version: number) =>
        fetch(`${node.url}/_alias/skills`, { headers: { accept: `application/vnd.elasticsearch+json; compatible-with=${version}` } }).then(async (r) => ({
          status: r.status,
          type: r.status === 400 ? ((await r.json()) as { error: { type: string } }).error.type : undefined,
        }));
      expect(await ask(9)).toEqual({ status: 400, type: 'media_type_header_exception' });
      expect((await ask(8)).status).toBe(404);
    } finally {
      await node.close();
    }
  });
});
