import { adminSession, changeProvider, getAreaList, insertArea } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

/**
 * The provider a class 1 account works in is the server's decision: the console shows it and every
 * care call reads and writes it (issue 8, point 1: data entered in "A" was stored under the parent).
 */
describeEachDb('the session current provider (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app.close());

  const areaNames = async (token: string) =>
    ((await app.call(getAreaList, { pageNum: 1, pageSize: 50 }, { token })).data?.rows ?? []).map((a) => a.name);

  it('defaults to the first class 2 provider at login, and care rows land in the chosen one', async () => {
    const parent = await makeProvider(app, admin, 'Scope Parent');
    const parentToken = await app.login(parent.userName, parent.password);
    // No class 2 provider yet: the class 1 account works in its own provider.
    const before = await app.call(adminSession, {}, { token: parentToken });
    expect(before.data?.currentProvider?.id).toBe(parent.id);

    const a = await makeProvider(app, parentToken, 'Scope Child A', { parentId: parent.id });
    // The first class 2 provider becomes current as soon as the console asks again (no new login needed).
    const afterCreate = await app.call(adminSession, {}, { token: parentToken });
    expect(afterCreate.data?.providerList.map((p) => p.id)).toEqual([a.id]);
    expect(afterCreate.data?.currentProvider?.id).toBe(a.id);

    const b = await makeProvider(app, parentToken, 'Scope Child B', { parentId: parent.id });
    const token = await app.login(parent.userName, parent.password);
    const info = await app.call(adminSession, {}, { token });
    expect(info.data?.currentProvider).toMatchObject({ id: a.id, name: 'Scope Child A' });

    expect((await app.call(insertArea, { name: 'Area in A' }, { token })).status).toBe(200);
    const chosen = await app.call(changeProvider, { domain: (await domainOf(token, b.id)) ?? '' }, { token });
    expect(chosen.data?.providerId).toBe(b.id);
    expect((await app.call(adminSession, {}, { token })).data?.currentProvider?.id).toBe(b.id);
    expect((await app.call(insertArea, { name: 'Area in B' }, { token })).status).toBe(200);
    expect(await areaNames(token)).toEqual(['Area in B']);

    const aOwn = await app.login(a.userName, a.password);
    const bOwn = await app.login(b.userName, b.password);
    expect(await areaNames(aOwn)).toEqual(['Area in A']);
    expect(await areaNames(bOwn)).toEqual(['Area in B']);
    // The class 1 account's own provider holds nothing it entered.
    expect(await areaNames(await app.login(parent.userName, parent.password))).not.toContain('Area in B');
  });

  const domainOf = async (token: string, id: number) =>
    (await app.call(adminSession, {}, { token })).data?.providerList.find((p) => p.id === id)?.domain;

  it('keeps a class 2 account in its own provider', async () => {
    const parent = await makeProvider(app, admin, 'Own Parent');
    const parentToken = await app.login(parent.userName, parent.password);
    const child = await makeProvider(app, parentToken, 'Own Child', { parentId: parent.id });
    const token = await app.login(child.userName, child.password);
    expect((await app.call(adminSession, {}, { token })).data?.currentProvider?.id).toBe(child.id);
  });
});
