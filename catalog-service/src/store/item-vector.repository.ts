import { QueryTypes, type Sequelize } from 'sequelize';

/** A vector and the item text it was computed from, by its hash (domain/item-text.ts). */
export interface StoredVector {
  contentHash: string;
  vector: Float32Array;
}

/** Item vectors by model and content hash: `catalog.item_vectors` (migration 008). */
export interface ItemVectorRepository {
  /** The vectors of `model` stored for these hashes (those missing are left out). */
  find(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Stores vectors; a hash already stored keeps its vector (the same text gives the same one). */
  save(model: string, vectors: readonly StoredVector[]): Promise<void>;
  /** Vectors stored for `model` (metrics, tests). */
  count(model: string): Promise<number>;
}

interface Row {
  content_hash: string;
  vector: Buffer;
  scale: number;
}

export class SequelizeItemVectorRepository implements ItemVectorRepository {
  constructor(private readonly sequelize: Sequelize) {}

  async find(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    if (hashes.length === 0) return found;
    const rows = await this.sequelize.query<Row>(
      'SELECT content_hash, vector, scale FROM catalog.item_vectors WHERE model = $1 AND content_hash = ANY($2::text[])',
      { type: QueryTypes.SELECT, bind: [model, [...new Set(hashes)]] },
    );
    for (const row of rows) found.set(row.content_hash, decodeVector(row.vector, row.scale));
    return found;
  }

  async save(model: string, vectors: readonly StoredVector[]): Promise<void> {
    if (vectors.length === 0) return;
    const records = vectors.map(({ contentHash, vector }) => {
      const { bytes, scale } = encodeVector(vector);
      return {
        h: contentHash,
        v: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
        s: scale,
      };
    });
    await this.sequelize.query(
      `INSERT INTO catalog.item_vectors (model, content_hash, vector, scale)
       SELECT $1, r.h, decode(r.v, 'base64'), r.s FROM jsonb_to_recordset($2::jsonb) AS r(h text, v text, s real)
       ON CONFLICT (model, content_hash) DO NOTHING`,
      { bind: [model, JSON.stringify(records)] },
    );
  }

  async count(model: string): Promise<number> {
    const [row] = await this.sequelize.query<{ n: string }>(
      'SELECT count(*) AS n FROM catalog.item_vectors WHERE model = $1',
      {
        type: QueryTypes.SELECT,
        bind: [model],
      },
    );
    return Number(row?.n ?? 0);
  }
}

/**
 * int8 per component, scaled by the largest magnitude: a unit vector of 384
 * components keeps its dot products to about 0.1 %, far below what separates
 * two neighbours, in a quarter of float32's bytes.
 */
export function encodeVector(vector: Float32Array): { bytes: Int8Array; scale: number } {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max > 0 ? max / 127 : 1;
  const bytes = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i++) bytes[i] = Math.round((vector[i] as number) / scale);
  return { bytes, scale };
}

/** The stored vector back as float32, made unit-length again (Elasticsearch's `dot_product` requires it). */
export function decodeVector(stored: Uint8Array, scale: number): Float32Array {
  const bytes = new Int8Array(stored.buffer, stored.byteOffset, stored.byteLength);
  const vector = new Float32Array(bytes.length);
  let norm = 0;
  for (let i = 0; i < bytes.length; i++) {
    const x = (bytes[i] as number) * scale;
    vector[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}
