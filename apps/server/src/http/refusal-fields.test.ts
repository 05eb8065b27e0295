import { insertProvider } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../test/harness.ts';
import { describeEachDb } from '../test/db-suites.ts';

/** A refusal about one request field names it in the envelope (`field`), so a form shows it there. */
describeEachDb('refusal fields (%s)', (target) => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    await makeProvider(app, admin, 'Idem Home');
  });
  afterAll(() => app?.close());

  it('names the field of a refusal in the envelope, so a form can show it there', async () => {
    const weak = await app.call(
      insertProvider,
      { name: 'Weak Password Home', userName: 'weakPasswordHome', passWord: 'abc' },
      { token: admin },
    );
    expect(weak.msgKey).toBe('password.rules');
    expect(weak.field).toBe('passWord');
    const taken = await app.call(
      insertProvider,
      { name: 'Another Name', userName: 'IdemHomeLogin', passWord: 'Care#Home2026' },
      { token: admin },
    );
    expect(taken.msgKey).toBe('provider.exists');
    expect(taken.field).toBe('userName');
    const badNumber = await app.call(
      insertProvider,
      { name: 'Numbered', number: 'a b', userName: 'numberedLogin', passWord: 'Care#Home2026' },
      { token: admin },
    );
    expect(badNumber.status).toBe(400);
    expect(badNumber.field).toBe('number');
  });

  it('names no field when the refusal is about none', async () => {
    const res = await app.call(insertProvider, { name: 'No Token', userName: 'noTokenLogin' }, { token: 'unknown' });
    expect(res.status).not.toBe(200);
    expect(res.field).toBeUndefined();
  });
});
