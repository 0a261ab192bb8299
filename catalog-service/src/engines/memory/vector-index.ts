/**
 * The memory engine's nearest-neighbour index: one vector per searchable
 * item, quantised to int8, in USearch's HNSW graph (the only file that
 * imports it). An item keeps one key for life, so an update of its text
 * replaces its vector in place. Memory: about 0.6 KB an item at 384
 * dimensions (the vector's 384 bytes and its graph links), the id maps
 * beside it; docs/performance.md has the measured figure.
 * https://github.com/unum-cloud/usearch (javascript/README.md)
 */
import { Index, MetricKind, ScalarKind } from 'usearch';

/** HNSW's links per node, and the candidates explored when adding and searching. */
export interface VectorIndexOptions {
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export const DEFAULT_VECTOR_INDEX: VectorIndexOptions = { connectivity: 16, expansionAdd: 128, expansionSearch: 200 };

export interface NearItem {
  id: string;
  /** cosine similarity to the query, from the quantised vectors */
  cosine: number;
}

export class VectorIndex {
  private readonly index: Index;
  private readonly keys = new Map<string, number>();
  private readonly ids: string[] = [];
  /** the content hash of the vector each key holds; undefined when it holds none */
  private readonly hashes: Array<string | undefined> = [];
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

  /** The content hash of the item's vector, if it holds one. */
  hashOf(id: string): string | undefined {
    const key = this.keys.get(id);
    return key === undefined ? undefined : this.hashes[key];
  }

  /** Gives the item this vector (its text's, hashed `contentHash`), replacing any it had. */
  set(id: string, contentHash: string, vector: Float32Array): void {
    let key = this.keys.get(id);
    if (key === undefined) {
      key = this.ids.length;
      this.keys.set(id, key);
      this.ids.push(id);
    }
    if (this.hashes[key] !== undefined) this.index.remove(BigInt(key));
    else this.held++;
    // one thread: the service's other work keeps the rest of the machine
    this.index.add(BigInt(key), vector, 1);
    this.hashes[key] = contentHash;
    this.changes++;
  }

  /** Drops the item's vector (deleted, hidden, or its text changed). */
  remove(id: string): void {
    const key = this.keys.get(id);
    if (key === undefined || this.hashes[key] === undefined) return;
    this.index.remove(BigInt(key));
    this.hashes[key] = undefined;
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
