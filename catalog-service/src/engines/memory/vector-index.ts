/**
 * The memory engine's nearest-neighbour index: one vector per searchable
 * item, quantised to int8, in USearch's HNSW graph (the only file that
 * imports it). An item keeps one key for life, so an update of its text
 * replaces its vector in place. Memory: about 0.9 KB an item at 384
 * dimensions (the vector's 384 bytes, its graph links, the id map), measured
 * in docs/performance.md "Search by intent": 12 links a node rather than 16
 * keep 100,000 items within 100 MB.
 * https://github.com/unum-cloud/usearch (javascript/README.md)
 */
import { Index, MetricKind, ScalarKind } from 'usearch';

/** HNSW's links per node, and the candidates explored when adding and searching. */
export interface VectorIndexOptions {
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export const DEFAULT_VECTOR_INDEX: VectorIndexOptions = { connectivity: 12, expansionAdd: 128, expansionSearch: 200 };

export interface NearItem {
  id: string;
  /** cosine similarity to the query, from the quantised vectors */
  cosine: number;
}

export class VectorIndex {
  private readonly index: Index;
  private readonly keys = new Map<string, number>();
  private readonly ids: string[] = [];
  /**
   * the content hash of the vector each key holds, as the number its first
   * 13 hex digits spell (52 bits, exact in a double: two texts of one item
   * agreeing there by chance is not worth a string per item); 0 when none
   */
  private hashes = new Float64Array(1024);
  private held = 0;
  private changes = 0;

  constructor(
    readonly dimensions: number,
    options: VectorIndexOptions = DEFAULT_VECTOR_INDEX,
  ) {
    this.index = new Index({
      dimensions,
      metric: MetricKind.Cos,
      quantization: ScalarKind.I8,
      connectivity: options.connectivity,
      expansion_add: options.expansionAdd,
      expansion_search: options.expansionSearch,
      multi: false,
    });
  }

  /** Vectors held. */
  get size(): number {
    return this.held;
  }

  /** Moves on every change: answers cached before it are not reused after it. */
  get generation(): number {
    return this.changes;
  }

  /** Whether the item holds a vector, and whether that vector is of the text hashed `contentHash`. */
  holds(id: string, contentHash: string): 'same' | 'other' | 'none' {
    const key = this.keys.get(id);
    const held = key === undefined ? 0 : this.hashes[key]!;
    if (held === 0) return 'none';
    return held === hashNumber(contentHash) ? 'same' : 'other';
  }

  /** Gives the item this vector (its text's, hashed `contentHash`), replacing any it had. */
  set(id: string, contentHash: string, vector: Float32Array): void {
    let key = this.keys.get(id);
    if (key === undefined) {
      key = this.ids.length;
      this.keys.set(id, key);
      this.ids.push(id);
      if (key >= this.hashes.length) {
        const grown = new Float64Array(this.hashes.length * 2);
        grown.set(this.hashes);
        this.hashes = grown;
      }
    }
    if (this.hashes[key] !== 0) this.index.remove(BigInt(key));
    else this.held++;
    // one thread: the service's other work keeps the rest of the machine
    this.index.add(BigInt(key), vector, 1);
    this.hashes[key] = hashNumber(contentHash);
    this.changes++;
  }

  /** Drops the item's vector (deleted, hidden, or its text changed). */
  remove(id: string): void {
    const key = this.keys.get(id);
    if (key === undefined || this.hashes[key] === 0) return;
    this.index.remove(BigInt(key));
    this.hashes[key] = 0;
    this.held--;
    this.changes++;
  }

  /** Up to `count` items nearest `vector`, most similar first. */
  nearest(vector: Float32Array, count: number): NearItem[] {
    if (this.held === 0) return [];
    const found = this.index.search(vector, Math.min(count, this.held), 1);
    const near: NearItem[] = [];
    for (let i = 0; i < found.keys.length; i++) {
      const id = this.ids[Number(found.keys[i])];
      // the Cos metric's distance is 1 − cosine
      if (id !== undefined) near.push({ id, cosine: 1 - (found.distances[i] as number) });
    }
    return near;
  }
}

/** A content hash (hex) as a non-zero number: its first 13 hex digits. */
function hashNumber(contentHash: string): number {
  return parseInt(contentHash.slice(0, 13), 16) || 1;
}
