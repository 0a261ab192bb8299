/**
 * How webhook hosts become addresses: DNS queries through c-ares
 * (`dns.promises.Resolver`), never `dns.lookup`. `dns.lookup` is
 * getaddrinfo, which holds one of libuv's four thread-pool threads for as
 * long as a DNS server takes not to answer, and that pool also runs the
 * process's file system, crypto (password hashing, in the embedded run) and
 * zlib work: a few webhooks aimed at names whose server never answers would
 * stall all of it. c-ares sends its queries on the event loop's own sockets
 * (Node's dns documentation, "Implementation considerations").
 *
 * Each lookup is bounded as a whole (both families, every server) and its
 * queries are cancelled past the bound. The hosts file is not read: a
 * webhook names a public host, not one of the operator's local names;
 * `localhost` and `*.localhost` are loopback by definition (RFC 6761) and
 * answered without a query.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Turns a host into its addresses (IPv4 first); the seam the target guard checks through. */
export interface HostResolver {
  /** Every A and AAAA address of `host` (an IP literal is its own); rejects with HostLookupError. */
  addressesOf(host: string): Promise<string[]>;
}

/** A lookup that gave no address: the server did not answer in time, or the name has none. */
export class HostLookupError extends Error {
  constructor(
    readonly host: string,
    readonly reason: 'timeout' | 'not-found',
    timeoutMs: number,
  ) {
    super(
      reason === 'timeout'
        ? `DNS lookup of ${host} timed out after ${timeoutMs} ms`
        : `DNS lookup of ${host} found no address`,
    );
    this.name = 'HostLookupError';
  }
}

export interface DnsResolverOptions {
  /** the bound of one lookup, every query included */
  timeoutMs: number;
  /** `ip` or `ip:port` of the DNS servers; the system's (resolv.conf) when absent */
  servers?: readonly string[];
}

const LOCALHOST = /^(.+\.)?localhost\.?$/i;

export function dnsResolver(options: DnsResolverOptions): HostResolver {
  const { timeoutMs } = options;
  return {
    async addressesOf(host: string): Promise<string[]> {
      if (isIP(host)) return [host];
      if (LOCALHOST.test(host)) return ['127.0.0.1', '::1'];
      // One resolver per lookup: cancel() ends every query of its resolver, and only this lookup's may go.
      const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      if (options.servers) resolver.setServers([...options.servers]);
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        timer = setTimeout(() => {
          resolver.cancel();
          resolve('expired');
        }, timeoutMs);
      });
      try {
        const answers = await Promise.race([
          Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]),
          expired,
        ]);
        if (answers === 'expired') throw new HostLookupError(host, 'timeout', timeoutMs);
        const addresses = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
        if (addresses.length > 0) return addresses;
        const timedOut = answers.some(
          (a) =>
            a.status === 'rejected' &&
            ['ETIMEOUT', 'ECANCELLED'].includes((a.reason as NodeJS.ErrnoException).code ?? ''),
        );
        throw new HostLookupError(host, timedOut ? 'timeout' : 'not-found', timeoutMs);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
