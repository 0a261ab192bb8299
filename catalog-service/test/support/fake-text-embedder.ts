/**
 * A deterministic TextEmbedder for tests: each word (lower-cased, letters
 * and digits) adds a fixed ±1 pattern of its own, so texts sharing words are
 * close and texts sharing none are near-orthogonal. `synonyms` maps a word
 * to another whose pattern it takes, so a test can make "document" mean
 * "pdf" the way a real model would, without its cost. Queries and documents
 * are embedded alike; every call is recorded.
 */
import type { TextEmbedder } from '../../src/embedding';

export class FakeTextEmbedder implements TextEmbedder {
  readonly model: string;
  readonly dimensions: number;
  readonly calls: Array<{ kind: 'queries' | 'documents'; texts: string[] }> = [];
  closed = false;
  private readonly synonyms: ReadonlyMap<string, string>;

  constructor(options: { dimensions?: number; synonyms?: Record<string, string>; model?: string } = {}) {
    this.dimensions = options.dimensions ?? 64;
    this.model = options.model ?? 'fake@1';
    this.synonyms = new Map(Object.entries(options.synonyms ?? {}));
  }

  embedQueries(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push({ kind: 'queries', texts: [...texts] });
    return Promise.resolve(texts.map((t) => this.vector(t)));
  }

  embedDocuments(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push({ kind: 'documents', texts: [...texts] });
    return Promise.resolve(texts.map((t) => this.vector(t)));
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  private vector(text: string): Float32Array {
    const out = new Float32Array(this.dimensions);
    for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const word = this.synonyms.get(raw) ?? raw;
      let seed = fnv1a(word);
      for (let d = 0; d < this.dimensions; d++) {
        seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
        out[d] = (out[d] as number) + (seed & 0x10000 ? 1 : -1);
      }
    }
    let norm = 0;
    for (const v of out) norm += v * v;
    if (norm > 0) for (let d = 0; d < out.length; d++) out[d] = (out[d] as number) / Math.sqrt(norm);
    return out;
  }
}

function fnv1a(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
