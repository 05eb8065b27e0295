import { insertAccount, operateAccount, queryProviderList, restProviderPwd, Status } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeProvider, STRONG_PASSWORD } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { reachWithin } from '../providers/provider.policy.ts';

describe('reachWithin', () => {
  it('lets an account see only providers its creator sees', () => {
    expect(reachWithin({ all: true }, { all: true })).toBe(true);
    expect(reachWithin({ all: false, ids: [1] }, { all: true })).toBe(false);
    expect(reachWithin({ all: false, ids: [1, 2] }, { all: false, ids: [2] })).toBe(true);
    expect(reachWithin({ all: false, ids: [1] }, { all: false, ids: [1, 7] })).toBe(false);
    expect(reachWithin({ all: false, ids: [1] }, { all: false, ids: [] })).toBe(true);
  });
});

/**
 * Issue 8, point 24: an administrator limited to provider A created an unlimited business account
 * bound to A, which then saw A's class 2 provider and reset its password.
 */
describeEachDb('an account is never given more reach than its creator (%s)', (target) => {
  let app: TestApp;
  let limited: string;
  let groupId: number;
  let homeId: number;
  beforeAll(async () => {
    app = await createTestApp(target);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const group = await makeProvider(app, admin, 'Reach Group');
    groupId = group.id;
    homeId = (await makeProvider(app, admin, 'Reach Home', { parentId: group.id })).id;
    const senior = await makeAccount(app, admin, 'limitedSenior', 'SENIOR_ROLE', {
      permissionType: 1,
      providerIds: [group.id],
    });
    limited = await app.login(senior.userName, senior.password);
  });
  afterAll(() => app.close());

  const create = (userName: string, extra: { permissionType: 0 | 1; providerIds?: number[] }) =>
    app.call(
      insertAccount,
      { userName, nickName: userName, role: 'BUSINESS_ROLE', passWord: STRONG_PASSWORD, providerId: groupId, ...extra },
      { token: limited, lang: 'en-US' },
    );

  it('refuses an unlimited account bound to the provider, which would see its class 2 providers', async () => {
    const wide = await create('escalatedBusiness', { permissionType: 0 });
    expect(wide).toMatchObject({ status: Status.FAILED, msgKey: 'account.reachTooWide' });
    expect(wide.msg).toContain('outside your own data permission');
  });

  it('allows the same account limited to what the creator sees, and refuses widening it later', async () => {
    const narrow = await create('narrowBusiness', { permissionType: 1, providerIds: [groupId] });
    expect(narrow.status).toBe(Status.OK);
    const token = await app.login('narrowBusiness', STRONG_PASSWORD);
    const seen = await app.call(queryProviderList, { pageNum: 1, pageSize: 50 }, { token });
    expect(seen.data?.rows.map((r) => r.id)).toEqual([groupId]);
    expect((await app.call(restProviderPwd, { id: homeId }, { token })).status).not.toBe(Status.OK);

    const widen = await app.call(
      operateAccount,
      { id: narrow.data?.id ?? 0, type: 'edit', permissionType: 0 },
      { token: limited, lang: 'en-US' },
    );
    expect(widen).toMatchObject({ status: Status.FAILED, msgKey: 'account.reachTooWide' });
  });
});
