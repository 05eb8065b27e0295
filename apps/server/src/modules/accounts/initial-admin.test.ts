import { adminLogin, adminSession, LANGUAGES, translate } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { displayNameFor } from './initial-admin.ts';

describe("the initial administrator's default name", () => {
  it.each(LANGUAGES)('is answered in %s whichever language it was stored in', (lang) => {
    for (const stored of LANGUAGES) {
      const displayName = translate(stored, 'account.initialAdminName');
      expect(displayNameFor({ role: 'SUPER_ROLE', displayName }, lang)).toBe(
        translate(lang, 'account.initialAdminName'),
      );
    }
  });

  it('leaves a chosen name, and the same words on another role, as they are', () => {
    expect(displayNameFor({ role: 'SUPER_ROLE', displayName: 'Chief Admin' }, 'zh-CN')).toBe('Chief Admin');
    expect(displayNameFor({ role: 'SENIOR_ROLE', displayName: 'Super administrator' }, 'zh-CN')).toBe(
      'Super administrator',
    );
  });
});

describeEachDb('initial administrator name (%s)', (target) => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp(target);
    token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  const nameIn = async (lang: string) => (await app.call(adminSession, {}, { token, lang })).data?.name;
  const stored = async () =>
    (await app.database.db.select().from(accounts).where(eq(accounts.userName, ADMIN_USER)))[0];

  it('is stored once, as the English default, and answered in the reader’s language', async () => {
    expect((await stored())?.displayName).toBe('Super administrator');
    expect(await nameIn('zh-CN')).toBe('超级管理员');
    expect(await nameIn('en-US')).toBe('Super administrator');
    expect(await nameIn('de')).toBe('Superadministrator');
    // The login answer, which the console shows first, follows the language too.
    const login = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD }, { lang: 'ja' });
    expect(login.data?.name).toBe('スーパー管理者');
  });

  it('keeps a chosen name in every language once the administrator is renamed', async () => {
    const row = await stored();
    if (!row) throw new Error('no initial administrator');
    await app.services.accounts.setDisplayName(app.database.db, row.id, 'Chief Admin');
    expect(await nameIn('zh-CN')).toBe('Chief Admin');
    expect(await nameIn('en-US')).toBe('Chief Admin');
  });
});
