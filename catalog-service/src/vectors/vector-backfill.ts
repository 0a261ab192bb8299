/**
 * Drains the vector backlog beside the indexer, never in its way: the engine
 * says which searchable items lack a vector of their current text; each is
 * looked up first in the store by content hash (an item embedded before, by
 * any replica, before any restart or reindex, is never embedded again), the
 * rest go to the model in small batches, are stored, then attached. An
 * import is thus searchable by words as soon as it is indexed, and by
 * meaning as this catches up (the `skills_search_vectors_*` gauges and the
 * import's progress line say how far).
 */
import type { Logger } from '@skills/common';
import type { TextEmbedder } from '../embedding/text-embedder';
import type { ItemVector, ItemVectorTarget, VectorNeed } from '../engines/search-engine';
import type { ItemVectorRepository } from '../store/item-vector.repository';

export interface VectorBackfillOptions {
  target: ItemVectorTarget;
  embedder: TextEmbedder;
  store: ItemVectorRepository;
  logger: Logger;
  /** items asked of the engine, and looked up in the store, per step */
  lookupBatch?: number;
  /** texts per call of the model */
  embedBatch?: number;
  /** wait after a step that found nothing to do, or failed */
  idleMs?: number;
}

export interface BackfillCounts {
  /** vectors computed by the model */
  embedded: number;
  /** vectors found in the store by content hash */
  reused: number;
}

export class VectorBackfill {
  readonly counts: BackfillCounts = { embedded: 0, reused: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** set by stop(): a step in hand finishes its current batch and goes no further */
  private stopped = false;
  private failing = false;

  constructor(private readonly options: VectorBackfillOptions) {}

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One step: up to `lookupBatch` items get their vectors. Answers how many took one (tests drive it directly). */
  async step(): Promise<number> {
    const { target, store, embedder } = this.options;
    const needs = await target.missing(this.options.lookupBatch ?? 256);
    if (needs.length === 0) return 0;
    const stored = await store.find(
      target.model,
      needs.map((n) => n.contentHash),
    );
    const known: ItemVector[] = [];
    const unknown: VectorNeed[] = [];
    for (const need of needs) {
      const vector = stored.get(need.contentHash);
      if (vector) known.push({ id: need.id, contentHash: need.contentHash, vector });
      else unknown.push(need);
    }
    let taken = known.length > 0 ? await target.attach(known) : 0;
    this.counts.reused += known.length;
    const size = this.options.embedBatch ?? 32;
    for (let i = 0; i < unknown.length && !this.stopped; i += size) {
      const batch = unknown.slice(i, i + size);
      const vectors = await embedder.embedDocuments(batch.map((n) => n.text));
      const computed = batch.map((need, k) => ({ id: need.id, contentHash: need.contentHash, vector: vectors[k]! }));
      await store.save(target.model, computed);
      this.counts.embedded += computed.length;
      taken += await target.attach(computed);
    }
    return taken;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.step().then(
        (taken) => {
          if (this.failing) this.options.logger.info('item vectors are being computed again');
          this.failing = false;
          this.schedule(taken > 0 ? 0 : (this.options.idleMs ?? 1_000));
        },
        (err: unknown) => {
          if (!this.failing)
            this.options.logger.warn({ err }, 'item vectors could not be computed or stored; retrying');
          this.failing = true;
          this.schedule(this.options.idleMs ?? 1_000);
        },
      );
    }, delay);
    this.timer.unref();
  }
}
