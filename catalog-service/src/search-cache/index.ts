export {
  CachingSearchEngine,
  type CachingSearchEngineOptions,
  type SearchCacheSettings,
  type SearchCacheObserver,
} from './caching-search-engine';
export { SqlIndexGeneration, type IndexGeneration } from './index-generation';
export { registerSearchCacheMetrics } from './search-cache-metrics';
