/**
 * Real peers that misbehave the way the internet does, for the webhook
 * sender's bounds: a DNS server that reads every query and answers only the
 * names it was given (none: it never answers at all), a tarpit that accepts
 * connections and never says a word, and a listener whose backlog is full,
 * so a connection to it never completes.
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, Socket, type AddressInfo } from 'node:net';

export interface DnsServer {
  /** `127.0.0.1:port`, as a resolver's servers take it */
  address: string;
  /** the names asked, in order (each family a query) */
  queries: string[];
  close(): Promise<void>;
}

/** The question's name, read label by label after the 12-byte header (RFC 1035 4.1.2); the offset after it. */
function questionOf(packet: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (at < packet.length && packet[at] !== 0) {
    const length = packet[at]!;
    labels.push(packet.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

/** An answer to an A query with `ipv4`, or an empty one (a known name without AAAA). */
function answerTo(query: Buffer, end: number, ipv4: string | null): Buffer {
  const header = Buffer.from(query.subarray(0, 12));
  header.writeUInt16BE(0x8180, 2); // a response, recursion desired and available, no error
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(ipv4 ? 1 : 0, 6);
  header.writeUInt32BE(0, 8);
  const question = query.subarray(12, end + 4);
  if (!ipv4) return Buffer.concat([header, question]);
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  record.writeUInt16BE(1, 2); // A
  record.writeUInt16BE(1, 4); // IN
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(4, 10);
  ipv4.split('.').forEach((octet, i) => record.writeUInt8(Number(octet), 12 + i));
  return Buffer.concat([header, question, record]);
}

/** Answers A queries for the names of `records` (AAAA with nothing); any other name gets no answer, ever. */
export async function startDnsServer(records: Record<string, string> = {}): Promise<DnsServer> {
  const socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (packet, peer) => {
    const { name, end } = questionOf(packet);
    queries.push(name);
    const known = records[name];
    if (known === undefined) return;
    const type = packet.readUInt16BE(end);
    socket.send(answerTo(packet, end, type === 1 ? known : null), peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export interface Tarpit {
  port: number;
  /** connections accepted so far, and how many are still open */
  accepted: number;
  open: number;
  close(): Promise<void>;
}

/** Accepts every connection, reads what comes, and never answers nor closes. */
export async function startTarpit(): Promise<Tarpit> {
  const sockets = new Set<Socket>();
  const tarpit: Tarpit = { port: 0, accepted: 0, open: 0, close: async () => undefined };
  const server = createServer((socket) => {
    tarpit.accepted += 1;
    sockets.add(socket);
    tarpit.open = sockets.size;
    socket.resume();
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      tarpit.open = sockets.size;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  tarpit.port = (server.address() as AddressInfo).port;
  tarpit.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return tarpit;
}

export interface FullListener {
  port: number;
  close(): void;
}

/** Listens with a backlog of 1, says its port, then blocks its event loop for good: it never accepts again. */
const FULL_LISTENER = `
  const server = require('node:net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
    process.send(server.address().port, () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0));
  });
`;

/**
 * A listener in a child process whose event loop is blocked right after it
 * listens with a backlog of 1, and whose queue two connections then fill:
 * the kernel drops every later SYN, so a connection to it stays "connecting"
 * as one to an unreachable host does.
 */
export async function startFullListener(attempts = 3): Promise<FullListener> {
  const child = spawn(process.execPath, ['-e', FULL_LISTENER], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const [port] = (await once(child, 'message')) as [number];
  const fillers = [0, 1].map(() => new Socket().on('error', () => undefined).connect(port, '127.0.0.1'));
  try {
    await Promise.all(fillers.map((socket) => once(socket, 'connect')));
  } catch (err) {
    // A filler refused means nothing listens on the port any more. It happened
    // once in a CI run on a loaded machine and never when tried again, so the
    // fixture starts another listener rather than failing the sender's test.
    fillers.forEach((socket) => socket.destroy());
    child.kill('SIGKILL');
    if (attempts > 1) return startFullListener(attempts - 1);
    throw new Error(`no listener with a full queue after three tries: ${(err as Error).message}`, { cause: err });
  }
  return {
    port,
    close() {
      fillers.forEach((socket) => socket.destroy());
      child.kill('SIGKILL');
    },
  };
}
