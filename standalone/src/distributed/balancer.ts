/**
 * What compose's service name (or a Kubernetes Service) gives the gateway in
 * front of several catalog-service replicas: one address, connections spread
 * round-robin over the replicas, and a replica that refuses a connection (it
 * is dead or restarting) skipped for the next. TCP only: HTTP keep-alive
 * connections stay on the replica they reached, as behind kube-proxy.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

/** Connects to the first of `ports` (from `start`, wrapping) that accepts. */
function connectFirst(
  ports: readonly number[],
  start: number,
  onUp: (upstream: Socket) => void,
  onNone: () => void,
): void {
  const attempt = (i: number) => {
    if (i === ports.length) return onNone();
    const upstream = connect(ports[(start + i) % ports.length], '127.0.0.1');
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      onUp(upstream);
    });
    // a refused connection moves on; an error after connecting is the piping's to handle
    upstream.once('error', () => {
      if (!connected) attempt(i + 1);
    });
  };
  attempt(0);
}

export async function startBalancer(port: number, replicaPorts: () => readonly number[]): Promise<Balancer> {
  let next = 0;
  const clients = new Set<Socket>();
  const server: Server = createServer((client) => {
    clients.add(client);
    client.once('close', () => clients.delete(client));
    client.pause();
    const ports = replicaPorts();
    connectFirst(
      ports,
      next++ % Math.max(ports.length, 1),
      (upstream) => {
        client.pipe(upstream).pipe(client);
        client.resume();
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.once('error', end).once('close', end);
        upstream.once('error', end).once('close', end);
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(port, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        for (const client of clients) client.destroy();
        server.close(() => ok());
      }),
  };
}
