import { describe, expect, it } from 'vitest';
import { sourceKey } from './source-address.ts';

describe('the key a source address is counted under', () => {
  it('is the IPv4 address itself, also when mapped into IPv6', () => {
    expect(sourceKey('203.0.113.9')).toBe('203.0.113.9');
    expect(sourceKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(sourceKey('::FFFF:203.0.113.9')).toBe('203.0.113.9');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    expect(sourceKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:0DB8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
    expect(sourceKey('64:ff9b::203.0.113.9')).toBe('64:ff9b:0:0::/64');
  });

  it('is nothing for what is not an address', () => {
    for (const junk of [undefined, '', '${peerhost}', 'broker.local', '1.2.3', '2001:db8::1::2']) {
      expect(sourceKey(junk)).toBeUndefined();
    }
  });
});
