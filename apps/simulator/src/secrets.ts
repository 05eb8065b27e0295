import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEVICE_SECRET_PATTERN } from '@vigil/contract';
import type { FleetPlan } from './catalogue.ts';

/**
 * Device secrets (MQTT passwords). Generated per device from the seed and a run salt, so the
 * same seed never yields the same secrets on two servers by accident, or read from a file written
 * by an earlier run (`--secrets`), so a later run reconnects as the same devices. Sub-devices
 * never connect (their host speaks for them) and have none.
 */

export type Secrets = Record<string, string>;

/** A fresh random salt for a run's secrets. */
export const newRunSalt = (): string => randomBytes(12).toString('base64url');

/** 32 characters of HMAC-SHA256(salt, seed:deviceId), base64url. */
export const deriveSecret = (seed: string, salt: string, deviceId: string): string =>
  createHmac('sha256', salt).update(`${seed}:${deviceId}`).digest('base64url').slice(0, 32);

/** Devices that connect to the broker themselves: all but the gateway hosts' sub-devices. */
export const connectingDevices = (plan: FleetPlan): string[] =>
  plan.devices.filter((d) => d.hostId === undefined).map((d) => d.id);

/** A secret for every connecting device: the given one, else derived from seed and salt. */
export const secretsFor = (plan: FleetPlan, seed: string, salt: string, given: Secrets = {}): Secrets => {
  const known = Object.fromEntries(Object.entries(given).map(([id, s]) => [id.toUpperCase(), s]));
  const out: Secrets = {};
  for (const id of connectingDevices(plan)) out[id] = known[id] ?? deriveSecret(seed, salt, id);
  return out;
};

/** Reads `{ "DEVICE-ID": "secret", … }`, checking every secret against the contract's rule. */
export const readSecrets = (path: string): Secrets => {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`${path}: expected an object of device ID → secret`);
  }
  const out: Secrets = {};
  for (const [id, secret] of Object.entries(raw)) {
    if (typeof secret !== 'string' || !DEVICE_SECRET_PATTERN.test(secret)) {
      throw new Error(`${path}: the secret of ${id} is not 16–128 visible ASCII characters`);
    }
    out[id.toUpperCase()] = secret;
  }
  return out;
};

export const writeSecrets = (path: string, secrets: Secrets): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
};
