import { readMetric } from '../../src/catalog-metrics';

describe('index gauge', () => {
  const text = [
    '# HELP skills_search_index_documents Documents the search index holds',
    '# TYPE skills_search_index_documents gauge',
    'skills_search_index_documents 98765',
    'skills_search_index_documents_total 1',
    'skills_search_cache_hits_total{replica="a"} 3',
    'skills_search_cache_hits_total{replica="b"} 4',
  ].join('\n');

  it('reads a gauge, sums its label sets, and tells an absent metric from zero', () => {
    expect(readMetric(text, 'skills_search_index_documents')).toBe(98765);
    expect(readMetric(text, 'skills_search_cache_hits_total')).toBe(7);
    expect(readMetric(text, 'skills_search_cache_misses_total')).toBeUndefined();
    expect(readMetric('skills_search_index_documents 0\n', 'skills_search_index_documents')).toBe(0);
  });
});
