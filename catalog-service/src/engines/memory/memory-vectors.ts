/**
 * The memory engine's item vectors: the nearest-neighbour index, and which
 * searchable items still lack a vector of their current text (the backlog
 * src/vectors/vector-backfill.ts drains). The vectors outlive a reload of
 * the word index (they are kept by item id), and a restart finds them again
 * in the store by content hash, so neither recomputes them.
 */
import type { CatalogItemState } from '@skills/common';
import { DEFAULT_MEANING_WEIGHTS, type MeaningWeights } from '../../domain/hybrid-ranking';
import { isSearchable } from '../../domain/indexed-state';
import { contentHashOf, embeddingTextOf } from '../../domain/item-text';
import type { ItemVector, ItemVectorTarget, SearchQuery, VectorNeed, VectorProgress } from '../search-engine';
import type { MemoryIndex } from './memory-index';
import type { Neighbour } from './meaning-fusion';
import { VectorIndex, type VectorIndexOptions } from './vector-index';

/** A filtered search looks this many times further for neighbours that pass its filters. */
export const FILTERED_REACH = 8;

export interface MemoryVectorSettings {
  /** the embedder's model name (TextEmbedder.model) */
  model: string;
  dimensions: number;
  index?: VectorIndexOptions;
  /** the fusion's weights, where not the defaults (a tuning run) */
  weights?: MeaningWeights;
}

export class MemoryVectors implements ItemVectorTarget {
  readonly model: string;
  readonly weights: MeaningWeights;
  private readonly vectors: VectorIndex;
  /** items whose vector may be missing or outdated: checked (and hashed) when the backlog asks */
  private readonly pending = new Set<string>();

  constructor(
    settings: MemoryVectorSettings,
    private readonly words: () => MemoryIndex,
  ) {
    this.model = settings.model;
    this.weights = settings.weights ?? DEFAULT_MEANING_WEIGHTS;
    this.vectors = new VectorIndex(settings.dimensions, settings.index);
  }

  get generation(): number {
    return this.vectors.generation;
  }

  /** States the word index just took in: a searchable one may need a vector, another loses its own. */
  note(states: readonly CatalogItemState[]): void {
    for (const state of states) {
      if (isSearchable(state)) this.pending.add(state.id);
      else {
        this.pending.delete(state.id);
        this.vectors.remove(state.id);
      }
    }
  }

  async missing(limit: number): Promise<VectorNeed[]> {
    const needs: VectorNeed[] = [];
    for (const id of this.pending) {
      if (needs.length >= limit) break;
      const need = this.needOf(id);
      if (need) needs.push(need);
      else this.pending.delete(id);
    }
    return needs;
  }

  async attach(vectors: readonly ItemVector[]): Promise<number> {
    let taken = 0;
    for (const { id, contentHash, vector } of vectors) {
      const need = this.needOf(id);
      if (!need || need.contentHash !== contentHash) continue;
      this.vectors.set(id, contentHash, vector);
      this.pending.delete(id);
      taken++;
    }
    return taken;
  }

  async progress(): Promise<VectorProgress> {
    const searchable = this.words().size;
    return { withVector: Math.min(this.vectors.size, searchable), searchable };
  }

  /** The query's nearest searchable items, most similar first; a filtered query looks further for ones that pass. */
  neighbours(query: SearchQuery, vector: Float32Array): Neighbour[] {
    const index = this.words();
    const narrowed =
      query.category !== undefined ||
      query.type !== undefined ||
      query.tags !== undefined ||
      query.policy !== undefined;
    const reach = narrowed || query.verifiedPublisher !== undefined ? FILTERED_REACH : 1;
    const near = this.vectors.nearest(vector, Math.max(this.weights.candidates, this.weights.k) * reach);
    const found: Neighbour[] = [];
    for (const { id, cosine } of near) {
      const doc = index.docOf(id);
      if (doc !== undefined) found.push({ doc, cosine });
    }
    return found;
  }

  /**
   * What the item needs, or undefined when it needs nothing (no longer
   * searchable, or its vector is of its current text). An outdated vector is
   * dropped here: the item is not found by its old meaning meanwhile.
   */
  private needOf(id: string): VectorNeed | undefined {
    const index = this.words();
    const doc = index.docOf(id);
    if (doc === undefined) {
      this.vectors.remove(id);
      return undefined;
    }
    const text = embeddingTextOf(index.store.item(doc));
    const contentHash = contentHashOf(text);
    const held = this.vectors.holds(id, contentHash);
    if (held === 'same') return undefined;
    if (held === 'other') this.vectors.remove(id);
    return { id, contentHash, text };
  }
}
