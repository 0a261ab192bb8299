/**
 * The TextEmbedder over an ONNX model run in a worker thread, so inference
 * never holds the event loop. Texts wait in two bounded queues, queries
 * before documents: a search waits for at most one batch of an indexing run,
 * never for all of it. A text that would overfill its queue is refused at
 * once with an OverloadedError (503 + Retry-After when it reaches a client),
 * rather than the queue growing without bound.
 */
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OverloadedError, ServiceUnavailableError } from '@skills/common';
import type { BatchRequest, WorkerMessage } from './embedding-worker';
import { modelName, type EmbeddingModel } from './embedding-models';
import type { SessionSpec } from './embedding-session';
import type { TextEmbedder } from './text-embedder';

export interface OnnxEmbedderOptions {
  model: EmbeddingModel;
  onnxPath: string;
  tokenizerPath: string;
  /** onnxruntime intra-op threads (default 1) */
  threads?: number;
  /** texts per inference call (default 32): larger batches pad more, smaller ones pay more calls */
  batchSize?: number;
  /** texts each queue holds at most, queries and documents apart (default 1,024); a call asking more is refused whole */
  maxQueuedTexts?: number;
  /** tokens kept per text (default 256) */
  maxTokens?: number;
}

interface Pending {
  vectors: Float32Array[];
  left: number;
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: Error) => void;
}

interface QueuedText {
  text: string;
  owner: Pending;
  index: number;
}

/**
 * The worker's compiled file beside this one. A test run on the TypeScript
 * sources uses the built copy under dist/: a worker thread runs JavaScript only.
 */
function workerScript(): string {
  const here = __filename.endsWith('.ts') ? __dirname.replace(`${sep}src${sep}`, `${sep}dist${sep}`) : __dirname;
  return join(here, 'embedding-worker.js');
}

export class OnnxTextEmbedder implements TextEmbedder {
  readonly model: string;
  readonly dimensions: number;
  private readonly queries: QueuedText[] = [];
  private readonly documents: QueuedText[] = [];
  private inFlight: { id: number; texts: QueuedText[] } | undefined;
  private nextId = 1;
  private stopped: Error | undefined;

  private constructor(
    private readonly spec: EmbeddingModel,
    private readonly worker: Worker,
    dimensions: number,
    private readonly batchSize: number,
    private readonly maxQueued: number,
  ) {
    this.model = modelName(spec);
    this.dimensions = dimensions;
    worker.on('message', (message: WorkerMessage) => this.answered(message));
    worker.on('error', (err) => this.stop(err));
    worker.on('exit', (code) => this.stop(new Error(`the embedding worker exited (code ${code})`)));
  }

  /** Starts the worker and waits until the model answered a first text; rejects when it cannot load. */
  static async open(options: OnnxEmbedderOptions): Promise<OnnxTextEmbedder> {
    const spec: SessionSpec = {
      onnxPath: options.onnxPath,
      tokenizerPath: options.tokenizerPath,
      pooling: options.model.pooling,
      maxTokens: options.maxTokens ?? 256,
      threads: options.threads ?? 1,
    };
    const worker = new Worker(workerScript(), { workerData: spec });
    const dimensions = await new Promise<number>((resolve, reject) => {
      const failed = (err: Error) => {
        void worker.terminate();
        reject(err);
      };
      worker.once('error', failed);
      worker.once('message', (message: WorkerMessage) => {
        worker.off('error', failed);
        if (message.kind === 'ready') resolve(message.dimensions);
        else
          failed(new Error(message.kind === 'failed' ? message.message : `unexpected first message ${message.kind}`));
      });
    });
    if (dimensions !== options.model.dimensions) {
      await worker.terminate();
      throw new Error(
        `${modelName(options.model)} gave vectors of ${dimensions} dimensions, not ${options.model.dimensions}`,
      );
    }
    return new OnnxTextEmbedder(
      options.model,
      worker,
      dimensions,
      options.batchSize ?? 32,
      options.maxQueuedTexts ?? 1024,
    );
  }

  embedQueries(texts: readonly string[]): Promise<Float32Array[]> {
    return this.enqueue(
      this.queries,
      texts.map((t) => this.spec.queryPrefix + t),
    );
  }

  embedDocuments(texts: readonly string[]): Promise<Float32Array[]> {
    return this.enqueue(
      this.documents,
      texts.map((t) => this.spec.documentPrefix + t),
    );
  }

  async close(): Promise<void> {
    this.stop(new ServiceUnavailableError('server.shuttingDown'));
    await this.worker.terminate();
  }

  private enqueue(queue: QueuedText[], texts: string[]): Promise<Float32Array[]> {
    if (this.stopped) return Promise.reject(this.stopped);
    if (texts.length === 0) return Promise.resolve([]);
    if (queue.length + texts.length > this.maxQueued)
      return Promise.reject(new OverloadedError(1, 'search.embedderBusy'));
    return new Promise((resolve, reject) => {
      const owner: Pending = { vectors: new Array<Float32Array>(texts.length), left: texts.length, resolve, reject };
      texts.forEach((text, index) => queue.push({ text, owner, index }));
      this.dispatch();
    });
  }

  /** Sends the next batch when the worker is idle: queries first. */
  private dispatch(): void {
    if (this.inFlight || this.stopped) return;
    const queue = this.queries.length > 0 ? this.queries : this.documents;
    if (queue.length === 0) return;
    const texts = queue.splice(0, this.batchSize);
    this.inFlight = { id: this.nextId++, texts };
    const request: BatchRequest = { id: this.inFlight.id, texts: texts.map((t) => t.text) };
    this.worker.postMessage(request);
  }

  private answered(message: WorkerMessage): void {
    const batch = this.inFlight;
    if (!batch || (message.kind !== 'vectors' && message.kind !== 'error') || message.id !== batch.id) return;
    this.inFlight = undefined;
    if (message.kind === 'error') {
      const err = new Error(`embedding failed: ${message.message}`);
      for (const t of batch.texts) t.owner.reject(err);
    } else {
      batch.texts.forEach((t, i) => {
        t.owner.vectors[t.index] = message.vectors[i] as Float32Array;
        t.owner.left -= 1;
        if (t.owner.left === 0) t.owner.resolve(t.owner.vectors);
      });
    }
    this.dispatch();
  }

  /** Refuses everything waiting and everything asked later with `reason` (a second stop keeps the first reason). */
  private stop(reason: Error): void {
    if (this.stopped) return;
    this.stopped = reason;
    const waiting = [...(this.inFlight?.texts ?? []), ...this.queries.splice(0), ...this.documents.splice(0)];
    this.inFlight = undefined;
    for (const t of waiting) t.owner.reject(reason);
  }
}
