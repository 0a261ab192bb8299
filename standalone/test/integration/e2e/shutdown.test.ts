/**
 * SIGTERM to the real standalone process while concurrent requests run: every
 * request the stack accepted is answered in full, and the process exits 0.
 *
 * "Accepted" is what the client can prove: every request carries
 * `Expect: 100-continue`, and node's HTTP server answers `100 Continue` as it
 * reads the request head, before any handler runs. A request that saw 100 (or
 * a status line) was read by the server, so a reset after that is a cut
 * request, the bug this suite exists to catch. A request that saw neither was
 * refused by a closed listener, or reset from the kernel's backlog or as an
 * idle connection before its head was read; those are counted apart, as never
 * accepted.
 */
import { request, type IncomingMessage } from 'node:http';
import { catalogLines } from '../reliability/processes';
import { startStack, type Stack } from './helpers';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
}, 130_000);

afterAll(async () => {
  await stack?.dispose();
});

interface Outcome {
  /** the server read the request head: it answered 100 Continue or a status line */
  accepted: boolean;
  /** null: no answer (no status line) */
  status: number | null;
  complete: boolean;
  error?: string;
}

interface Call {
  path: string;
  method?: string;
  headers: Record<string, string>;
  body?: string;
  /** the server answered 100 Continue: it holds the request */
  onAccepted?: () => void;
  /** the body went out in full */
  onSent?: () => void;
  /** the body waits for this (the head goes at once) */
  holdBody?: Promise<void>;
}

/** One request on a connection of its own, so a refused connection means "not accepted". */
function call({ path, method = 'GET', headers, body, onAccepted, onSent, holdBody }: Call): Promise<Outcome> {
  const url = new URL(path, stack.info.url);
  let accepted = false;
  return new Promise((resolve) => {
    const req = request(
      url,
      { method, headers: { ...headers, expect: '100-continue' }, agent: false },
      (res: IncomingMessage) => {
        accepted = true;
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            JSON.parse(text);
            resolve({ accepted, status: res.statusCode ?? 0, complete: true });
          } catch {
            resolve({
              accepted,
              status: res.statusCode ?? 0,
              complete: false,
              error: `cut body: ${text.slice(0, 80)}`,
            });
          }
        });
        res.on('error', (err) =>
          resolve({ accepted, status: res.statusCode ?? 0, complete: false, error: String(err) }),
        );
      },
    );
    req.on('continue', () => {
      accepted = true;
      onAccepted?.();
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ accepted, status: null, complete: false, error: err.code ?? err.message }),
    );
    if (!holdBody) return void req.end(body, onSent);
    req.flushHeaders();
    void holdBody.then(() => req.end(body, onSent));
  });
}

const NOT_ACCEPTED = new Set(['ECONNREFUSED', 'ECONNRESET', 'socket hang up', 'EPIPE']);

it('answers every accepted request in full after SIGTERM, then exits 0', async () => {
  const auth = { authorization: `Bearer ${stack.info.apiKey}` };
  const outcomes: Outcome[] = [];
  let signalled = false;
  let refusedInARow = 0;
  const workers = Array.from({ length: 6 }, async (_, w) => {
    // Until the listener is surely gone: a few refusals in a row after the signal.
    while (!signalled || refusedInARow < 10) {
      const path = w % 2 === 0 ? '/api/v1/skills?q=lint&limit=5' : '/api/v1/me/collections';
      const outcome = await call({ path, headers: auth });
      outcomes.push(outcome);
      if (signalled && outcome.status === null) refusedInARow += 1;
      if (signalled && outcome.status === null) await new Promise((ok) => setTimeout(ok, 10));
    }
  });

  // The load runs first; then requests that are surely in flight when the signal comes.
  while (outcomes.length < 30) await new Promise((ok) => setTimeout(ok, 20));
  // A large import, fully sent and read by the server.
  let importSent!: () => void;
  const sent = new Promise<void>((ok) => (importSent = ok));
  const importing = call({
    method: 'POST',
    path: '/admin/v1/skills:import',
    headers: { authorization: `Bearer ${stack.admin}`, 'content-type': 'application/x-ndjson' },
    body: catalogLines('shutdown', 1500),
    onSent: importSent,
  });
  // Writes the server has read the head of, whose bodies come only after the signal: in flight whatever the timing.
  let signalSent!: () => void;
  const afterSignal = new Promise<void>((ok) => (signalSent = ok));
  const held = Array.from({ length: 4 }, (_, i) => {
    let onAccepted!: () => void;
    const read = new Promise<void>((ok) => (onAccepted = ok));
    const body = JSON.stringify({ name: `Written during shutdown ${i}` });
    const answer = call({
      method: 'POST',
      path: '/api/v1/me/collections',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
      onAccepted,
      holdBody: afterSignal,
    });
    return { read, answer };
  });

  await Promise.all([sent, ...held.map((h) => h.read)]);
  await new Promise((ok) => setTimeout(ok, 100));
  const exited = stack.stop('SIGTERM');
  signalled = true;
  signalSent();
  const [code, imported, written] = await Promise.all([exited, importing, Promise.all(held.map((h) => h.answer))]);
  await Promise.all(workers);

  const accepted = outcomes.filter((o) => o.accepted);
  expect(accepted.length).toBeGreaterThan(30);
  // One comparison, so a broken drain shows every kind of cut at once.
  expect({
    imported,
    written,
    cutWhileLoaded: accepted.filter((o) => o.status !== 200 || !o.complete),
    refusedOddly: outcomes.filter((o) => !o.accepted && !NOT_ACCEPTED.has(o.error ?? '')),
    code,
  }).toEqual({
    imported: { accepted: true, status: 200, complete: true },
    written: held.map(() => ({ accepted: true, status: 201, complete: true })),
    cutWhileLoaded: [],
    refusedOddly: [],
    code: 0,
  });
}, 60_000);
