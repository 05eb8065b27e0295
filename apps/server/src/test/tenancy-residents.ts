import { batchAddBunk, insertArea, insertResident, insertRoom, startAbsence, userCheckIn } from '@vigil/contract';
import type { TestApp } from './harness.ts';
import type { ProbeRefs } from './tenancy-probe.ts';

/**
 * Resident rows for the tenancy matrix. The foreign tenant: a registered resident with
 * emergency contacts and a linked carer, and an open absence of its checked-in resident (every
 * name and text carrying the marker). The probing tenant: a checked-in resident for the by-id
 * resident calls (deleteById refuses checked-in residents, so no probe can remove it).
 */
export const seedResidents = async (
  app: TestApp,
  foreign: {
    token: string;
    caregiverId?: number | string | undefined;
    checkedInResident?: number | string | undefined;
  },
  own: { token: string },
): Promise<ProbeRefs['objects']> => {
  const elder = must(
    'foreign resident',
    await app.call(
      insertResident,
      {
        name: 'FOREIGNB Elder',
        gender: 1,
        birthDate: '1941-07-01',
        otherHistory: 'FOREIGNB history',
        remark: 'FOREIGNB remark',
        contacts: [
          { name: 'FOREIGNB Daughter', phone: '13766660001', relation: 'child' },
          { name: 'FOREIGNB Friend', phone: '+4915166660002', relation: 'friend' },
        ],
        caregiverIds: typeof foreign.caregiverId === 'number' ? [foreign.caregiverId] : [],
      },
      { token: foreign.token },
    ),
  ).id;
  const away = foreign.checkedInResident;
  if (typeof away !== 'number') throw new Error('seed residents: the foreign tenant has no checked-in resident');
  must(
    'foreign absence',
    await app.call(startAbsence, { userId: away, reason: 'FOREIGNB hospital visit' }, { token: foreign.token }),
  );

  const area = must('own area', await app.call(insertArea, { name: 'A-Residents-Area' }, { token: own.token }));
  const floor = must(
    'own floor',
    await app.call(insertArea, { name: 'A-Residents-Floor', areaId: area.id }, { token: own.token }),
  );
  const room = must(
    'own room',
    await app.call(insertRoom, { floorId: floor.id, name: 'A-Res-Room' }, { token: own.token }),
  );
  const beds = must(
    'own bed',
    await app.call(batchAddBunk, { roomId: room.ids[0] ?? 0, name: 'A-Res-Bed' }, { token: own.token }),
  );
  const mine = must(
    'own resident',
    await app.call(
      insertResident,
      {
        name: 'A Kept Resident',
        gender: 0,
        birthDate: '1945-02-03',
        contacts: [{ name: 'A Son', phone: '13755550001', relation: 'child' }],
      },
      { token: own.token },
    ),
  ).id;
  must('own check-in', await app.call(userCheckIn, { userId: mine, bunkId: beds.ids[0] ?? 0 }, { token: own.token }));

  return {
    resident: { foreign: [{ label: 'B-resident-with-contacts', id: elder }] },
    residentById: {
      foreign: [
        { label: 'B-resident-with-contacts', id: elder },
        { label: 'B-resident-away', id: away },
      ],
      own: mine,
    },
  };
};

const must = <T>(what: string, res: { status: number; msg: string; data: T | null }): T => {
  if (res.status !== 200 || res.data === null) throw new Error(`seed ${what}: ${res.status} ${res.msg}`);
  return res.data;
};
