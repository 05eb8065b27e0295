import {
  adminSession,
  adminUpdatePassword,
  getPlatformName,
  insertProvider,
  queryProviderList,
  Status,
} from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

/** Issue 8, point 27: a generated password had to be changed only if its owner felt like it. */
describeEachDb('an account with a generated password (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app.close());

  it('answers only the calls that replace the password until it is replaced', async () => {
    const created = await app.call(
      insertProvider,
      { name: 'Generated Home', userName: 'generatedHome' },
      { token: admin },
    );
    const initial = created.data?.initialPassword ?? '';
    expect(initial).not.toBe('');
    const token = await app.login('generatedHome', initial);

    const refused = await app.call(queryProviderList, { pageNum: 1, pageSize: 10 }, { token, lang: 'en-US' });
    expect(refused).toMatchObject({ status: Status.FAILED, msgKey: 'password.mustChange' });
    expect(refused.msg).toContain('change it');
    expect((await app.call(adminSession, {}, { token })).data?.mustChangePassword).toBe(true);
    expect((await app.call(getPlatformName, {}, { token })).status).toBe(Status.OK);

    const next = 'Chosen#Home2026';
    const changed = await app.call(
      adminUpdatePassword,
      { userName: 'generatedHome', oldPassWord: initial, newPassWord: next },
      { token },
    );
    expect(changed.status).toBe(Status.OK);
    const fresh = await app.login('generatedHome', next);
    expect((await app.call(queryProviderList, { pageNum: 1, pageSize: 10 }, { token: fresh })).status).toBe(Status.OK);
  });
});
