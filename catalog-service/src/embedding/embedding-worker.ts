/**
 * The embedding worker thread: opens one EmbeddingSession from its
 * workerData, says `ready` (or `failed`), then answers each batch in turn.
 * The vectors travel back as transferred buffers, not copies.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EmbeddingSession, type SessionSpec } from './embedding-session';

/** A batch asked of the worker. */
export interface BatchRequest {
  id: number;
  texts: string[];
}

/** What the worker posts: its start, then one answer per batch. */
export type WorkerMessage =
  | { kind: 'ready'; dimensions: number }
  | { kind: 'failed'; message: string }
  | { kind: 'vectors'; id: number; vectors: Float32Array[] }
  | { kind: 'error'; id: number; message: string };

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('embedding-worker runs as a worker thread only');
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  let session: EmbeddingSession;
  try {
    session = await EmbeddingSession.open(workerData as SessionSpec);
    const [probe] = await session.embed(['ready']);
    post({ kind: 'ready', dimensions: probe?.length ?? 0 });
  } catch (err) {
    post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    return;
  }
  // Batches arrive one at a time (the embedder waits for each answer), so they never overlap.
  port.on('message', (request: BatchRequest) => {
    session.embed(request.texts).then(
      (vectors) =>
        post(
          { kind: 'vectors', id: request.id, vectors },
          vectors.map((v) => v.buffer as ArrayBuffer),
        ),
      (err: unknown) =>
        post({ kind: 'error', id: request.id, message: err instanceof Error ? err.message : String(err) }),
    );
  });
}

void serve();
