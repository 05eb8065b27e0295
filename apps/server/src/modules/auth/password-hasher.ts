import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Algorithm.Argon2id; the package's const enum cannot be imported under isolated modules. */
const ARGON2ID = 2 as Algorithm;

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: ARGON2ID });

export const verifyPassword = async (hashed: string, password: string): Promise<boolean> => {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
};

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check so unknown accounts cannot be told apart by timing. */
export const burnVerification = async (password: string): Promise<void> => {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
};
