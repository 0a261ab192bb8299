/**
 * Where a webhook may be sent (docs/governance.md "Signed webhooks"): an
 * https URL whose host resolves only to public addresses. Checked when an
 * endpoint is registered and again at every delivery, where the connection
 * goes to the very address that was checked (`guardedLookup`), so a DNS
 * answer that changes between check and connect cannot reach inside. A
 * refusal never says which address a name resolved to: that would map the
 * operator's internal names for whoever registers an endpoint.
 */
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { InputError } from '@skills/common';
import type { HostResolver } from './host-resolver';

/** Not public: unspecified, loopback, private, shared (CGNAT), link-local, unique-local, multicast, reserved, and IPv6 forms that embed or tunnel to an IPv4 address. */
// Two lists: a BlockList matches an IPv4 address against IPv6 rules through its mapped form (::ffff:a.b.c.d).
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
  // local-use NAT64 (RFC 8215), 6to4 (RFC 3056) and Teredo (RFC 4380): each carries an IPv4 address inside
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC_V6.addSubnet(net, prefix, 'ipv6');

/** True for an address a webhook must not reach without WEBHOOK_ALLOW_PRIVATE_TARGETS. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? NOT_PUBLIC_V4.check(address, 'ipv4') : NOT_PUBLIC_V6.check(address, 'ipv6');
}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: plain http and non-public addresses allowed (tests, local development) */
  allowPrivate: boolean;
}

/** The URL parsed, or 400: https only (http too when private targets are allowed), no credentials in it. */
export function parseTarget(url: string, policy: TargetPolicy): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError('webhook.badUrl');
  }
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) throw new InputError('webhook.httpsOnly');
  if (parsed.username || parsed.password) throw new InputError('webhook.badUrl');
  return parsed;
}

/** The URL's host as lookups and isIP want it: URL keeps IPv6 literals in brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Registration's check: 400 when the host does not resolve or any of its addresses is not public (one message, no address named). */
export async function assertPublicTarget(url: string, policy: TargetPolicy, resolver: HostResolver): Promise<void> {
  const parsed = parseTarget(url, policy);
  if (policy.allowPrivate) return;
  const host = hostOf(parsed);
  let addresses: string[];
  try {
    addresses = await resolver.addressesOf(host);
  } catch {
    throw new InputError('webhook.unresolvable', { host });
  }
  if (addresses.length === 0 || addresses.some(isNonPublicAddress)) throw new InputError('webhook.privateTarget');
}

/** Raised at delivery when the target turned out not to be public; recorded as the attempt's error, which the workspace reads. */
export class PrivateTargetError extends Error {
  constructor() {
    super('refused: the host is or resolves to a private or reserved address');
    this.name = 'PrivateTargetError';
  }
}

/**
 * The `lookup` of a delivery's request: resolves through `resolver`,
 * refuses when any address is not public, and hands the socket the first
 * checked address of the family asked for.
 */
export function guardedLookup(policy: TargetPolicy, resolver: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver.addressesOf(hostname).then(
      (addresses) => {
        if (!policy.allowPrivate && addresses.some(isNonPublicAddress))
          return callback(new PrivateTargetError(), '', 0);
        const first = addresses.find((a) => !options.family || isIP(a) === options.family);
        if (!first)
          return callback(
            Object.assign(new Error(`no IPv${options.family} address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        const family = isIP(first);
        if (options.all) return callback(null, [{ address: first, family }]);
        callback(null, first, family);
      },
      (err: Error) => callback(err, '', 0),
    );
  };
}

/** A literal IP host never goes through `lookup`: it is checked here before connecting. */
export function assertLiteralHostAllowed(url: URL, policy: TargetPolicy): void {
  const host = hostOf(url);
  if (!policy.allowPrivate && isIP(host) && isNonPublicAddress(host)) throw new PrivateTargetError();
}
