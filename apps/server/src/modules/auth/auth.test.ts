import { adminLogin, adminLogout, adminSession } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

describeEachDb('login basics (%s)', (target) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(target);
  });
  afterAll(() => app?.close());

  it('logs the initial administrator in and lands on provider management', async () => {
    const res = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD, from: 'PC' });
    expect(res.status).toBe(200);
    expect(res.data?.role).toBe('SUPER_ROLE');
    expect(res.data?.landingPath).toBe('/permission/providermanager');
    expect(res.data?.menuList).toContain('providermanager');
    const token = res.data?.token ?? '';
    const info = await app.call(adminSession, {}, { token });
    expect(info.data?.userName).toBe(ADMIN_USER);
    await app.call(adminLogout, {}, { token });
    const after = await app.call(adminSession, {}, { token });
    expect(after.httpStatus).toBe(401);
  });

  it('answers 102 with a localised message for a wrong password', async () => {
    const zh = await app.call(adminLogin, { userName: ADMIN_USER, passWord: 'nope' }, { lang: 'zh-CN' });
    expect(zh.status).toBe(102);
    expect(zh.msg).toContain('账号或密码错误');
    const en = await app.call(adminLogin, { userName: ADMIN_USER, passWord: 'nope' }, { lang: 'en-US' });
    expect(en.msg).toMatch(/Account or password is wrong/);
  });
});
