import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './database.ts';

/** Migration 0023's statements: the measure column, then the figures older alarms' detail kept. */
const statements = fs
  .readFileSync(path.join(MIGRATIONS_DIR, '0023_alarm_measure.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter(Boolean);

describe('migration 0023: alarms raised before keep the figures their detail held', () => {
  const db = new PGlite();
  afterAll(() => db.close());

  it('fills measure from detail for duration, battery and empty-room alarms, and leaves events without one', async () => {
    await db.exec(
      `create table alarm (id int primary key, alert_type text not null, detail jsonb not null default '{}')`,
    );
    await db.exec(`insert into alarm values
      (1, 'HEART_ABNORMAL', '{"duration": 120, "value": 58}'),
      (2, 'BREATH_STOP', '{"duration": 31, "value": 0}'),
      (3, 'LEAVE_BED', '{"duration": 600, "value": 0}'),
      (4, 'LOW_BATTERY', '{"percent": 12}'),
      (5, 'NO_MOTION', '{"hours": 12}'),
      (6, 'FALL', '{}'),
      (7, 'CONNECTION', '{"reason": "silent"}')`);
    for (const statement of statements) await db.exec(statement);
    const rows = (await db.query<{ id: number; measure: unknown }>('select id, measure from alarm order by id')).rows;
    const none = { quantity: null, value: null, limit: null, side: null, seconds: null };
    expect(rows.map((r) => r.measure)).toEqual([
      { ...none, quantity: 'heartRate', value: 58, seconds: 120 },
      { ...none, quantity: 'breathRate', value: 0, seconds: 31 },
      { ...none, seconds: 600 },
      { ...none, quantity: 'battery', value: 12 },
      { ...none, seconds: 43_200 },
      null,
      null,
    ]);
  });
});
