import { loadCatalogConfig, loadEmbeddingConfig } from '../../../src/config';

const BASE = { DATABASE_URL: 'postgres://localhost/x', PRINCIPAL_PUBLIC_KEYS_FILE: '/keys.pem' };

describe('the embedding variables', () => {
  it('default to the chosen model in the checkout, fetched when absent', () => {
    const { embedding } = loadCatalogConfig(BASE);
    expect(embedding).toEqual({
      model: 'all-minilm-l6-v2-q',
      dir: expect.stringMatching(/\/\.data\/models$/) as unknown,
      fetch: true,
    });
    expect(loadEmbeddingConfig({})).toEqual(embedding);
  });

  it('take a pinned model or off, a directory made absolute, and fetch only as true or false', () => {
    const config = loadCatalogConfig({
      ...BASE,
      EMBEDDING_MODEL: 'e5-small-v2-q',
      EMBEDDING_MODEL_DIR: 'models',
      EMBEDDING_FETCH: 'false',
    });
    expect(config.embedding).toEqual({ model: 'e5-small-v2-q', dir: `${process.cwd()}/models`, fetch: false });
    expect(loadCatalogConfig({ ...BASE, EMBEDDING_MODEL: 'off' }).embedding.model).toBe('off');
  });

  it('refuses a model that is not pinned, naming the ones that are', () => {
    expect(() => loadCatalogConfig({ ...BASE, EMBEDDING_MODEL: 'gpt-4' })).toThrow(
      /EMBEDDING_MODEL" must be off or a pinned model: all-minilm-l6-v2-q, .*e5-small-v2/,
    );
    expect(() => loadEmbeddingConfig({ EMBEDDING_FETCH: 'no' })).toThrow(/EMBEDDING_FETCH/);
  });
});
