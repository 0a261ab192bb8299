/**
 * A webhook receiver on 127.0.0.1 that does what the contract asks of one:
 * recomputes the signature in constant time, refuses stale timestamps, and
 * handles each event id once. Its answers are scripted per request.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** the signature and timestamp held */
  verified: boolean;
}

export interface Receiver {
  url: string;
  /** every request, in order */
  received: Received[];
  /** the bodies handled once per event id (what a deduplicating receiver acts on) */
  handled: Map<string, { type: string; data: unknown }>;
  /** the secret signatures are checked with (the one shown once at registration) */
  secret: string;
  /** the status of each next answer, first to last; 200 once they run out */
  answers: Array<number | { status: number; location: string }>;
  /** while set, requests are held unanswered until `release()` */
  holding: boolean;
  release(): void;
  /** resolves when the next request has arrived */
  arrival(): Promise<void>;
  close(): Promise<void>;
}

const FIVE_MINUTES_S = 300;

function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const timestamp = Number(headers['skills-webhook-timestamp']);
  const given = String(headers['skills-webhook-signature'] ?? '');
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > FIVE_MINUTES_S) return false;
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export async function startReceiver(): Promise<Receiver> {
  const held: Array<() => void> = [];
  let arrived: Array<() => void> = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    handled: new Map(),
    secret: '',
    answers: [],
    holding: false,
    release: () => held.splice(0).forEach((answer) => answer()),
    arrival: () => new Promise((resolve) => arrived.push(resolve)),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = verify(receiver.secret, req.headers, body);
      receiver.received.push({ headers: req.headers, body, verified });
      const waiting = arrived;
      arrived = [];
      waiting.forEach((resolve) => resolve());
      const answer = receiver.answers.shift() ?? 200;
      const status = typeof answer === 'number' ? answer : answer.status;
      if (typeof answer !== 'number') res.setHeader('Location', answer.location);
      if (verified && status < 300) {
        const event = JSON.parse(body) as { id: string; type: string; data: unknown };
        if (!receiver.handled.has(event.id)) receiver.handled.set(event.id, { type: event.type, data: event.data });
      }
      const reply = () => res.writeHead(status).end();
      if (receiver.holding) held.push(reply);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/hooks`;
  receiver.close = () => {
    receiver.release();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
