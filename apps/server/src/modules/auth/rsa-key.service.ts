import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { AppError } from '../../core/app-error.ts';
import { Status } from '@vigil/contract';
import type { SettingsService } from '../system/settings.service.ts';

interface KeyPair {
  publicKey: string;
  privateKey: string;
}

const SETTING = 'auth.rsaKeyPair';

/**
 * The login RSA key pair: made on first start and kept in the database so every
 * instance decrypts the same way. Clients encrypt with RSA-OAEP (SHA-256) and send base64.
 */
export class RsaKeyService {
  private pair: KeyPair | undefined;
  constructor(private readonly settings: SettingsService) {}

  async init(): Promise<void> {
    this.pair = await this.settings.get<KeyPair>(SETTING);
    if (this.pair) return;
    const fresh = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    // The first instance to store a pair wins; the others read it back.
    this.pair = await this.settings.getOrInit<KeyPair>(SETTING, fresh);
  }

  get publicKey(): string {
    if (!this.pair) throw new Error('RSA key not initialised');
    return this.pair.publicKey;
  }

  decrypt(base64: string): string {
    if (!this.pair) throw new Error('RSA key not initialised');
    try {
      return privateDecrypt(
        { key: this.pair.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(base64, 'base64'),
      ).toString('utf8');
    } catch {
      throw new AppError(Status.INVALID_INPUT, 'login.rsaInvalid');
    }
  }
}
