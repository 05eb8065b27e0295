import { calls, insertCommunity, insertNursing, saveAlarmConfig, saveUserSleepConfig } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { emergencyContacts, residents } from '../db/schema.ts';
import type { TestApp } from './harness.ts';
import type { ProbeRefs } from './tenancy-probe.ts';

/**
 * Caregiver and community rows for the tenancy matrix: the foreign tenant's community (with a
 * member's sleep settings and an alarm configuration), that member, a caregiver looking after
 * it and its relative's binding (emergency contact), every name carrying the marker; and one
 * harmless row of each kind for the probing tenant, its member being `ownResident` when given.
 * The foreign resident in a bed (`bedResident`) gets sleep settings saved from BunkManage, so a
 * save that escapes its tenant changes a foreign setting and a foreign bed's mattress.
 */
export const seedCare = async (
  app: TestApp,
  foreign: { providerId: number; token: string; bedResident?: number | string | undefined },
  own: { providerId: number; token: string; resident?: number | string | undefined },
): Promise<ProbeRefs['objects']> => {
  const b = await care(app, foreign, 'FOREIGNB', '1370000000');
  if (typeof foreign.bedResident === 'number') {
    must(
      'bed sleep settings',
      await app.call(
        calls.saveBedSleepSetting,
        {
          userIds: [foreign.bedResident],
          leaveBedMode: 'off',
          sleepTime: '20:30',
          wakeTime: '05:30',
          sensitivity: 'low',
          mattress: 'latex',
        },
        { token: foreign.token },
      ),
    );
  }
  const a = await care(app, own, 'A', '1370000001', typeof own.resident === 'number' ? own.resident : undefined);
  return {
    caregiver: { foreign: [{ label: 'B-caregiver', id: b.caregiverId }], own: a.caregiverId },
    community: { foreign: [{ label: 'B-community', id: b.communityId }], own: a.communityId },
    resident: { foreign: [{ label: 'B-community-member', id: b.residentId }], own: a.residentId },
    emergencyContact: { foreign: [{ label: 'B-relative-binding', id: b.contactId }], own: a.contactId },
  };
};

const must = <T>(what: string, res: { status: number; msg: string; data: T | null }): T => {
  if (res.status !== 200 || res.data === null) throw new Error(`seed ${what}: ${res.status} ${res.msg}`);
  return res.data;
};

const care = async (
  app: TestApp,
  tenant: { providerId: number; token: string },
  prefix: string,
  phonePrefix: string,
  member?: number,
) => {
  const { token, providerId } = tenant;
  const { db } = app.database;
  const community = must(
    'community',
    await app.call(
      insertCommunity,
      {
        name: `${prefix} Community`,
        address: `${prefix} address`,
        contact: `${prefix} contact`,
        remark: `${prefix} remark`,
      },
      { token },
    ),
  );
  let residentId = member;
  if (residentId === undefined) {
    const [row] = await db
      .insert(residents)
      .values({ providerId, name: `${prefix} Member`, gender: 1, remark: `${prefix} remark` })
      .returning({ id: residents.id });
    residentId = row?.id;
  }
  if (residentId === undefined) throw new Error('seed care resident');
  await db.update(residents).set({ communityId: community.id }).where(eq(residents.id, residentId));
  const caregiver = must(
    'caregiver',
    await app.call(
      insertNursing,
      {
        name: `${prefix} Carer`,
        phone: `${phonePrefix}1`,
        job: `${prefix} job`,
        residentIds: [residentId],
        remark: `${prefix} remark`,
      },
      { token },
    ),
  );
  const [contact] = await db
    .insert(emergencyContacts)
    .values({ residentId, name: `${prefix} Relative`, phone: `${phonePrefix}2`, relation: 'child' })
    .returning({ id: emergencyContacts.id });
  if (!contact) throw new Error('seed care contact');
  must(
    'sleep settings',
    await app
      .call(
        saveUserSleepConfig,
        {
          communityId: community.id,
          residentId,
          leaveBedMode: 'sleepTime',
          sleepTime: '21:00',
          wakeTime: '06:00',
          sensitivity: 'high',
          mattress: 'spring',
        },
        { token },
      )
      .then((r) => ({ ...r, data: r.status === 200 ? {} : null })),
  );
  must(
    'alarm settings',
    await app
      .call(
        saveAlarmConfig,
        { communityId: community.id, level1: ['FALL'], level2: ['LEAVE_BED'], receiverIds: [caregiver.id] },
        { token },
      )
      .then((r) => ({ ...r, data: r.status === 200 ? {} : null })),
  );
  return { communityId: community.id, residentId, caregiverId: caregiver.id, contactId: contact.id };
};
