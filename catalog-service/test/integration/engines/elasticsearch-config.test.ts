import { ConfigError } from '@skills/common';
import { loadCatalogConfig } from '../../../src/config';

const BASE = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/catalog',
  PRINCIPAL_PUBLIC_KEYS_FILE: '/run/secrets/principal-public-keys.pem',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadCatalogConfig({ ...BASE, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('catalog config for Elasticsearch', () => {
  it('defaults to the memory engine and to the alias "skills"; takes postgres, its former name, for memory', () => {
    const config = loadCatalogConfig(BASE);
    expect(config.searchEngine).toBe('memory');
    expect(config.elasticsearchIndex).toBe('skills');
    expect(loadCatalogConfig({ ...BASE, SEARCH_ENGINE: 'postgres' }).searchEngine).toBe('memory');
  });

  it('takes the URL and alias when Elasticsearch is chosen', () => {
    const config = loadCatalogConfig({
      ...BASE,
      SEARCH_ENGINE: 'elasticsearch',
      ELASTICSEARCH_URL: 'http://es:9200',
      ELASTICSEARCH_INDEX: 'catalog-prod',
    });
    expect(config).toMatchObject({
      searchEngine: 'elasticsearch',
      elasticsearchUrl: 'http://es:9200',
      elasticsearchIndex: 'catalog-prod',
    });
  });

  it('names each bad variable at once', () => {
    expect(problems({ SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_INDEX: 'Skills!' })).toEqual([
      '"ELASTICSEARCH_URL" is required when SEARCH_ENGINE=elasticsearch',
      '"ELASTICSEARCH_INDEX" must be a lowercase index name (letters, digits, ".", "_", "-"; at most 200 characters)',
    ]);
    expect(problems({ SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_URL: 'es:9200' })).toEqual([
      '"ELASTICSEARCH_URL" must be an http(s) URL, e.g. http://elasticsearch:9200',
    ]);
    expect(problems({ SEARCH_ENGINE: 'solr' })).toEqual([
      '"SEARCH_ENGINE" must be one of [memory, elasticsearch, postgres]',
    ]);
  });
});
