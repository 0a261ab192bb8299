/**
 * The seam between search and a sentence-embedding model (docs/search.md
 * "Search by intent: the model"). Nothing but the ONNX adapter in this folder
 * imports the inference runtime or the tokenizer.
 */

/**
 * A sentence encoder: texts in, unit-length vectors out, so a dot product is
 * the cosine similarity. Queries and documents are separate calls because a
 * model may want each marked its own way (e5's "query: " and "passage: ",
 * bge's search instruction before a query).
 */
export interface TextEmbedder {
  /** the pinned model and its version, e.g. `all-minilm-l6-v2-q@1.19.0-beta29` */
  readonly model: string;
  /** the length of every vector it returns, e.g. 384 */
  readonly dimensions: number;
  /** One vector per text, in order, for search queries. Rejects with an OverloadedError when its queue is full. */
  embedQueries(texts: readonly string[]): Promise<Float32Array[]>;
  /** One vector per text, in order, for the items searched. Rejects with an OverloadedError when its queue is full. */
  embedDocuments(texts: readonly string[]): Promise<Float32Array[]>;
  /** Stops the model's thread; requests still queued are refused. */
  close(): Promise<void>;
}

/** The dot product of two vectors of one embedder: their cosine similarity. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
