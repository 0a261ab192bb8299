/**
 * One ONNX sentence-embedding model and its tokenizer, run in the calling
 * thread: the embedding worker holds one. The only module that imports
 * onnxruntime-node and the tokenizer.
 */
import { readFile } from 'node:fs/promises';
import type { Tokenizer } from '@huggingface/tokenizers' with { 'resolution-mode': 'import' };
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { Pooling } from './embedding-models';

export interface SessionSpec {
  onnxPath: string;
  tokenizerPath: string;
  pooling: Pooling;
  /** tokens kept of a text, [CLS] and [SEP] included: a catalog summary is far shorter */
  maxTokens: number;
  /** onnxruntime's intra-op threads: 1 leaves the other cores to the service */
  threads: number;
}

export class EmbeddingSession {
  private constructor(
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly spec: SessionSpec,
    private readonly wantsTokenTypes: boolean,
  ) {}

  static async open(spec: SessionSpec): Promise<EmbeddingSession> {
    // an ES module package: a CommonJS build reaches it through import()
    const { Tokenizer: TokenizerClass } = await import('@huggingface/tokenizers');
    const tokenizer = new TokenizerClass(JSON.parse(await readFile(spec.tokenizerPath, 'utf8')) as object, {});
    const session = await InferenceSession.create(spec.onnxPath, {
      intraOpNumThreads: spec.threads,
      interOpNumThreads: 1,
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
    });
    return new EmbeddingSession(session, tokenizer, spec, session.inputNames.includes('token_type_ids'));
  }

  /**
   * One unit-length vector per text, in order. Each text is its own run: a
   * quantized model scales its activations over the whole input, so a text
   * batched with others (or padded to them) would get a slightly different
   * vector; one at a time, a text's vector is the same whatever comes with it,
   * and measured no slower on one thread.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const text of texts) out.push(await this.embedOne(text));
    return out;
  }

  private async embedOne(text: string): Promise<Float32Array> {
    const ids = this.tokenIds(text);
    const shape = [1, ids.length];
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor(
        'int64',
        BigInt64Array.from(ids, (id) => BigInt(id)),
        shape,
      ),
      attention_mask: new Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape),
    };
    if (this.wantsTokenTypes) feeds.token_type_ids = new Tensor('int64', new BigInt64Array(ids.length), shape);
    const output = await this.session.run(feeds);
    const hidden = output[this.session.outputNames[0] as string] as Tensor;
    return normalize(pool(hidden.data as Float32Array, 0, ids.length, hidden.dims[2] as number, this.spec.pooling));
  }

  async close(): Promise<void> {
    await this.session.release();
  }

  /** The text's token ids with [CLS] and [SEP], cut to maxTokens keeping the closing [SEP]. */
  private tokenIds(text: string): number[] {
    const { ids } = this.tokenizer.encode(text);
    if (ids.length <= this.spec.maxTokens) return ids;
    return [...ids.slice(0, this.spec.maxTokens - 1), ids[ids.length - 1] as number];
  }
}

/** The sentence vector of one row of token vectors (`tokens` real tokens from `offset`): their mean, or the first ([CLS]). */
export function pool(
  values: Float32Array,
  offset: number,
  tokens: number,
  dims: number,
  pooling: Pooling,
): Float32Array {
  const out = new Float32Array(dims);
  const counted = pooling === 'cls' ? 1 : tokens;
  for (let t = 0; t < counted; t++) {
    const base = offset + t * dims;
    for (let d = 0; d < dims; d++) out[d] = (out[d] as number) + (values[base + d] as number);
  }
  for (let d = 0; d < dims; d++) out[d] = (out[d] as number) / counted;
  return out;
}

/** The vector scaled to length 1 (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}
