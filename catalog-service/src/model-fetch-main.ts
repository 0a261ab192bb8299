/**
 * `npm run model:fetch` (`node catalog-service/dist/model-fetch-main.js`):
 * puts the search model of EMBEDDING_MODEL into EMBEDDING_MODEL_DIR, fetched
 * and checked against its pinned digests as catalog-service's start would,
 * with a progress line on stderr. The container build runs it, so an image
 * carries its model and never fetches. Exits 1 when the model cannot be had.
 */
import { loadEmbeddingConfig } from './config';
import { prepareModel } from './embedding';

async function main(): Promise<void> {
  const settings = loadEmbeddingConfig(process.env);
  const state = await prepareModel(settings, process.stderr);
  if (state === 'off') process.stderr.write('EMBEDDING_MODEL=off: no model to fetch\n');
  if (state === 'verified') process.stderr.write(`${settings.model} is in ${settings.dir}, its digests checked\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`model fetch failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
