import { ConfigError } from '@skills/common';
import { loadCatalogConfig } from '../../src/config';

const BASE = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/catalog',
  PRINCIPAL_PUBLIC_KEYS_FILE: '/run/secrets/principal-public-keys.pem',
};

describe('SEARCH_SHOWS_UNSCANNED', () => {
  it('shows unscanned items by default, and clean ones alone when false', () => {
    expect(loadCatalogConfig(BASE).searchShowsUnscanned).toBe(true);
    expect(loadCatalogConfig({ ...BASE, SEARCH_SHOWS_UNSCANNED: 'false' }).searchShowsUnscanned).toBe(false);
    expect(loadCatalogConfig({ ...BASE, SEARCH_SHOWS_UNSCANNED: 'true' }).searchShowsUnscanned).toBe(true);
  });

  it('refuses anything but true or false, naming the variable', () => {
    for (const value of ['flase', 'no', 'FALSE']) {
      let problems: string[] = [];
      try {
        loadCatalogConfig({ ...BASE, SEARCH_SHOWS_UNSCANNED: value });
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        problems = err.problems;
      }
      expect(problems).toEqual([expect.stringContaining('SEARCH_SHOWS_UNSCANNED')]);
    }
  });
});
