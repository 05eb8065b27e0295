import { insertProvider, operateAccount, operateProvider, queryAuditLog } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemActor } from '../../core/actor.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

type Who = { id: number; userName: string; password: string };

describeEachDb('audit log (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let p1: Who;
  let p2: Who;
  let c1: Who;
  let c2: Who;
  let p1Sub: Who;
  let p2Sub: Who;
  let p1Token: string;
  let c1Token: string;

  const entries = async (token: string, input: Record<string, unknown> = {}) => {
    const res = await app.call(queryAuditLog, { pageSize: 1000, ...input }, { token });
    expect(res.status, res.msgKey).toBe(200);
    return res.data?.rows ?? [];
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    p1 = await makeProvider(app, admin, 'Audit One');
    p2 = await makeProvider(app, admin, 'Audit Two');
    p1Token = await app.login(p1.userName, p1.password);
    const p2Token = await app.login(p2.userName, p2.password);
    c1 = await makeProvider(app, p1Token, 'Audit One Child');
    c2 = await makeProvider(app, p2Token, 'Audit Two Child');
    p1Sub = await makeAccount(app, p1Token, 'auditOneSub', 'SUB_ROLE');
    p2Sub = await makeAccount(app, p2Token, 'auditTwoSub', 'SUB_ROLE');
    await app.call(operateAccount, { id: p1Sub.id, type: 'disable' }, { token: p1Token });
    await app.call(operateAccount, { id: p2Sub.id, type: 'disable' }, { token: p2Token });
    await app.call(operateProvider, { id: c2.id, type: 'disable' }, { token: admin });
    await app.call(operateProvider, { id: c1.id, type: 'disable' }, { token: p1Token });
    await app.call(operateProvider, { id: c1.id, type: 'enable' }, { token: p1Token });
    // Disabling ended the class 2 sessions: sign in again.
    c1Token = await app.login(c1.userName, c1.password);
  });
  afterAll(() => app?.close());

  it('records provider creation and disabling with the actor, target and address', async () => {
    const created = await entries(admin, { action: 'provider.create' });
    expect(created.every((e) => e.action === 'provider.create')).toBe(true);
    expect(created.find((e) => e.targetId === String(p1.id))).toMatchObject({
      action: 'provider.create',
      userName: ADMIN_USER,
      providerId: p1.id,
      targetType: 'provider',
      ip: '127.0.0.1',
      detail: { name: 'Audit One', providerClass: 1 },
    });
    expect(created.find((e) => e.targetId === String(c1.id))).toMatchObject({
      userName: p1.userName,
      providerId: c1.id,
      ip: '127.0.0.1',
      detail: { name: 'Audit One Child', providerClass: 2 },
    });
    const disabled = await entries(admin, { action: 'provider.disable' });
    expect(disabled.map((e) => [e.targetId, e.userName])).toEqual([
      [String(c1.id), p1.userName],
      [String(c2.id), ADMIN_USER],
    ]);
    expect(disabled.every((e) => e.ip === '127.0.0.1' && e.userId !== null)).toBe(true);
    expect((await entries(admin, { action: 'provider.enable' })).map((e) => e.targetId)).toEqual([String(c1.id)]);
  });

  it('records what the platform does on its own under a system actor, shown to the provider concerned', async () => {
    await app.services.audit.by(systemActor('ingest'), 'device.offline', {
      type: 'device',
      id: 'SM-AUDIT-1',
      providerId: c1.id,
      detail: { missedIntervals: 3 },
    });
    const [entry] = await entries(admin, { action: 'device.offline' });
    expect(entry).toMatchObject({
      userId: null,
      userName: 'system:ingest',
      providerId: c1.id,
      targetType: 'device',
      targetId: 'SM-AUDIT-1',
      detail: { missedIntervals: 3 },
    });
    expect(entry?.ip ?? null).toBeNull();
    expect((await entries(c1Token, { action: 'device.offline' })).map((e) => e.targetId)).toEqual(['SM-AUDIT-1']);
  });

  it('records account creation and disabling', async () => {
    const created = await entries(admin, { action: 'account.create' });
    expect(created.find((e) => e.targetId === String(p1Sub.id))).toMatchObject({
      action: 'account.create',
      userName: p1.userName,
      providerId: p1.id,
      targetType: 'account',
      ip: '127.0.0.1',
      detail: { userName: 'auditOneSub', role: 'SUB_ROLE' },
    });
    const disabled = await entries(admin, { action: 'account.disable' });
    expect(disabled.map((e) => [e.targetId, e.userName, e.providerId])).toEqual([
      [String(p2Sub.id), p2.userName, p2.id],
      [String(p1Sub.id), p1.userName, p1.id],
    ]);
    expect(disabled.every((e) => e.ip === '127.0.0.1')).toBe(true);
  });

  it('lists newest first, pages and searches by actor', async () => {
    const all = await entries(admin);
    const ids = all.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page = await app.call(queryAuditLog, { pageNum: 2, pageSize: 3 }, { token: admin });
    expect(page.data?.total).toBe(all.length);
    expect(page.data?.rows.map((e) => e.id)).toEqual(ids.slice(3, 6));
    const byActor = await entries(admin, { keyWord: p2.userName.toUpperCase() });
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((e) => e.userName === p2.userName)).toBe(true);
  });

  it('shows a class 1 provider only the entries of its own providers', async () => {
    const seen = await entries(p1Token);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((e) => e.providerId))).toEqual(new Set([p1.id, c1.id]));
    // Its own child's creation, the disabling of its sub-account, and the admin's creation of itself.
    expect(seen.some((e) => e.action === 'provider.create' && e.targetId === String(c1.id))).toBe(true);
    expect(seen.some((e) => e.action === 'account.disable' && e.targetId === String(p1Sub.id))).toBe(true);
    expect(seen.some((e) => e.action === 'provider.create' && e.targetId === String(p1.id))).toBe(true);
    // Nothing of the other provider or of the platform itself.
    for (const foreign of [p2.id, c2.id]) expect(seen.some((e) => e.providerId === foreign)).toBe(false);
    expect(seen.some((e) => e.providerId === null)).toBe(false);
    expect((await entries(p1Token, { keyWord: p2.userName })).length).toBe(0);
  });

  it('shows a class 2 provider only its own entries', async () => {
    const seen = await entries(c1Token);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => e.providerId === c1.id)).toBe(true);
  });

  it('refuses a providerId filter outside the caller scope (no_permission)', async () => {
    for (const [token, providerId] of [
      [p1Token, p2.id],
      [p1Token, c2.id],
      [c1Token, p1.id],
    ] as const) {
      const res = await app.call(queryAuditLog, { providerId }, { token });
      expect(res.status).toBe(300);
      expect(res.msgKey).toBe('no_permission');
    }
    const own = await entries(p1Token, { providerId: c1.id });
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e) => e.providerId === c1.id)).toBe(true);
  });

  it('refuses the log to roles without it', async () => {
    const sub = await makeAccount(app, p1Token, 'auditReader', 'SUB_ROLE');
    const token = await app.login(sub.userName, sub.password);
    const res = await app.call(queryAuditLog, {}, { token });
    expect(res.msgKey).toBe('no_permission');
    expect((await app.call(queryAuditLog, {})).httpStatus).toBe(401);
  });

  it('keeps no entry for a refused change', async () => {
    const before = (await entries(admin, { action: 'provider.create' })).length;
    const dup = await app.call(insertProvider, { name: 'Audit One', userName: 'auditDupLogin' }, { token: admin });
    expect(dup.msgKey).toBe('provider.exists');
    expect((await entries(admin, { action: 'provider.create' })).length).toBe(before);
  });
});
