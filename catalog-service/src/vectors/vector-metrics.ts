import { Gauge, type ServiceMetrics } from '@skills/common';
import type { ItemVectorTarget } from '../engines/search-engine';
import type { VectorBackfill } from './vector-backfill';

/** The prefix of the vector backlog's metrics (docs/operations.md). */
export const VECTOR_METRIC_PREFIX = 'skills_search_vectors';

/**
 * How far search by meaning has caught up, read at scrape time: searchable
 * items with a vector of their current text and without one, and how many
 * vectors the model computed and the store gave back since start.
 */
export function registerVectorMetrics(
  metrics: ServiceMetrics,
  target: () => ItemVectorTarget | undefined,
  backfill: () => VectorBackfill | undefined,
): void {
  const registers = [metrics.registry];
  const progress = async () => (await target()?.progress()) ?? { withVector: 0, searchable: 0 };
  new Gauge({
    name: `${VECTOR_METRIC_PREFIX}_ready`,
    help: 'Searchable items holding a vector of their current text (found by meaning)',
    registers,
    async collect() {
      this.set((await progress()).withVector);
    },
  });
  new Gauge({
    name: `${VECTOR_METRIC_PREFIX}_missing`,
    help: 'Searchable items still waiting for their vector (found by words only until then)',
    registers,
    async collect() {
      const { withVector, searchable } = await progress();
      this.set(Math.max(0, searchable - withVector));
    },
  });
  new Gauge({
    name: `${VECTOR_METRIC_PREFIX}_embedded`,
    help: 'Item vectors computed by the model since this process started',
    registers,
    collect() {
      this.set(backfill()?.counts.embedded ?? 0);
    },
  });
  new Gauge({
    name: `${VECTOR_METRIC_PREFIX}_reused`,
    help: 'Item vectors found in the store by content hash since this process started (not computed again)',
    registers,
    collect() {
      this.set(backfill()?.counts.reused ?? 0);
    },
  });
}
