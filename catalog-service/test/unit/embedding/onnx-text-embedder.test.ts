/**
 * The ONNX embedder on the real default model, in its worker thread (the
 * worker is the built one: run `npm run build` first, as `npm test` does).
 */
import { OverloadedError } from '@skills/common';
import { cosine, OnnxTextEmbedder } from '../../../src/embedding';
import { realModelFiles } from '../../support/real-model';

const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

describe('OnnxTextEmbedder', () => {
  let sut: OnnxTextEmbedder;

  beforeAll(async () => {
    sut = await OnnxTextEmbedder.open({ ...(await realModelFiles()), maxQueuedTexts: 64, batchSize: 8 });
  });
  afterAll(() => sut.close());

  it('places a request near the summary that answers it, not near unrelated ones', async () => {
    const [query] = await sut.embedQueries(['turn a PDF document into markdown text']);
    const docs = await sut.embedDocuments([
      'A React date picker component with range selection',
      'Convert PDF files to Markdown, keeping headings and tables',
      'Lightweight logger for Node.js with JSON output',
    ]);
    const scores = docs.map((d) => cosine(query as Float32Array, d));
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    expect(scores[1]).toBeGreaterThan(0.5);
    expect(Math.max(scores[0] as number, scores[2] as number)).toBeLessThan(0.3);
  });

  it('gives unit vectors of its dimensions, in the order asked, the same whatever the batch', async () => {
    const texts = Array.from({ length: 19 }, (_, i) => `package number ${i} ${'parses things '.repeat(i % 5)}`);
    const together = await sut.embedDocuments(texts);
    const alone = await sut.embedDocuments([texts[13] as string]);
    expect(sut.dimensions).toBe(384);
    expect(sut.model).toBe('all-minilm-l6-v2-q@1.19.0-beta29');
    expect(together).toHaveLength(19);
    for (const v of together) {
      expect(v).toHaveLength(384);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // a text's batch-mates must not change its vector (a quantized model scales activations over its whole input)
    expect(cosine(together[13] as Float32Array, alone[0] as Float32Array)).toBeCloseTo(1, 5);
    expect(cosine(together[13] as Float32Array, together[12] as Float32Array)).toBeLessThan(0.999);
  });

  it('refuses at once what would overfill its queue, with a 503 to retry, and still answers what it took', async () => {
    // 40 asked: 8 go to the worker, 32 wait; 30 more: 62 wait of 64; 10 more would make 72
    const taken = Promise.all([
      sut.embedDocuments(Array.from({ length: 40 }, (_, i) => `text ${i}`)),
      sut.embedDocuments(Array.from({ length: 30 }, (_, i) => `other ${i}`)),
    ]);
    const refused = sut.embedDocuments(Array.from({ length: 10 }, (_, i) => `more ${i}`));
    await expect(refused).rejects.toBeInstanceOf(OverloadedError);
    await expect(refused).rejects.toMatchObject({
      status: 503,
      messageKey: 'search.embedderBusy',
      headers: { 'Retry-After': '1' },
    });
    // queries have a queue of their own: an indexing run does not starve a search
    const [query] = await sut.embedQueries(['a search while the documents wait']);
    expect(query).toHaveLength(384);
    expect((await taken).map((vectors) => vectors.length)).toEqual([40, 30]);
  });

  it('answers a search before the documents queued ahead of it', async () => {
    const order: string[] = [];
    const docs = sut
      .embedDocuments(Array.from({ length: 48 }, (_, i) => `document ${i}`))
      .then(() => order.push('documents'));
    const query = sut.embedQueries(['search']).then(() => order.push('query'));
    await Promise.all([docs, query]);
    expect(order).toEqual(['query', 'documents']);
  });
});

describe('OnnxTextEmbedder.close', () => {
  it('refuses what was still queued and what is asked afterwards', async () => {
    const sut = await OnnxTextEmbedder.open({ ...(await realModelFiles()), batchSize: 1 });
    const [first] = await sut.embedQueries(['before closing']);
    expect(first).toHaveLength(384);
    const pending = sut.embedDocuments(['a', 'b', 'c', 'd']).catch((err: unknown) => err);
    await sut.close();
    expect(await pending).toMatchObject({ status: 503, messageKey: 'server.shuttingDown' });
    await expect(sut.embedQueries(['after'])).rejects.toMatchObject({ messageKey: 'server.shuttingDown' });
  });
});
