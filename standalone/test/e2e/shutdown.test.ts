/**
 * SIGTERM to the real standalone process while concurrent requests run: every
 * request the stack accepted is answered in full, and the process exits 0.
 * A request that finds the listener closed (refused, or reset before the
 * server read it) was never accepted; those are counted apart.
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
  /** null: no answer (no status line) */
  status: number | null;
  complete: boolean;
  error?: string;
}

/** One request on a connection of its own, so a refused connection means "not accepted". */
function call(method: string, path: string, headers: Record<string, string>, body?: string, onSent?: () => void): Promise<Outcome> {
  const url = new URL(path, stack.info.url);
  return new Promise((resolve) => {
    const req = request(url, { method, headers, agent: false }, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => {
        try {
          JSON.parse(text);
          resolve({ status: res.statusCode ?? 0, complete: true });
        } catch {
          resolve({ status: res.statusCode ?? 0, complete: false, error: `cut body: ${text.slice(0, 80)}` });
        }
      });
      res.on('error', (err) => resolve({ status: res.statusCode ?? 0, complete: false, error: String(err) }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: null, complete: false, error: err.code ?? err.message }));
    req.end(body, onSent);
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
      const outcome = await call('GET', path, auth);
      outcomes.push(outcome);
      if (signalled && outcome.status === null) refusedInARow += 1;
      if (signalled && outcome.status === null) await new Promise((ok) => setTimeout(ok, 10));
    }
  });

  // The load runs first; then a long request that is surely in flight when the signal comes: a large import, fully sent.
  while (outcomes.length < 30) await new Promise((ok) => setTimeout(ok, 20));
  let importSent!: () => void;
  const sent = new Promise<void>((ok) => (importSent = ok));
  const importing = call(
    'POST',
    '/admin/v1/skills:import',
    { authorization: `Bearer ${stack.admin}`, 'content-type': 'application/x-ndjson' },
    catalogLines('shutdown', 1500),
    importSent,
  );

  await sent;
  await new Promise((ok) => setTimeout(ok, 100));
  const exited = stack.stop('SIGTERM');
  signalled = true;
  const [code, imported] = await Promise.all([exited, importing]);
  await Promise.all(workers);

  expect(imported).toEqual({ status: 200, complete: true });
  const accepted = outcomes.filter((o) => o.status !== null);
  expect(accepted.length).toBeGreaterThan(30);
  expect(accepted.filter((o) => o.status !== 200 || !o.complete)).toEqual([]);
  const refused = outcomes.filter((o) => o.status === null);
  expect(refused.filter((o) => !NOT_ACCEPTED.has(o.error ?? ''))).toEqual([]);
  expect(code).toBe(0);
}, 60_000);
