/**
 * The key a per-address budget counts under. An IPv4 address is one key.
 * An IPv6 client is keyed by its /64: one subscriber, host or VM usually
 * holds a whole /64 and could walk it, a fresh address per try, to escape
 * a budget per full address. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * what a dual-stack socket reports for an IPv4 peer) is that IPv4 address.
 * Anything else (a unix socket's 'unknown') is its own key.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function addressKey(address: string): string {
  if (isIPv4(address)) return address;
  const bare = address.split('%', 1)[0] ?? address; // a zone id (fe80::1%eth0) names the interface, not the peer
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const toGroups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [parseInt(piece, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const front = toGroups(head);
  if (tail === undefined) return front;
  const back = toGroups(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
