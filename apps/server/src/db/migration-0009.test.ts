import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './database.ts';

/** The last statement of migration 0009: communities' level lists become a level map. */
const conversion = fs
  .readFileSync(path.join(MIGRATIONS_DIR, '0009_alarm_settings.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter((s) => s.includes('UPDATE "community"'))[0];

describe('migration 0009: community alarm levels become a level map', () => {
  const db = new PGlite();
  afterAll(() => db.close());

  it('turns level1/level2 lists into {levels}, keeping receivers and modes, and leaves other rows alone', async () => {
    expect(conversion).toBeDefined();
    await db.exec(`create table community (id int primary key, alarm_config jsonb)`);
    await db.exec(`insert into community values
      (1, '{"level1": ["FALL", "SOS"], "level2": ["DOOR"], "receiverIds": [3, 4], "notify": ["sms", "page"]}'),
      (2, '{"level1": [], "level2": []}'),
      (3, null),
      (4, '{"levels": {"FALL": 2}, "receiverIds": [], "notify": ["page"]}')`);
    await db.exec(conversion ?? '');
    const rows = (await db.query<{ id: number; alarm_config: unknown }>('select * from community order by id')).rows;
    expect(rows.map((r) => r.alarm_config)).toEqual([
      { levels: { FALL: 1, SOS: 1, DOOR: 2 }, receiverIds: [3, 4], notify: ['sms', 'page'] },
      { levels: {}, receiverIds: [], notify: ['page'] },
      null,
      { levels: { FALL: 2 }, receiverIds: [], notify: ['page'] },
    ]);
  });
});
