import { Gauge, type ServiceMetrics } from '@skills/common';
import type { MemorySearchEngine } from './memory.engine';

/** Size of this replica's memory index at scrape time (the bench waits on it to call an import searchable). */
export function registerSearchIndexMetrics(metrics: ServiceMetrics, engine: MemorySearchEngine): void {
  new Gauge({
    name: 'skills_search_index_documents',
    help: 'Searchable items held by this replica’s in-memory search index',
    registers: [metrics.registry],
    collect() {
      this.set(engine.documents);
    },
  });
}
