import { insertResident, NewResidentSchema, type NewResident } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { emergencyContacts, residentCaregivers, residents } from '../../db/schema.ts';
import type { Caller } from '../../core/caller.ts';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { residentInput, seedCaregiver, seedCommunity } from './resident-fixtures.ts';

/** Rows as the spreadsheet import hands them over: validated by the contract's schema. */
const row = (fields: Record<string, unknown>): NewResident =>
  NewResidentSchema.parse({ gender: 0, birthDate: '1945-01-01', ...fields });

describeEachDb('residents in batches and races (%s)', (target) => {
  let app: TestApp;
  let home: { id: number; token: string };
  let caller: Caller;

  const countOf = async () =>
    (await app.database.db.select().from(residents).where(eq(residents.providerId, home.id))).length;

  beforeAll(async () => {
    app = await createTestApp(target, { clock: new ManualClock(new Date('2026-03-15T12:00:00Z')) });
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const h = await makeProvider(app, admin, 'Batch Home');
    home = { id: h.id, token: await app.login(h.userName, h.password) };
    const outcome = await app.services.sessions.authenticate(home.token);
    if (outcome.kind !== 'ok') throw new Error('no caller');
    caller = outcome.caller;
  });
  afterAll(() => app?.close());

  it('reports every problem of every row as data and writes nothing (createMany)', async () => {
    const foreign = await seedCaregiver(
      app,
      (await makeProvider(app, await app.login(ADMIN_USER, ADMIN_PASSWORD), 'Batch Other')).id,
      'X',
    );
    await app.services.residents.createMany(caller, [row({ name: 'Existing One' })], app.database.db, {
      ip: '127.0.0.1',
    });
    const before = await countOf();
    const rows = [
      row({ name: 'Fine Row' }),
      row({ name: 'Future Born', birthDate: '2027-01-01' }),
      row({ name: 'existing one' }),
      row({
        name: 'Twin Phones',
        contacts: [
          { name: 'A', phone: '13800000001', relation: 'child' },
          { name: 'B', phone: '+86 13800000001', relation: 'child' },
        ],
      }),
      row({ name: 'Foreign Carer', caregiverIds: [foreign] }),
      row({ name: 'Fine Row' }),
      row({ name: 'Nowhere', communityId: 2_000_000_000 }),
    ];
    const outcome = await app.database.db.transaction((tx) =>
      app.services.residents.createMany(caller, rows, tx, { ip: '127.0.0.1' }),
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.problems.map((p) => [p.index, p.field, p.key])).toEqual([
      [1, 'birthDate', 'resident.birthDateFuture'],
      [2, 'name', 'resident.sameName'],
      [3, 'contacts', 'resident.contactDuplicate'],
      [4, 'caregiverIds', 'resident.carerNotFound'],
      [5, 'name', 'resident.sameName'],
      [6, 'communityId', 'resident.communityNotFound'],
    ]);
    expect(outcome.problems[1]?.existingIds).toHaveLength(1);
    expect(outcome.problems[4]?.existingIds).toEqual([]);
    expect(await countOf()).toBe(before);
  });

  it('writes every row with contacts and carers when all pass; the carer limit counts rows of the batch', async () => {
    const carer = await seedCaregiver(app, home.id, 'Batch Carer');
    const community = await seedCommunity(app, home.id, 'Batch Community');
    const rows = Array.from({ length: 120 }, (_, i) =>
      row({
        name: `Batch ${i}`,
        contacts: [{ name: `Kin ${i}`, phone: `1380000${String(i).padStart(4, '0')}`, relation: 'relative' }],
        caregiverIds: i < 100 ? [carer] : [],
        communityId: community,
      }),
    );
    const outcome = await app.database.db.transaction((tx) =>
      app.services.residents.createMany(caller, rows, tx, { ip: '127.0.0.1' }),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.ids).toHaveLength(120);
    const contacts = await app.database.db.select().from(emergencyContacts);
    expect(contacts.filter((c) => outcome.ids.includes(c.residentId))).toHaveLength(120);
    const links = await app.database.db
      .select()
      .from(residentCaregivers)
      .where(eq(residentCaregivers.caregiverId, carer));
    expect(links).toHaveLength(100);
    const over = await app.database.db.transaction((tx) =>
      app.services.residents.createMany(caller, [row({ name: 'One Too Many', caregiverIds: [carer] })], tx, {
        ip: '127.0.0.1',
      }),
    );
    expect(over.ok ? [] : over.problems.map((p) => p.key)).toEqual(['resident.carerFull']);
    // confirmSameName lets an import register namesakes on purpose.
    const again = await app.database.db.transaction((tx) =>
      app.services.residents.createMany(caller, [row({ name: 'Batch 1' }), row({ name: 'batch 1' })], tx, {
        ip: '127.0.0.1',
        confirmSameName: true,
      }),
    );
    expect(again.ok).toBe(true);
  });

  it('serialises concurrent registrations of one name: one is asked to confirm', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        app.call(insertResident, residentInput({ name: 'Race Name' }), { token: home.token }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.msgKey === 'resident.sameName')).toHaveLength(3);
  });
});
