import { sql } from 'drizzle-orm';
import type { Executor } from './database.ts';

/** The advisory lock class of "this transaction writes these devices' events and alarms". */
const DEVICE_WRITES = 7_243_120;

/**
 * Takes the transaction's lock on each device whose events or alarms it is about to write, in
 * one order every writer shares (the device IDs sorted), before any row lock. Instances of a
 * cluster store the same devices' events and alarms (the broker shares a device's messages out
 * between them), each in its own order; without a shared order two batches of the same badges
 * locked their alarm rows crosswise and PostgreSQL broke the deadlock after a second, failing
 * one of them (issue 21, soak). With it the second batch waits for the first and goes on.
 * Released at commit or rollback. On PGlite (one session) it costs a statement and never waits.
 */
export const lockDeviceWrites = async (tx: Executor, deviceIds: Iterable<string>): Promise<void> => {
  const ids = [...new Set(deviceIds)].sort();
  if (!ids.length) return;
  // VALUES keeps the given order, so the locks are taken in it (a sort in SQL may run after them).
  await tx.execute(
    sql`select pg_advisory_xact_lock(${DEVICE_WRITES}, hashtext(id)) from (values ${sql.join(
      ids.map((id) => sql`(${id}::text)`),
      sql`, `,
    )}) as device(id)`,
  );
};
