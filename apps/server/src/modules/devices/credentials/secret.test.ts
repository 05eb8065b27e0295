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
});
