/** An in-memory ItemVectorRepository for engine tests whose subject is not the store (the store has its own, on Postgres). */
import type { ItemVectorRepository, StoredVector } from '../../src/store/item-vector.repository';

export class MemoryVectorStore implements ItemVectorRepository {
  private readonly vectors = new Map<string, Float32Array>();

  async find(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (const hash of hashes) {
      const vector = this.vectors.get(`${model}/${hash}`);
      if (vector) found.set(hash, vector);
    }
    return found;
  }

  async save(model: string, vectors: readonly StoredVector[]): Promise<void> {
    for (const { contentHash, vector } of vectors)
      if (!this.vectors.has(`${model}/${contentHash}`)) this.vectors.set(`${model}/${contentHash}`, vector);
  }

  async count(model: string): Promise<number> {
    return [...this.vectors.keys()].filter((key) => key.startsWith(`${model}/`)).length;
  }
}
