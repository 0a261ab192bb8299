/** What `npm start` does about the search model before the services start. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkModelFiles,
  DEFAULT_EMBEDDING_MODEL,
  embeddingModel,
  fetchModelFiles,
  loadEmbeddingConfig,
} from '@skills/catalog-service';
import { withSearchModel } from '../../../src/search-model';

function output() {
  const lines: string[] = [];
  return { lines, out: { write: (text: string) => lines.push(text), isTTY: false } };
}

describe('withSearchModel', () => {
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(join(tmpdir(), 'no-model-'));
  });
  afterAll(() => rm(empty, { recursive: true, force: true }));

  it('goes on by words alone when the model cannot be had, said in one line, and starts catalog-service with it off', async () => {
    const { lines, out } = output();
    const env = { EMBEDDING_MODEL_DIR: empty, EMBEDDING_FETCH: 'false', SEARCH_CACHE_ENTRIES: '0' };
    expect(await withSearchModel(env, out)).toEqual({ ...env, EMBEDDING_MODEL: 'off' });
    expect(lines).toEqual([
      `search model not fetched (all-minilm-l6-v2-q@1.19.0-beta29 is absent in ${empty} and EMBEDDING_FETCH=false): search by words alone\n`,
    ]);
  });

  it('passes the settings on untouched, silently, when the model is in place or turned off', async () => {
    const { dir } = loadEmbeddingConfig({});
    const model = embeddingModel(DEFAULT_EMBEDDING_MODEL);
    if ((await checkModelFiles(dir, model)) !== 'verified') await fetchModelFiles(dir, model);
    const { lines, out } = output();
    expect(await withSearchModel({ EMBEDDING_FETCH: 'false' }, out)).toEqual({ EMBEDDING_FETCH: 'false' });
    expect(await withSearchModel({ EMBEDDING_MODEL: 'off', EMBEDDING_MODEL_DIR: empty }, out)).toEqual({
      EMBEDDING_MODEL: 'off',
      EMBEDDING_MODEL_DIR: empty,
    });
    expect(lines).toEqual([]);
  });
});
