/**
 * How every service listens and stops listening: one server with common's
 * timeouts (createHttpServer), and a drain that stops accepting, closes idle
 * keep-alive connections at once, lets requests in flight finish, and cuts
 * whatever is still open after a grace period so a stuck client cannot hold
 * a shutdown (docs/operations.md "Shutdown").
 */
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, loopbackOf, type HttpServerTimeouts } from './http-server';

/** What a service's start-up returns: where it listens, and how it stops. */
export interface RunningService {
  port: number;
  url: string;
  /** drains the listener, then releases what the service holds (its own order: docs/operations.md) */
  close(): Promise<void>;
}

export interface Listening {
  server: Server;
  port: number;
  /** how a local client reaches it: loopback for a wildcard address */
  url: string;
  /** stops accepting; resolves once every request in flight has been answered or the grace period cut it */
  drain(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 10_000;

export interface ListenOptions {
  port: number;
  host: string;
  /** how long requests in flight may take to finish once draining (SHUTDOWN_GRACE_MS); 0 cuts them at once */
  graceMs?: number;
  /** the public edge's own limits on slow clients; common's defaults otherwise */
  timeouts?: Partial<HttpServerTimeouts>;
}

/**
 * Connections the kernel holds for a listener before it is accepted (capped by
 * net.core.somaxconn). Node's 511 drops the SYNs of a crowd opening at once
 * (a thousand clients after a restart): each dropped client retries seconds
 * later and meets its own timeout, where a longer line costs only memory.
 */
const LISTEN_BACKLOG = 4096;

export async function listen(handler: RequestListener, options: ListenOptions): Promise<Listening> {
  const server = createHttpServer(handler, options.timeouts).listen({
    port: options.port,
    host: options.host,
    backlog: LISTEN_BACKLOG,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://${loopbackOf(options.host)}:${port}`,
    async drain() {
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), options.graceMs ?? SHUTDOWN_GRACE_MS).unref();
      await closed;
      clearTimeout(force);
    },
  };
}
