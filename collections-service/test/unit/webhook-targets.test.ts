import { isNonPublicAddress } from '../../src/webhooks/target-guard';

describe('isNonPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::1',
    '2002:7f00:1::1',
    '2002:a00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::1',
    'ff02::1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4007::200e',
    '2001:4860:4860::8888',
    '64:ff9b:2::1',
  ])('lets %s through', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});
