import { adminPublicKey } from '@vigil/contract/browser';
import { api } from './client.ts';

let keyPromise: Promise<CryptoKey> | undefined;

const pemToDer = (pem: string): ArrayBuffer => {
  const base64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return bytes.buffer;
};

const serverKey = (): Promise<CryptoKey> =>
  (keyPromise ??= api(adminPublicKey, {}).then(({ publicKey }) =>
    crypto.subtle.importKey('spki', pemToDer(publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']),
  ));

/** RSA-OAEP (SHA-256) ciphertext of a password under the server's key, base64: what `rsa: true` expects. */
export const encryptPassword = async (password: string): Promise<string> => {
  const key = await serverKey().catch((error: unknown) => {
    keyPromise = undefined;
    throw error;
  });
  const cipher = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password)),
  );
  let binary = '';
  for (const b of cipher) binary += String.fromCharCode(b);
  return btoa(binary);
};
