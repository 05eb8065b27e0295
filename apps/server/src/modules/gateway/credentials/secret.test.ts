import { describe, expect, it } from 'vitest';
import { DEVICE_SECRET_PATTERN } from '@vigil/contract';
import { generateDeviceSecret, hashDeviceSecret, verifyDeviceSecret, VerifiedSecrets } from './secret.ts';

describe('device secrets', () => {
  it('verifies the secret a hash was made from and nothing else', async () => {
    const hash = await hashDeviceSecret('correct-horse-battery');
    expect(hash).not.toContain('correct-horse-battery');
    expect(hash.startsWith('scrypt$4096$8$1$')).toBe(true);
    expect(await verifyDeviceSecret('correct-horse-battery', hash)).toBe(true);
    expect(await verifyDeviceSecret('correct-horse-batterY', hash)).toBe(false);
    expect(await verifyDeviceSecret('correct-horse-battery', 'bcrypt$junk')).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashDeviceSecret('same-secret-twice!')).not.toBe(await hashDeviceSecret('same-secret-twice!'));
  });

  it('generates secrets the registry accepts', () => {
    const secret = generateDeviceSecret();
    expect(secret).toMatch(DEVICE_SECRET_PATTERN);
    expect(secret).not.toBe(generateDeviceSecret());
  });

  it('remembers a verified secret per hash, and a rotated hash forgets it', async () => {
    const cache = new VerifiedSecrets();
    const first = await hashDeviceSecret('first-secret-value');
    expect(await cache.verify('first-secret-value', first)).toBe(true);
    expect(await cache.verify('first-secret-valuX', first)).toBe(false);
    const rotated = await hashDeviceSecret('second-secret-value');
    expect(await cache.verify('first-secret-value', rotated)).toBe(false);
    expect(await cache.verify('second-secret-value', rotated)).toBe(true);
  });

  it('runs at most the given number of checks at once, in the order they came, and every one finishes', async () => {
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const cache = new VerifiedSecrets(
      50_000,
      async (secret) => {
        running++;
        most = Math.max(most, running);
        order.push(secret);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return secret.startsWith('good');
      },
      2,
    );
    const secrets = Array.from({ length: 12 }, (_, i) => `${i % 3 ? 'good' : 'bad'}-secret-${i}`);
    const results = await Promise.all(secrets.map((secret, i) => cache.verify(secret, `hash-${i}`)));
    expect(most).toBe(2);
    expect(order).toEqual(secrets);
    expect(results).toEqual(secrets.map((secret) => secret.startsWith('good')));
    // Turns are given back: a later check runs at once.
    expect(await cache.verify('good-secret-late', 'hash-late')).toBe(true);
  });

  describe('the same work for every refusal (issue 28: connect timing told registered IDs apart)', () => {
    const counting = () => {
      const checked: string[] = [];
      const cache = new VerifiedSecrets(50_000, (secret, hash) => {
        checked.push(hash.split('$').slice(0, 4).join('$'));
        return verifyDeviceSecret(secret, hash);
      });
      return { cache, checked };
    };

    it('verifies against a decoy of the same cost when there is no hash (unknown ID, no secret)', async () => {
      const { cache, checked } = counting();
      expect(await cache.verify('any-secret-at-all-00', null)).toBe(false);
      expect(await cache.verify('any-secret-at-all-00', null)).toBe(false);
      expect(checked).toEqual(['scrypt$4096$8$1', 'scrypt$4096$8$1']);
    });

    it('pays a whole verification for a wrong secret even when the right one is remembered', async () => {
      const { cache, checked } = counting();
      const hash = await hashDeviceSecret('first-secret-value');
      expect(await cache.verify('first-secret-value', hash)).toBe(true);
      expect(await cache.verify('first-secret-value', hash)).toBe(true);
      expect(checked).toHaveLength(1);
      expect(await cache.verify('first-secret-valuX', hash)).toBe(false);
      expect(checked).toHaveLength(2);
    });

    it('forgets the oldest remembered secret when full, not all of them', async () => {
      const checked: string[] = [];
      const cache = new VerifiedSecrets(2, (secret, hash) => {
        checked.push(secret);
        return verifyDeviceSecret(secret, hash);
      });
      const secrets = ['secret-number-one-1', 'secret-number-two-2', 'secret-number-three'];
      const hashes = await Promise.all(secrets.map(hashDeviceSecret));
      for (const [i, secret] of secrets.entries()) expect(await cache.verify(secret, hashes[i] ?? '')).toBe(true);
      checked.length = 0;
      // The newest two are still known; only the first, forgotten, is verified again.
      for (const i of [2, 1, 0]) expect(await cache.verify(secrets[i] ?? '', hashes[i] ?? '')).toBe(true);
      expect(checked).toEqual(['secret-number-one-1']);
    });
  });
});
