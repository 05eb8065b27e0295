import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * Device secrets are stored only as scrypt hashes. The cost is lower than for people's
 * passwords (N = 2^12, about 10 ms): secrets are 16–128 characters chosen by machines, and
 * after a restart every device of a care home reconnects at once (decision 0022). The
 * parameters travel in the hash, so a later cost change keeps old hashes valid.
 */
const N = 4096;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

const derive = (secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_BYTES, { N: n, r, p, maxmem: 256 * n * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** `scrypt$N$r$p$salt$key`, salt and key in base64url. */
export const hashDeviceSecret = async (secret: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
};

export const verifyDeviceSecret = async (secret: string, hash: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** A fresh secret for "rotate": 32 characters from a 64-letter alphabet (192 bits). */
export const generateDeviceSecret = (): string => randomBytes(24).toString('base64url');

/**
 * Checks device secrets against their hashes. Every refusal costs one scrypt verification of the
 * current cost, so the time of a refused CONNECT does not tell whether the device ID is
 * registered or has a secret (issue 28): without a hash the secret is verified against a decoy.
 *
 * Checks take turns, as many at once as the machine has cores: after a restart every device
 * reconnects at once, and a thousand checks on all four of libuv's threads held both cores of a
 * two-core machine for seconds — the server's thread and the embedded database's worker starved,
 * `/readyz` took 2 s and a console's login 4.7 s (issue 22). Two at a time there kept `/readyz`
 * under 60 ms and the login at 1.2 s.
 *
 * A secret already verified against a hash is remembered, so a device reconnecting does not pay
 * for scrypt again. Keyed by the hash itself: rotating the secret changes the hash, and the old
 * entry can never match. Only a SHA-256 of the secret is held, in memory; when full, the oldest
 * entry is forgotten. A wrong secret is never answered from memory: it pays the verification.
 */
export class VerifiedSecrets {
  private readonly known = new Map<string, Buffer>();
  private decoy: Promise<string> | undefined;
  private running = 0;
  private readonly turns: (() => void)[] = [];
  constructor(
    private readonly limit = 50_000,
    private readonly verifyHash: (secret: string, hash: string) => Promise<boolean> = verifyDeviceSecret,
    private readonly atOnce = availableParallelism(),
  ) {}

  /** One scrypt check, when a turn is free (first come, first served). */
  private async inTurn(secret: string, hash: string): Promise<boolean> {
    if (this.running >= this.atOnce) await new Promise<void>((resolve) => this.turns.push(resolve));
    else this.running++;
    try {
      return await this.verifyHash(secret, hash);
    } finally {
      const next = this.turns.shift();
      // The turn passes to the next in line, or is given back.
      if (next) next();
      else this.running--;
    }
  }

  /** Whether the secret is the one hashed; with no hash (unknown ID, no secret) always false. */
  async verify(secret: string, hash: string | null): Promise<boolean> {
    if (hash === null) {
      this.decoy ??= hashDeviceSecret(generateDeviceSecret());
      await this.inTurn(secret, await this.decoy);
      return false;
    }
    const digest = createHash('sha256').update(secret).digest();
    const seen = this.known.get(hash);
    if (seen && seen.length === digest.length && timingSafeEqual(seen, digest)) return true;
    if (!(await this.inTurn(secret, hash))) return false;
    const oldest = this.known.size >= this.limit ? this.known.keys().next() : undefined;
    if (oldest && !oldest.done) this.known.delete(oldest.value);
    this.known.set(hash, digest);
    return true;
  }
}
