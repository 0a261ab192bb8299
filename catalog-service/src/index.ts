/** What the package offers its neighbours (the standalone launcher, the bench, tests); the wiring is service.ts. */
export { createCatalogApp, type CatalogAppDeps } from './app';
export { CATALOG_ENV, loadCatalogConfig, loadEmbeddingConfig, type CatalogConfig } from './config';
export { CATALOG_SCHEMA, catalogMigrations } from './store/migrations';
export * from './engines/search-engine';
export { ReadModelTable, type ReadModelTableOptions } from './engines/postgres/read-model.table';
export { MemorySearchEngine, type MemorySearchEngineOptions } from './engines/memory/memory.engine';
export { MemoryIndex } from './engines/memory/memory-index';
export { isStopWord, queryTerms, stemOf, tokenize } from './domain/text-analysis';
export { PostgresEventLog, type PostgresEventLogOptions } from './events/postgres-event-log';
export { Indexer, INDEXER_GROUP, DEFAULT_INDEXER_RETRY, type IndexerRetry } from './indexer/indexer';
export {
  SequelizeDeadLetterRepository,
  type DeadLetterRepository,
  type DeadLetter,
} from './store/dead-letter.repository';
export {
  CachingSearchEngine,
  SqlIndexGeneration,
  type IndexGeneration,
  type SearchCacheSettings,
} from './search-cache';
export { startCatalogService } from './service';
export { MemoryVectors } from './engines/memory/memory-vectors';
export { DEFAULT_MEANING_WEIGHTS, modeToRun, type MeaningWeights, type SearchMode } from './domain/hybrid-ranking';
export { contentHashOf, embeddingTextOf } from './domain/item-text';
export { toSearchQuery } from './domain/search-request';
export {
  cosine,
  DEFAULT_EMBEDDING_MODEL,
  EMBEDDING_MODELS,
  embeddingModel,
  modelName,
  openTextEmbedder,
  prepareModel,
  checkModelFiles,
  fetchModelFiles,
  modelFilesIn,
  OnnxTextEmbedder,
  type EmbeddingModel,
  type TextEmbedder,
  type TextEmbedderOptions,
  type ProgressOutput,
} from './embedding';
export { ElasticsearchEngine, type ElasticsearchEngineOptions } from './engines/elasticsearch/elasticsearch.engine';
export { MeaningSearchEngine } from './vectors/meaning-search-engine';
export type { ItemVectorRepository, StoredVector } from './store/item-vector.repository';
