import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { adminLogin, adminPublicKey, adminUpdatePassword, Status } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, openTestDatabase, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeAccount } from '../../test/fixtures.ts';

const encrypt = (publicKey: string, text: string): string =>
  publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(text, 'utf8'),
  ).toString('base64');

const publicKeyOf = async (app: TestApp): Promise<string> => {
  const res = await app.call(adminPublicKey, {});
  if (res.status !== 200 || !res.data) throw new Error(`publicKey: ${res.status} ${res.msg}`);
  return res.data.publicKey;
};

describeEachDb('RSA login (%s)', (target) => {
  let app: TestApp;
  let publicKey: string;
  beforeAll(async () => {
    app = await createTestApp(target);
    publicKey = await publicKeyOf(app);
  });
  afterAll(() => app?.close());

  it('publishes a 2048-bit RSA SPKI key for RSA-OAEP-256 without a session', async () => {
    const res = await app.call(adminPublicKey, {});
    expect(res.status).toBe(200);
    expect(res.data?.algorithm).toBe('RSA-OAEP-256');
    expect(res.data?.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    expect(res.data?.publicKey).not.toContain('PRIVATE');
    const key = createPublicKey(res.data?.publicKey ?? '');
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    // Every call answers the same key.
    expect(await publicKeyOf(app)).toBe(res.data?.publicKey);
  });

  it('logs in with an RSA-OAEP encrypted password', async () => {
    const res = await app.call(adminLogin, {
      userName: ADMIN_USER,
      passWord: encrypt(publicKey, ADMIN_PASSWORD),
      rsa: true,
    });
    expect(res.status).toBe(200);
    expect(res.data?.userName).toBe(ADMIN_USER);
    expect(res.data?.token).toBeTruthy();
  });

  it('accepts rsa as the form strings "true" and "1" too', async () => {
    for (const rsa of ['true', '1'] as const) {
      const res = await app.call(adminLogin, {
        userName: ADMIN_USER,
        passWord: encrypt(publicKey, ADMIN_PASSWORD),
        rsa: rsa as never,
      });
      expect(res.status, rsa).toBe(200);
    }
  });

  it('answers 102 when the encrypted password is wrong', async () => {
    const res = await app.call(adminLogin, {
      userName: ADMIN_USER,
      passWord: encrypt(publicKey, 'Not#ThePassword1'),
      rsa: true,
    });
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
    expect(res.msgKey).toBe('login.wrong');
  });

  it('does not decrypt when rsa is false: the ciphertext is the password', async () => {
    const res = await app.call(adminLogin, {
      userName: ADMIN_USER,
      passWord: encrypt(publicKey, ADMIN_PASSWORD),
      rsa: false,
    });
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
  });

  it('answers 400 login.rsaInvalid for garbage ciphertext', async () => {
    for (const passWord of ['not-base64-at-all!!', Buffer.from('short').toString('base64'), ADMIN_PASSWORD]) {
      const res = await app.call(adminLogin, { userName: ADMIN_USER, passWord, rsa: true });
      expect(res.httpStatus, passWord).toBe(200);
      expect(res.status, passWord).toBe(Status.INVALID_INPUT);
      expect(res.msgKey, passWord).toBe('login.rsaInvalid');
    }
  });

  it('answers login.rsaInvalid for a password encrypted with another key or the wrong padding', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    const foreign = await app.call(adminLogin, {
      userName: ADMIN_USER,
      passWord: encrypt(String(other), ADMIN_PASSWORD),
      rsa: true,
    });
    expect(foreign.status).toBe(Status.INVALID_INPUT);
    expect(foreign.msgKey).toBe('login.rsaInvalid');
    const sha1 = publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from(ADMIN_PASSWORD),
    ).toString('base64');
    const wrongHash = await app.call(adminLogin, { userName: ADMIN_USER, passWord: sha1, rsa: true });
    expect(wrongHash.msgKey).toBe('login.rsaInvalid');
  });

  it('changes a password with both passwords RSA encrypted', async () => {
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const account = await makeAccount(app, admin, 'rsaChanger1', 'SENIOR_ROLE');
    const token = await app.login(account.userName, account.password);
    const next = 'Rsa#Changed42';
    const res = await app.call(
      adminUpdatePassword,
      {
        userName: account.userName,
        oldPassWord: encrypt(publicKey, account.password),
        newPassWord: encrypt(publicKey, next),
        rsa: true,
      },
      { token },
    );
    expect(res.status).toBe(200);
    const login = await app.call(adminLogin, { userName: account.userName, passWord: next });
    expect(login.status).toBe(200);
  });
});

describeEachDb('RSA key persistence (%s)', (target) => {
  it('keeps the key pair across a restart on the same database', async () => {
    const testDb = await openTestDatabase(target);
    try {
      const first = await createTestApp(target, { testDb });
      const key1 = await publicKeyOf(first);
      const ciphertext = encrypt(key1, ADMIN_PASSWORD);
      await first.close();

      const second = await createTestApp(target, { testDb });
      try {
        const key2 = await publicKeyOf(second);
        expect(key2).toBe(key1);
        // A login page loaded before the restart still works after it.
        const res = await second.call(adminLogin, { userName: ADMIN_USER, passWord: ciphertext, rsa: true });
        expect(res.status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await testDb.close();
    }
  });

  it('gives instances started together on one database the same key', async () => {
    const testDb = await openTestDatabase(target);
    try {
      const apps = await Promise.all([createTestApp(target, { testDb }), createTestApp(target, { testDb })]);
      try {
        const [a, b] = apps;
        if (!a || !b) throw new Error('apps missing');
        const keyA = await publicKeyOf(a);
        expect(await publicKeyOf(b)).toBe(keyA);
        const res = await b.call(adminLogin, {
          userName: ADMIN_USER,
          passWord: encrypt(keyA, ADMIN_PASSWORD),
          rsa: true,
        });
        expect(res.status).toBe(200);
      } finally {
        for (const a of apps) await a.close();
      }
    } finally {
      await testDb.close();
    }
  });

  it('gives separate databases separate keys', async () => {
    const a = await createTestApp(target);
    const b = await createTestApp(target);
    try {
      expect(await publicKeyOf(a)).not.toBe(await publicKeyOf(b));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
