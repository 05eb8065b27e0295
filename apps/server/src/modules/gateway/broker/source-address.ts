import { isIP } from 'node:net';

/** The 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 part as two groups). */
const groupsOf = (address: string): string[] | undefined => {
  const [head = '', tail] = address.split('::');
  const split = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [g];
          const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...left, ...Array<string>(missing).fill('0'), ...right];
};

/**
 * The key failures of a network source are counted under: an IPv4 address (an IPv4-mapped IPv6
 * address as its IPv4 one), or an IPv6 address's /64 — what one customer line is given, so an
 * attacker cannot step through 2^64 addresses of their own. Undefined for anything that is not
 * an address (a broker that sent none, or an unfilled placeholder).
 */
export const sourceKey = (address: string | undefined): string | undefined => {
  if (!address) return undefined;
  const plain = address.trim().replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped?.[1]) return mapped[1];
  const family = isIP(plain);
  if (family === 4) return plain;
  if (family !== 6) return undefined;
  const groups = groupsOf(plain);
  if (!groups) return undefined;
  const prefix = groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
};
