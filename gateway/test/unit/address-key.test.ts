/**
 * addressKey: the key of the per-address budgets. IPv6 by /64, IPv4-mapped
 * IPv6 as its IPv4 address; every spelling of one /64 gives one key.
 */
import { BlockList } from 'node:net';
import { addressKey } from '../../src/domain/limits/address-key';

describe('addressKey', () => {
  it('keeps an IPv4 address whole', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('203.0.113.8')).not.toBe(addressKey('203.0.113.7'));
  });

  it('keys an IPv4-mapped IPv6 address as the IPv4 address, in every spelling', () => {
    for (const mapped of ['::ffff:203.0.113.7', '::FFFF:203.0.113.7', '0:0:0:0:0:ffff:cb00:7107', '::ffff:cb00:7107']) {
      expect(addressKey(mapped)).toBe('203.0.113.7');
    }
  });

  it('keys every address of one /64 the same, whatever its spelling', () => {
    const same = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::10.0.0.1',
    ];
    expect(new Set(same.map(addressKey))).toEqual(new Set(['2001:db8:1:2::/64']));
  });

  it('gives neighbouring /64s different keys', () => {
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).not.toBe(addressKey('2001:db8::1'));
  });

  it('agrees with node:net BlockList on which addresses share a /64 (random addresses)', () => {
    const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
    for (let i = 0; i < 200; i++) {
      const a = Array.from({ length: 8 }, hex).join(':');
      // the same first 64 bits half the time, else a random neighbour
      const b =
        i % 2
          ? [...a.split(':').slice(0, 4), hex(), hex(), hex(), hex()].join(':')
          : Array.from({ length: 8 }, hex).join(':');
      const list = new BlockList();
      list.addSubnet(a, 64, 'ipv6');
      expect(addressKey(a) === addressKey(b)).toBe(list.check(b, 'ipv6'));
    }
  });

  it('leaves what is not an IP address as it is', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('')).toBe('');
  });
});
